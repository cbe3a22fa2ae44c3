"""Issue 15's speed table: every game beside OpenSpiel's and PettingZoo's reference games, in one run.

``python bench/speed.py [--seconds S] [--json FILE]`` (or ``make bench ONLY=speed``) prints, for every
game and mode: random-playout actions per second (through ``apply_legal``, as the issue measured them;
through the checked ``apply`` too, in the JSON) and their ratios to OpenSpiel's pure-Python
``python_block_dominoes`` and C++ ``gin_rummy`` (driven from Python), ``parlour simulate``'s actions per
second with random bots (its games, one process) and their ratio to dominoes, the median ISMCTS iterations
per second over the bench positions (a 1 s search at each), PettingZoo steps per second (PettingZoo's own
``performance_benchmark`` loop) and their ratio to PettingZoo's ``connect_four_v3``, and the OpenSpiel
wrapper's steps per second. Every figure comes from this one process, each ratio the median of rounds that
measure the reference just before the game (:data:`ROUNDS`), so the ratios hold on a busy machine too; the
script reads only public APIs, so it measures an older checkout as well (``git worktree add``, then run it
there)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from playouts import random_playouts

from parlour import native
from parlour.bots.registry import make_bot
from parlour.bots.simulation import play_one
from parlour.core.registry import load_game

TABLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("Venture", "venture", {}),
    ("I'm the Boss!", "im-the-boss", {}),
    ("Venus Needs Men! Basic", "venus-needs-men", {"game": "basic"}),
    ("Venus Needs Men! Enhanced", "venus-needs-men", {"game": "enhanced"}),
    ("Embers", "embers", {}),
)
"""The games and modes measured, four players each."""
PLAYERS = 4
SEARCH_POSITIONS = 5
"""Bench positions of the search: the first decision with a choice after 0, 8, 16, 24 and 32 random
actions (seeded)."""


def spiel_playouts(game: Any, seconds: float, count_chance: bool = True) -> dict[str, float]:
    """Random playouts of a loaded OpenSpiel game for ``seconds``: actions and games per second (chance
    outcomes sampled, and counted as actions unless ``count_chance`` is False)."""
    rng = random.Random(0)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            chance = state.is_chance_node()
            if chance:
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += count_chance or not chance
        games += 1
    elapsed = time.perf_counter() - start
    return {"actions_per_second": actions / elapsed, "games_per_second": games / elapsed, "games": games}


def openspiel_playouts(name: str, seconds: float) -> dict[str, float] | str:
    """Random playouts of one of OpenSpiel's own games, or why it cannot load."""
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the Python game)
    except ImportError as err:
        return f"unavailable: {err}"
    return spiel_playouts(pyspiel.load_game(name), seconds)


def simulate_rate(name: str, options: dict[str, Any], seconds: float) -> float:
    """Actions per second of ``parlour simulate``'s games of random bots in one process (its
    ``play_one``: the bots, the checked ``apply`` and the outcome, as the command plays each game)."""
    values = load_game(name).options(options)
    seats = ["random"] * PLAYERS
    actions, index, start = 0, 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        actions += play_one(name, seats, 2026, index, values).actions
        index += 1
    return actions / elapsed


def openspiel_rate(name: str, seconds: float) -> float | None:
    """Random-playout actions per second of one of OpenSpiel's own games, or None."""
    found = openspiel_playouts(name, seconds)
    return found["actions_per_second"] if isinstance(found, dict) else None


WARM_UP = 0.25
"""Untimed seconds before each PettingZoo measurement (first imports, caches)."""


