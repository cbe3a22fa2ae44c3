"""A game state described once: its parts, who sees each, how cards are named; copies, redeals and
positions derived from that description.

A game lists its state's parts in a :class:`Layout`::

    LAYOUT = Layout(
        Part("hands", "owner", cards=True),     # one list of cards per seat, seen by its seat
        Part("draw", "secret", cards=True),     # seen by nobody
        Part("discard", cards=True),            # public
        "money", "turn",                        # public values: a name alone is Part(name)
        cards=CardNames(deck.names),            # cards are numbers in the state, names in positions
        shared=("content",),                    # never copied, never written: Part(name, shared=True)
    )

From it (and the state class's type hints) the core derives :meth:`Layout.copy_into` (``clone``: each
part copied as deep as its hint says, no deeper), :meth:`Layout.redeal`
(``determinize``: every card the seat cannot see pooled in a canonical order, shuffled and dealt
back into the same places and sizes), :meth:`Layout.write` and :meth:`Layout.read` (the position's
body, read through the state class's type hints, refusing what does not fit) and
:meth:`Layout.unseen` (which parts a seat cannot see: the secrecy checks' list). A game's position
module then keeps only its real consistency checks (every card in one place, a seat in range...).
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Literal, Protocol, Union

from parlour.core.chance import Chance
from parlour.core.errors import PositionError
from parlour.core.hints import class_hints
from parlour.core.payloads import copy_value, read_value, write_value
from parlour.core.positions import short_repr

Visibility = Literal["public", "owner", "secret"]
"""Who sees a part: everyone; its own seat only (one entry per seat); nobody."""


@dataclass(frozen=True)
class Part:
    """One attribute of a game state: who sees it, whether it holds cards, its name in positions."""

    name: str
    """The attribute's name on the state."""
    visibility: Visibility = "public"
    """Who sees it (``owner``: the attribute is a list with one entry per seat; a ``secret`` part typed
    ``list[list[int]]`` is a pile per seat, each seen by nobody)."""
    cards: bool | CardNames = False
    """Whether it holds cards (a list of cards; for ``owner``, a list of such lists per seat; deeper, as
    the state class's type hint says: ``list[list[list[int]]]`` stacks of cards per seat); a
    :class:`CardNames` of its own where the layout names several kinds of card."""
    key: str = ""
    """Its name in positions (default: the attribute's name)."""
    shared: bool = False
    """Whether it is never copied nor written (content, options: the same for every copy)."""
    pool: str = "cards"
    """The redeal pool of its cards: unseen cards are only ever re-dealt among parts of one pool."""
    copy: Callable[..., object] | None = None
    """Its own copy (the chance's, the decision stack's), where copying by its type hint does not fit."""
    form: Form | None = None
    """Its own position form, where its type hint's does not fit (a space written 1–16, a record in its
    own shape)."""
    body: bool = True
    """Whether the position body holds it (False: copied only, or written elsewhere, as the chance in
    the header)."""

    @property
    def json_key(self) -> str:
        """The part's name in positions."""
        return self.key or self.name


class Form(ABC):
    """A part's own position form: how its value is written and read back (its cards named by the
    layout's :class:`CardNames`, read through the position's allocation)."""

    @abstractmethod
    def write(self, value: object, names: CardNames | None) -> object:
        """Returns the part's value as JSON data."""

    @abstractmethod
    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> object:
        """Returns the part's value read from JSON data, refusing what does not fit (``context``: what
        :meth:`Layout.read` was given, e.g. the state being read)."""


