"""The decision stack: sub-decisions, reaction windows and negotiation rounds, one mechanism."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.errors import PositionError
from parlour.core.positions import short_key

Seat = int
"""A seat at the table, 0 to players - 1, in clockwise order."""


@dataclass
class Decision:
    """A pending decision: what kind it is, who may act on it, and its payload.

    A turn is the bottom decision; a rule that needs a further choice pushes a
    new decision on top (Venture's "place the corporation you took", I'm the
    Boss!'s negotiation, a Zap-card window), and pops it when the choice is made.
    The top decision alone says who may act.

    Two ways of asking several seats:

    * ``concurrent=False`` (a *sequential* window): only ``seats[0]`` may act;
      when it passes it leaves the list and the next seat is asked.  This is the
      deterministic order bots, learning agents and replays use.
    * ``concurrent=True`` (an *open* window): every listed seat may act now;
      whoever acts first is served first (a server records the accepted order,
      so replays stay exact).

    A game that lets a response re-open the window (a card answered by a card)
    calls :meth:`reopen` with the seats to ask again.

    Pitfall: ``data`` must stay JSON-serialisable (strings, numbers, lists,
    dicts); positions store it verbatim.
    """

    kind: str
    """Game-defined name of the decision, e.g. ``"turn"`` or ``"pay"``."""
    seats: list[Seat]
    """Seats still to decide, in the order they are asked."""
    data: dict[str, Any] = field(default_factory=dict)
    """Game-defined payload (JSON values only)."""
    concurrent: bool = False
    """Whether every listed seat may act at once (open window) or only the first."""

    def deciders(self) -> tuple[Seat, ...]:
        """Returns the seats that may act on this decision now."""
        if not self.seats:
            return ()
        return tuple(self.seats) if self.concurrent else (self.seats[0],)

    def pass_seat(self, seat: Seat) -> None:
        """Records that ``seat`` passes: it is not asked again until a reopen."""
        self.seats.remove(seat)

    def reopen(self, seats: Iterable[Seat]) -> None:
        """Asks these seats again, in this order (after a response changed the situation)."""
        self.seats = list(seats)

    @property
    def is_settled(self) -> bool:
        """Whether every asked seat has passed."""
        return not self.seats

    def copy(self) -> Decision:
        """Returns a deep copy (the payload is copied through its JSON form)."""
        return Decision(self.kind, list(self.seats), _copy_json(self.data), self.concurrent)

    def to_json(self) -> dict[str, Any]:
        """Returns the JSON form stored in positions."""
        return {
            "kind": self.kind,
            "seats": list(self.seats),
            "data": _copy_json(self.data),
            "concurrent": self.concurrent,
        }

    @classmethod
    def from_json(cls, data: Any, path: str, players: int) -> Decision:
        """Reads the JSON form, refusing malformed fields."""
        if not isinstance(data, dict):
            raise PositionError(path, "must be an object")
        unknown = set(data) - {"kind", "seats", "data", "concurrent"}
        if unknown:
            raise PositionError(f"{path}.{short_key(str(sorted(unknown)[0]))}", "unknown field")
        kind, seats = data.get("kind"), data.get("seats")
        if not isinstance(kind, str):
            raise PositionError(f"{path}.kind", "must be a string")
        if not isinstance(seats, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in seats
        ):
            raise PositionError(f"{path}.seats", f"must be a list of seats 0..{players - 1}")
        if len(set(seats)) != len(seats):
            raise PositionError(f"{path}.seats", "lists a seat twice")
        payload = data.get("data", {})
        if not isinstance(payload, dict):
            raise PositionError(f"{path}.data", "must be an object")
        concurrent = data.get("concurrent", False)
        if not isinstance(concurrent, bool):
            raise PositionError(f"{path}.concurrent", "must be true or false")
        return cls(kind, list(seats), payload, concurrent)


class DecisionStack:
    """The stack of pending decisions; the top one says who may act and on what."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Decision] = ()) -> None:
        self._items: list[Decision] = list(items)

    def push(self, decision: Decision) -> Decision:
        """Puts a decision on top and returns it."""
        self._items.append(decision)
        return decision

    def pop(self) -> Decision:
        """Removes and returns the top decision."""
        return self._items.pop()

    @property
    def top(self) -> Decision:
        """The decision being made now."""
        return self._items[-1]

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> Decision:
        """Returns the decision at ``index`` (0 is the bottom, -1 the top)."""
        return self._items[index]

    def __iter__(self) -> Any:
        return iter(self._items)

    def kinds(self) -> list[str]:
        """Returns the kinds from bottom to top (for display and tests)."""
        return [d.kind for d in self._items]

    def copy(self) -> DecisionStack:
        """Returns a deep copy."""
        return DecisionStack(d.copy() for d in self._items)

    def to_json(self) -> list[dict[str, Any]]:
        """Returns the JSON form, bottom first."""
        return [d.to_json() for d in self._items]

    @classmethod
    def from_json(cls, data: Any, path: str, players: int) -> DecisionStack:
        """Reads the JSON form, refusing malformed entries."""
        if not isinstance(data, list):
            raise PositionError(path, "must be a list of decisions")
        return cls(Decision.from_json(d, f"{path}[{i}]", players) for i, d in enumerate(data))


def _copy_json(value: Any) -> Any:
    """Deep-copies a JSON value (faster than copy.deepcopy for plain data)."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value
