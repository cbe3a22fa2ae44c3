"""Random playouts of any registered game on one core: actions and games per second."""

from __future__ import annotations

import random
import time
from typing import Any

from parlour.core.registry import load_game


def random_playouts(
    name: str, players: int, seconds: float, checked: bool, options: dict[str, Any] | None = None
) -> dict[str, float]:
    """Plays random legal actions for ``seconds``; ``checked`` goes through ``apply``."""
    game = load_game(name)
    rng = random.Random(0)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(players, games, options)
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
