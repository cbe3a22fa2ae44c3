"""The Agent protocol: anything that chooses an action for a seat (bots, humans, remote players)."""

from __future__ import annotations

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
