"""The decision stack: sub-decisions, reaction windows and negotiation rounds, one mechanism."""

from __future__ import annotations

from abc import ABC
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypedDict

from typing_extensions import TypeVar

from parlour.core.errors import IllegalActionError, PositionError
from parlour.core.payloads import JSONValue, copy_record, read_fields, write_record
from parlour.core.positions import check_int, short_key

Seat = int
"""A seat at the table, 0 to players - 1, in clockwise order."""
S = TypeVar("S", default=Any)
"""The game state a decision belongs to."""
A = TypeVar("A", default=Any)
"""The game's action type."""
MAX_AUTO_STEPS = 10_000
"""The most steps nobody decides that may run in a row (a loop beyond it is a bug in a game)."""
_BASE = frozenset({"seats", "concurrent"})


class DecisionJSON(TypedDict):
    """A decision as positions store it: its kind, the seats asked, its payload, how they are asked."""

    kind: str
    seats: list[Seat]
    data: dict[str, JSONValue]
    concurrent: bool


@dataclass(eq=False, kw_only=True)
class Decision(ABC, Generic[S, A]):
    """A pending decision that carries its own rules: a class per kind, its payload in typed fields.

    A turn is the bottom decision; a rule that needs a further choice pushes a new decision on top
    (Venture's "place the corporation you took", I'm the Boss!'s negotiation, a Zap-card window) and
    pops it when the choice is made. The top decision alone says who may act, what they may do
    (:meth:`legal`) and what an action does (:meth:`apply`); the state dispatches to it, and after
    every action runs :meth:`auto` of the new top until a seat must decide (``GameState.settle``).

    Two ways of asking several seats: ``concurrent=False`` (a *sequential* window) asks ``seats[0]``
    and, when it passes, the next; ``concurrent=True`` (an *open* window) asks every listed seat at
    once, first come first served. :meth:`reopen` asks again after a response changed the situation.

    A subclass is a ``@dataclass`` naming its ``kind`` and declaring its payload as fields of JSON
    types (``parlour.core.payloads``): positions store ``{"kind", "seats", "data", "concurrent"}``,
    ``data`` holding the payload fields, and read them back through the fields' type hints.
    """

    kind: ClassVar[str] = ""
    """The decision's name in positions, views and banners (``"turn"``, ``"pay"``)."""
    passing: ClassVar[bool] = False
    """Whether every seat this decision asks may always pass (a Zap or Stop window, an answer, a
    negotiation round): ``GameState.passing_window`` reads it from the decision on top."""
    _plain_deciders: ClassVar[bool] = True
    """Whether the class keeps the base's :meth:`deciders` (``GameState.deciders`` then works it out
    inline, without the call)."""
    seats: list[Seat] = field(default_factory=list)
    """Seats still to decide, in the order they are asked."""
    concurrent: bool = False
    """Whether every listed seat may act at once (open window) or only the first."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Notes whether the class keeps the base's :meth:`deciders` (``_plain_deciders``)."""
        super().__init_subclass__(**kwargs)
        cls._plain_deciders = cls.deciders is Decision.deciders

    # ----------------------------------------------------------------- the rules of this decision
    def legal(self, state: S, seat: Seat) -> list[A]:
        """Returns the legal actions of ``seat`` (one of the deciders) in a stable order; a step nobody
        decides (one that only has :meth:`auto`) lists none."""
        return []

    def apply(self, state: S, seat: Seat, action: A) -> None:
        """Changes the state for a legal action of ``seat``; a decision that lists no actions refuses
        every one."""
        raise IllegalActionError(f"nobody decides {self.kind!r}: it takes no actions")

    def auto(self, state: S) -> bool:
        """Takes a step nobody decides, if this decision has one now; returns whether it did.

        The state calls it on the top decision after every action, again and again, until it returns
        False (a seat must decide) or the game is over: a finished window closes itself here, a phase
        with nothing left to choose moves on.
        """
        return False

    def accepts(self, state: S, seat: Seat, action: object) -> bool:
        """Returns whether ``action``, though not among :meth:`legal`'s list, is legal all the same (a
        shorthand the list leaves out, such as one line laying several cards); default: none is."""
        return False

    def why(self, state: S, seat: Seat, action: A) -> str:
        """Returns why ``action`` is not legal for ``seat`` (decisions may say more precisely)."""
        return "it is not among the legal actions"

    # ----------------------------------------------------------------- who is asked
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

    # ----------------------------------------------------------------- positions
    def copy(self) -> Self:
        """Returns a deep copy (lists, dicts and records in the payload copied, the rest shared)."""
        return copy_record(self)

    @property
    def data(self) -> dict[str, JSONValue]:
        """The payload as JSON (positions, views and tests read it; change the fields, not this)."""
        return write_record(self, _BASE)

    def to_json(self) -> DecisionJSON:
        """Returns the JSON form stored in positions."""
        seats, concurrent = list(self.seats), self.concurrent
        return {"kind": self.kind, "seats": seats, "data": self.data, "concurrent": concurrent}

    @classmethod
    def read(cls, data: object, path: str, seats: list[Seat], concurrent: bool) -> Self:
        """Returns the decision of this kind whose payload is ``data`` (a JSON object), refusing bad fields.

        Subclasses with consistency rules of their own (a seat number in range...) extend it.
        """
        values = read_fields(cls, data, path, _BASE)
        return cls(seats=seats, concurrent=concurrent, **values)


