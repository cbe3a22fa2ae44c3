"""What a learning environment needs from a game: its action catalogue and observation tensors.

Each game builds its :class:`Encoding` in ``games/<game>/encoding.py`` (``Game.encoding``); the
environments in ``parlour.envs`` know no game by name. An encoder reads only what the seat may know
(its observation), so a tensor never carries another seat's hidden cards. Seats are counted
clockwise from the viewer (the viewer is 0), padded to six seats (layouts in docs/environments.md).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from parlour.core.features import Features
from parlour.core.state import GameState

S = TypeVar("S", bound=GameState)
Act = TypeVar("Act")
V = TypeVar("V")
SEATS = 6
"""The seats every tensor has room for (the most any game seats)."""
REMEMBERED = 10_000
"""The most piles a :class:`PileCounts` remembers before it starts afresh."""


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
    write: Callable[[GameState, int], np.ndarray] | None = None
    """For an encoder that writes a whole array: returns a new float32 array of a seat's numbers before
    clipping (those ``encode`` gives), without building the features (``observation``)."""
    ids: ActionIds = field(init=False, repr=False, compare=False)
    """The catalogue ids of action objects (found without writing each action's text)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", ActionIds(self.catalogue))


class ActionIds:
    """Finds the catalogue id of action objects without writing their notation each time.

    An action met before is found by identity (games hand out the same objects again and again), in C,
    for a whole list at once; a new one by equality (actions are frozen dataclasses), then by its text.
    The objects whose identity is remembered are kept alive (an ``id`` is never reused while its object
    lives), at most ``LIMIT`` of them: past that the memory starts afresh. The limit is kept small: a game
    that makes new action objects for every list would otherwise keep tens of thousands of them alive for
    nothing, and the garbage collector would walk them all again and again.
    """

    LIMIT = 4_096
    """The most actions remembered by identity (objects kept alive)."""
    EQUAL_LIMIT = 100_000
    """The most actions remembered by equality."""

    def __init__(self, catalogue: Sequence[str]) -> None:
        self.by_text: dict[str, int] = {text: i for i, text in enumerate(catalogue)}
        """Each catalogue text's id."""
        self._by_identity: dict[int, int] = {}
        self._kept: list[object] = []
        self._by_action: dict[object, int] = {}
        self._last: tuple[Sequence[object] | None, list[int]] = (None, [])

    def of(self, actions: Sequence[Act], write: Callable[[Act], str] = str) -> list[int]:
        """Returns the catalogue id of each action, in order (``write``: the action's notation, for one
        never met; KeyError if the catalogue lacks it). The list returned for the last list asked is
        returned again for it: do not change it."""
        last = self._last
        if last[0] is actions:  # the same list again (a state keeps its legal actions' list)
            return last[1]
        try:  # every action met before: all in C
            ids = list(map(self._by_identity.__getitem__, map(id, actions)))
        except KeyError:
            known = self._by_identity.get
            found = [known(id(action)) for action in actions]
            ids = [self._learn(a, write) if i is None else i for a, i in zip(actions, found, strict=True)]
        self._last = (actions, ids)
        return ids

    def _learn(self, action: Act, write: Callable[[Act], str]) -> int:
        """Returns a new action object's id, remembering it by identity (and by equality)."""
        index = self._by_action.get(action)
        if index is None:
            index = self.by_text[write(action)]
            if len(self._by_action) >= self.EQUAL_LIMIT:
                self._by_action.clear()
            self._by_action[action] = index
        if len(self._kept) >= self.LIMIT:
            self._by_identity.clear()
            self._kept.clear()
        self._by_identity[id(action)] = index
        self._kept.append(action)
        return index


_CLIP: np.ufunc = (getattr(np, "_core", None) or np.core).umath.clip
"""NumPy's clip ufunc itself (``np.clip`` reaches it through several Python calls: the same numbers;
``numpy._core`` from NumPy 2, ``numpy.core`` before)."""


def observation(encoding: Encoding, state: GameState, seat: int) -> np.ndarray:
    """Returns a seat's tensor, as ``encoding.encode(state, seat).array()`` gives it (through
    ``encoding.write`` when the encoder has one)."""
    if encoding.write is None:
        return tensor(encoding.encode(state, seat))
    values = encoding.write(state, seat)
    _CLIP(values, 0.0, 1.0, out=values)
    return values


def tensor(features: Features) -> np.ndarray:
    """Returns the features as ``features.array()`` does (float32, clipped to 0..1), taking over the array
    an encoder filled (``Features.filled``) instead of copying it: read the features no more after."""
    values = features.array_
    if values is None:
        values = np.array(features.values, dtype=np.float32)
    _CLIP(values, 0.0, 1.0, out=values)
    return values


class WholeNumbers:
    """A tensor whose every value is a whole number over its block's fixed scale (a flag or one-hot over
    1, a count over the most there can be…), for encoders that write only what is not zero.

    The numbers are written as integers into a copy of a buffer of zeros (``blank``), then divided by
    each place's scale at once in float32 (``values``). That rounds as dividing in Python then converting
    to float32 does: both give the correctly rounded quotient (float64 has more than twice float32's
    precision, so rounding twice cannot differ), for numbers and scales below 2**24.
    """

    def __init__(self, blocks: Sequence[tuple[str, int]], scales: Mapping[str, float]) -> None:
        self.at: dict[str, int] = {}
        """Where each block starts."""
        places: list[float] = []
        for name, length in blocks:
            self.at[name] = len(places)
            places += [float(scales.get(name, 1))] * length
        self.scales = np.array(places, np.float32)
        """Each place's scale (1 where ``scales`` does not name the block)."""
        self.zeros = array("i", bytes(4 * len(places)))
        """The numbers before anything is written (an encoder may set some it always starts from)."""

    def blank(self) -> array[int]:
        """Returns a new copy of the starting numbers, to write one tensor into."""
        return self.zeros[:]

    def values(self, numbers: array[int]) -> np.ndarray:
        """Returns the numbers divided by their scales, as float32 (not clipped)."""
        values = np.frombuffer(numbers, np.intc).astype(np.float32)
        np.divide(values, self.scales, out=values)
        return values


def seat_block(features: Features, name: str, values: Sequence[object], viewer: int, scale: float) -> None:
    """Appends one number per seat, viewer first, padded to six seats."""
    players = len(values)
    ordered = [0.0] * SEATS
    for seat, value in enumerate(values):
        ordered[(seat - viewer) % players] = float(value or 0)  # type: ignore[arg-type]
    features.flags(name, ordered, scale)


def owner_block(features: Features, name: str, owner: int | None, viewer: int, players: int) -> None:
    """Appends a one-hot of a seat (relative to the viewer) or a final 'nobody' slot."""
    features.one_hot_at(name, SEATS if owner is None else (owner - viewer) % players, SEATS + 1)


def game_state(state: GameState, kind: type[S]) -> S:
    """Returns ``state`` as the encoder's own game's state; refuses another game's (TypeError)."""
    if not isinstance(state, kind):
        raise TypeError(f"this encoding reads a {kind.__name__}, not {type(state).__name__}")
    return state


_PADDING = [[0.0] * (SEATS - n) for n in range(SEATS + 1)]
"""The zeros that pad a row of ``n`` seats to six."""


def clockwise(values: Sequence[V], viewer: int) -> list[V]:
    """Returns one value per seat, the viewer's first and then clockwise."""
    return [*values[viewer:], *values[:viewer]]


def turned(values: Sequence[float], viewer: int) -> list[float]:
    """Returns one value per seat, the viewer's first and then clockwise, padded with zeros to six seats
    (what ``seat_block`` writes before scaling: for encoders that write whole vectors)."""
    return [*clockwise(values, viewer), *_PADDING[len(values)]]


class PileCounts:
    """How many cards of each name a pile holds, as the bytes of whole numbers (``array("i")``), remembered
    by the pile (a hand or a discard pile changes seldom from one step to the next)."""

    def __init__(self, name_of: Sequence[int], names: int) -> None:
        self.name_of = name_of
        """Each card's place among the ``names`` sorted card names."""
        self.names = names
        self.counted: dict[tuple[int, ...], bytes] = {}
        """The counts of each pile met, by the pile."""

    def __call__(self, pile: Sequence[int]) -> bytes:
        """Returns the counts of a pile of card numbers."""
        key = tuple(pile)
        found = self.counted.get(key)
        if found is None:
            numbers, name_of = array("i", bytes(4 * self.names)), self.name_of
            for card in pile:
                numbers[name_of[card]] += 1
            found = numbers.tobytes()
            if len(self.counted) >= REMEMBERED:
                self.counted.clear()
            self.counted[key] = found
        return found


def one_hot_row(index: int | None, size: int) -> list[float]:
    """Returns ``size`` zeros with a 1 at ``index`` (none if it is None or out of range)."""
    row = [0.0] * size
    if index is not None and 0 <= index < size:
        row[index] = 1.0
    return row
