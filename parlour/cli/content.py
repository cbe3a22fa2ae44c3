"""The user's own content sets: ``~/.parlour/content/<game>/<name>.json`` and ``--content-dir`` folders.

This is the one place a content folder becomes named sets: every file is read here,
with the size limit and regular-file check of ``read_json_file``, and the games
receive a ``ContentSets`` registry, never a path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from parlour.core.content import HOUSE, NAME_RULE, ContentSet, ContentSets, is_set_name, read_json_file
from parlour.core.errors import ContentError

MAX_SETS = 64
"""The most content sets one folder may hold for a game."""


def user_folder() -> Path | None:
    """Returns ``~/.parlour/content`` (None when there is no home folder)."""
    try:
        return Path.home() / ".parlour" / "content"
    except (RuntimeError, KeyError):
        return None


def content_sets(game: str, folders: Sequence[str] = ()) -> ContentSets:
    """Returns a game's sets from ``~/.parlour/content`` and then each of ``folders`` (``--content-dir``).

    Each folder holds ``<game>/<name>.json``; a set in a later folder replaces one of
    the same name in an earlier one (so ``--content-dir`` wins over the home folder).
    """
    given = [Path(f) for f in folders]
    for folder in given:
        if not _is_dir(folder):
            raise ContentError(f"content folder {folder} is not a folder")
    home = user_folder()
    found: dict[str, ContentSet] = {}
    for folder in [*([home] if home is not None else []), *given]:
        for content in _read_folder(folder / game):
            found[content.name] = content
    return ContentSets({game: found.values()})


def _read_folder(folder: Path) -> list[ContentSet]:
    """Reads every ``<name>.json`` of one game's folder (none if the folder does not exist)."""
    if not _is_dir(folder):
        return []
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith("."))
    except OSError as err:
        raise ContentError(f"cannot read content folder {folder}: {err.strerror}") from None
    if len(paths) > MAX_SETS:
        raise ContentError(f"content folder {folder} holds more than {MAX_SETS} sets")
    sets = []
    for path in paths:
        name = path.stem
        if not is_set_name(name):
            raise ContentError(f"content file {path}: a set's name (the file's) must be {NAME_RULE}")
        if name == HOUSE:
            raise ContentError(f"content file {path}: 'house' names the sets Parlour ships; rename it")
        data = read_json_file(path, f"content file {path}")
        sets.append(ContentSet.of(name, data, str(path)))
    return sets


def _is_dir(path: Path) -> bool:
    """Returns whether ``path`` is a folder (False for a path the system cannot even look up)."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False
