"""Venus Needs Men!'s board drawn as a self-contained SVG: areas, neighbour lines, population and ships."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from parlour.games.venus_needs_men.board import (
    CANVAS,
    HOME,
    LAND,
    OCEAN,
    ORBIT,
    REFUGE,
    SPACE,
    Area,
    Board,
)

PLANET_COLOURS = {
    "venus": "#8e44ad",
    "earth": "#2e9e4f",
    "mars": "#d0312d",
    "ganymede": "#2f6fd6",
    "titan": "#f1c40f",
    "pluto": "#111111",
}
"""Each player's colour (rulebook, 'Setup': Venus purple, Earth green, Mars red, Ganymede blue, Titan
yellow, Pluto black)."""
OTHER_COLOUR = "#888888"
"""The marker colour of a planet not in PLANET_COLOURS."""
BACKGROUND = "#070716"
FILLS = {SPACE: "#000000", ORBIT: "#101a3c", LAND: "#3f9b4f", OCEAN: "#2d6cb5", REFUGE: "#1d4d2a"}
"""Fill colour of each kind of area (home worlds take their planet's colour)."""
RADII = {HOME: 44, SPACE: 30, LAND: 24, OCEAN: 24}
"""Drawn size of each kind of area."""
LINE = "#a8b0d8"
TEXT = "#e8ecf8"
REFUGE_SIZE = (200, 50)
LEGEND = 130
"""Height of the legend strip below the map."""
SHIP_RADIUS = 9
SHIP_STEP = 21


def _n(value: float) -> str:
    """Returns a coordinate as short, fixed text."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _ink(colour: str) -> str:
    """Returns black or white, whichever reads better on a fill colour."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _text(x: float, y: float, text: str, size: int = 12, fill: str = TEXT, weight: str = "normal") -> str:
    """Returns a centred text element with its content escaped."""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="middle" dy=".35em">{escape(text)}</text>'
    )


def _orbit_radius(board: Board, orbit: Area) -> float:
    """Returns the radius of Orbit's ring: just outside Earth's farthest area."""
    reach = [math.hypot(a.x - orbit.x, a.y - orbit.y) for a in board.areas if a.is_earth]
    return max(reach, default=80.0) + RADII[LAND] + 22


def _colour(area: Area) -> str:
    """Returns an area's fill colour."""
    if area.kind == HOME:
        return PLANET_COLOURS.get(area.planet or "", OTHER_COLOUR)
    return FILLS[area.kind]


def _shape(area: Area, ring: float) -> list[str]:
    """Returns the elements drawing one area and its name."""
    x, y, fill, attr = area.x, area.y, _colour(area), f"data-area={quoteattr(area.id)}"
    if area.kind == ORBIT:
        return [_text(x, y - ring - 12, area.name, 14, TEXT, "bold")]
    if area.kind == REFUGE:
        w, h = REFUGE_SIZE
        return [
            f'<rect {attr} x="{_n(x - w / 2)}" y="{_n(y - h / 2)}" width="{w}" height="{h}" rx="8" '
            f'fill="{fill}" stroke="{PLANET_COLOURS["earth"]}" stroke-width="2"/>',
            _text(x, y, area.name, 11 if len(area.name) > 20 else 12, TEXT, "bold"),
        ]
    r = RADII[area.kind]
    if area.kind == OCEAN:
        shape = (
            f'<ellipse {attr} cx="{x}" cy="{y}" rx="{r + 10}" ry="{r - 4}" fill="{fill}" stroke="#9cc3f0"/>'
        )
    else:
        stroke = "#cccccc" if area.kind == HOME else "#7f8fbf" if area.kind == SPACE else "#b9e4b0"
        shape = f'<circle {attr} cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>'
    out = [shape]
    if area.kind == HOME:
        out.append(_text(x, y, area.name, 14 if len(area.name) <= 6 else 12, _ink(fill), "bold"))
    else:
        out.append(_text(x, y + r + 11, area.name, 11 if area.is_earth else 12))
    if area.teleport is not None:
        out.append(_text(x, y, str(area.teleport), 13, "#8f9bc4"))
    return out


def _line_end(area: Area, other: Area, ring: float) -> tuple[float, float]:
    """Returns where a neighbour line meets an area: its centre, or Orbit's ring."""
    if area.kind != ORBIT:
        return area.x, area.y
    d = math.hypot(other.x - area.x, other.y - area.y) or 1.0
    return area.x + (other.x - area.x) * ring / d, area.y + (other.y - area.y) * ring / d


def _marker_row(area: Area, ring: float) -> tuple[float, float]:
    """Returns where the centre of an area's row of markers (ships, stored population) goes."""
    if area.kind == ORBIT:
        return area.x, area.y - ring + SHIP_RADIUS + 8
    if area.kind == REFUGE:
        return area.x, area.y + REFUGE_SIZE[1] / 2 + SHIP_RADIUS + 6
    if area.kind == HOME:
        return area.x, area.y + RADII[HOME] + SHIP_RADIUS + 6
    return area.x, area.y - RADII[area.kind] - SHIP_RADIUS - 4


