"""A game state described once: its parts, who sees each, how cards are named; copies, redeals and
positions derived from that description.

A game lists its state's parts in a :class:`Layout`::

    LAYOUT = Layout(
        Part("hands", "owner", cards=True),     # one list of cards per seat, seen by its seat
        Part("draw", "secret", cards=True),     # seen by nobody
        Part("discard", cards=True),            # public
        Part("money"), Part("turn"),            # public values
        Part("content", shared=True),           # never copied, never written
        cards=CardNames(deck.names),            # cards are numbers in the state, names in positions
    )

From it the core derives :meth:`Layout.copy_into` (``clone``), :meth:`Layout.redeal`
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
from typing import Any, Literal, Union, get_args, get_origin

from parlour.core.errors import PositionError
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
    """Who sees it (``owner``: the attribute is a list with one entry per seat)."""
    cards: bool | CardNames = False
    """Whether it holds cards (a list of cards; for ``owner``, a list of such lists per seat); a
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

    def __init__(self, names: Sequence[str], what: str = "card") -> None:
        self.names = list(names)
        self.what = what
        """What a card is called in errors ("resources card", "corporation")."""
        self.numbers: dict[str, list[int]] = {}
        for number, name in enumerate(self.names):
            self.numbers.setdefault(name, []).append(number)

    def name(self, card: int) -> str:
        """Returns a card's name."""
        return self.names[card]

    def number(self, name: object, path: str) -> int:
        """Returns the (first) number of the card called ``name``, refusing an unknown name."""
        if not isinstance(name, str) or name not in self.numbers:
            raise PositionError(path, f"there is no {self.what} {short_repr(name)}")
        return self.numbers[name][0]

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

    def __init__(self, *parts: Part, cards: CardNames | None = None) -> None:
        self.parts = parts
        self.cards = cards
        self._copiers: dict[type, Callable[..., object]] = {}
        pools: dict[str, list[Part]] = {}
        for part in parts:
            if part.cards and part.visibility != "public":
                pools.setdefault(part.pool, []).append(part)
        self._pools = tuple(tuple(found) for found in pools.values())

    def names_of(self, part: Part) -> CardNames | None:
        """Returns how a part's cards are named (its own names, else the layout's; None: as they are)."""
        return part.cards if isinstance(part.cards, CardNames) else self.cards

    # ----------------------------------------------------------------- copies
    def copy_into(self, state: object, other: object) -> None:
        """Copies every part of ``state`` onto ``other`` (shared parts and immutable values by reference,
        others deeply, each by a copier its type hint chooses once per state class)."""
        copy_parts = self._copiers.get(type(state))
        if copy_parts is None:
            copy_parts = self._copiers[type(state)] = self._copy_parts(type(state))
        copy_parts(state, other)

    def _copy_parts(self, kind: type) -> Callable[..., object]:
        """Returns a function copying every part of a state class, written out once as plain attribute
        assignments (as ``dataclasses`` writes ``__init__``): as fast as a hand-written ``clone``."""
        hints = _hints(kind)
        copiers: dict[str, Callable[..., object]] = {}
        lines = ["def copy_parts(state, other):"]
        for part in self.parts:
            name = part.name
            assert name.isidentifier(), f"a part names an attribute, not {name!r}"
            copy = None if part.shared else part.copy or _copier(hints[name])
            if copy is None:
                lines.append(f"    other.{name} = state.{name}")
            else:
                copiers[f"copy_{name}"] = copy
                lines.append(f"    other.{name} = copy_{name}(state.{name})")
        if len(lines) == 1:
            lines.append("    pass")
        namespace: dict[str, object] = dict(copiers)
        exec("\n".join(lines), namespace)  # the code is written here from attribute names alone
        found = namespace["copy_parts"]
        assert callable(found)
        return found

    # ----------------------------------------------------------------- what a seat does not see
    def unseen(self, state: object, seat: int | None) -> list[tuple[str, list[Any]]]:
        """Returns every list of cards ``seat`` cannot see (None: a spectator), named as in positions
        (``hands[2]``): the places a redeal changes and a view must not show."""
        return [(name, cards) for name, _, cards in self._unseen(state, seat)]

    def _unseen(self, state: object, seat: int | None) -> list[tuple[str, str, list[Any]]]:
        """Returns the unseen places as (name, pool, cards), in the layout's order."""
        found: list[tuple[str, str, list[Any]]] = []
        for part in self.parts:
            if not part.cards or part.visibility == "public":
                continue
            value = getattr(state, part.name)
            if part.visibility == "secret":
                found.append((part.json_key, part.pool, value))
            else:
                found.extend(
                    (f"{part.json_key}[{s}]", part.pool, hand) for s, hand in enumerate(value) if s != seat
                )
        return found

    def redeal(self, state: object, seat: int, rng: random.Random) -> None:
        """Re-deals every card ``seat`` cannot see among the places of its pool that hold them, keeping
        each place's size; pools in the order their first part is listed, places in the layout's order.
        The result depends only on what the seat knows (each pool is sorted before the shuffle)."""
        for parts in self._pools:
            places: list[list[Any]] = []
            for part in parts:
                value = getattr(state, part.name)
                if part.visibility == "secret":
                    places.append(value)
                else:
                    places += [hand for s, hand in enumerate(value) if s != seat]
            cards_left = sorted(chain.from_iterable(places))
            rng.shuffle(cards_left)
            start = 0
            for cards in places:
                end = start + len(cards)
                cards[:] = cards_left[start:end]
                start = end

    # ----------------------------------------------------------------- positions
    def write(self, state: object) -> dict[str, Any]:
        """Returns the position body: every part but the shared ones, cards by name."""
        body: dict[str, Any] = {}
        for part in self.parts:
            if part.shared or not part.body:
                continue
            value = getattr(state, part.name)
            names = self.names_of(part) if part.cards else None
            if part.form is not None:
                body[part.json_key] = part.form.write(value, self.cards)
                continue
            if names is not None:
                value = _card_names(names, value, part.visibility == "owner")
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
        reader = readers[id(self.cards)] if self.cards is not None else None
        values: dict[str, object] = {}
        for part in self.parts:
            if part.shared or not part.body:
                continue
            where = f"{path}.{part.json_key}" if path else part.json_key
            if part.json_key not in data:
                raise PositionError(where, "missing")
            raw = data[part.json_key]
            names = self.names_of(part) if part.cards else None
            if part.form is not None:
                values[part.name] = part.form.read(raw, where, reader, context)
            elif names is not None:
                values[part.name] = _read_cards(readers[id(names)], raw, where, part.visibility == "owner")
            else:
                values[part.name] = read_value(hints[part.name], raw, where)
        return values

    def keys(self) -> list[str]:
        """Returns the position keys the parts use (a position module adds its header's)."""
        return [p.json_key for p in self.parts if not p.shared and p.body]

    def card_places(self, state: object) -> Iterable[tuple[str, list[Any]]]:
        """Yields every list of cards in the state with its part's name (for conservation checks)."""
        for part in self.parts:
            if part.cards:
                value = getattr(state, part.name)
                if part.visibility == "owner":
                    yield from ((f"{part.name}[{s}]", hand) for s, hand in enumerate(value))
                else:
                    yield part.name, value