class _Fields(TypedDict):
    """A stored decision's four fields, checked."""

    kind: str
    seats: list[Seat]
    data: dict[str, object]
    concurrent: bool


class DecisionKinds:
    """A game's decision classes by kind: how positions find the class of each stored decision."""

    def __init__(self, *kinds: type[Decision]) -> None:
        self.kinds: dict[str, type[Decision]] = {}
        for kind in kinds:
            if not kind.kind or kind.kind in self.kinds:
                raise ValueError(f"decision class {kind.__name__} needs a kind of its own, not {kind.kind!r}")
            self.kinds[kind.kind] = kind

    def read(self, data: object, path: str, players: int) -> Decision:
        """Reads one stored decision, refusing malformed fields and unknown kinds."""
        fields_ = _decision_fields(data, path, players)
        kind = self.kinds.get(fields_["kind"])
        if kind is None:
            known = ", ".join(sorted(self.kinds))
            raise PositionError(f"{path}.kind", f"unknown decision {short_key(fields_['kind'])!r} ({known})")
        return kind.read(fields_["data"], f"{path}.data", fields_["seats"], fields_["concurrent"])

    def __contains__(self, kind: object) -> bool:
        return kind in self.kinds


def _decision_fields(data: object, path: str, players: int) -> _Fields:
    """Returns a stored decision's four fields, checked (kind a string, seats distinct seats...)."""
    if not isinstance(data, dict):
        raise PositionError(path, "must be an object")
    unknown = set(data) - {"kind", "seats", "data", "concurrent"}
    if unknown:
        raise PositionError(f"{path}.{short_key(str(sorted(unknown)[0]))}", "unknown field")
    kind, seats = data.get("kind"), data.get("seats")
    if not isinstance(kind, str):
        raise PositionError(f"{path}.kind", "must be a string")
    if not isinstance(seats, list):
        raise PositionError(f"{path}.seats", f"must be a list of seats 0..{players - 1}")
    for i, seat in enumerate(seats):
        check_int(seat, f"{path}.seats[{i}]", 0, players - 1)
    if len(set(seats)) != len(seats):
        raise PositionError(f"{path}.seats", "lists a seat twice")
    payload = data.get("data", {})
    if not isinstance(payload, dict):
        raise PositionError(f"{path}.data", "must be an object")
    concurrent = data.get("concurrent", False)
    if not isinstance(concurrent, bool):
        raise PositionError(f"{path}.concurrent", "must be true or false")
    return {"kind": kind, "seats": list(seats), "data": payload, "concurrent": concurrent}


class DecisionIndex:
    """Numbers decision classes in a fixed order (an encoding's block of decisions): a decision takes the
    number of the first listed class it is an instance of (a subclass, such as each moment's Zap window,
    takes its base's), worked out once per class; ``None`` keeps a number no decision takes."""

    __slots__ = ("_found", "classes")

    def __init__(self, classes: Iterable[type[Decision] | None]) -> None:
        self.classes: tuple[type[Decision] | None, ...] = tuple(classes)
        """The classes, in their numbers' order."""
        self._found: dict[type, int] = {}

    def __len__(self) -> int:
        return len(self.classes)

    def of(self, decision: Decision | None) -> int:
        """Returns the number of ``decision``'s class (-1: none listed, or no decision)."""
        if decision is None:
            return -1
        kind = type(decision)
        found = self._found.get(kind)
        if found is None:
            listed = (i for i, c in enumerate(self.classes) if c is not None and issubclass(kind, c))
            found = self._found[kind] = next(listed, -1)
        return found


D = TypeVar("D", bound=Decision, default=Any)
"""The decisions a stack holds (a game may name its base decision class; a bare ``DecisionStack`` leaves
them untyped, as games that check the kinds they read with ``isinstance`` expect)."""


class DecisionStack(Generic[D]):
    """The stack of pending decisions; the top one says who may act and on what."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[D] = ()) -> None:
        self._items: list[D] = list(items)

    def push(self, decision: D) -> D:
        """Puts a decision on top and returns it."""
        self._items.append(decision)
        return decision

    def pop(self) -> D:
        """Removes and returns the top decision."""
        return self._items.pop()

    @property
    def top(self) -> D:
        """The decision being made now."""
        return self._items[-1]

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> D:
        """Returns the decision at ``index`` (0 is the bottom, -1 the top)."""
        return self._items[index]

    def __iter__(self) -> Iterator[D]:
        return iter(self._items)

    def kinds(self) -> list[str]:
        """Returns the kinds from bottom to top (for display and tests)."""
        return [d.kind for d in self._items]

    def copy(self) -> DecisionStack[D]:
        """Returns a deep copy (built directly, not from a generator passed to ``__init__``: search copies
        stacks all the time)."""
        clone: DecisionStack[D] = DecisionStack.__new__(DecisionStack)
        clone._items = [d.copy() for d in self._items]
        return clone

    def to_json(self) -> list[DecisionJSON]:
        """Returns the JSON form, bottom first."""
        return [d.to_json() for d in self._items]

    @classmethod
    def from_json(cls, data: object, path: str, players: int, kinds: DecisionKinds) -> DecisionStack:
        """Reads the JSON form through the game's decision classes, refusing malformed entries."""
        if not isinstance(data, list):
            raise PositionError(path, "must be a list of decisions")
        return DecisionStack(kinds.read(d, f"{path}[{i}]", players) for i, d in enumerate(data))
