"""Helpers the games' ``scenario.py`` modules share: card names to place, and actions written by seat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from parlour.core.state import GameState

T = TypeVar("T")


class Pool:
    """The multiset of card names a scenario has still to place, each placed once."""

    def __init__(self, names: Iterable[str], what: str, key: Callable[[str], str] = str) -> None:
        self.counts = Counter(names)
        self.what = what
        """What a card is called in errors (``corporation``)."""
        self.key = key
        """Returns the name a card is counted under for a name a test writes."""

    def take(self, name: str) -> str:
        """Takes one card called ``name``; refuses a name the set lacks or one named too often."""
        key = self.key(name)
        if self.counts[key] <= 0:
            raise ValueError(f"no {self.what} {name!r} is left to place (unknown or named too often)")
        self.counts[key] -= 1
        return key

    def take_all(self, names: Iterable[str]) -> list[str]:
        """Takes every named card."""
        return [self.take(n) for n in names]

    def keep_available(self, names: Iterable[str]) -> list[str]:
        """Takes the named cards that are still free, skipping the others."""
        return [self.take(n) for n in names if self.counts[n] > 0]

    def rest(self, order: Iterable[str]) -> list[str]:
        """Takes everything left, in the order given (``order`` lists every name of the set)."""
        result = []
        for name in order:
            if self.counts[name] > 0:
                self.counts[name] -= 1
                result.append(name)
        assert not +self.counts, f"unplaced {self.what}s: {+self.counts}"
        return result


def by_seat(value: Sequence[T] | Mapping[int, T] | None, players: int, field: str) -> dict[int, T]:
    """Returns a per-seat mapping from a list (one entry a seat) or a mapping; ``field`` names it."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return dict(value)
    if len(value) != players:
        raise ValueError(f"{field}: give {players} entries or a mapping seat -> entry")
    return dict(enumerate(value))


def apply_line(state: GameState, line: str) -> None:
    """Applies one action in notation; ``"2: pass"`` names the seat, a bare action is the only decider's."""
    seat, sep, text = line.partition(":")
    if sep and seat.strip().isdecimal():
        state.apply_notation(text.strip(), int(seat))
    else:
        state.apply_notation(line)
