"""The registry of games: name -> module path, imported only when a game is asked for."""

from __future__ import annotations

import importlib
from typing import Any

from parlour.core.errors import OptionError
from parlour.core.game import Game
from parlour.core.state import GameState, register_loader

GAME_MODULES: dict[str, str] = {
    "im-the-boss": "parlour.games.im_the_boss",
    "venture": "parlour.games.venture",
    "venus-needs-men": "parlour.games.venus_needs_men",
}
"""Each game's command-line name and the module whose ``GAME`` attribute is its Game."""


def game_names() -> list[str]:
    """Returns the names of every game Parlour plays."""
    return sorted(GAME_MODULES)


def load_game(name: str) -> Game:
    """Returns the Game called ``name`` (importing its module on first use)."""
    key = name.strip().lower().replace("_", "-")
    if key not in GAME_MODULES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(game_names())})")
    game = importlib.import_module(GAME_MODULES[key]).GAME
    assert isinstance(game, Game)
    return game


def load_state(game_name: str, position: dict[str, Any]) -> GameState:
    """Returns the state a position of the game ``game_name`` describes (unpickling uses it)."""
    return load_game(game_name).state_from_position(position)


register_loader(load_state)