class CardNames:
    """Cards as numbers in a state and as names in positions: a name for each number; several cards may
    share a name (two "10" cards), so reading names back hands out each number once (:meth:`reader`)."""

    def __init__(
        self, names: Sequence[str], what: str = "card", fold: Callable[[str], str] | None = None
    ) -> None:
        self.names = list(names)
        self.what = what
        """What a card is called in errors ("resources card", "corporation")."""
        self.fold = fold
        """How a name read is changed before it is looked up, if at all (``str.upper``: ``st-abc`` reads
        as ``ST-ABC``)."""
        self.numbers: dict[str, list[int]] = {}
        for number, name in enumerate(self.names):
            self.numbers.setdefault(name, []).append(number)

    def name(self, card: int) -> str:
        """Returns a card's name."""
        return self.names[card]

    def number(self, name: object, path: str) -> int:
        """Returns the (first) number of the card called ``name``, refusing an unknown name."""
        name = self.folded(name)
        if not isinstance(name, str) or name not in self.numbers:
            raise PositionError(path, f"there is no {self.what} {short_repr(name)}")
        return self.numbers[name][0]

    def folded(self, name: object) -> object:
        """Returns a name read as the cards' names are written (see ``fold``)."""
        return self.fold(name) if self.fold is not None and isinstance(name, str) else name

    def reader(self) -> CardReader:
        """Returns an allocator handing out each card's number once, as names are read."""
        return CardReader(self)


class CardReader:
    """Reads card names as numbers, each number once: the id allocation of a position being read."""

    def __init__(self, cards: CardNames) -> None:
        self.cards = cards
        self.free = {name: list(numbers) for name, numbers in cards.numbers.items()}
        self.seen: dict[int, str] = {}

    def number(self, name: object, path: str) -> int:
        """Returns an unused number of the card called ``name``, refusing an unknown name or one more
        card of that name than there are."""
        cards = self.cards
        name = cards.folded(name)
        if not isinstance(name, str) or name not in self.free:
            raise PositionError(path, f"there is no {cards.what} {short_repr(name)}")
        free = self.free[name]
        if not free:
            count = len(cards.numbers[name])
            if count == 1:
                raise PositionError(path, f"{name} is also at {self.seen[cards.numbers[name][0]]}")
            raise PositionError(path, f"more {name!r} cards than the {count} there are")
        number = free.pop(0)
        self.seen[number] = path
        return number

    def missing(self) -> list[str]:
        """Returns the names of the cards not read yet (each once per missing copy), in number order."""
        unread = sorted(n for numbers in self.free.values() for n in numbers)
        return [self.cards.names[n] for n in unread]


