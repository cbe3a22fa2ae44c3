"""The clans' colours, as the drawn table, the SVG board and the terminal show them (letters beside)."""

from __future__ import annotations

from parlour.games.im_the_boss.content import Content

CLAN_COLOURS = {
    "R": "#D55E00",
    "M": "#CC79A7",
    "O": "#E69F00",
    "G": "#009E73",
    "B": "#0072B2",
    "Y": "#F0E442",
}
"""The clans' colours from the Okabe-Ito palette (told apart with any colour vision), by letter."""
DARK = "#1a1a1a"
"""The dark ink, on light fills and on the board."""


def ink(fill: str) -> str:
    """Returns dark or white ink, whichever reads better on a fill colour ``#RRGGBB``."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return DARK if 0.299 * r + 0.587 * g + 0.114 * b > 110 else "#ffffff"


def text_colours(content: Content) -> dict[str, str]:
    """Returns each clan's letter, colour name and surname -> its colour (the word is always shown)."""
    found: dict[str, str] = {}
    for investor in content.investors:
        colour = CLAN_COLOURS.get(investor.colour)
        if colour is not None:
            found |= {investor.colour: colour, investor.name: colour, investor.investor: colour}
    return found