@dataclass(frozen=True, slots=True)
class Piece:
    """A spaceship as drawn: its name, its owner's planet, who commands it (Mind Control) and whether it
    is a disabled robot."""

    name: str
    planet: str
    controller: str = ""
    """The planet controlling it by Mind Control ('' when its owner commands it)."""
    disabled: bool = False


PIECE_SIZE = (26, 15)
PIECES_A_ROW = 4


def _piece(piece: Piece, x: float, y: float, area: Area) -> str:
    """Returns one ship: a chip in its owner's colour with its name; a dashed outline in the controller's
    colour under Mind Control; faded when disabled."""
    w, h = PIECE_SIZE
    colour = PLANET_COLOURS.get(piece.planet, OTHER_COLOUR)
    stroke, dash, width = "#ffffff", "", "1"
    if piece.controller:
        stroke, dash, width = (
            PLANET_COLOURS.get(piece.controller, OTHER_COLOUR),
            ' stroke-dasharray="3 2"',
            "3",
        )
    notes = [f"{piece.name} ({piece.planet}) in {area.name}"]
    if piece.controller:
        notes.append(f"controlled by {piece.controller} (Mind Control)")
    if piece.disabled:
        notes.append("disabled")
    attrs = (
        f'class="ship" data-ship={quoteattr(piece.name)} data-area={quoteattr(area.id)} '
        f"data-planet={quoteattr(piece.planet)}"
        + (f" data-controller={quoteattr(piece.controller)}" if piece.controller else "")
        + (' data-disabled="true" opacity="0.55"' if piece.disabled else "")
    )
    return (
        f"<g {attrs}><title>{escape(', '.join(notes))}</title>"
        f'<rect x="{_n(x - w / 2)}" y="{_n(y - h / 2)}" width="{w}" height="{h}" rx="4" fill="{colour}" '
        f'stroke="{stroke}" stroke-width="{width}"{dash}/>'
        + _text(x, y, piece.name + ("*" if piece.controller else ""), 9, _ink(colour), "bold")
        + "</g>"
    )


def _ships(area: Area, pieces: list[Piece], ring: float) -> list[str]:
    """Returns every ship in an area by name, in rows of four beside the area (away from its centre)."""
    cx, cy = _marker_row(area, ring)
    w, h = PIECE_SIZE
    upward = area.kind in (LAND, OCEAN, SPACE)
    out = []
    for k, piece in enumerate(sorted(pieces, key=lambda p: p.name)):
        row, col = divmod(k, PIECES_A_ROW)
        in_row = min(PIECES_A_ROW, len(pieces) - row * PIECES_A_ROW)
        x = cx + (col - (in_row - 1) / 2) * (w + 2)
        y = cy + (-1 if upward else 1) * row * (h + 2)
        out.append(_piece(piece, x, y, area))
    return out


def _check(board: Board, ships: Mapping[str, Sequence[Piece]], population: Mapping[str, int]) -> None:
    """Refuses ships or population given for unknown areas, or negative counts."""
    for area_id in ships:
        board.area(area_id)
    for area_id, count in population.items():
        board.area(area_id)
        if count < 0:
            raise ValueError(f"{area_id} cannot hold {count} population")


def _legend(planets: Sequence[str], names: Mapping[str, str]) -> list[str]:
    """Returns the legend below the map: the planets' colours, what a ship chip and its marks mean,
    the kinds of area and the numbers."""
    top = CANVAS + 8
    out = [f'<g class="legend"><rect x="0" y="{CANVAS}" width="{CANVAS}" height="{LEGEND}" fill="#11112a"/>']
    x = 20.0
    for planet in planets:
        colour = PLANET_COLOURS.get(planet, OTHER_COLOUR)
        label = names.get(planet, planet)
        out.append(_swatch(x, top + 6, 16, 12, colour, "#ffffff"))
        out.append(_left(x + 22, top + 12, label, 13))
        x += 40 + 8 * len(label)
    w, h = PIECE_SIZE
    row = top + 40
    samples = [
        (PLANET_COLOURS["venus"], "#ffffff", "1", "", "V1", "a ship, by name, in its planet's colour", ""),
        (
            PLANET_COLOURS["venus"],
            PLANET_COLOURS["mars"],
            "3",
            ' stroke-dasharray="3 2"',
            "V1*",
            "controlled by the outline's planet (Mind Control)",
            "",
        ),
        (PLANET_COLOURS["pluto"], "#ffffff", "1", "", "P1", "faded: a disabled robot", ' opacity="0.55"'),
    ]
    x = 20.0
    for fill, stroke, width, dash, name, text, extra in samples:
        out.append(
            f"<g{extra}>"
            + _swatch(x, row - h / 2, w, h, fill, stroke, f' stroke-width="{width}"{dash}')
            + _text(x + w / 2, row, name, 9, _ink(fill), "bold")
            + "</g>"
        )
        out.append(_left(x + w + 6, row, text, 12))
        x += w + 20 + 6.6 * len(text)
    row += 28
    kinds = [
        (FILLS[LAND], "land: its number is the population left"),
        (FILLS[OCEAN], "ocean"),
        (FILLS[SPACE], "space: its number is its teleport roll"),
        (FILLS[REFUGE], "pop N: population collected"),
    ]
    x = 20.0
    for fill, text in kinds:
        out.append(_swatch(x, row - 7, 16, 14, fill, LINE))
        out.append(_left(x + 22, row, text, 12))
        x += 40 + 6.6 * len(text)
    out.append(
        _left(20, row + 24, "dashed lines join neighbouring areas; Orbit reaches every Earth area", 12)
    )
    out.append("</g>")
    return out