class Layout:
    """The parts of a game's state and how its cards are named (see the module's docstring)."""

    def __init__(
        self, *parts: Part | str, cards: CardNames | None = None, shared: Sequence[str] = ()
    ) -> None:
        self.parts = (
            *(Part(p) if isinstance(p, str) else p for p in parts),
            *(Part(name, shared=True) for name in shared),
        )
        """The parts (a name alone given for a public value: ``Part(name)``), then the ``shared`` ones."""
        parts = self.parts
        self.cards = cards
        self._hidden = tuple(p for p in parts if p.cards and p.visibility != "public")
        self._dealt = tuple(sorted(self._hidden, key=lambda p: p.visibility != "owner"))
        """The hidden parts in the order a redeal deals them: hands first, then the face-down places."""
        self._copiers: dict[type, Callable[[object, object], None]] = {}
        self._plans: dict[type, tuple[tuple[str, str, int], ...]] = {}
        self._pools = len({p.pool for p in self._hidden})
        odd = [p.name for p in parts if not p.name.isidentifier()]
        if odd:
            raise ValueError(f"a part is an attribute of the state, not {odd[0]!r}")

    def names_of(self, part: Part) -> CardNames | None:
        """Returns how a part's cards are named (its own names, else the layout's; None: as they are)."""
        return part.cards if isinstance(part.cards, CardNames) else self.cards

    # ----------------------------------------------------------------- copies
    def copy_into(self, state: object, other: object) -> None:
        """Copies every part of ``state`` onto ``other``: shared parts and values that never change in
        place (``int``, ``str``, frozen records...) by reference, the others deeply, each as deep as its
        type hint on the state's class says (``list[int]`` a flat copy; no hint: :func:`copy_value`)."""
        kind = type(state)
        copy = self._copiers.get(kind)
        if copy is None:
            copy = self._copiers[kind] = _compile_copy(self.parts, _hints(kind))
        copy(state, other)

    # ----------------------------------------------------------------- what a seat does not see
    def unseen(self, state: object, seat: int | None) -> list[tuple[str, list[Card]]]:
        """Returns every list of cards ``seat`` cannot see (None: a spectator), named as in positions
        (``hands[2]``), in the layout's order: the places a redeal changes and a view must not show."""
        found: list[tuple[str, list[Card]]] = []
        how = {name: kind for name, kind, _ in self._plans.get(type(state)) or self._plan(type(state))}
        for part in self._hidden:
            value = getattr(state, part.name)
            if how[part.name] == "one":
                found.append((part.json_key, value))
            else:
                mine = seat if part.visibility == "owner" else None
                found.extend((f"{part.json_key}[{s}]", pile) for s, pile in enumerate(value) if s != mine)
        return found

    def redeal(self, state: object, seat: int, rng: random.Random) -> None:
        """Re-deals every card ``seat`` cannot see among the places of its pool that hold them, keeping
        each place's size; pools in the order their first part is dealt, places as a dealer deals: the
        other seats' hands first, then the face-down places, each in the layout's order. The result
        depends only on what the seat knows (each pool is sorted before the shuffle)."""
        plan = self._plans.get(type(state)) or self._plan(type(state))
        pools: list[list[list[Card]]] = [[] for _ in range(self._pools)]
        for name, how, pool in plan:
            places, value = pools[pool], getattr(state, name)
            if how == "owner":
                for s, hand in enumerate(value):
                    if s != seat:
                        places.append(hand)
            elif how == "piles":
                places += value
            else:
                places.append(value)
        for places in pools:
            cards_left = sorted(chain.from_iterable(places))
            rng.shuffle(cards_left)
            start = 0
            for cards in places:
                end = start + len(cards)
                cards[:] = cards_left[start:end]
                start = end

    def _plan(self, kind: type) -> tuple[tuple[str, str, int], ...]:
        """Returns how a redeal walks a state class's hidden parts, in dealing order: each part's name,
        whether it is a hand per seat (``owner``), a face-down pile per seat (``piles``) or one place,
        and the index of its pool."""
        hints = _hints(kind)
        pools: dict[str, int] = {}
        plan = []
        for part in self._dealt:
            # a secret part typed list[list[int]] is a face-down pile per seat, each a place of its own
            piles = _depth(hints.get(part.name, _CARDS)) > 1
            how = "owner" if part.visibility == "owner" else "piles" if piles else "one"
            plan.append((part.name, how, pools.setdefault(part.pool, len(pools))))
        found = self._plans[kind] = tuple(plan)
        return found

    # ----------------------------------------------------------------- positions
    def write(self, state: object) -> dict[str, object]:
        """Returns the position body: every part but the shared ones, cards by name."""
        body: dict[str, object] = {}
        for part in self.parts:
            if part.shared or not part.body:
                continue
            value = getattr(state, part.name)
            if part.form is not None:
                body[part.json_key] = part.form.write(value, self.names_of(part))
                continue
            names = self.names_of(part) if part.cards else None
            if names is not None:
                value = _card_names(names, value)
            body[part.json_key] = write_value(value)
        return body

    def readers(self) -> dict[int, CardReader]:
        """Returns a fresh card allocator per kind of card the layout names, keyed by ``id`` of its
        :class:`CardNames` (pass it to :meth:`read`; its ``missing`` lists cards no part held)."""
        found: dict[int, CardReader] = {}
        for names in [self.cards, *(self.names_of(p) for p in self.parts if p.cards)]:
            if names is not None and id(names) not in found:
                found[id(names)] = names.reader()
        return found

    def read(
        self,
        kind: type,
        data: Mapping[str, object],
        path: str = "",
        readers: dict[int, CardReader] | None = None,
        context: object = None,
    ) -> dict[str, object]:
        """Returns each part's value read from a position body (refusing what does not fit the state
        class's type hints or the part's form, which gets ``context``; each card number handed out once,
        by ``readers`` where given); the caller sets them on the new state and checks consistency."""
        hints = _hints(kind)
        readers = self.readers() if readers is None else readers
        values: dict[str, object] = {}
        for part in self.parts:
            if part.shared or not part.body:
                continue
            where = f"{path}.{part.json_key}" if path else part.json_key
            if part.json_key not in data:
                raise PositionError(where, "missing")
            raw = data[part.json_key]
            if part.form is not None:
                own = self.names_of(part)  # a form reads its cards with the part's names, else the layout's
                reader = readers[id(own)] if own is not None else None
                values[part.name] = part.form.read(raw, where, reader, context)
                continue
            names = self.names_of(part) if part.cards else None
            if names is not None:
                hint = hints.get(part.name, _SEAT_CARDS if part.visibility == "owner" else _CARDS)
                values[part.name] = _read_cards(readers[id(names)], raw, where, hint)
            else:
                values[part.name] = read_value(hints[part.name], raw, where)
        return values

    def keys(self) -> list[str]:
        """Returns the position keys the parts use (a position module adds its header's)."""
        return [p.json_key for p in self.parts if not p.shared and p.body]

    def card_places(self, state: object) -> Iterable[tuple[str, list[Card]]]:
        """Yields every list of cards in the state with its part's name (for conservation checks)."""
        for part in self.parts:
            if part.cards:
                value = getattr(state, part.name)
                if part.visibility == "owner":
                    yield from ((f"{part.name}[{s}]", hand) for s, hand in enumerate(value))
                else:
                    yield part.name, value


