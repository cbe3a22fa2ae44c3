"""Reading and writing positions and records on disk for the command-line tools.

Every file the tools write goes through :func:`write_text`: the path is checked
(never a symbolic link, a folder or a device), the file is created with its mode
(``os.open``, never ``chmod`` after) under a temporary name and renamed over the
target, so a reader never sees half a file and nothing saved is lost.
"""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from parlour.core.errors import ParlourError, RecordError
from parlour.core.game import Game
from parlour.core.record import GameRecord, parse_json, sealed_id
from parlour.core.state import GameState

PRIVATE = 0o600
"""Mode of files that may hold secrets: records, keys, positions."""
PUBLIC = 0o644
"""Mode of files that hold none: drawings, tournament results."""
MAX_READ = 16 * 1024 * 1024
"""The largest position or record file read, in bytes."""
KEY_SUFFIX = ".key"
"""A record's key file is the record's name plus this (``venture-20260101-120000.json.key``)."""


def parlour_home() -> Path:
    """Returns Parlour's own folder, ``~/.parlour``."""
    return Path.home() / ".parlour"


def default_records() -> Path:
    """Returns where records go by default, ``~/.parlour/records``."""
    return parlour_home() / "records"


def shown(path: str | Path) -> str:
    """Returns a path for a one-line message: control characters escaped, long paths shortened."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(path))
    return text if len(text) <= 120 else f"{text[:50]}…{text[-60:]}"


def _why(err: OSError) -> str:
    """Returns an OSError's reason in words."""
    return err.strerror or type(err).__name__


def read_text(path: str | Path) -> str:
    """Returns a regular file's text (at most MAX_READ bytes), or raises a ParlourError naming the file."""
    try:
        # Non-blocking open, so a named pipe cannot hang us before we see it is not a regular file.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ParlourError(f"cannot read {shown(path)}: not a regular file")
            data = handle.read(MAX_READ + 1)
    except OSError as err:
        raise ParlourError(f"cannot read {shown(path)}: {_why(err)}") from None
    if len(data) > MAX_READ:
        raise ParlourError(f"cannot read {shown(path)}: larger than {MAX_READ // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ParlourError(f"cannot read {shown(path)}: not UTF-8 text") from None


def output_path(path: str | Path) -> Path:
    """Returns a path that is safe to write: refuses a symbolic link, a folder or a device there.

    Missing folders on the way are created; a dangling link on the way is an error
    (``mkdir`` never follows it), so nothing is created where a link points.
    """
    target = Path(path)
    info = _lstat(target, f"cannot write {shown(path)}")
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise ParlourError(f"cannot write {shown(path)}: it is a symbolic link")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise ParlourError(f"cannot write {shown(path)}: not a regular file")
    _make_folder(target.parent, path)
    return target


def output_folder(path: str | Path, private: bool = False, create: bool = True) -> Path:
    """Returns a folder to write into, created if missing; refuses a file or a dangling link there."""
    folder = Path(path)
    info = _lstat(folder, f"cannot write into {shown(path)}")
    if info is not None and stat.S_ISLNK(info.st_mode):
        # A link to a folder is written into; a link to nothing is refused, never created at its target.
        if not folder.is_dir():
            raise ParlourError(f"cannot write into {shown(path)}: a symbolic link to no folder")
        return folder
    if info is not None and not stat.S_ISDIR(info.st_mode):
        raise ParlourError(f"cannot write into {shown(path)}: not a folder")
    if create:
        _make_folder(folder, path, 0o700 if private else 0o777)
    return folder


def _lstat(path: Path, refusal: str) -> os.stat_result | None:
    """Returns what stands at ``path`` (a link not followed), None if nothing; refuses an unreadable
    path with ``refusal`` and the reason."""
    try:
        return path.lstat()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ParlourError(f"{refusal}: {_why(err)}") from None


def _make_folder(folder: Path, asked: str | Path, mode: int = 0o777) -> None:
    """Creates a folder and its missing parents (never through a dangling link)."""
    try:
        folder.mkdir(mode=mode, parents=True, exist_ok=True)
    except FileExistsError:
        raise ParlourError(f"cannot write {shown(asked)}: a part of the path is not a folder") from None
    except OSError as err:
        raise ParlourError(f"cannot write {shown(asked)}: {_why(err)}") from None


def write_text(path: str | Path, text: str, mode: int = PRIVATE) -> None:
    """Writes a file atomically, created with ``mode``: a temporary file renamed over the target."""
    target = output_path(path)
    temporary = target.with_name(f".parlour-{os.getpid()}-{os.urandom(4).hex()}.tmp")
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(temporary, flags, mode)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    except OSError as err:
        raise ParlourError(f"cannot write {shown(path)}: {_why(err)}") from None


def load_position(game: Game, path: str) -> GameState:
    """Loads a position file for ``game``."""
    return game.load_position(read_text(path))


def save_position(state: GameState, path: str) -> None:
    """Writes a state's position as JSON (private: a position holds every hand)."""
    write_text(path, json.dumps(state.to_position(), indent=1) + "\n")


def record_path(record: GameRecord, directory: str | None) -> Path:
    """Returns a new file name for a record in the records directory (created, private)."""
    folder = output_folder(directory, private=True) if directory else output_folder(default_records(), True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{record.game}-{stamp}.json"
    number = 1
    while path.exists() or key_path(path).exists():
        number += 1
        path = folder / f"{record.game}-{stamp}-{number}.json"
    return path


def key_path(path: str | Path) -> Path:
    """Returns the key file beside a record: its name plus ``.key``."""
    record = Path(path)
    return record.with_name(record.name + KEY_SUFFIX)


def save_record(record: GameRecord, path: str | Path, finished: bool) -> None:
    """Saves a record: whole once the game is over; before that, sealed, with its secrets in a key file.

    The key is written before the readable record and removed only after the
    whole record has replaced it, so a crash at any point loses nothing.
    """
    if finished:
        write_text(path, record.dumps() + "\n")
        try:
            key_path(path).unlink(missing_ok=True)
        except OSError as err:
            raise ParlourError(f"cannot remove {shown(key_path(path))}: {_why(err)}") from None
        return
    readable, secret = record.seal()
    write_text(key_path(path), json.dumps(secret, indent=1) + "\n")
    write_text(path, json.dumps(readable, indent=1) + "\n")


def load_record(path: str | Path) -> GameRecord:
    """Reads a record; an unfinished game's needs its key file beside it, or is refused saying so."""
    data = parse_json(read_text(path), "record")
    if not sealed_id(data):
        return GameRecord.from_json(data)
    key = key_path(path)
    if not key.exists():
        raise RecordError(
            f"{shown(path)} is the record of an unfinished game and its key file {shown(key.name)} "
            "(the seed and chance, kept apart until the game is over) is missing: "
            "it cannot be replayed or resumed"
        )
    return GameRecord.from_json(data, parse_json(read_text(key), "key"))
