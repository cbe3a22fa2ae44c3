"""Chance: the seeded random generator kept in a game state, with a queue of forced outcomes.

A :class:`ProbeChance` never draws: it lets a front end (OpenSpiel's explicit chance nodes) find out
which chance events an action asks for, then supply every outcome as a forced one.
"""

from __future__ import annotations

import _random
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypedDict, TypeVar

from parlour.core.errors import IllegalActionError, PositionError
from parlour.core.positions import short_key, short_repr

T = TypeVar("T")

DIE = "die"
ORDER = "order"


@dataclass
class Forced:
    """One forced chance outcome: a die result or the order of a shuffled pile."""

    kind: str
    """``"die"`` (an int) or ``"order"`` (a list of item names, top of pile first)."""
    value: int | list[str]
    """The outcome; for ``order``, item names as the game's notation writes them."""


class ForcedJSON(TypedDict):
    """A forced outcome as positions and records store it."""

    kind: str
    value: int | list[str]


class ChanceJSON(TypedDict):
    """The generator as positions store it: its seed, the events drawn so far, the outcomes still forced."""

    seed: int
    events: int
    forced: list[ForcedJSON]


@dataclass
class Chance:
    """Seeded generator held in the state, so that seed plus actions replays a game exactly.

    Every chance event (a shuffle, a die roll) asks this object.  Each event is
    drawn from a generator seeded with ``(seed, events)``, so the whole chance
    state is two integers and serialises into a position.  Before falling back
    to the generator, an event consumes the head of ``forced`` if that entry has
    the event's kind: a test can say "the next roll is a 7", and a table playing
    with physical dice or cards can enter what really happened.

    Pitfall: never use the module-level ``random`` in rules code; everything
    random must come from here, or replays diverge.
    """

    seed: int
    """The game's seed."""
    events: int = 0
    """How many chance events have been drawn from the generator so far."""
    forced: list[Forced] = field(default_factory=list)
    """Outcomes consumed, in order, before the generator is asked."""
    ask: Callable[[int, int], int] | None = field(default=None, compare=False, repr=False)
    """If set, die results come from ``ask(low, high)`` (a table rolling real dice); copies drop it."""

    def _generator(self) -> random.Random:
        """Returns the generator for the next event, seeded with ``"seed:events"``, and counts the event.

        The thread's one generator is seeded again for each event, exactly as ``random.Random(text)``
        would be (the text and its SHA-512 digest as one integer), without making a generator each
        time: the caller draws from it at once, before any other event.
        """
        text = f"{self.seed}:{self.events}".encode()
        rng = _seeded(int.from_bytes(text + _SHA512(text).digest()))
        self.events += 1
        return rng

    def _take_forced(self, kind: str) -> Forced | None:
        """Pops the head of the forced queue if it is of this kind."""
        if self.forced and self.forced[0].kind == kind:
            return self.forced.pop(0)
        return None

    def roll(self, sides: int, low: int = 1) -> int:
        """Returns a die result from ``low`` to ``low + sides - 1``."""
        forced = self._take_forced(DIE)
        if forced is not None:
            value = forced.value
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value < low + sides:
                raise IllegalActionError(f"forced die result {value} is outside {low}..{low + sides - 1}")
            return value
        if self.ask is not None:
            value = self.ask(low, low + sides - 1)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value < low + sides:
                raise IllegalActionError(
                    f"die result {short_repr(value)} is outside {low}..{low + sides - 1}"
                )
            return value
        return self._generator().randrange(low, low + sides)

    def shuffle(self, items: Sequence[T], name_of: Callable[[T], str] = str) -> list[T]:
        """Returns the items in a random order (or the forced order), top of pile first."""
        forced = self._take_forced(ORDER)
        if forced is not None:
            if not isinstance(forced.value, list):
                raise IllegalActionError(
                    f"a forced order must be a list of names, not {short_repr(forced.value)}"
                )
            return _forced_order(items, forced.value, name_of)
        result = list(items)
        self._generator().shuffle(result)
        return result

    def fresh(self, rng: random.Random) -> Chance:
        """Returns a new generator seeded from ``rng``, with no forced outcomes."""
        return Chance(seed=rng.randrange(2**62))

    def copy(self) -> Chance:
        """Returns an independent copy."""
        return Chance(self.seed, self.events, [Forced(f.kind, f.value) for f in self.forced])

    def to_json(self) -> ChanceJSON:
        """Returns the JSON form used inside positions."""
        return {
            "seed": self.seed,
            "events": self.events,
            "forced": [{"kind": f.kind, "value": f.value} for f in self.forced],
        }

    @classmethod
    def from_json(cls, data: object, path: str = "chance") -> Chance:
        """Reads the JSON form, refusing malformed fields."""
        if not isinstance(data, dict):
            raise PositionError(path, "must be an object")
        unknown = set(data) - {"seed", "events", "forced"}
        if unknown:
            raise PositionError(f"{path}.{short_key(str(sorted(unknown)[0]))}", "unknown field")
        seed, events = data.get("seed"), data.get("events", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PositionError(f"{path}.seed", "must be an integer")
        if not isinstance(events, int) or isinstance(events, bool) or events < 0:
            raise PositionError(f"{path}.events", "must be a non-negative integer")
        entries = data.get("forced", [])
        if not isinstance(entries, list):
            raise PositionError(f"{path}.forced", "must be a list of outcomes")
        forced = [read_forced(entry, f"{path}.forced[{i}]") for i, entry in enumerate(entries)]
        return cls(seed, events, forced)


@dataclass(frozen=True)
class ChanceRequest:
    """A chance event that a :class:`ProbeChance` had no forced outcome for."""

    kind: str
    """``"die"`` or ``"order"`` (the kinds of :class:`Forced`)."""
    low: int = 0
    """A die's lowest result."""
    high: int = 0
    """A die's highest result."""
    names: tuple[str, ...] = ()
    """A pile's item names as the game's notation writes them, in the engine's order (with repeats)."""


class NeedChance(Exception):
    """Raised by a :class:`ProbeChance` at an event with no forced outcome; carries the request."""

    def __init__(self, request: ChanceRequest) -> None:
        super().__init__(f"a forced {request.kind} outcome is needed")
        self.request = request


@dataclass
class ProbeChance(Chance):
    """Chance that never draws: each event takes its forced outcome or raises :class:`NeedChance`.

    An event with a single possible outcome (a one-sided die, a pile whose items all share one name)
    needs nothing and is resolved at once.  Ordinary states never hold one, so the generator's path
    costs nothing extra; a copy (state clones) is a plain :class:`Chance` again.
    """

    def roll(self, sides: int, low: int = 1) -> int:
        """Returns the forced die result, or raises :class:`NeedChance` naming the die."""
        if sides == 1:
            return low
        if not (self.forced and self.forced[0].kind == DIE):
            raise NeedChance(ChanceRequest(DIE, low=low, high=low + sides - 1))
        return super().roll(sides, low)

    def shuffle(self, items: Sequence[T], name_of: Callable[[T], str] = str) -> list[T]:
        """Returns the items in the forced order, or raises :class:`NeedChance` naming the pile."""
        names = tuple(str(name_of(item)) for item in items)
        if len(set(names)) <= 1:
            return list(items)
        if not (self.forced and self.forced[0].kind == ORDER):
            raise NeedChance(ChanceRequest(ORDER, names=names))
        return super().shuffle(items, name_of)


_THREAD = threading.local()
"""Each thread's generator that :meth:`Chance._generator` seeds again for every event."""


class Digest(Protocol):
    """A hash of bytes (``hashlib``'s objects): its ``digest``."""

    def digest(self) -> bytes:
        """Returns the hash's bytes."""


_SHA512: Callable[[bytes], Digest] = random._sha512  # type: ignore[attr-defined]
"""The SHA-512 that ``random.Random.seed`` hashes a text seed with (the built-in one, not OpenSSL's)."""
_SEED = _random.Random.seed
"""Seeding from an integer in C (what ``random.Random.seed`` does with the integer it makes of a text)."""


def _seeded(number: int) -> random.Random:
    """Returns the thread's generator seeded with ``number`` (``random.Random(number)``'s state)."""
    rng: random.Random | None = getattr(_THREAD, "rng", None)
    if rng is None:
        rng = _THREAD.rng = random.Random(0)
    _SEED(rng, number)
    return rng


def read_forced(entry: object, where: str) -> Forced:
    """Reads one forced outcome ``{"kind", "value"}``, refusing a malformed one."""
    if not isinstance(entry, dict) or set(entry) != {"kind", "value"}:
        raise PositionError(where, "must be an object with 'kind' and 'value'")
    kind, value = entry["kind"], entry["value"]
    if kind == DIE and (not isinstance(value, int) or isinstance(value, bool)):
        raise PositionError(where, "a die outcome must be an integer")
    if kind == ORDER and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise PositionError(where, "an order outcome must be a list of names")
    if kind not in (DIE, ORDER):
        raise PositionError(where, f"kind must be '{DIE}' or '{ORDER}'")
    return Forced(kind, value)


def _forced_order(items: Sequence[T], names: Sequence[object], name_of: Callable[[T], str]) -> list[T]:
    """Arranges items in the forced order of names; refuses a list that is not a permutation."""
    pool: dict[str, list[T]] = {}
    for item in items:
        pool.setdefault(name_of(item), []).append(item)
    result: list[T] = []
    for name in names:
        if not pool.get(str(name)):
            raise IllegalActionError(f"forced order names {short_repr(name)}, which is not in the pile")
        result.append(pool[str(name)].pop())
    if len(result) != len(items):
        raise IllegalActionError(f"forced order lists {len(result)} items but the pile holds {len(items)}")
    return result
