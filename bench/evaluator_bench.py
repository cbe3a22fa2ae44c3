"""The learned evaluator head to head: ``ismcts`` with the game's shipped value network blended in
(``value=V``) against today's search at the same time a move, four players, seats rotated.

``python bench/evaluator_bench.py [--games N] [--budget 200ms] [--value 0.75] [--workers N]
[--game GAME ...]`` prints, per game, the learned search's share of the wins with its Wilson 95%
interval (its fair share is 1/2: two seats each); ``bench/run.py --only evaluator`` writes them to
bench/results.json. Issue 37's goal: above 1/2 (the interval's lower end) over 400 games in at least
two of the three games.
"""

from __future__ import annotations

import argparse
from typing import Any

from parlour.bots.simulation import Batch, simulate, wilson

GAMES = ("venture", "im-the-boss", "venus-needs-men")


def duel(name: str, games: int, budget: str, value: float, workers: int, seed: int = 2037) -> dict[str, Any]:
    """Plays ``games`` four-player games, half with the learned search in seats 0 and 2, half in seats 1
    and 3 (the same seeds, so each deal is played from both sides); returns its share of the wins."""
    learned, plain = f"ismcts:{budget}::value={value:g}", f"ismcts:{budget}"
    half = games // 2
    wins = 0.0
    seconds = 0.0
    sides = (([learned, plain, learned, plain], (0, 2)), ([plain, learned, plain, learned], (1, 3)))
    for seats, mine in sides:
        summary = simulate(name, seats, half, seed=seed, batch=Batch(workers=workers))
        wins += sum(summary["seats"][s]["wins"] for s in mine)
        seconds += summary["seconds"]
    played = 2 * half
    low, high = wilson(wins, played)
    return {
        "learned": learned,
        "plain": plain,
        "games": played,
        "share": wins / played if played else 0.0,
        "ci95": [low, high],
        "fair_share": 0.5,
        "beats": low > 0.5,
        "seconds": seconds,
    }


def evaluator_figures(
    results: dict[str, Any], games: int = 400, budget: str = "200ms", value: float = 0.75, workers: int = 2
) -> None:
    """Measures every game's duel and puts the figures in ``results["evaluator"]``, printing them."""
    rows = {}
    for name in GAMES:
        row = rows[name] = duel(name, games, budget, value, workers)
        low, high = row["ci95"]
        print(
            f"{name:16s} learned {row['share']:.3f} of the wins ({low:.3f} to {high:.3f}) "
            f"over {row['games']} games, {row['seconds']:.0f} s",
            flush=True,
        )
    results["evaluator"] = rows


def main() -> None:
    """Plays the duels the arguments ask for and prints them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--budget", default="200ms")
    parser.add_argument("--value", type=float, default=0.75)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", action="append", choices=GAMES)
    args = parser.parse_args()
    for name in args.game or GAMES:
        row = duel(name, args.games, args.budget, args.value, args.workers)
        print(name, row, flush=True)


if __name__ == "__main__":
    main()
