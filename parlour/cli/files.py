"""Reading and writing positions and records on disk for the command-line tools."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.core.record import GameRecord
from parlour.core.state import GameState

DEFAULT_RECORDS = Path.home() / ".parlour" / "records"


def read_text(path: str) -> str:
    """Returns a file's text, or raises a ParlourError naming the file."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise ParlourError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise ParlourError(f"cannot read {path}: not UTF-8 text") from None


def write_text(path: str | Path, text: str) -> None:
    """Writes a file atomically (a temporary file renamed), so nothing saved is lost."""
    target = Path(path)
    if target.exists() and not target.is_file():
        raise ParlourError(f"cannot write {path}: not a regular file")
    target = target.resolve() if target.is_symlink() else target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)
    except OSError as err:
        raise ParlourError(f"cannot write {path}: {err.strerror}") from None


def load_position(game: Game, path: str) -> GameState:
    """Loads a position file for ``game``."""
    return game.load_position(read_text(path))


def save_position(state: GameState, path: str) -> None:
    """Writes a state's position as JSON."""
    write_text(path, json.dumps(state.to_position(), indent=1) + "\n")


def record_path(record: GameRecord, directory: str | None) -> Path:
    """Returns a new file name for a record in the records directory."""
    folder = Path(directory) if directory else DEFAULT_RECORDS
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{record.game}-{stamp}.json"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{record.game}-{stamp}-{number}.json"
    return path
