"""Search strength: ismcts against greedy, and against OpenSpiel's own ISMCTSBot at the same time per move.

``python bench/search_bench.py [--games N] [--duel-games N] [--seconds S] [--duel-seconds S]
[--iterations N]`` prints the figures (``--duel-games 0`` leaves the duels out; ``--iterations N`` gives
ismcts N iterations a move instead of ``--seconds``, for a busy machine); ``bench/run.py`` calls
``search_figures`` for ``make bench``.
The goal (issue 15): ismcts:200ms at least 1.5x its fair share over at least 100 games in every game;
``make bench`` plays 200 (``SEARCH`` in ``bench/run.py``).
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from command_line import settings

from parlour.bots.registry import make_bot
from parlour.bots.simulation import Batch, simulate
from parlour.core.registry import load_game

GAMES = ("venture", "im-the-boss", "venus-needs-men")
DUEL_OPTIONS: dict[str, dict[str, Any]] = {
    "venture": {},
    "im-the-boss": {"length": "short", "max_turns": 30},
    "venus-needs-men": {"length": "short"},
}
"""Options of the duels: short games, as OpenSpiel's random rollouts (to the end) are long.

Greedy and ismcts tables of I'm the Boss! end in about 20 turns; the 30-turn limit caps the rollouts."""
UCT_C = 2.0
"""Exploration constant given to OpenSpiel's ISMCTSBot (returns lie in 0..1)."""


def ismcts_vs_greedy(
    name: str, games: int, seconds: float, workers: int = 2, iterations: int = 0
) -> dict[str, Any]:
    """Plays ismcts in seat 0 against three greedy bots (the first player is dealt at random); the Wilson
    95% interval of its win rate. ``iterations`` (if not 0) replaces the time a move."""
    bot = f"ismcts:{iterations}it" if iterations else f"ismcts:{round(seconds * 1000)}ms"
    summary = simulate(
        name, [bot, "greedy", "greedy", "greedy"], games, seed=2026, batch=Batch(workers=workers)
    )
    row = summary["seats"][0]
    return {
        "bot": bot,
        "games": games,
        "win_rate": row["win_rate"],
        "ci95": row["ci95"],
        "fair_share": 0.25,
        "times_fair_share": row["win_rate"] / 0.25,
        "seconds": summary["seconds"],
    }


class TimedOpenSpielBot:
    """OpenSpiel's ISMCTSBot given a time per move: simulations per move follow its measured speed."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        import numpy as np
        from open_spiel.python.algorithms import mcts

        self.game = game
        self.seconds = seconds
        self.rng = np.random.RandomState(seed)
        self.evaluator = mcts.RandomRolloutEvaluator(1, self.rng)
        self.per_simulation = seconds / 4
        """Running estimate of one simulation's time (starts pessimistic: four simulations)."""
        self.simulations = 0

    def step(self, state: Any) -> int:
        """Returns OpenSpiel's ISMCTS choice after as many simulations as fit in the time."""
        from open_spiel.python.algorithms import ismcts

        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        count = max(2, int(self.seconds / self.per_simulation))  # its first simulation only expands the root
        bot = ismcts.ISMCTSBot(self.game, self.evaluator, UCT_C, count, random_state=self.rng)
        start = time.perf_counter()
        action = int(bot.step(state))
        spent = time.perf_counter() - start
        self.per_simulation = 0.5 * self.per_simulation + 0.5 * spent / count
        self.simulations += count
        return action


def duel_game(name: str, seed: int, seconds: float, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Plays one four-player game: Parlour's ismcts in two seats, OpenSpiel's ISMCTSBot in the other two."""
    import pyspiel

    import parlour.envs.openspiel as registered

    params = {"players": 4, **(DUEL_OPTIONS[name] if options is None else options)}
    spiel = pyspiel.load_game(registered.short_name(name), params)
    parlour_seats = (0, 2) if seed % 2 == 0 else (1, 3)
    game = load_game(name)
    ours = {s: make_bot(game, f"ismcts:{round(seconds * 1000)}ms", seed * 10 + s) for s in parlour_seats}
    theirs = {s: TimedOpenSpielBot(spiel, seconds, seed * 10 + s) for s in range(4) if s not in ours}
    state = spiel.new_initial_state()
    chance = random.Random(seed)  # the chance nodes (deal, draws, dice): the same for a seed
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, weights)[0])
            continue
        seat = state.current_player()
        if seat in ours:
            inner = state.inner
            text = inner.format_action(ours[seat].choose(inner, seat))
            state.apply_action(spiel.ids[text])
        else:
            state.apply_action(theirs[seat].step(state))
        moves += 1
    winners = state.inner.winners()
    share = 1.0 / len(winners)
    return {
        "parlour": sum(share for s in winners if s in ours),
        "openspiel": sum(share for s in winners if s not in ours),
        "moves": moves,
        "parlour_seats": list(ours),
        "openspiel_simulations_per_move": sum(b.simulations for b in theirs.values()) / max(moves, 1),
    }


def ismcts_vs_openspiel(name: str, games: int, seconds: float, workers: int = 2) -> dict[str, Any]:
    """Duels over ``games`` four-player games, Parlour's seats alternating between even and odd."""
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        rows = list(pool.map(duel_game, [name] * games, range(games), [seconds] * games))
    return {
        "games": games,
        "seconds_per_move": seconds,
        "options": DUEL_OPTIONS[name],
        "parlour_wins": sum(r["parlour"] for r in rows),
        "openspiel_wins": sum(r["openspiel"] for r in rows),
        "mean_moves": sum(r["moves"] for r in rows) / games,
        "seconds": time.perf_counter() - start,
    }


def search_figures(
    results: dict[str, Any], games: int, duel_games: int, seconds: float, duel: float, iterations: int = 0
) -> None:
    """Measures and prints both search figures per game into ``results`` (no duels for 0 duel games)."""
    budget = f"{iterations} iterations" if iterations else f"{seconds:g} s"
    print(f"ismcts ({budget} a move) in seat 0 against three greedy bots, {games} games each:")
    for name in GAMES:
        row = results[f"search_{name}_vs_greedy"] = ismcts_vs_greedy(
            name, games, seconds, iterations=iterations
        )
        low, high = row["ci95"]
        print(
            f"  {name:16s} win rate {row['win_rate']:.1%} (Wilson 95% CI {low:.1%}–{high:.1%}) over"
            f" {games} games, {row['times_fair_share']:.2f} x the fair share (goal 1.5);"
            f" {row['seconds']:.0f} s",
            flush=True,
        )
    if not duel_games:
        return
    print(f"ismcts against OpenSpiel's ISMCTSBot, two seats each, {duel:g} s a move, {duel_games} games:")
    for name in GAMES:
        row = results[f"search_{name}_vs_openspiel"] = ismcts_vs_openspiel(name, duel_games, duel)
        print(
            f"  {name:16s} Parlour {row['parlour_wins']:g} wins, OpenSpiel {row['openspiel_wins']:g}"
            f" ({row['mean_moves']:.0f} moves a game, options {row['options']}); {row['seconds']:.0f} s"
        )


def main() -> None:
    """Runs the search figures alone."""
    args = settings(__doc__, games=16, duel_games=4, seconds=1.0, duel_seconds=0.25, iterations=0)
    search_figures({}, args.games, args.duel_games, args.seconds, args.duel_seconds, args.iterations)


if __name__ == "__main__":
    main()
