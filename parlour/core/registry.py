"""The registry of games: the packages shipped in ``parlour/games`` and the ``parlour.games`` entry points.

A game from another package plugs in without editing Parlour: its distribution declares an entry point

    [project.entry-points."parlour.games"]
    my-game = "my_package.my_game"          # a module whose GAME attribute is the Game
    # or: my-game = "my_package.my_game:GAME"   (the Game object itself)

The games shipped inside ``parlour/games`` (every sub-package is one, called by its folder's name with
``-`` for ``_``) are also found by scanning that folder, so a source checkout plays a game added there
without reinstalling; a shipped game's name is never taken by an entry point. Nothing is imported until a
game is asked for by name (docs/adding-a-game.md, "Registration").
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import pkgutil
from functools import cache

from parlour.core.errors import OptionError
from parlour.core.game import Game
from parlour.core.positions import JSONObject
from parlour.core.state import GameState, register_loader

GROUP = "parlour.games"
"""The entry-point group games are declared in."""
SHIPPED = "parlour.games"
"""The package whose sub-packages are the games shipped with Parlour."""


def _key(name: str) -> str:
    """Returns a game's name as the registry keys it (lower case, ``-`` for ``_``, no spaces around)."""
    return name.strip().lower().replace("_", "-")


@cache
def _sources() -> dict[str, str | importlib.metadata.EntryPoint]:
    """Returns every game's name and where it is: a shipped module's path, or an entry point."""
    found: dict[str, str | importlib.metadata.EntryPoint] = {}
    spec = importlib.util.find_spec(SHIPPED)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for info in pkgutil.iter_modules(folders):
        if info.ispkg:
            found[_key(info.name)] = f"{SHIPPED}.{info.name}"
    for point in importlib.metadata.entry_points(group=GROUP):
        found.setdefault(_key(point.name), point)
    return found


def refresh_games() -> None:
    """Forgets the games found so far: the next look-up scans the folder and the entry points again
    (after installing a game in a running process; tests)."""
    _sources.cache_clear()


def game_names() -> list[str]:
    """Returns the names of every game Parlour plays (shipped and installed), sorted."""
    return sorted(_sources())


def load_game(name: str) -> Game:
    """Returns the Game called ``name`` (importing its module on first use); refuses an unknown name."""
    key = _key(name)
    source = _sources().get(key)
    if source is None:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(game_names())})")
    where = source if isinstance(source, str) else source.value
    try:
        loaded = importlib.import_module(source) if isinstance(source, str) else source.load()
    except Exception as err:  # a broken plug-in: one line saying which, never a traceback
        raise OptionError(f"game {key!r} ({where}) cannot be loaded: {' '.join(str(err).split())}") from None
    game = loaded if isinstance(loaded, Game) else getattr(loaded, "GAME", None)
    if not isinstance(game, Game):
        raise OptionError(f"game {key!r}: {where} is neither a Game nor a module with a GAME attribute")
    if game.name != key:
        raise OptionError(f"game {key!r}: {where} holds a game called {game.name!r}")
    return game


def load_state(game_name: str, position: JSONObject) -> GameState:
    """Returns the state a position of the game ``game_name`` describes (unpickling uses it)."""
    return load_game(game_name).state_from_position(position)


register_loader(load_state)
