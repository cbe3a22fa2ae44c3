"""What the browser's drawn table needs beside the observation: the board's public layout from the
content data (investors and their colours, the 16 spaces and their requirements, the deal cards'
values and end numbers, the Influence card kinds), the same for every seat and every seed.
"""

from __future__ import annotations

from collections import Counter

from parlour.core.payloads import JSONValue
from parlour.games.im_the_boss.content import ANY, Content
from parlour.games.im_the_boss.options import HAND_LIMIT, TRIPLE
from parlour.games.im_the_boss.palette import CLAN_COLOURS, ink

KIND_LABELS = {"clan": "Clan", "travel": "Travel", "recruit": "Recruitment", "boss": "Boss", "stop": "Stop"}
"""Each Influence card kind as the drawing names it."""
OTHER_FILL = "#999999"
"""The grey of the Travel cards playable on any investor (and of a colour without a palette entry)."""


def table_content(content: Content) -> dict[str, JSONValue]:
    """Returns the content's public layout for the drawn table, JSON-ready (docs/browser-tables/)."""
    return {
        "investors": [_investor(content, i) for i in range(len(content.investors))],
        "spaces": [
            {
                "number": s.number,
                "required": s.required,
                "groups": [{"colours": g.colours, "count": g.count} for g in s.groups],
                "dividends": s.dividends,
                "text": s.text(),
                "colours": s.colours,
                "needed": s.investors_needed(),
            }
            for s in content.spaces
        ],
        "deal_cards": [
            {"number": c.number, "value": c.value, "ends": list(c.ends), "name": f"deal card {c.number}"}
            for c in content.deal_cards
        ],
        "cards": _cards(content),
        "die": content.die,
        "hand_limit": HAND_LIMIT,
        "triple": TRIPLE,
    }


def _investor(content: Content, index: int) -> dict[str, str]:
    """Returns one investor: its letter, colour name, surname, fill colour and the ink on that fill."""
    investor = content.investors[index]
    fill = CLAN_COLOURS.get(investor.colour, OTHER_FILL)
    return {
        "colour": investor.colour,
        "name": investor.name,
        "investor": investor.investor,
        "fill": fill,
        "ink": ink(fill),
    }


def _cards(content: Content) -> dict[str, dict[str, str | int]]:
    """Returns each Influence card name: its kind, colour (or ``any``), label and count in the deck."""
    counts = Counter(content.cards)
    found: dict[str, dict[str, str | int]] = {}
    for name in sorted(counts):
        kind, _, colour = name.partition(":")
        label = KIND_LABELS.get(kind, kind)
        if colour == ANY:
            label += " (any investor)"
        elif colour:
            investor = content.investor(colour)
            label += f" {colour} ({investor.name})"
        fill = CLAN_COLOURS.get(colour, OTHER_FILL) if colour else "#ffffff"
        found[name] = {
            "kind": kind,
            "colour": colour,
            "label": label,
            "count": counts[name],
            "fill": fill,
            "ink": ink(fill),
        }
    return found
