"""Venus Needs Men!'s bots (the greedy one comes next)."""

from __future__ import annotations

import random
from typing import Any

from parlour.core.state import GameState


class GreedyBot:
    """Placeholder: random until the greedy strategy lands."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Any:
        """Returns a legal action."""
        return self.rng.choice(state.legal_actions(seat))
