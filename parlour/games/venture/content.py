"""Venture's cards as data (rulebook: 'The Cards'): the deck file loaded and checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.core.content import SetReader
from parlour.core.errors import ContentError
from parlour.games.venture.options import HOUSE_DECK

LETTERS = "ABCDEF"
SYMBOLS = {"triangle": "t", "circle": "c", "square": "s"}
SET_DENOMINATIONS = (1, 3, 5, 8)
DENOMINATIONS = (1, 3, 5, 8, 10, 12, 14, 16, 18, 20)
MULTIPLIER_NAMES = {1: "x1/2", 2: "x1", 3: "x3/2"}

CAPITAL, PROXY, PROFIT = "capital", "proxy", "profit"


@dataclass(frozen=True, slots=True)
class Corporation:
    """A corporation card (blue deck): industry, letters and value."""

    id: int
    """Index in the deck's corporation list."""
    name: str
    """Notation, e.g. ``ST-ABC`` (industry code, dash, letters)."""
    industry: str
    """Industry code, e.g. ``ST``."""
    letters: frozenset[str]
    """Letters A–F printed on the card."""
    value: int
    """Value in millions: 4 + 4 × letters."""
    mask: int = 0
    """The letters as a bit mask (A is 1, B is 2, ...), for fast common-letter tests."""
    industry_bit: int = 0
    """The industry as a bit (its position in the deck's industry list)."""


@dataclass(frozen=True, slots=True)
class Resource:
    """A resources card (green deck): capital, proxy fight or profit."""

    id: int
    """Index in the deck's resources list."""
    kind: str
    """``capital``, ``proxy`` or ``profit``."""
    name: str
    """Notation: ``10``, ``3c`` (3 million, circle), ``x1/2``, ``profit``."""
    value: int = 0
    """Face value in millions (capital only)."""
    symbol: str = ""
    """Set symbol letter ``t``/``c``/``s`` (capital 1, 3, 5, 8 only)."""
    halves: int = 0
    """Proxy multiplier in halves: 1 is ½×, 2 is 1×, 3 is 1½×."""


@dataclass(frozen=True)
class Deck:
    """Both decks of a Venture set, with the set values printed on the symbol cards."""

    name: str
    industries: dict[str, str]
    corporations: tuple[Corporation, ...]
    resources: tuple[Resource, ...]
    set_values: dict[int, int]
    """Value of a set by its size (2, 3, 4 cards)."""
    texts: dict[str, object] = field(default_factory=dict)
    """The deck file's card texts (``texts``: templates per kind of card); empty if it gives none."""
    by_name: dict[str, Corporation] = field(default_factory=dict, init=False, compare=False, repr=False)
    """The corporations by notation, filled on first use (:meth:`corporation`; a field, not a cached
    property: compiled classes have no instance dictionary to cache it in)."""

    def corporation(self, name: str) -> Corporation | None:
        """Returns the corporation with this notation (in any case), or None."""
        by_name = self.by_name
        if not by_name:
            by_name.update({c.name: c for c in self.corporations})  # whole, at once (threads)
        found = by_name.get(name)  # the canonical notation: no need to change its case
        return found if found is not None else by_name.get(name.upper())

    def __hash__(self) -> int:
        return hash(self.name)


def _fail(where: str, message: str) -> ContentError:
    """Returns a content error naming the place in the file."""
    return ContentError(f"deck file, {where}: {message}")


def _corporations(data: Any, industries: dict[str, str], base: int, per: int) -> list[Corporation]:
    """Reads the corporation list and checks each card."""
    result = []
    for i, card in enumerate(data):
        industry, letters = card.get("industry"), card.get("letters", "")
        if industry not in industries:
            raise _fail(f"corporations[{i}].industry", f"unknown industry {industry!r}")
        if not letters or set(letters) - set(LETTERS) or len(set(letters)) != len(letters):
            raise _fail(f"corporations[{i}].letters", f"must be distinct letters A–F, not {letters!r}")
        if len(letters) > 5:
            raise _fail(f"corporations[{i}].letters", "a corporation has 1 to 5 letters")
        ordered = "".join(sorted(letters))
        value = base + per * len(letters)
        mask = sum(1 << LETTERS.index(ch) for ch in letters)
        bit = 1 << list(industries).index(industry)
        result.append(Corporation(i, f"{industry}-{ordered}", industry, frozenset(letters), value, mask, bit))
    if len({c.name for c in result}) != len(result):
        raise _fail("corporations", "two cards have the same industry and letters")
    return result


