"""The database's secrets: its files private to the user, and the seeds of games in play sealed.

A seed and the moves replay a game, hands and next draws included, so the seed of a table still in play
is never stored in clear: the column holds ``seed XOR pad``, where the pad is the first 62 bits of
HMAC-SHA256(key, "parlour-seed:" + table id). Table ids are unique random ids, so each pad is used once,
and without the key a pad is indistinguishable from random. The key (32 random bytes, in hex) is a file
apart from the database, ``FILE.key`` beside a SQLite ``FILE`` by default. The database keeps a check
value of its key (a short HMAC of a fixed label), so a wrong key is refused instead of replaying wrong
games. A finished game's seed is public (its record shows it) and is stored in clear (docs/security.md).
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
import stat
from pathlib import Path

from sqlalchemy.engine import make_url

from parlour.core.errors import ParlourError

LOG = logging.getLogger("parlour.server")
KEY_BYTES = 32
"""The seed key's length (written as 64 hex digits)."""
SEED_MASK = (1 << 62) - 1
"""Pads are 62 bits, like the server's seeds, so a sealed seed is a positive 64-bit integer too."""
DEFAULT_KEY = Path("~/.parlour/server/seed.key")
"""The seed key of a database that is not a SQLite file, unless ``--seed-key-file`` says otherwise."""
PRIVATE = 0o600


class SeedKeyError(ParlourError):
    """A seed key that cannot be read, or that is not the one the database's games were sealed with."""


def default_key_path(url: str) -> Path:
    """Returns the seed key's default file: ``FILE.key`` beside a SQLite ``FILE``, else DEFAULT_KEY."""
    path = sqlite_file(url)
    return path.with_name(path.name + ".key") if path is not None else DEFAULT_KEY.expanduser()


def sqlite_file(url: str) -> Path | None:
    """Returns the file of a SQLite URL, or None (another database, SQLite in memory or by URI)."""
    parsed = make_url(url)
    memory = parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory"
    if parsed.get_backend_name() != "sqlite" or memory or "uri" in parsed.query:
        return None
    return Path(str(parsed.database))


def load_or_create_key(path: Path) -> bytes:
    """Returns the seed key in ``path``; when there is none, creates it (0600, 32 random bytes in hex)."""
    path = path.expanduser()
    if not path.exists():
        _create_key(path)
    make_private(path)
    try:
        key = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise SeedKeyError(f"{path} is not a seed key ({2 * KEY_BYTES} hex digits)")
    return key


def _create_key(path: Path) -> None:
    """Writes a new random key to ``path``, which must not exist (its folder made private if new)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PRIVATE)
    except FileExistsError:
        return  # made meanwhile by another server on the same database
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(secrets.token_hex(KEY_BYTES) + "\n")
        file.flush()
        os.fsync(file.fileno())


def key_check(key: bytes) -> str:
    """Returns the key's check value: says whether a key is the database's, and nothing about the key."""
    return hmac.new(key, b"parlour-seed-key-check", "sha256").hexdigest()[:16]


def seal(seed: int, key: bytes, table_id: str) -> int:
    """Returns a table's seed sealed for storage (the clear seed XOR the table's pad)."""
    return seed ^ _pad(key, table_id)


def unseal(sealed: int, key: bytes, table_id: str) -> int:
    """Returns a table's clear seed from its sealed one."""
    return sealed ^ _pad(key, table_id)


def _pad(key: bytes, table_id: str) -> int:
    """Returns the table's pad: the first 62 bits of HMAC-SHA256(key, "parlour-seed:" + table id)."""
    digest = hmac.digest(key, b"parlour-seed:" + table_id.encode(), "sha256")
    return int.from_bytes(digest[:8], "big") & SEED_MASK


def private_database(path: Path) -> None:
    """Creates a SQLite file 0600 (SQLite gives its -wal and -shm its mode), or makes an existing one
    and its -wal and -shm private."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PRIVATE))
    except FileExistsError:
        for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            make_private(file)


def make_private(path: Path) -> None:
    """Makes a file of ours 0600 if others may read or write it, saying so in one log line."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return
    mode = stat.S_IMODE(found.st_mode)
    if mode & 0o077 and found.st_uid == os.getuid():
        path.chmod(PRIVATE)
        LOG.warning("%s was mode %04o, open to others: made 0600", path, mode)
