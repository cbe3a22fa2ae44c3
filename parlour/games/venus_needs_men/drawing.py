"""Venus Needs Men!'s board drawn as a self-contained SVG: areas, neighbour lines, population and ships."""

from __future__ import annotations

import math
from collections.abc import Mapping
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
REFUGE_SIZE = (190, 50)
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
            _text(x, y, area.name, 12, TEXT, "bold"),
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
        out.append(_text(x, y, area.name, 14, _ink(fill), "bold"))
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


def _ships(area: Area, fleet: Mapping[str, int], ring: float) -> list[str]:
    """Returns one coloured marker with its count for each planet that has ships in the area."""
    known = [p for p in PLANET_COLOURS if fleet.get(p, 0) > 0]
    rest = sorted(p for p in fleet if p not in PLANET_COLOURS and fleet[p] > 0)
    planets = known + rest
    cx, cy = _marker_row(area, ring)
    out = []
    for k, planet in enumerate(planets):
        x = cx + (k - (len(planets) - 1) / 2) * SHIP_STEP
        colour = PLANET_COLOURS.get(planet, OTHER_COLOUR)
        title = escape(f"{planet}: {fleet[planet]} in {area.name}")
        out.append(
            f'<g class="ships" data-area={quoteattr(area.id)} data-planet={quoteattr(planet)} '
            f'data-count="{fleet[planet]}"><title>{title}</title>'
            f'<circle cx="{_n(x)}" cy="{_n(cy)}" r="{SHIP_RADIUS}" fill="{colour}" stroke="#ffffff"/>'
            + _text(x, cy, str(fleet[planet]), 11, _ink(colour), "bold")
            + "</g>"
        )
    return out


def _check(board: Board, ships: Mapping[str, Mapping[str, int]], population: Mapping[str, int]) -> None:
    """Refuses ships or population given for unknown areas, or negative counts."""
    for area_id, fleet in ships.items():
        board.area(area_id)
        for planet, count in fleet.items():
            if count < 0:
                raise ValueError(f"{planet} cannot have {count} ships in {area_id}")
    for area_id, count in population.items():
        board.area(area_id)
        if count < 0:
            raise ValueError(f"{area_id} cannot hold {count} population")


def render_svg(
    board: Board,
    ships: Mapping[str, Mapping[str, int]] | None = None,
    population: Mapping[str, int] | None = None,
    length: str = "normal",
) -> str:
    """Returns the board as SVG text: areas by kind, dashed neighbour lines, population and ship markers.

    ``ships[area][planet]`` counts ships; ``population[area]`` overrides the starting population of the
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
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CANVAS}" height="{CANVAS}" '
        f'viewBox="0 0 {CANVAS} {CANVAS}" font-family="sans-serif">',
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
            else:
                x, y = float(a.x), float(a.y + RADII.get(a.kind, 0) + 26)
                if a.kind == HOME:
                    y = float(a.y - RADII[HOME] - 10)
                elif a.kind in (ORBIT, REFUGE):
                    y = _marker_row(a, ring)[1] + SHIP_RADIUS + 10
                out.append(_text(x, y, f"pop {value}", 11, TEXT, "bold"))
    for a in board.areas:
        out += _ships(a, ships.get(a.id, {}), ring)
    out.append("</svg>")
    return "\n".join(out) + "\n"
