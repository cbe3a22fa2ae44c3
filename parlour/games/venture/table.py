"""What Venture's drawn table in the browser needs beside the observation (static/games/venture.js):
the deck's unchanging public facts, read from the content data (docs/browser-tables/venture.md)."""

from __future__ import annotations

from typing import Any

from parlour.games.venture.content import CAPITAL, LETTERS, MULTIPLIER_NAMES, PROXY, Deck
from parlour.games.venture.options import PROFIT_TABLE
from parlour.games.venture.people import INDUSTRY_COLOURS, SYMBOL_NAMES

MULTIPLIER_LABELS = {1: "½×", 2: "1×", 3: "1½×"}
"""How the proxy fight cards print their multipliers."""


def table_content(deck: Deck) -> dict[str, Any]:
    """Returns the deck's public facts as JSON-ready data: the industries with their colour-blind-safe
    colours (ruling A-20), every corporation's industry, letters and value, every kind of resources
    card, the set values and the profit table."""
    corporations = {
        c.name: {"industry": c.industry, "letters": "".join(sorted(c.letters)), "value": c.value}
        for c in deck.corporations
    }
    resources: dict[str, dict[str, Any]] = {}
    for card in deck.resources:
        if card.kind == CAPITAL:
            entry: dict[str, Any] = {
                "kind": CAPITAL,
                "value": card.value,
                "symbol": SYMBOL_NAMES.get(card.symbol),
            }
        elif card.kind == PROXY:
            entry = {"kind": PROXY, "multiplier": MULTIPLIER_LABELS[card.halves], "halves": card.halves}
        else:
            entry = {"kind": card.kind}
        resources.setdefault(card.name, {**entry, "count": 0})["count"] += 1
    return {
        "industries": [
            {"code": code, "name": name, "colour": INDUSTRY_COLOURS.get(code, "#dddddd")}
            for code, name in deck.industries.items()
        ],
        "letters": LETTERS,
        "corporations": corporations,
        "resources": resources,
        "proxy_names": list(MULTIPLIER_NAMES.values()),
        "set_values": {str(size): value for size, value in sorted(deck.set_values.items())},
        "profit_table": {str(size): value for size, value in sorted(PROFIT_TABLE.items())},
    }