def _depth(hint: object) -> int:
    """Returns how deep lists nest in a type hint (``list[list[int]]``: 2)."""
    depth = 0
    while typing.get_origin(hint) is list:
        depth, hint = depth + 1, typing.get_args(hint)[0]
    return depth


def _card_names(names: CardNames, value: CardNumbers) -> list[object]:
    """Returns a list of cards (or of lists of cards, at any depth) written by name; a card a game keeps
    by name already (a string) stays as it is (only lists and tuples are gone into)."""
    name = names.name
    return [
        name(v) if isinstance(v, int) else _card_names(names, v) if isinstance(v, list | tuple) else _kept(v)
        for v in value
    ]


def _kept(value: object) -> str:
    """Returns a card a game keeps by name (a string); refuses anything else in a part of cards."""
    if not isinstance(value, str):
        raise TypeError(f"a part of cards holds {type(value).__name__}, not a card number or name")
    return value


Card = int | str
"""One card as a state holds it: a number (or, in a game that keeps names, its name)."""
CardNumbers = Sequence["int | CardNumbers"]
"""Card numbers as a part holds them: a list of numbers, or of such lists (a pile per seat)."""
_CARDS: object = list[int]
"""The type of a part holding cards, when the state's class gives none: a list of card numbers."""
_SEAT_CARDS: object = list[list[int]]
"""... and of an ``owner`` part: a list of cards per seat."""


def _read_cards(reader: CardReader, raw: object, path: str, hint: object) -> CardNumbers:
    """Reads a list of card names (or of lists of them, as deep as ``hint`` says: ``list[list[int]]``
    a list per seat) as card numbers, each number once."""
    if not isinstance(raw, list):
        raise PositionError(path, "must be a list")
    args = typing.get_args(hint)
    inner = args[0] if args else int
    if typing.get_origin(inner) is list:
        return [_read_cards(reader, item, f"{path}[{i}]", inner) for i, item in enumerate(raw)]
    return [reader.number(name, f"{path}[{i}]") for i, name in enumerate(raw)]


