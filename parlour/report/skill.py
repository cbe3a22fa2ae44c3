"""The skill gap: a search bot, the greedy bot and the random bot at one table, seats rotated."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.bots.simulation import Batch, GameOutcome, chunks, play_one, wilson
from parlour.bots.workers import open_runner
from parlour.core.content import ContentSets
from parlour.core.game import Game
from parlour.core.positions import JSONObject
from parlour.report import SEARCH_BOT

Job = tuple[str, list[list[str]], int, list[int], JSONObject, ContentSets | None]
"""A chunk of skill games: game, seats of every game, seed, game indexes, options, content sets."""


def ladder(game: Game, search: str = SEARCH_BOT) -> list[str]:
    """Returns the bots compared, strongest expected first: the search bot, greedy (if the game has
    one), random."""
    return [search, *(["greedy"] if "greedy" in game.bots() else []), "random"]


def seating(bots: Sequence[str], players: int, index: int) -> list[str]:
    """Returns the seats of skill game ``index``: the ladder's bots in turn from seat 0, rotated by one
    each game (so every bot sits everywhere, and with more seats than bots some sit twice)."""
    return [bots[(s + index) % len(bots)] for s in range(players)]


def _play_chunk(job: Job) -> list[GameOutcome]:
    """Plays a chunk of skill games in a worker."""
    game, lineups, seed, indexes, options, content = job
    return [play_one(game, lineups[i], seed, i, options, content) for i in indexes]


def skill_gap(
    game: Game,
    players: int,
    games: int,
    seed: int,
    options: JSONObject,
    batch: Batch,
    search: str = SEARCH_BOT,
) -> JSONObject:
    """Plays ``games`` skill games and returns each bot's win rate a seat, the gap between the strongest
    and the weakest, and the share of luck (docs/report.md)."""
    bots = ladder(game, search)
    lineups = [seating(bots, players, i) for i in range(games)]
    outcomes: list[GameOutcome] = []
    with open_runner(batch.backend, batch.workers, batch.workers_max) as runner:
        jobs: list[Job] = [
            (game.name, lineups, seed, c, options, batch.content) for c in chunks(games, runner.workers)
        ]
        for played in runner.run(_play_chunk, jobs):
            outcomes.extend(played)
            if batch.progress is not None:
                batch.progress(len(played))
    outcomes.sort(key=lambda o: o.index)
    return skill_figures(bots, [lineups[o.index] for o in outcomes], [o.wins for o in outcomes], players)


def skill_figures(
    bots: Sequence[str], lineups: Sequence[Sequence[str]], wins: Sequence[Sequence[float]], players: int
) -> JSONObject:
    """Returns each bot's win rate a seat (with its Wilson interval), the skill gap and the share of luck:
    1 minus how far the strongest bot's win rate a seat is above a fair share (1/players), over the most
    it could be above it (1: pure luck, the strongest wins its fair share; 0: it always wins)."""
    rows: list[JSONObject] = []
    for bot in bots:
        seats = [(g, s) for g, lineup in enumerate(lineups) for s, name in enumerate(lineup) if name == bot]
        won = sum(wins[g][s] for g, s in seats)
        low, high = wilson(won, len(seats))
        rows.append(
            {
                "bot": bot,
                "seats": len(seats),
                "win_rate": won / len(seats) if seats else 0.0,
                "ci95": [low, high],
            }
        )
    fair = 1.0 / players
    rates = [float(r["win_rate"]) for r in rows if r["seats"]]
    best = max(rates, default=fair)
    luck = 1.0 - (best - fair) / (1.0 - fair)
    return {
        "games": len(lineups),
        "bots": rows,
        "skill_gap": (max(rates) - min(rates)) if rates else 0.0,
        "luck_share": min(1.0, max(0.0, luck)),
    }
