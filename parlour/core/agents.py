"""The Agent protocol: anything that chooses an action for a seat (bots, humans, remote players)."""

from __future__ import annotations

import random
from typing import Protocol

from parlour.core.state import GameState


class Agent(Protocol):
    """Chooses an action for a seat.

    Contract: an agent may read only what ``seat`` may know — the seat's
    observation, its own hidden cards, public zones, and the legal actions.  A
    search agent that needs a full state asks ``state.determinize(seat, rng)``.
    """

    name: str
    """The agent's name as given on the command line (``random``, ``greedy``)."""

    def choose(self, state: GameState, seat: int) -> object:
        """Returns one of ``state.legal_actions(seat)``."""
        ...


class SeededBot:
    """A game's own bot, with its own random generator seeded so that its games replay."""

    name: str
    """The bot's name on the command line."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """Breaks the bot's ties, the same way for the same seed."""
