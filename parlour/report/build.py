"""A whole report: what to play (:class:`ReportSpec`), checked, played and measured."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from parlour.bots.command_bot import is_command
from parlour.bots.ismcts import Budget
from parlour.bots.registry import make_bot
from parlour.bots.simulation import Batch
from parlour.core.content import ContentSets
from parlour.core.errors import OptionError
from parlour.core.game import Game
from parlour.core.positions import JSONObject
from parlour.core.registry import load_game
from parlour.report import SEARCH_BOT
from parlour.report.collect import collect
from parlour.report.compare import compare
from parlour.report.metrics import variant_metrics
from parlour.report.skill import skill_gap

MAX_GAMES = 1_000_000
"""The most games a report plays a variant."""
MAX_SKILL_GAMES = 10_000
"""The most skill games (each with a search bot: slow)."""
MAX_VARIANTS = 8
"""The most variants compared side by side."""
VERSION = 1
"""The report.json format's version."""


@dataclass(frozen=True)
class ReportSpec:
    """What a report plays: the game, its seats and options, the variants compared and the extras."""

    game: str
    players: int
    games: int
    seats: list[str] = field(default_factory=list)
    """The bot at each seat (empty: the game's greedy bot, or random if it has none, everywhere)."""
    seed: int = 0
    options: dict[str, str] = field(default_factory=dict)
    variants: list[dict[str, str]] = field(default_factory=list)
    """Option changes, one variant each, played on the same seeds (empty: just ``options``)."""
    skill_games: int = 0
    skill_bot: str = SEARCH_BOT
    kingmaking_games: int = 100
    """The first games of each variant looked at for kingmaking (each played a second time)."""


def default_bot(game: Game) -> str:
    """Returns the bot a report seats by default: the game's greedy bot, or random."""
    return "greedy" if "greedy" in game.bots() else "random"


def variant_options(spec: ReportSpec) -> list[dict[str, str]]:
    """Returns the options of each variant: the spec's options with the variant's changes."""
    return [dict(spec.options) | v for v in spec.variants] or [dict(spec.options)]


def label(change: dict[str, str]) -> str:
    """Returns a variant's name: its changes as ``k=v,k=v`` (``as given`` for none)."""
    return ",".join(f"{k}={v}" for k, v in change.items()) or "as given"


def reproducible(bot: str) -> bool:
    """Returns whether a bot plays the same game again from the same seed: not a search bot with a time
    budget (``ismcts``, ``ismcts:200ms``), whose thinking depends on the machine's speed."""
    base, _, argument = bot.partition(":")
    if base != "ismcts":
        return True
    budget = argument.partition(":")[0]
    try:
        return bool(budget) and Budget.parse(budget).milliseconds == 0  # ismcts:500, ismcts:500it
    except ValueError:
        return False


def check_report(spec: ReportSpec, content: ContentSets | None = None) -> ReportSpec:
    """Returns the spec with its seats filled in, or refuses it (OptionError, one line): counts out of
    range, seats not bots of this game or not as many as the players, options the game refuses."""
    game = load_game(spec.game).with_content(content or ContentSets())
    game.check_players(spec.players)
    if not 1 <= spec.games <= MAX_GAMES:
        raise OptionError(f"-n must be from 1 to {MAX_GAMES:,}, not {spec.games}")
    if not 0 <= spec.skill_games <= MAX_SKILL_GAMES:
        raise OptionError(f"--skill-games must be from 0 to {MAX_SKILL_GAMES:,}, not {spec.skill_games}")
    if not 0 <= spec.kingmaking_games <= MAX_GAMES:
        raise OptionError(f"--kingmaking-games must be from 0 to {MAX_GAMES:,}, not {spec.kingmaking_games}")
    if len(spec.variants) > MAX_VARIANTS:
        raise OptionError(f"at most {MAX_VARIANTS} variants (--compare), not {len(spec.variants)}")
    seats = spec.seats or [default_bot(game)] * spec.players
    if len(seats) != spec.players:
        raise OptionError(f"--seats names {len(seats)} bots for {spec.players} players")
    for s, name in enumerate(dict.fromkeys([*seats, spec.skill_bot])):
        if name == "human" or is_command(name):
            raise OptionError(f"a report plays Parlour's own bots only, not {name[:40]!r}")
        make_bot(game, name, s, players=spec.players)
    for options in variant_options(spec):
        game.options(options)
    kingmaking = spec.kingmaking_games if all(reproducible(b) for b in seats) else 0
    return ReportSpec(**(vars(spec) | {"seats": seats, "kingmaking_games": kingmaking}))


def make_report(spec: ReportSpec, batch: Batch) -> JSONObject:
    """Plays and measures a checked spec's variants (and its skill games) and returns the report's data;
    everything but ``run`` (times, backend) is the same for the same spec whatever the backend."""
    game = load_game(spec.game).with_content(batch.content or ContentSets())
    start = time.perf_counter()
    variants = []
    for change, options in zip(spec.variants or [{}], variant_options(spec), strict=True):
        values = game.options(options)
        traces = collect(game.name, spec.seats, spec.games, spec.seed, values, batch, spec.kingmaking_games)
        variants.append(
            {"label": label(change), "options": values, "metrics": variant_metrics(traces, spec.seats)}
        )
    played = time.perf_counter() - start
    skill = None
    if spec.skill_games:
        values = game.options(variant_options(spec)[0])
        skill = skill_gap(game, spec.players, spec.skill_games, spec.seed, values, batch, spec.skill_bot)
    return {
        "version": VERSION,
        "game": game.name,
        "title": game.title,
        "players": spec.players,
        "seats": spec.seats,
        "games": spec.games,
        "seed": spec.seed,
        "variants": variants,
        "comparison": compare(variants) if len(variants) > 1 else [],
        "skill": skill,
        "run": {
            "backend": batch.backend,
            "workers": batch.workers,
            "seconds_games": played,
            "seconds": time.perf_counter() - start,
        },
    }
