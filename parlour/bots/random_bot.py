"""The random bot: uniform over the legal actions."""

from __future__ import annotations

import random

from parlour.core.state import GameState


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> object:
        """Returns a uniformly random legal action."""
        return self.rng.choice(state.legal_actions(seat))
