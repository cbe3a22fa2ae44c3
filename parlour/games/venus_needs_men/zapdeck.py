"""The Zap deck as data: 36 cards, each with a priority number, a timing and an effect."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.core.content import SetReader
from parlour.core.errors import ContentError
from parlour.games.venus_needs_men.options import HOUSE_ZAP

TIMINGS = ("any", "own-end", "roll", "saving")
"""When a card may be played (docs/rulings/venus-needs-men.md, "Zap windows")."""
EFFECTS = (
    "each-receives",
    "plague",
    "extra-turn",
    "immediate-move",
    "immediate-attack",
    "immediate-build",
    "immediate-collect",
    "skip-turn",
    "destroy",
    "save",
    "miss",
    "hit",
    "jam",
)
"""The effects the engine knows."""
TARGETS = {"each-receives": "area", "skip-turn": "planet", "destroy": "ship"}
"""The effects whose play names a target (``zap N TARGET``)."""


@dataclass(frozen=True, slots=True)
class ZapCard:
    """A Zap card: its number (also its priority: the higher wins a conflict), name, timing, effect, text."""

    number: int
    name: str
    timing: str
    effect: str
    text: str
    source: str = ""
    """Where the card comes from (the house deck marks each card ``house`` or what is sourced)."""


@dataclass(frozen=True)
class ZapDeck:
    """The 36 Zap cards by number."""

    name: str
    cards: dict[int, ZapCard]
    kinds: dict[tuple[str, str], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """The numbers of the cards of each kind (timing and effect), each kind once, in number order."""
    unseen: dict[tuple[tuple[int, ...], ...], tuple[list[ZapCard], bool, bool]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """A card of each kind nobody has shown, by the discard piles, and whether one is playable by anyone at
    any time, with no target or aiming at a land area (``zapping.unseen_kinds`` keeps it)."""

    def __post_init__(self) -> None:
        kinds: dict[tuple[str, str], list[int]] = {}
        for number in sorted(self.cards):
            card = self.cards[number]
            kinds.setdefault((card.timing, card.effect), []).append(number)
        object.__setattr__(self, "kinds", {kind: tuple(numbers) for kind, numbers in kinds.items()})


def parse_zap(data: Any) -> ZapDeck:
    """Returns the Zap deck described by parsed JSON."""
    try:
        cards = {
            int(c["number"]): ZapCard(
                int(c["number"]),
                str(c["name"]),
                c["timing"],
                c["effect"],
                str(c["text"]),
                str(c.get("source", "")),
            )
            for c in data["cards"]
        }
    except (KeyError, TypeError, ValueError) as err:
        raise ContentError(f"Zap file is malformed: missing or bad {err}") from None
    if sorted(cards) != list(range(1, 37)):
        raise ContentError("Zap file: there are 36 Zap cards, numbered 1 to 36")
    for card in cards.values():
        if card.timing not in TIMINGS or card.effect not in EFFECTS:
            raise ContentError(
                f"Zap file, card {card.number}: unknown timing {card.timing!r} or effect {card.effect!r}"
            )
    return ZapDeck(str(data.get("name", "zap")), cards)


zap_of: SetReader[ZapDeck] = SetReader(parse_zap, HOUSE_ZAP)
"""Returns the Zap deck of a content set, checked (errors name the set)."""


def load_zap() -> ZapDeck:
    """Returns Parlour's house Zap deck."""
    return zap_of.house_set()