def _swatch(x: float, y: float, w: float, h: float, fill: str, stroke: str, extra: str = "") -> str:
    """Returns a small rounded rectangle of the legend."""
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="3" fill="{fill}" '
        f'stroke="{stroke}"{extra}/>'
    )


def _left(x: float, y: float, text: str, size: int) -> str:
    """Returns a left-aligned text element."""
    return f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" fill="{TEXT}" dy=".35em">{escape(text)}</text>'


def render_svg(
    board: Board,
    ships: Mapping[str, Sequence[Piece]] | None = None,
    population: Mapping[str, int] | None = None,
    length: str = "normal",
    infected: Mapping[str, int] | None = None,
    planets: Sequence[str] = (),
) -> str:
    """Returns the board as SVG text: areas by kind, dashed neighbour lines, population, every ship by
    name, and a legend below the map.

    ``ships[area]`` lists the ships there; ``infected[area]`` infected units on land; ``planets`` the
    planets of the legend (default all); ``population[area]`` overrides the starting population of the
    game ``length`` (land areas without an entry then show 0; other areas show a number only if listed,
    e.g. what a home world or the Refuge has collected).
    """
    ships = ships or {}
    shown = dict(population) if population is not None else board.population(length)
    _check(board, ships, shown)
    if population is not None:
        shown = {a.id: shown.get(a.id, 0) for a in board.areas if a.kind == LAND} | shown
    orbit = board.area(board.orbit)
    ring = _orbit_radius(board, orbit)
    height = CANVAS + LEGEND
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CANVAS}" height="{height}" '
        f'viewBox="0 0 {CANVAS} {height}" font-family="sans-serif">',
        f"<title>{escape(f'Venus Needs Men! {board.name}')}</title>",
        f'<rect x="0" y="0" width="{CANVAS}" height="{CANVAS}" fill="{BACKGROUND}"/>',
        f'<circle data-area={quoteattr(orbit.id)} cx="{orbit.x}" cy="{orbit.y}" r="{_n(ring)}" '
        f'fill="{FILLS[ORBIT]}" stroke="{LINE}" stroke-width="3"/>',
    ]
    rank = {a.id: i for i, a in enumerate(board.areas)}
    for a in board.areas:
        for b_id in a.neighbours:
            if rank[b_id] > rank[a.id]:
                b = board.area(b_id)
                (x1, y1), (x2, y2) = _line_end(a, b, ring), _line_end(b, a, ring)
                out.append(
                    f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{LINE}" '
                    f'stroke-width="1.5" stroke-dasharray="6 5"/>'
                )
    for a in board.areas:
        out += _shape(a, ring)
    for a in board.areas:
        if a.id in shown:
            value = str(shown[a.id])
            if a.kind == LAND:
                out.append(_text(a.x, a.y, value, 15, "#ffffff", "bold"))
                sick = (infected or {}).get(a.id, 0)
                if sick:
                    out.append(
                        _text(a.x + RADII[LAND] + 4, a.y, f"+{sick}", 11, PLANET_COLOURS["titan"], "bold")
                    )
            else:
                x, y = float(a.x), float(a.y + RADII.get(a.kind, 0) + 26)
                if a.kind == HOME:
                    y = float(a.y - RADII[HOME] - 10)
                elif a.kind in (ORBIT, REFUGE):
                    y = _marker_row(a, ring)[1] + SHIP_RADIUS + 10
                out.append(_text(x, y, f"pop {value}", 11, TEXT, "bold"))
    for a in board.areas:
        out += _ships(a, list(ships.get(a.id, ())), ring)
    names = {
        "venus": "Venus",
        "earth": "Earth",
        "mars": "Mars",
        "ganymede": "Ganymede",
        "titan": "Titan",
        "pluto": "Pluto",
    }
    out += _legend(list(planets) or list(PLANET_COLOURS), names)
    out.append("</svg>")
    return "\n".join(out) + "\n"
