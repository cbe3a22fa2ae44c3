"""Bots by name: the generic ones here plus each game's own (``Game.bots()``).

A search bot takes its budget (and optionally its playout bot and settings) after colons:
``ismcts``, ``ismcts:200ms``, ``ismcts:1s``, ``ismcts:500it``, ``ismcts:200ms:random``,
``ismcts:200ms::horizon=2,explore=0.5`` (see ``parlour.bots.ismcts.Settings``).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.bots.ismcts import Budget, IsmctsBot, Settings
from parlour.bots.random_bot import RandomBot
from parlour.core.agents import Agent
from parlour.core.errors import OptionError
from parlour.core.game import Game

GENERIC: dict[str, Callable[[int], Agent]] = {"random": RandomBot}
SEARCH = "ismcts"


def bot_names(game: Game) -> list[str]:
    """Returns the names of the bots that can play ``game``."""
    return sorted({*GENERIC, *game.bots(), SEARCH})


def make_bot(game: Game, name: str, seed: int) -> Agent:
    """Returns a new bot called ``name`` for ``game``, seeded."""
    factories = {**GENERIC, **game.bots()}
    base, _, argument = name.partition(":")
    if base == SEARCH:
        return _search_bot(game, factories, argument, seed)
    if name not in factories:
        raise OptionError(f"no bot {name!r} for {game.name} (bots: {', '.join(bot_names(game))})")
    return factories[name](seed)


def _search_bot(game: Game, factories: dict[str, Callable[[int], Agent]], argument: str, seed: int) -> Agent:
    """Returns an ISMCTS bot with the budget, playout bot and settings written after the colons."""
    budget_text, _, rest = argument.partition(":")
    playout, _, settings_text = rest.partition(":")
    try:
        budget = Budget.parse(budget_text) if budget_text else Budget(milliseconds=200)
        settings = Settings.parse(f"{game.search_settings},{settings_text}")
    except ValueError as err:
        raise OptionError(str(err)) from None
    playout = playout or game.playout_bot
    if playout not in factories:
        raise OptionError(
            f"no playout bot {playout!r} for {game.name} (bots: {', '.join(sorted(factories))})"
        )
    # The game's own greedy bot (if any) advises the search's first visits at the root.
    adviser = factories.get("greedy")
    return IsmctsBot(seed, budget, None if playout == "random" else factories[playout], adviser, settings)