def _card_names(names: CardNames, value: Any, per_seat: bool) -> Any:
    """Returns a list of cards (or of per-seat lists) written by name."""
    name = names.name
    return [[name(c) for c in hand] for hand in value] if per_seat else [name(c) for c in value]


def _read_cards(reader: CardReader, raw: object, path: str, per_seat: bool) -> list[Any]:
    """Reads a list of card names (or of per-seat lists) as card numbers, each number once."""
    if not isinstance(raw, list):
        raise PositionError(path, "must be a list")
    if per_seat:
        return [_read_cards(reader, hand, f"{path}[{i}]", False) for i, hand in enumerate(raw)]
    return [reader.number(name, f"{path}[{i}]") for i, name in enumerate(raw)]


def _copier(hint: object) -> Callable[..., object] | None:
    """Returns how to copy values of a type hint deeply (None: immutable, shared as they are); lists and
    dicts of immutable values by ``list`` and ``dict``, which is what keeps copies fast."""
    origin, args = get_origin(hint), get_args(hint)
    if hint in (int, float, str, bool, type(None), None) or origin is Literal:
        return None
    if origin in (list, dict):
        inner = _copier(args[-1])
        if inner is None:
            return origin  # type: ignore[no-any-return]
        if origin is list:
            return lambda value: [inner(v) for v in value]
        return lambda value: {k: inner(v) for k, v in value.items()}
    if origin in (Union, types.UnionType, tuple) and all(
        _copier(a) is None for a in args if a is not Ellipsis
    ):
        return None
    if typing.is_typeddict(hint):
        return _record_copier(typing.get_type_hints(hint))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return None
    return copy_value


def _record_copier(hints: dict[str, object]) -> Callable[..., object] | None:
    """Returns how to copy a ``TypedDict``'s values: the dict, then each of its mutable entries."""
    inner = [(key, copy) for key, hint in hints.items() if (copy := _copier(hint)) is not None]
    if not inner:
        return dict

    def copy_record(value: dict[str, object]) -> dict[str, object]:
        """Returns a copy of the record whose mutable entries are copied too."""
        found = dict(value)
        for key, copy in inner:
            if key in found:
                found[key] = copy(found[key])
        return found

    return copy_record


_HINTS: dict[type, dict[str, object]] = {}


def _hints(kind: type) -> dict[str, object]:
    """Returns a state class's attribute type hints (resolved once)."""
    found = _HINTS.get(kind)
    if found is None:
        found = _HINTS[kind] = typing.get_type_hints(kind)
    return found


def position_header(state: Any, fmt: int | str) -> dict[str, Any]:
    """Returns the fields every position starts with: format, game, players, options, chance."""
    return {
        "format": fmt,
        "game": state.game_name,
        "players": state.players,
        "options": dict(state.options),
        "chance": state.chance.to_json(),
    }
