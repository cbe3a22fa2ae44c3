"""Embers' components (rules chapter 1): the cards, the hand size and the blaze, read from data/cards.json."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

from parlour.core.content import read_house_json
from parlour.core.errors import ContentError, PositionError
from parlour.core.payloads import read_record
from parlour.core.zones import CardNames

DOUSE = "douse"
"""The name of a douse card (every other card is an ember, named by its number)."""


@dataclass(frozen=True)
class CardKind:
    """One kind of card in the deck: its name, its number (None: a douse card) and how many there are."""

    name: str
    ember: int | None
    copies: int


@dataclass(frozen=True)
class CardsFile:
    """The content file as written: the card kinds, the hand size and the blaze."""

    cards: tuple[CardKind, ...]
    hand: int
    blaze: int


@dataclass(frozen=True)
class Content:
    """The components the rules read: every card of the deck, and the numbers rule 3.1 and rule 5.2 use."""

    deck: tuple[str, ...]
    """Every card, by name, in the file's order (the deal shuffles it)."""
    embers: dict[str, int]
    """Each ember card's number, by name."""
    hand: int
    """The cards a player draws up to at the start of a turn (rule 3.1)."""
    blaze: int
    """The fire's total at which its player takes it (rule 5.2)."""

    @property
    def names(self) -> tuple[str, ...]:
        """Every card name once: the embers in rising order, then the douse card."""
        return (*sorted(self.embers, key=self.embers.__getitem__), DOUSE)

    @cached_property
    def cards(self) -> CardNames:
        """The deck as :class:`CardNames` (its reader counts a position's cards: none unknown, no copy
        too many, none missing)."""
        return CardNames(self.deck)


def content_of(data: object) -> Content:
    """Returns the components a content file describes, refusing one the rules cannot play with."""
    try:
        read = read_record(CardsFile, data, "cards.json")
    except PositionError as err:
        raise ContentError(str(err)) from None
    names = [kind.name for kind in read.cards]
    embers = [kind.name for kind in read.cards if kind.ember is not None and kind.name == str(kind.ember)]
    numbered_douse = any(kind.ember is not None for kind in read.cards if kind.name == DOUSE)
    if sorted(names) != sorted([*embers, DOUSE]) or numbered_douse or min(read.hand, read.blaze) < 1:
        raise ContentError("cards.json: embers named by their numbers, one douse kind, hand and blaze >= 1")
    deck = tuple(kind.name for kind in read.cards for _ in range(kind.copies))
    return Content(deck, {name: int(name) for name in embers}, read.hand, read.blaze)


@cache
def house_content() -> Content:
    """Returns the components shipped with Parlour (read once per process)."""
    return content_of(read_house_json("parlour.games.embers", "data/cards.json", "Embers cards file"))
