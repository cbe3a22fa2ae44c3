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

import random
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

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
    cards: bool = False
    """Whether it holds cards (a list of cards; for ``owner``, a list of such lists per seat)."""
    key: str = ""
    """Its name in positions (default: the attribute's name)."""
    shared: bool = False
    """Whether it is never copied nor written (content, options: the same for every copy)."""

    @property
    def json_key(self) -> str:
        """The part's name in positions."""
        return self.key or self.name


class CardNames:
    """Cards as numbers in a state and as names in positions: a name for each number, and back."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.numbers = {name: number for number, name in enumerate(self.names)}

    def name(self, card: int) -> str:
        """Returns a card's name."""
        return self.names[card]

    def number(self, name: object, path: str) -> int:
        """Returns the number of the card called ``name``, refusing an unknown name."""
        if not isinstance(name, str) or name not in self.numbers:
            raise PositionError(path, f"there is no card {short_repr(name)}")
        return self.numbers[name]


class Layout:
    """The parts of a game's state and how its cards are named (see the module's docstring)."""

    def __init__(self, *parts: Part, cards: CardNames | None = None) -> None:
        self.parts = parts
        self.cards = cards
        self._copied = tuple(p.name for p in parts if not p.shared)
        self._shared = tuple(p.name for p in parts if p.shared)

    # ----------------------------------------------------------------- copies
    def copy_into(self, state: object, other: object) -> None:
        """Copies every part of ``state`` onto ``other`` (shared parts by reference, others deeply)."""
        for name in self._shared:
            setattr(other, name, getattr(state, name))
        for name in self._copied:
            setattr(other, name, copy_value(getattr(state, name)))

    # ----------------------------------------------------------------- what a seat does not see
    def unseen(self, state: Any, seat: int | None) -> list[tuple[str, list[Any]]]:
        """Returns every list of cards ``seat`` cannot see (None: a spectator), named as in positions
        (``hands[2]``): the places a redeal changes and a view must not show."""
        found: list[tuple[str, list[Any]]] = []
        for part in self.parts:
            if not part.cards or part.visibility == "public":
                continue
            value = getattr(state, part.name)
            if part.visibility == "secret":
                found.append((part.json_key, value))
            else:
                found.extend((f"{part.json_key}[{s}]", hand) for s, hand in enumerate(value) if s != seat)
        return found

    def redeal(self, state: Any, seat: int, rng: random.Random) -> None:
        """Re-deals every card ``seat`` cannot see among the places that hold them, keeping each
        place's size; the result depends only on what the seat knows (the pool is sorted first)."""
        places = [cards for _, cards in self.unseen(state, seat)]
        pool = sorted(card for cards in places for card in cards)
        rng.shuffle(pool)
        for cards in places:
            size = len(cards)
            cards[:], pool = pool[:size], pool[size:]

    # ----------------------------------------------------------------- positions
    def write(self, state: object) -> dict[str, Any]:
        """Returns the position body: every part but the shared ones, cards by name."""
        body: dict[str, Any] = {}
        for part in self.parts:
            if part.shared:
                continue
            value = getattr(state, part.name)
            if part.cards:
                value = self._card_names(value, part.visibility == "owner")
            body[part.json_key] = write_value(value)
        return body

    def _card_names(self, value: Any, per_seat: bool) -> Any:
        """Returns a list of cards (or of per-seat lists) written by name."""
        if self.cards is None:
            return value
        name = self.cards.name
        return [[name(c) for c in hand] for hand in value] if per_seat else [name(c) for c in value]

    def read(self, kind: type, data: Mapping[str, object], path: str = "") -> dict[str, object]:
        """Returns each part's value read from a position body (refusing what does not fit the state
        class's type hints); the caller sets them on the new state and checks consistency."""
        hints = _hints(kind)
        values: dict[str, object] = {}
        for part in self.parts:
            if part.shared:
                continue
            where = f"{path}.{part.json_key}" if path else part.json_key
            if part.json_key not in data:
                raise PositionError(where, "missing")
            raw = data[part.json_key]
            if part.cards and self.cards is not None:
                values[part.name] = self._read_cards(raw, where, part.visibility == "owner")
            else:
                values[part.name] = read_value(hints[part.name], raw, where)
        return values

    def _read_cards(self, raw: object, path: str, per_seat: bool) -> list[Any]:
        """Reads a list of card names (or of per-seat lists) as card numbers."""
        assert self.cards is not None
        if not isinstance(raw, list):
            raise PositionError(path, "must be a list")
        if per_seat:
            return [self._read_cards(hand, f"{path}[{i}]", False) for i, hand in enumerate(raw)]
        return [self.cards.number(name, f"{path}[{i}]") for i, name in enumerate(raw)]

    def keys(self) -> list[str]:
        """Returns the position keys the parts use (a position module adds its header's)."""
        return [p.json_key for p in self.parts if not p.shared]

    def card_places(self, state: object) -> Iterable[tuple[str, list[Any]]]:
        """Yields every list of cards in the state with its part's name (for conservation checks)."""
        for part in self.parts:
            if part.cards:
                value = getattr(state, part.name)
                if part.visibility == "owner":
                    yield from ((f"{part.name}[{s}]", hand) for s, hand in enumerate(value))
                else:
                    yield part.name, value


_HINTS: dict[type, dict[str, object]] = {}


def _hints(kind: type) -> dict[str, object]:
    """Returns a state class's attribute type hints (resolved once)."""
    found = _HINTS.get(kind)
    if found is None:
        found = _HINTS[kind] = typing.get_type_hints(kind)
    return found


def position_header(state: Any, fmt: int) -> dict[str, Any]:
    """Returns the fields every position starts with: format, game, players, options, chance."""
    return {
        "format": fmt,
        "game": state.game_name,
        "players": state.players,
        "options": dict(state.options),
        "chance": state.chance.to_json(),
    }
