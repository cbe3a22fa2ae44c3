"""Environment throughput: steps per second through PettingZoo and OpenSpiel, and ISMCTS iterations."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from speed import benchmark_steps, spiel_playouts

from parlour.bots.registry import make_bot
from parlour.core.registry import load_game

OPTIONS: dict[str, dict[str, Any]] = {"venture": {}, "im-the-boss": {}, "venus-needs-men": {}, "embers": {}}


def pettingzoo_steps(name: str, players: int, seconds: float) -> float:
    """Returns environment steps per second of a game (``benchmark_steps``)."""
    from parlour.envs import make

    return benchmark_steps(make(name, players=players, **OPTIONS[name]), seconds)


def connect_four_steps(seconds: float) -> float | str:
    """Returns PettingZoo's own ``connect_four_v3`` steps per second (``benchmark_steps``), the yardstick."""
    try:
        from pettingzoo.classic import connect_four_v3  # type: ignore[import-untyped]
    except ImportError as err:  # its module draws with pygame (installed by ``make bench``)
        return f"unavailable: {err}"
    return benchmark_steps(connect_four_v3.env(), seconds)


def openspiel_steps(name: str, players: int, seconds: float) -> float:
    """Returns pyspiel player steps per second with random legal actions (chance nodes not counted)."""
    import pyspiel

    import parlour.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("parlour_" + name.replace("-", "_"), {"players": players, **OPTIONS[name]})
    return spiel_playouts(game, seconds, count_chance=False)["actions_per_second"]


def ismcts_iterations(name: str, players: int, moves: int = 5) -> float:
    """Returns ISMCTS iterations per second (1 s a move): the median over the searches of a few decisions
    of a game (decisions answered without search, one legal action or bookkeeping, are not counted; a
    median, so the first search's imports, such as Venture's optimiser loading scipy, weigh little)."""
    game = load_game(name)
    state = game.new_state(players, 1)
    bot = make_bot(game, "ismcts:1s", 1)
    rng = random.Random(1)
    rates: list[float] = []
    for _ in range(moves):
        seat = state.deciders()[0]
        before = bot.iterations_done  # type: ignore[attr-defined]
        start = time.perf_counter()
        action = bot.choose(state, seat)
        spent = time.perf_counter() - start
        if bot.iterations_done > before:  # type: ignore[attr-defined]
            rates.append((bot.iterations_done - before) / spent)  # type: ignore[attr-defined]
        state.apply(action, seat)
        for _ in range(3):
            if state.is_over():
                break
            other = state.deciders()[0]
            state.apply(rng.choice(state.legal_actions(other)), other)
    return statistics.median(rates) if rates else 0.0
