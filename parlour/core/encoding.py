"""What a learning environment needs from a game: its action catalogue and observation tensors.

Each game builds its :class:`Encoding` in ``games/<game>/encoding.py`` (``Game.encoding``); the
environments in ``parlour.envs`` know no game by name. An encoder reads only what the seat may know
(its observation), so a tensor never carries another seat's hidden cards. Seats are counted
clockwise from the viewer (the viewer is 0), padded to six seats (layouts in docs/environments.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from parlour.core.features import Features, relative
from parlour.core.state import GameState

S = TypeVar("S", bound=GameState)
SEATS = 6
"""The seats every tensor has room for (the most any game seats)."""


@dataclass(frozen=True)
class Encoding:
    """A game's action catalogue and observation encoder for a given table size and options."""

    catalogue: list[str]
    """Every action's notation the game can ever offer, in a fixed order (the action ids)."""
    encode: Callable[[GameState, int], Features]
    """Returns the feature vector of what a seat may know."""
    chance_names: tuple[str, ...] = ()
    """The names of every item the game shuffles (piles, placards, home worlds), for chance outcomes."""
    faces: int = 0
    """The highest number any of the game's die rolls can show."""


def seat_block(features: Features, name: str, values: Sequence[object], viewer: int, scale: float) -> None:
    """Appends one number per seat, viewer first, padded to six seats."""
    players = len(values)
    ordered = [0.0] * SEATS
    for seat, value in enumerate(values):
        ordered[relative(seat, viewer, players)] = float(value or 0)  # type: ignore[arg-type]
    features.flags(name, ordered, scale)


def owner_block(features: Features, name: str, owner: int | None, viewer: int, players: int) -> None:
    """Appends a one-hot of a seat (relative to the viewer) or a final 'nobody' slot."""
    slot = SEATS if owner is None else relative(owner, viewer, players)
    features.one_hot(name, slot, range(SEATS + 1))


def game_state(state: GameState, kind: type[S]) -> S:
    """Returns ``state`` as the encoder's own game's state; refuses another game's (TypeError)."""
    if not isinstance(state, kind):
        raise TypeError(f"this encoding reads a {kind.__name__}, not {type(state).__name__}")
    return state
