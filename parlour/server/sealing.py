"""The database's secrets: its files private to the user (0600)."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from sqlalchemy.engine import make_url

LOG = logging.getLogger("parlour.server")
PRIVATE = 0o600


def sqlite_file(url: str) -> Path | None:
    """Returns the file of a SQLite URL, or None (another database, SQLite in memory or by URI)."""
    parsed = make_url(url)
    memory = parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory"
    if parsed.get_backend_name() != "sqlite" or memory or "uri" in parsed.query:
        return None
    return Path(str(parsed.database))


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
