"""Bots by name: the generic ones here plus each game's own (``Game.bots()``).

A search bot takes its budget (and optionally its playout bot and settings) after colons:
``ismcts``, ``ismcts:200ms``, ``ismcts:1s``, ``ismcts:500it``, ``ismcts:200ms:random``,
``ismcts:200ms::horizon=2,explore=0.5`` (see ``parlour.bots.ismcts.Settings``; each setting and the
budget has a range, ``RANGES`` and ``BUDGET_RANGE`` there, and anything outside is refused).

A program speaking the bot protocol sits at a seat written ``cmd:COMMAND``
(``parlour.bots.command_bot``, docs/bot-protocol.md): only where the caller allows it (``commands``:
the command line's play, simulate and tournament), never from a table server's clients.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from parlour.bots.command_bot import CommandBot, is_command, parse_seat
from parlour.bots.ismcts import BUDGET_RANGE, RANGES, Budget, IsmctsBot, Settings, shown
from parlour.bots.policies import NAME as LEARNED
from parlour.bots.policies import LearnedBot, check_fits, has_policy
from parlour.bots.random_bot import RandomBot
from parlour.core.agents import Agent
from parlour.core.errors import OptionError
from parlour.core.game import Game

GENERIC: dict[str, Callable[[int], Agent]] = {"random": RandomBot}
SEARCH = "ismcts"
MAX_NAME = 200
"""The longest bot name accepted (printable ASCII only)."""
DEFAULT_BUDGET = Budget(milliseconds=200)
"""The search bot's budget when its name gives none (``ismcts``)."""


def bot_names(game: Game) -> list[str]:
    """Returns the names of the bots that can play ``game`` (``learned`` where it ships a policy)."""
    return sorted({*GENERIC, *game.bots(), SEARCH, *([LEARNED] if has_policy(game.name) else [])})


def search_syntax(game: Game) -> list[str]:
    """Returns lines telling how a search bot's name is written: its budget, playout bot and settings,
    each with its range (``parlour options GAME`` prints them)."""
    defaults = Settings.parse(game.search_settings)
    ranges = ", ".join(
        f"{name} {low:g} to {high:g} ({getattr(defaults, name):g})" for name, (low, high) in RANGES.items()
    )
    return [
        f"search bot: {SEARCH}[:BUDGET[:PLAYOUT[:SETTINGS]]], as {SEARCH}:1s or {SEARCH}:500it::horizon=8",
        f"  BUDGET {BUDGET_RANGE} (default {DEFAULT_BUDGET.describe()}); "
        f"PLAYOUT one of the bots (default {game.playout_bot})",
        f"  SETTINGS name=number pairs, each from its lowest to its highest value (default): {ranges}",
    ]


def make_bot(
    game: Game,
    name: str,
    seed: int,
    commands: bool = False,
    options: Mapping[str, object] | None = None,
    players: int | None = None,
) -> Agent:
    """Returns a new bot called ``name`` for ``game``, seeded; refuses (OptionError, one line) an unknown
    bot and a search setting or budget out of its range (``parlour.bots.ismcts.RANGES``).

    A ``cmd:`` seat (a program, started at its first decision) is made only if ``commands`` allows it;
    ``options`` are the game's, which it is told at its start. Given the table's ``players``, a bot that
    plays the shipped learned policy (``learned``, or a search playing it out) is refused where the
    policy cannot read the table (``policies.check_fits``).
    """
    if is_command(name):
        if not commands:
            raise OptionError(
                "a cmd: seat runs a program: only parlour play, simulate and tournament have them"
            )
        seat = parse_seat(name)
        return CommandBot(seat, make_bot(game, seat.stand_in, seed), options)
    if len(name) > MAX_NAME or not (name.isascii() and name.isprintable()):
        raise OptionError(f"a bot name is at most {MAX_NAME} printable ASCII characters, not {shown(name)}")
    factories = {**GENERIC, **game.bots()}
    if has_policy(game.name):
        factories[LEARNED] = LearnedBot
    base, _, argument = name.partition(":")
    if name not in factories and base != SEARCH:
        raise OptionError(f"no bot {name!r} for {game.name} (bots: {', '.join(bot_names(game))})")
    agent = _search_bot(game, factories, argument, seed) if base == SEARCH else factories[name](seed)
    if players is not None and LEARNED in name.split(":"):
        check_fits(game, players, options)
    return agent


def _search_bot(game: Game, factories: dict[str, Callable[[int], Agent]], argument: str, seed: int) -> Agent:
    """Returns an ISMCTS bot with the budget, playout bot and settings written after the colons."""
    budget_text, _, rest = argument.partition(":")
    playout, _, settings_text = rest.partition(":")
    try:
        budget = Budget.parse(budget_text) if budget_text else DEFAULT_BUDGET
        settings = Settings.parse(f"{game.search_settings},{settings_text}")
    except ValueError as err:
        raise OptionError(str(err)) from None
    playout = playout or game.playout_bot
    if playout not in factories:
        hint = "; settings follow a third colon, as in ismcts:200ms::horizon=2" if "=" in playout else ""
        raise OptionError(
            f"no playout bot {playout!r} for {game.name} (bots: {', '.join(sorted(factories))}){hint}"
        )
    # The game's own greedy bot (if any) advises the search's first visits at the root.
    adviser = factories.get("greedy")
    return IsmctsBot(seed, budget, None if playout == "random" else factories[playout], adviser, settings)
