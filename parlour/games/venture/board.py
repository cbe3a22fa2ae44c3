"""The Venture table as SVG, drawn from the public view only (no hand is ever drawn, only its size).

Top row: the center's five corporations, the stock, the drawing deck and the discard pile.  Below,
one panel per player: score, what the holdings earn, the hand's size, and each stack as a column
of cards, bottom card at the bottom; each card shows its industry colour, its industry name and its
notation (code and letters).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from parlour.core.svg import svg_text
from parlour.games.venture.people import INDUSTRY_COLOURS, decision_summary
from parlour.games.venture.state import VentureState
from parlour.games.venture.views import Observation, observation

CARD_W, CARD_H, GAP = 104, 34, 8
PANEL_PAD, LINE = 12, 20
EMPTY_COLOUR = "#ffffff"


def _text(
    x: float, y: float, text: str, size: int = 13, weight: str = "normal", anchor: str = "start"
) -> str:
    """Returns an SVG text element (escaped)."""
    return svg_text(x, y, text, size, weight, anchor)


def _card(x: float, y: float, name: str, industry: str, code: str, css: str = "card") -> str:
    """Returns one corporation card: a rectangle in its industry colour, industry name and notation."""
    colour = INDUSTRY_COLOURS.get(code, "#dddddd")
    return (
        f"<g class='{css}' data-card='{escape(name)}'>"
        f"<rect x='{x:.0f}' y='{y:.0f}' width='{CARD_W}' height='{CARD_H}' rx='4' fill='{colour}' "
        f"stroke='#222222'/>"
        + _text(x + CARD_W / 2, y + 14, industry, 10, anchor="middle")
        + _text(x + CARD_W / 2, y + 28, name, 13, "bold", "middle")
        + "</g>"
    )


def _pile(x: float, y: float, label: str, count: int) -> str:
    """Returns a face-down pile with its count."""
    return (
        f"<rect x='{x:.0f}' y='{y:.0f}' width='{CARD_W}' height='{CARD_H}' rx='4' fill='#cccccc' "
        f"stroke='#222222' stroke-dasharray='4 2'/>"
        + _text(x + CARD_W / 2, y + 22, f"{label} {count}", 12, anchor="middle")
    )


def board_svg(state: VentureState) -> str:
    """Returns the table as an SVG document, from the seat-free public view."""
    view = observation(state, None)
    industries = state.deck.industries
    parts: list[str] = []
    y: float = PANEL_PAD + 16
    title = f"Venture, turn {view['turn']}" + (" (game over)" if view["over"] else "")
    parts.append(_text(PANEL_PAD, y, title, 18, "bold"))
    y += LINE
    parts.append(_text(PANEL_PAD, y, decision_summary(state), 12))
    y += LINE - 4
    parts.append(_text(PANEL_PAD, y + 12, "Center", 13, "bold"))
    y += 18
    x: float = PANEL_PAD
    for name in view["center"]:
        corp = state.deck.corporation(name)
        assert corp is not None
        parts.append(_card(x, y, name, industries[corp.industry], corp.industry, "center"))
        x += CARD_W + GAP
    for _ in range(5 - len(view["center"])):
        parts.append(
            f"<rect x='{x:.0f}' y='{y:.0f}' width='{CARD_W}' height='{CARD_H}' rx='4' fill='{EMPTY_COLOUR}' "
            "stroke='#999999' stroke-dasharray='2 2'/>"
        )
        x += CARD_W + GAP
    x += GAP
    parts.append(_pile(x, y, "stock", view["stock_size"]))
    x += CARD_W + GAP
    parts.append(_pile(x, y, "deck", view["draw_size"]))
    x += CARD_W + GAP
    parts.append(_pile(x, y, "discard", len(view["discard"])))
    width = x + CARD_W + PANEL_PAD
    y += CARD_H + 2 * GAP
    if view["owed"]:
        laid = " ".join(view["payment"]) or "nothing yet"
        parts.append(
            _text(PANEL_PAD, y + 8, f"Owed this turn: {view['owed']} million; laid down: {laid}", 12)
        )
        y += LINE
    for seat in range(state.players):
        panel, height, panel_width = _panel(state, view, seat, y)
        parts.append(panel)
        width = max(width, panel_width)
        y += height + GAP
    height = y + PANEL_PAD
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' height='{height:.0f}' "
        f"viewBox='0 0 {width:.0f} {height:.0f}'>"
        f"<rect width='100%' height='100%' fill='#fafafa'/>" + "".join(parts) + "</svg>\n"
    )


def _panel(state: VentureState, view: Observation, seat: int, top: float) -> tuple[str, float, float]:
    """Returns one player's panel (its text, height and width): counts, then stacks bottom to top."""
    stacks = view["holdings"][seat]
    tallest = max((len(s["cards"]) for s in stacks), default=0)
    turn = " (to play)" if seat == view["current"] and not view["over"] else ""
    header = (
        f"seat {seat}{turn}: score {view['profits'][seat]}, holdings earn {view['holdings_profit'][seat]} "
        f"a scoring, {view['hand_sizes'][seat]} cards in hand"
    )
    parts = [_text(PANEL_PAD + 8, top + 18, header, 13, "bold")]
    base = top + 28 + (tallest - 1) * CARD_H  # the bottom card's top edge
    x = PANEL_PAD + 8
    for stack in stacks:
        for level, name in enumerate(stack["cards"]):
            corp = state.deck.corporation(name)
            assert corp is not None
            parts.append(
                _card(x, base - level * CARD_H, name, state.deck.industries[corp.industry], corp.industry)
            )
        if len(stack["cards"]) > 1:
            parts.append(
                _text(x + CARD_W / 2, base + CARD_H + 14, f"common {stack['common']}", 11, anchor="middle")
            )
        x += CARD_W + GAP
    if not stacks:
        parts.append(_text(PANEL_PAD + 8, top + 40, "no corporations", 12))
    height = 28 + tallest * CARD_H + 24 if stacks else 52
    width = max(x + PANEL_PAD, 520)
    frame = (
        f"<rect x='{PANEL_PAD}' y='{top:.0f}' width='{width - 2 * PANEL_PAD:.0f}' height='{height:.0f}' "
        f"rx='6' fill='none' stroke='#888888'/>"
    )
    return f"<g class='seat' data-seat='{seat}'>" + frame + "".join(parts) + "</g>", height, width