def _compile_copy(parts: tuple[Part, ...], hints: dict[str, object]) -> Callable[[object, object], None]:
    """Returns a function copying the parts of one state class as a hand-written ``clone`` would
    (``other.hands = [item0.copy() for item0 in state.hands]``), written once from the type hints (as
    ``dataclasses`` writes an ``__init__``): a clone is the hot path of every search. A shared part is
    copied by reference, a part with its own ``copy`` through it."""
    namespace: dict[str, object] = {"copy_value": copy_value}
    lines: list[str] = []
    for part in parts:
        name = part.name
        if part.shared:
            expr = f"state.{name}"
        elif part.copy is not None:
            namespace[f"copy_{name}"] = part.copy
            expr = f"copy_{name}(state.{name})"
        else:
            expr = _copy_expr(hints.get(name, object), f"state.{name}", 0, namespace)
        lines.append(f"    other.{name} = {expr}")
    exec("def copy(state, other):\n" + "\n".join(lines or ["    pass"]), namespace)
    return typing.cast(Callable[[object, object], None], namespace["copy"])


def _copy_expr(hint: object, value: str, depth: int, namespace: dict[str, object]) -> str:
    """Returns the expression that copies ``value`` of type ``hint``: the value itself if it never changes
    in place, a flat copy of a list or dict of such values, a list or dict of copies one level deeper, a
    TypedDict record entry by entry..., else :func:`copy_value` (helpers the code calls go in
    ``namespace``)."""
    if _immutable(hint):
        return value
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (list, dict):
        inner = args[-1]
        if _immutable(inner):
            return f"{value}.copy()"
        item = f"item{depth}"
        if origin is list:
            return f"[{_copy_expr(inner, item, depth + 1, namespace)} for {item} in {value}]"
        key = f"key{depth}"
        return (
            f"{{{key}: {_copy_expr(inner, item, depth + 1, namespace)} for {key}, {item} in {value}.items()}}"
        )
    if typing.is_typeddict(hint):
        helper = f"record{len(namespace)}"
        namespace[helper] = _record_copier(class_hints(hint), namespace)
        return f"{helper}({value})"
    return f"copy_value({value})"


def _record_copier(hints: dict[str, object], namespace: dict[str, object]) -> Callable[..., object]:
    """Returns a function copying a TypedDict record: the dict, then each of its entries that may change
    in place (an entry the record leaves out stays out)."""
    lines = ["def copy_record(value):", "    found = dict(value)"]
    for depth, (key, hint) in enumerate(hints.items()):
        if not _immutable(hint):
            expr = _copy_expr(hint, f"found[{key!r}]", 100 + depth, namespace)
            lines.append(f"    if {key!r} in found: found[{key!r}] = {expr}")
    lines.append("    return found")
    local: dict[str, object] = {}
    exec("\n".join(lines), namespace, local)  # the code is written here from the record's keys alone
    found = local["copy_record"]
    assert callable(found)
    return found


def _immutable(hint: object) -> bool:
    """Returns whether values of type ``hint`` never change in place (numbers, strings, frozen records,
    tuples and unions of such)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (int, float, str, bool, type(None), None) or origin is Literal:
        return True
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return bool(hint.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    return origin in (tuple, Union, types.UnionType) and all(_immutable(a) for a in args if a is not Ellipsis)


_HINTS: dict[type, dict[str, object]] = {}


def _hints(kind: type) -> dict[str, object]:
    """Returns a state class's attribute type hints (resolved once)."""
    found = _HINTS.get(kind)
    if found is None:
        found = _HINTS[kind] = class_hints(kind)
    return found


class Headed(Protocol):
    """What a position's header is read from: a game state's name, seats, options and chance."""

    game_name: str
    players: int
    chance: Chance

    @property
    def options(self) -> Mapping[str, object]:
        """The game's checked option values (a state may keep them in a dict of its own type)."""


def position_header(state: Headed, fmt: str) -> dict[str, object]:
    """Returns the fields every position starts with: format, game, players, options, chance."""
    return {
        "format": fmt,
        "game": state.game_name,
        "players": state.players,
        "options": dict(state.options),
        "chance": state.chance.to_json(),
    }
