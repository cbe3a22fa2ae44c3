"""I'm the Boss!'s board as a self-contained SVG: the 16 spaces clockwise, covered deals, the marker, and
in the middle the deal stack, the open deal's requirements and terms, and who holds each placard.

Only public information is drawn (no hand, no hidden money total).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from parlour.core.svg import svg_text
from parlour.games.im_the_boss.content import Space
from parlour.games.im_the_boss.palette import CLAN_COLOURS, DARK, ink
from parlour.games.im_the_boss.state import BossState

CELL_W, CELL_H, MARGIN = 170, 120, 20
WIDTH, HEIGHT = 5 * CELL_W + 2 * MARGIN, 5 * CELL_H + 2 * MARGIN
BACKGROUND, CELL, COVERED, INK, LINE = "#f4f1e8", "#ffffff", "#bdbdbd", DARK, "#555555"
MARKER, NEGOTIATION = "#000000", "#0072B2"
OTHER = "#888888"


def cell_positions() -> list[tuple[int, int]]:
    """Returns the grid cell (column, row) of each space, clockwise round a 5 × 5 square from the top left."""
    top = [(c, 0) for c in range(5)]
    right = [(4, r) for r in range(1, 4)]
    bottom = [(c, 4) for c in range(4, -1, -1)]
    left = [(0, r) for r in range(3, 0, -1)]
    return top + right + bottom + left


def _text(
    x: float, y: float, text: str, size: int = 12, weight: str = "normal", anchor: str = "start"
) -> str:
    """Returns a text element in the board's ink (content escaped)."""
    return svg_text(x, y, text, size, weight, anchor, INK)


def _box(x: float, y: float, colour: str, size: int) -> list[str]:
    """Returns a coloured square with the clan's letter on it (the letter is always shown)."""
    fill = CLAN_COLOURS.get(colour, OTHER)
    letter = _text(x + size / 2, y + size * 0.72, colour, size * 2 // 3, "bold", "middle")
    return [
        f'<rect x="{x:g}" y="{y:g}" width="{size}" height="{size}" fill="{fill}" stroke="{INK}"/>',
        letter.replace(f'fill="{INK}"', f'fill="{ink(fill)}"'),
    ]


def _space(state: BossState, index: int, space: Space, column: int, row: int) -> list[str]:
    """Returns one board space: number, dividends, required clans (large boxes), groups (small boxes)."""
    x, y = MARGIN + column * CELL_W, MARGIN + row * CELL_H
    nego = state.nego
    covered = state.covered[index]
    fill = COVERED if covered is not None else CELL
    stroke, width = (NEGOTIATION, 4) if nego is not None and nego.space == index else (LINE, 1)
    parts = [
        f'<g id="space-{space.number}" class="space">',
        f'<rect x="{x + 3}" y="{y + 3}" width="{CELL_W - 6}" height="{CELL_H - 6}" rx="8" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width}"/>',
        _text(x + 10, y + 22, f"Space {space.number}", 14, "bold"),
        _text(x + CELL_W - 10, y + 22, f"{space.dividends} dividends", 11, anchor="end"),
    ]
    left = x + 10
    for colour in space.required:
        parts += _box(left, y + 32, colour, 26)
        left += 30
    line = y + 32 + (34 if space.required else 0)
    for group in space.groups:
        parts.append(_text(x + 10, line + 14, f"{group.count} of", 11))
        left = x + 40
        for colour in group.colours:
            parts += _box(left, line + 2, colour, 16)
            left += 19
        line += 21
    if covered is not None:
        parts.append(
            _text(x + CELL_W / 2, y + CELL_H - 10, f"covered by deal card {covered}", 11, "bold", "middle")
        )
    if state.marker == index:
        parts += [
            f'<circle id="marker" cx="{x + CELL_W - 24}" cy="{y + CELL_H - 26}" r="15" fill="{MARKER}"/>',
            f'<text x="{x + CELL_W - 24}" y="{y + CELL_H - 20}" font-size="18" font-weight="bold" '
            'text-anchor="middle" fill="#ffffff" font-family="sans-serif">$</text>',
        ]
    parts.append("</g>")
    return parts


def _middle(state: BossState, pieces: bool) -> list[str]:
    """Returns the middle of the board: the deal stack, the placards (left) and the open deal (right)."""
    x, y = MARGIN + CELL_W + 20, MARGIN + CELL_H + 30
    top = state.top_card()
    parts = [_text(WIDTH / 2, y, "I'm the Boss!", 22, "bold", "middle")]
    stack = (
        f"Deal card {top.number} on top: {top.value} million a dividend; {len(state.deal_cards)} left"
        if top is not None
        else "No deal card left"
    )
    parts.append(_text(x, y + 30, stack, 13))
    parts.append(_text(x, y + 56, "Placards", 13, "bold"))
    travelling = state.nego.travelling if state.nego is not None else {}
    for i, investor in enumerate(state.content.investors):
        row_y = y + 66 + 22 * i
        holder = state.owners[investor.colour]
        who = ("spare" if holder is None else f"seat {holder}") if pieces else investor.investor
        away = ", travelling" if investor.colour in travelling else ""
        parts.append(f'<g class="placard" id="placard-{investor.colour}">')
        parts += _box(x, row_y, investor.colour, 18)
        parts.append(_text(x + 24, row_y + 14, f"{investor.name}: {who}{away}", 12))
        parts.append("</g>")
    parts += _negotiation(state, x + 205, y + 56)
    return parts


def _negotiation(state: BossState, x: float, y: float) -> list[str]:
    """Returns the open deal: its space and needs, the Boss, the proceeds and the terms (all public)."""
    nego = state.nego
    if nego is None:
        return []
    space = state.space(nego.space)
    lines = [
        f"Open deal: space {space.number}",
        f"needs {space.text()}",
        f"proceeds {nego.proceeds} million",
        f"Boss: seat {nego.boss}" + (", deal called" if nego.called else ""),
        "Terms:" if nego.items or nego.tips else "Terms: none yet",
    ]
    for colour, term in sorted(nego.items.items()):
        lines.append(
            f"\t{colour} from seat {term.seat}: {term.amount}{'' if term.agreed else ' (not agreed)'}"
        )
    for seat, tip in sorted(nego.tips.items()):
        lines.append(f"\tseat {seat}, no investor: {tip.amount}{'' if tip.agreed else ' (not agreed)'}")
    parts = ['<g id="negotiation">']
    for i, line in enumerate(lines):  # a tab marks a line of the terms, drawn indented
        indent = 12 if line.startswith("\t") else 0
        parts.append(_text(x + indent, y + 18 * i, line.lstrip("\t"), 12, "bold" if i == 0 else "normal"))
    parts.append("</g>")
    return parts


def board_svg(state: BossState, pieces: bool = True) -> str:
    """Returns the board with the state's public pieces as SVG text (``pieces=False``: the bare board)."""
    title = state.decision_summary() if pieces else "I'm the Boss!"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{BACKGROUND}"/>',
    ]
    for index, (column, row) in enumerate(cell_positions()[: len(state.content.spaces)]):
        parts += _space(state, index, state.space(index), column, row)
    parts += _middle(state, pieces)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
