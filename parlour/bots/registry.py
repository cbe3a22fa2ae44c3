"""Bots by name: the generic ones here plus each game's own (``Game.bots()``)."""

from __future__ import annotations

from collections.abc import Callable

from parlour.bots.random_bot import RandomBot
from parlour.core.agents import Agent
from parlour.core.errors import OptionError
from parlour.core.game import Game

GENERIC: dict[str, Callable[[int], Agent]] = {"random": RandomBot}


def bot_names(game: Game) -> list[str]:
    """Returns the names of the bots that can play ``game``."""
    return sorted({*GENERIC, *game.bots()})


def make_bot(game: Game, name: str, seed: int) -> Agent:
    """Returns a new bot called ``name`` for ``game``, seeded."""
    factories = {**GENERIC, **game.bots()}
    if name not in factories:
        raise OptionError(f"no bot {name!r} for {game.name} (bots: {', '.join(bot_names(game))})")
    return factories[name](seed)