def benchmark_steps(env: Any, seconds: float, seed: int = 0, warm_up: float = 1.0) -> float:
    """Returns the steps per second of PettingZoo's ``performance_benchmark`` loop on an AEC environment
    (every agent once per cycle: ``last()``, a random masked action, ``step``; a reset when all are done),
    seeded, for ``seconds`` after ``warm_up`` untimed seconds (first imports, caches)."""
    rng = random.Random(seed)
    episode = 0
    env.reset(seed=episode)
    turns, start, warm = 0, time.perf_counter(), True
    while True:
        for _agent in env.agent_iter(env.num_agents):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            env.step(action)
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                episode += 1
                env.reset(seed=episode)
        elapsed = time.perf_counter() - start
        if warm and elapsed >= warm_up:
            turns, start, warm = 0, time.perf_counter(), False
        elif not warm and elapsed >= seconds:
            return turns / elapsed


def connect_four_rate(seconds: float) -> float | None:
    """PettingZoo's ``connect_four_v3`` steps per second, or None where it cannot load."""
    try:
        from pettingzoo.classic import connect_four_v3  # type: ignore[import-untyped]
    except ImportError:
        return None
    return benchmark_steps(connect_four_v3.env(), seconds, warm_up=WARM_UP)


def pettingzoo_rate(name: str, options: dict[str, Any], seconds: float) -> float:
    """Parlour's PettingZoo environment steps per second for one game and mode."""
    from parlour.envs import make

    return benchmark_steps(make(name, players=PLAYERS, **options), seconds, warm_up=WARM_UP)


def openspiel_wrapper_rate(name: str, options: dict[str, Any], seconds: float) -> float | None:
    """Parlour's OpenSpiel wrapper: player steps per second with random legal actions, or None."""
    try:
        import pyspiel

        import parlour.envs.openspiel  # noqa: F401  (registers Parlour's games)
    except ImportError:
        return None
    short = "parlour_" + name.replace("-", "_")
    try:
        game = pyspiel.load_game(short, {"players": PLAYERS, **options})
    except pyspiel.SpielError:
        return None
    return spiel_playouts(game, seconds, count_chance=False)["actions_per_second"]


def search_rate(name: str, options: dict[str, Any], seconds: float = 1.0) -> float:
    """Median ISMCTS iterations per second of one ``seconds`` search at each bench position."""
    game = load_game(name)
    rates: list[float] = []
    for index in range(SEARCH_POSITIONS):
        state = game.new_state(PLAYERS, index, options)
        rng = random.Random(index)
        steps = 0
        while not state.is_over() and (
            steps < 8 * index or len(state.legal_actions(state.deciders()[0])) < 2
        ):
            seat = state.deciders()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
            steps += 1
        if state.is_over():
            continue
        bot = make_bot(game, f"ismcts:{round(seconds * 1000)}ms", index)
        start = time.perf_counter()
        bot.choose(state, state.deciders()[0])
        rates.append(bot.iterations_done / (time.perf_counter() - start))  # type: ignore[attr-defined]
    return statistics.median(rates)


ROUNDS = 3
"""Each game's figures are measured in this many rounds, each round measuring the reference games just
before the game: a ratio is the median of the rounds' ratios (a shared machine's speed drifts within
seconds, by a third at times; a reference measured once at the start misjudged every game after it)."""


def paired(
    measure: Callable[[float], float | None], reference: Callable[[float], float | None], seconds: float
) -> tuple[float | None, float | None, float | None]:
    """Measures ``reference`` then ``measure`` in :data:`ROUNDS` rounds of ``seconds / ROUNDS`` each;
    returns the medians of the measure, of the reference and of the rounds' ratios (None where the
    reference could not be measured)."""
    values: list[float] = []
    references: list[float] = []
    ratios: list[float] = []
    for _ in range(ROUNDS):
        ref = reference(seconds / ROUNDS)
        value = measure(seconds / ROUNDS)
        assert value is not None
        values.append(value)
        if ref:
            references.append(ref)
            ratios.append(value / ref)
    return (
        statistics.median(values),
        statistics.median(references) if references else None,
        statistics.median(ratios) if ratios else None,
    )


