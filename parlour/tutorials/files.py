"""Where a game's tutorial and glossary files are: its package's ``data`` folder, read with a size limit."""

from __future__ import annotations

import json
import re
import sys
from importlib import resources
from importlib.resources.abc import Traversable

from parlour.core.game import Game
from parlour.core.registry import game_names, load_game
from parlour.tutorials.format import MAX_BYTES, TutorialError

TUTORIAL = "tutorial.json"
"""A game's tutorial: the one ``parlour learn GAME`` runs."""
GLOSSARY = "glossary.json"
ADD_ON = re.compile(r"tutorial-([a-z0-9]+(?:-[a-z0-9]+)*)\.json")
"""An add-on tutorial beside it, ``tutorial-PART.json``: ``parlour learn GAME/PART`` runs it (a game's
variant taught after the main tutorial, e.g. Venus Needs Men!'s Enhanced game)."""


def data_file(game: Game, name: str) -> Traversable:
    """Returns the file ``name`` in the data folder of the package that defines ``game``."""
    return _data_folder(game) / name


def has_tutorial(game: Game) -> bool:
    """Returns whether the game ships a tutorial."""
    return data_file(game, TUTORIAL).is_file()


def tutorial_games() -> list[str]:
    """Returns the names of the games that ship a tutorial."""
    return [name for name in game_names() if has_tutorial(load_game(name))]


def add_ons(game: Game) -> list[str]:
    """Returns the parts of the game's add-on tutorials (``tutorial-PART.json``), sorted."""
    folder = _data_folder(game)
    if not folder.is_dir():
        return []
    found = (ADD_ON.fullmatch(entry.name) for entry in folder.iterdir())
    return sorted(match.group(1) for match in found if match is not None)


def _data_folder(game: Game) -> Traversable:
    """Returns the data folder of the package that defines ``game``."""
    package = sys.modules[type(game).__module__].__package__ or type(game).__module__
    return resources.files(package) / "data"


def tutorial_file(part: str) -> str:
    """Returns the file name of a tutorial: the main one for ``""``, else the add-on ``part``."""
    return f"tutorial-{part}.json" if part else TUTORIAL


def tutorial_names() -> list[str]:
    """Returns every shipped tutorial by the name ``parlour learn`` takes: each game's main tutorial
    (``venture``), then its add-ons (``venus-needs-men/enhanced``)."""
    names: list[str] = []
    for name in game_names():
        game = load_game(name)
        names += [name] if has_tutorial(game) else []
        names += [f"{name}/{part}" for part in add_ons(game)]
    return names


def split_name(name: str) -> tuple[str, str]:
    """Returns a tutorial name's game and part (``""`` for the game's main tutorial)."""
    game, _, part = name.partition("/")
    return game, part


def read_data(game: Game, name: str) -> object:
    """Returns the JSON of a game's data file; refuses a missing, too large or malformed one."""
    file = data_file(game, name)
    if not file.is_file():
        raise TutorialError(f"{game.name} has no {name}")
    with file.open("rb") as handle:
        raw = handle.read(MAX_BYTES + 1)
    return parse(raw, f"{game.name}'s {name}")


def parse(raw: bytes, what: str) -> object:
    """Returns the JSON in ``raw`` (at most MAX_BYTES), refusing anything else in one line."""
    if len(raw) > MAX_BYTES:
        raise TutorialError(f"{what} is larger than {MAX_BYTES // 1024} KiB")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise TutorialError(f"{what} is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise TutorialError(f"{what} is not valid JSON: {err}") from None
    except (ValueError, RecursionError) as err:
        raise TutorialError(f"{what} is not usable JSON: {type(err).__name__}") from None