def _resources(data: dict[str, Any]) -> list[Resource]:
    """Reads capital, proxy and profit cards (each entry with a count)."""
    cards: list[Resource] = []
    for i, entry in enumerate(data["capital"]["cards"]):
        value, symbol = entry["value"], entry.get("symbol")
        if value not in DENOMINATIONS:
            raise _fail(f"capital.cards[{i}].value", f"{value} is not a printed denomination")
        if symbol is not None and (symbol not in SYMBOLS or value not in SET_DENOMINATIONS):
            raise _fail(f"capital.cards[{i}].symbol", "only 1, 3, 5, 8 carry triangle/circle/square")
        letter = SYMBOLS[symbol] if symbol else ""
        for _ in range(int(entry["count"])):
            cards.append(Resource(len(cards), CAPITAL, f"{value}{letter}", value=value, symbol=letter))
    for i, entry in enumerate(data["proxy"]["cards"]):
        halves = entry["halves"]
        if halves not in MULTIPLIER_NAMES:
            raise _fail(f"proxy.cards[{i}].halves", "must be 1 (½×), 2 (1×) or 3 (1½×)")
        for _ in range(int(entry["count"])):
            cards.append(Resource(len(cards), PROXY, MULTIPLIER_NAMES[halves], halves=halves))
    for _ in range(int(data["profit"]["count"])):
        cards.append(Resource(len(cards), PROFIT, "profit"))
    return cards


SOURCED_SET_VALUES = {2: 16, 3: 32, 4: 64}
"""The set values printed on the symbol cards (rulebook)."""
SOURCED_COUNTS = {"corporations": 54, CAPITAL: 44, PROXY: 8, PROFIT: 2}
"""Card counts every Venture set has (see ../shared/content/venture.md)."""


def _check_counts(corps: list[Corporation], cards: list[Resource]) -> None:
    """Refuses a deck whose card counts differ from the sourced ones."""
    found = {"corporations": len(corps)}
    for kind in (CAPITAL, PROXY, PROFIT):
        found[kind] = sum(1 for c in cards if c.kind == kind)
    for kind, count in SOURCED_COUNTS.items():
        if found[kind] != count:
            raise _fail(kind, f"a Venture set has {count} {kind} cards, this file {found[kind]}")


def parse_deck(data: Any) -> Deck:
    """Returns the deck described by parsed JSON, refusing one that breaks a sourced fact."""
    try:
        industries = {i["code"]: i["name"] for i in data["industries"]["items"]}
        value = data["corporation_value"]
        corps = _corporations(data["corporations"]["cards"], industries, value["base"], value["per_letter"])
        cards = _resources(data)
        set_values = {int(k): int(v) for k, v in data["set_values"].items() if k != "source"}
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ContentError(f"deck file is malformed: missing or bad {err}") from None
    if len(industries) != 6:
        raise _fail("industries", "Venture has six industries")
    bad_codes = [code for code in industries if not (len(code) == 2 and code.isalpha() and code.isupper())]
    if bad_codes:
        raise _fail("industries", f"codes are two capital letters (notation ST-ABC), not {bad_codes[0]!r}")
    if (value["base"], value["per_letter"]) != (4, 4):
        raise _fail("corporation_value", "a corporation is worth 4 + 4 × its letters (8 to 24 million)")
    if set_values != SOURCED_SET_VALUES:
        raise _fail("set_values", "sets of 2, 3 and 4 cards are worth 16, 32 and 64 million")
    _check_counts(corps, cards)
    texts = data.get("texts", {})
    if not isinstance(texts, dict) or not all(isinstance(v, str | dict) for v in texts.values()):
        raise _fail("texts", "card texts are text, by kind of card")
    name = str(data.get("name", "deck"))
    return Deck(name, industries, tuple(corps), tuple(cards), set_values, dict(texts))


deck_of: SetReader[Deck] = SetReader(parse_deck, HOUSE_DECK)
"""Returns the deck of a content set, checked (errors name the set)."""


def load_deck() -> Deck:
    """Returns the house deck shipped with Parlour."""
    return deck_of.house_set()