def speed_table(seconds: float) -> dict[str, Any]:
    """Measures and prints every figure of the table; returns them."""
    results: dict[str, Any] = {"rounds": ROUNDS}
    print(
        f"{'game':27s} {'actions/s':>9s} {'×dominoes':>9s} {'simulate':>9s} {'×dominoes':>9s} {'×gin':>6s}"
        f" {'ISMCTS it/s':>11s}"
        f" {'PZ steps/s':>10s} {'×c4':>5s} {'OS steps/s':>10s}"
    )
    references: dict[str, list[float]] = {"python_block_dominoes": [], "gin_rummy": [], "connect_four_v3": []}
    for label, name, options in TABLES:

        def playouts(span: float, name: str = name, options: dict[str, Any] = options) -> float:
            return float(random_playouts(name, PLAYERS, span, False, options)["actions_per_second"])

        def pettingzoo(span: float, name: str = name, options: dict[str, Any] = options) -> float:
            return pettingzoo_rate(name, options, span)

        def simulated(span: float, name: str = name, options: dict[str, Any] = options) -> float:
            return simulate_rate(name, options, span)

        actions, dominoes, ratio_dominoes = paired(
            playouts, lambda span: openspiel_rate("python_block_dominoes", span), seconds
        )
        simulate, _, ratio_simulate = paired(
            simulated, lambda span: openspiel_rate("python_block_dominoes", span), seconds
        )
        _, gin, ratio_gin = paired(playouts, lambda span: openspiel_rate("gin_rummy", span), seconds)
        steps, connect_four, ratio_c4 = paired(pettingzoo, connect_four_rate, seconds)
        for key, value in (
            ("python_block_dominoes", dominoes),
            ("gin_rummy", gin),
            ("connect_four_v3", connect_four),
        ):
            if value:
                references[key].append(value)
        row: dict[str, Any] = {
            "actions_per_second": actions,
            "checked_actions_per_second": random_playouts(name, PLAYERS, seconds, True, options)[
                "actions_per_second"
            ],
            "ratio_dominoes": ratio_dominoes,
            "simulate_actions_per_second": simulate,
            "simulate_ratio_dominoes": ratio_simulate,
            "ratio_gin_rummy": ratio_gin,
            "ismcts_iterations_per_second": search_rate(name, options),
            "pettingzoo_steps_per_second": steps,
            "ratio_connect_four": ratio_c4,
            "openspiel_steps_per_second": openspiel_wrapper_rate(name, options, seconds),
        }
        results[label] = row
        print(
            f"{label:27s} {row['actions_per_second']:>9,.0f} {_ratio(row['ratio_dominoes']):>9s}"
            f" {row['simulate_actions_per_second']:>9,.0f} {_ratio(row['simulate_ratio_dominoes']):>9s}"
            f" {_ratio(row['ratio_gin_rummy']):>6s} {row['ismcts_iterations_per_second']:>11,.0f}"
            f" {row['pettingzoo_steps_per_second']:>10,.0f} {_ratio(row['ratio_connect_four']):>5s}"
            f" {row['openspiel_steps_per_second'] or 0:>10,.0f}"
        )
    for key, found in references.items():
        results[key] = statistics.median(found) if found else None
    print(
        "References (medians of every round): python_block_dominoes"
        f" {results['python_block_dominoes'] or 0:,.0f}"
        f" actions/s, gin_rummy (C++) {results['gin_rummy'] or 0:,.0f} actions/s, PettingZoo"
        f" connect_four_v3 {results['connect_four_v3'] or 0:,.0f} steps/s; each ratio is the median of"
        f" {ROUNDS} rounds measured beside its reference"
    )
    # Which modules ran: compiled (make native) or the Python sources (parlour/native.py).
    results["modules"] = native.running()
    print(f"Modules: {results['modules']}")
    return results


def _ratio(value: float | None) -> str:
    """Returns a ratio as text (``-`` where the reference could not be measured)."""
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    """Measures the table; ``--json FILE`` also writes it there."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement (default 5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    results = speed_table(args.seconds)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
