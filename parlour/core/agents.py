"""The Agent protocol: anything that chooses an action for a seat (bots, humans, remote players)."""

from __future__ import annotations

import random
from collections.abc import Iterable
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


class ClosingAgent(Protocol):
    """An agent that holds something to let go of when its game ends (a child process: a ``cmd:`` seat)."""

    def close(self, final: GameState | None = None) -> None:
        """Ends the agent's game: ``final`` is the finished game (None: the game stopped before its end)."""
        ...


def given_values(agent: object) -> tuple[float, ...] | None:
    """Returns the values an agent gave the legal actions of its last choice (its ``last_values``: a
    ``cmd:`` bot's, docs/bot-protocol.md), or None when it gives none."""
    values = getattr(agent, "last_values", None)
    return values if isinstance(values, tuple) else None


def close_agents(agents: Iterable[object], final: GameState | None) -> None:
    """Closes every distinct agent that has a ``close`` (ClosingAgent), each once, all of them even if
    one fails (the first failure is raised after)."""
    failure: BaseException | None = None
    seen: set[int] = set()
    for agent in agents:
        close = getattr(agent, "close", None)  # not isinstance(agent, ClosingAgent): slow on a Protocol
        if close is None or id(agent) in seen:
            continue
        seen.add(id(agent))
        try:
            close(final)
        except Exception as err:
            failure = failure or err
    if failure is not None:
        raise failure


class SeededBot:
    """A game's own bot, with its own random generator seeded so that its games replay."""

    name: str
    """The bot's name on the command line."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """Breaks the bot's ties, the same way for the same seed."""
