"""The baseline table (issue 37, docs/baselines.md): for each game at four players, the win rate of
``random``, ``greedy``, ``ismcts:200ms``, ``ismcts:1s`` and the shipped ``learned`` policy (where the game
ships one) against three ``greedy`` bots, with Wilson 95% intervals, and every bot's OpenSkill rating
from one tournament of them all.

``python bench/baselines.py [--games 200] [--tournament 200] [--game GAME ...] [--bot BOT ...]
[--workers 2]`` prints each game's table in Markdown (docs/baselines.md gathers them into one);
``bench/run.py --only baselines`` writes the figures to bench/results.json. The bot under test takes
each seat in turn (a quarter of the games each: the first player's edge is shared out), the same seeds
for every bot, so every row plays the same deals.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.policies import NAME as LEARNED
from parlour.bots.policies import has_policy
from parlour.bots.simulation import Batch, simulate, wilson
from parlour.bots.tournament import tournament

GAMES = ("venture", "im-the-boss", "venus-needs-men")
BOTS = ("random", "greedy", "ismcts:200ms", "ismcts:1s", LEARNED)
"""The rows of each game's table (``learned`` only where the game ships a policy)."""
OPPONENT = "greedy"
PLAYERS = 4
SEED = 3037


def bots_for(game: str, bots: Sequence[str] = BOTS) -> list[str]:
    """Returns the bots measured in ``game``: ``learned`` only where the game ships a policy."""
    return [bot for bot in bots if bot != LEARNED or has_policy(game)]


def against_greedy(
    game: str,
    bot: str,
    games: int,
    workers: int,
    seed: int = SEED,
    options: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """Plays ``games`` games of ``bot`` against three greedy bots, the bot in each seat for a quarter of
    them (the same seeds from every seat); returns its wins, win rate and Wilson interval."""
    wins, played, seconds = 0.0, 0, 0.0
    for seat in range(PLAYERS):
        share = games // PLAYERS + (1 if seat < games % PLAYERS else 0)
        if share == 0:
            continue
        seats = [OPPONENT] * PLAYERS
        seats[seat] = bot
        summary = simulate(game, seats, share, seed=seed, options=options, batch=Batch(workers=workers))
        wins += float(summary["seats"][seat]["win_rate"]) * share  # unrounded: a three-way tie is 1/3
        played += share
        seconds += float(summary["seconds"])
    low, high = wilson(wins, played)
    return {
        "bot": bot,
        "games": played,
        "wins": wins,
        "win_rate": wins / played if played else 0.0,
        "ci95": [low, high],
        "seconds": seconds,
    }


def ratings(
    game: str,
    bots: Sequence[str],
    games: int,
    workers: int,
    seed: int = SEED,
    options: Mapping[str, object] | None = None,
) -> list[dict[str, Any]]:
    """Returns every bot's OpenSkill rating from one four-player tournament of them all (seats drawn in
    turn, ``parlour.bots.tournament``), best first."""
    if games <= 0 or len(bots) < 2:
        return []
    found = tournament(
        game, list(bots), games, PLAYERS, seed=seed, options=options, batch=Batch(workers=workers)
    )
    return [dict(row) for row in found["bots"]]


def baseline(
    game: str,
    games: int,
    tournament_games: int,
    workers: int,
    bots: Sequence[str] = BOTS,
    options: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """Measures one game's table: each bot against three greedy bots, then the tournament's ratings."""
    chosen = bots_for(game, bots)
    rows = [against_greedy(game, bot, games, workers, options=options) for bot in chosen]
    return {
        "game": game,
        "players": PLAYERS,
        "opponents": OPPONENT,
        "rows": rows,
        "ratings": ratings(game, chosen, tournament_games, workers, options=options),
        "learned": LEARNED in chosen,
    }


def markdown(table: dict[str, Any]) -> str:
    """Returns one game's table in Markdown: win rate against three greedy bots with its interval, and
    the tournament's rating (mu, sigma and ordinal mu - 3 sigma)."""
    rated = {row["bot"]: row for row in table["ratings"]}
    lines = [
        f"### {table['game']} ({table['players']} players, against three {table['opponents']} bots)",
        "",
        "| bot | games | win rate | 95% interval | OpenSkill mu | sigma | ordinal |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in table["rows"]:
        low, high = row["ci95"]
        rating = rated.get(row["bot"])
        skill = (
            f"{rating['mu']:.1f} | {rating['sigma']:.2f} | {rating['ordinal']:.1f}" if rating else "– | – | –"
        )
        lines.append(
            f"| `{row['bot']}` | {row['games']} | {row['win_rate']:.3f} | {low:.3f}–{high:.3f} | {skill} |"
        )
    return "\n".join(lines)


def baseline_figures(
    results: dict[str, Any],
    games: int = 200,
    tournament_games: int = 200,
    workers: int = 2,
    names: Sequence[str] = GAMES,
    bots: Sequence[str] = BOTS,
) -> None:
    """Measures every game's table and puts the figures in ``results["baselines"]``, printing them."""
    tables = {}
    for name in names:
        table = tables[name] = baseline(name, games, tournament_games, workers, bots)
        print(markdown(table), "\n", flush=True)
    results["baselines"] = tables


def main() -> None:
    """Prints the baseline table of the games asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a bot plays against three greedy bots")
    parser.add_argument("--tournament", type=int, default=200, help="games of the ratings' tournament")
    parser.add_argument("--game", action="append", choices=GAMES, help="a game to measure (default: all)")
    parser.add_argument("--bot", action="append", help=f"a bot to measure (default: {', '.join(BOTS)})")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    results: dict[str, Any] = {}
    baseline_figures(results, args.games, args.tournament, args.workers, args.game or GAMES, args.bot or BOTS)


if __name__ == "__main__":
    main()
