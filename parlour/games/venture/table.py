"""What Venture's drawn table in the browser needs beside the observation (static/games/venture.js):
the deck's unchanging public facts, read from the content data (docs/browser-tables/venture.md)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from parlour.games.venture.content import CAPITAL, LETTERS, MULTIPLIER_NAMES, PROXY, Deck, Resource
from parlour.games.venture.options import PROFIT_TABLE
from parlour.games.venture.people import INDUSTRY_COLOURS, SYMBOL_NAMES

MULTIPLIER_LABELS = {1: "½×", 2: "1×", 3: "1½×"}
"""How the proxy fight cards print their multipliers."""


class IndustryFacts(TypedDict):
    """An industry: its code, its name and its colour on the table (ruling A-20)."""

    code: str
    name: str
    colour: str


class CorporationFacts(TypedDict):
    """A corporation: its industry's code, its letters in order and its value in millions."""

    industry: str
    letters: str
    value: int


class ResourceFacts(TypedDict):
    """A kind of resources card and how many the deck holds: capital with its value and set symbol,
    proxy fights with their multiplier, the Profit card with its kind alone."""

    kind: str
    value: NotRequired[int]
    symbol: NotRequired[str | None]
    multiplier: NotRequired[str]
    halves: NotRequired[int]
    count: int


class TableContent(TypedDict):
    """The deck's public facts a drawn table needs beside the observation (the same all game long)."""

    industries: list[IndustryFacts]
    letters: str
    corporations: dict[str, CorporationFacts]
    resources: dict[str, ResourceFacts]
    """Each kind of resources card by name."""
    proxy_names: list[str]
    set_values: dict[str, int]
    """What a set of 2, 3, 4 cards is worth, by size."""
    profit_table: dict[str, int]
    """What a stack earns at a scoring per common letter, by its number of corporations."""


def table_content(deck: Deck) -> TableContent:
    """Returns the deck's public facts as JSON-ready data: the industries with their colour-blind-safe
    colours (ruling A-20), every corporation's industry, letters and value, every kind of resources
    card, the set values and the profit table."""
    corporations = {
        c.name: CorporationFacts(industry=c.industry, letters="".join(sorted(c.letters)), value=c.value)
        for c in deck.corporations
    }
    resources: dict[str, ResourceFacts] = {}
    for card in deck.resources:
        resources.setdefault(card.name, _resource_facts(card))["count"] += 1
    return {
        "industries": [
            IndustryFacts(code=code, name=name, colour=INDUSTRY_COLOURS.get(code, "#dddddd"))
            for code, name in deck.industries.items()
        ],
        "letters": LETTERS,
        "corporations": corporations,
        "resources": resources,
        "proxy_names": list(MULTIPLIER_NAMES.values()),
        "set_values": {str(size): value for size, value in sorted(deck.set_values.items())},
        "profit_table": {str(size): value for size, value in sorted(PROFIT_TABLE.items())},
    }


def _resource_facts(card: Resource) -> ResourceFacts:
    """Returns what the table shows of a kind of resources card (none counted yet)."""
    if card.kind == CAPITAL:
        return {"kind": CAPITAL, "value": card.value, "symbol": SYMBOL_NAMES.get(card.symbol), "count": 0}
    if card.kind == PROXY:
        return {
            "kind": PROXY,
            "multiplier": MULTIPLIER_LABELS[card.halves],
            "halves": card.halves,
            "count": 0,
        }
    return {"kind": card.kind, "count": 0}
