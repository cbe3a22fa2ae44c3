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
        """Returns a uniformly random legal action: ``self.rng.choice(legal)``, worked out inline (one call
        to the generator, none to Python methods) when the generator is a plain ``random.Random``."""
        legal = state.legal_actions(seat)
        rng = self.rng
        count = len(legal)
        if type(rng) is not random.Random or not count:
            return rng.choice(legal)
        # Random.choice through _randbelow_with_getrandbits: the same random bits, consumed alike.
        getrandbits = rng.getrandbits
        bits = count.bit_length()
        index = getrandbits(bits)
        while index >= count:
            index = getrandbits(bits)
        return legal[index]
