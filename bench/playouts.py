"""Random playouts of any registered game on one core: actions and games per second."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from parlour.core.registry import load_game
from parlour.core.state import GameState


def random_playouts(
    name: str,
    players: int,
    seconds: float,
    checked: bool,
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> dict[str, float]:
    """Plays random legal actions for ``seconds`` (games seeded ``seed``, ``seed`` + 1, ...); ``checked``
    goes through ``apply``; what the rules load only when first needed (Venture's optimiser and scipy)
    is loaded before the clock starts, as a long-running process would have it."""
    game = load_game(name)
    game.warm_up()
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(players, seed + games, options)
        while not state.is_over():
            seat = state.deciders()[0]
            action = rng.choice(state.legal_actions(seat))
            if checked:
                state.apply(action, seat)
            else:
                state.apply_legal(action, seat)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"actions_per_second": actions / elapsed, "games_per_second": games / elapsed, "games": games}


def copies_per_second(name: str, players: int, options: dict[str, Any] | None = None) -> dict[str, float]:
    """Clones and determinisations per second of states 30 random actions into a game (what search does)."""
    game = load_game(name)
    rng = random.Random(1)
    states = []
    for seed in range(20):
        state = game.new_state(players, seed, options)
        for _ in range(30):
            if state.is_over():
                break
            seat = state.deciders()[0]
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        states.append(state)
    rates: dict[str, float] = {}
    copiers: tuple[tuple[str, Callable[[GameState[Any]], object]], ...] = (
        ("clones_per_second", lambda s: s.clone()),
        ("determinizations_per_second", lambda s: s.determinize(s.deciders()[0] if s.deciders() else 0, rng)),
    )
    for key, copy in copiers:
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < 1.0:
            for state in states:
                copy(state)
            count += len(states)
        rates[key] = count / (time.perf_counter() - start)
    return rates
