"""What Venus Needs Men!'s drawn table needs beside the observation (docs/browser-tables/venus_needs_men.md):
the map's areas as drawn, each planet's name, letter and colour, and every card's name and text by id."""

from __future__ import annotations

import math
from typing import TypedDict

from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.views import MOMENTS

COLOURS = {
    "venus": ("#CC79A7", "reddish purple"),
    "earth": ("#009E73", "bluish green"),
    "mars": ("#D55E00", "vermillion"),
    "ganymede": ("#56B4E9", "sky blue"),
    "titan": ("#F0E442", "yellow"),
    "pluto": ("#999999", "grey"),
}
"""Each planet's colour on the drawn table: the Okabe-Ito colour-blind-safe palette nearest the
rulebook's ship colours ('Setup': purple, green, red, blue, yellow, black), as in the game's
text_colours; always drawn beside the planet's name or its ships' letters."""
OTHER = ("#BBBBBB", "light grey")
"""The colour of a planet the table above does not know (a house faction)."""
RING_MARGIN = 46
"""Orbit's ring lies this far outside Earth's farthest area (drawing units), as in drawing.py."""


class AreaFacts(TypedDict):
    """One area as drawn: id, name, kind, position, neighbours, whose store it is, teleport number."""

    id: str
    name: str
    kind: str
    x: int
    y: int
    neighbours: list[str]
    planet: str | None
    teleport: int | None


class MapFacts(TypedDict):
    """The map: its areas, Orbit and the Refuge, and the radius of Orbit's ring."""

    name: str
    size: int
    orbit: str
    refuge: str
    ring: float
    areas: list[AreaFacts]


class PlanetFacts(TypedDict):
    """A planet: its name, its ships' letter and names, its colour (and the colour's name), home area."""

    name: str
    letter: str
    colour: str
    colour_name: str
    home: str | None
    ships: list[str]


class UpgradeFacts(TypedDict):
    """An Upgrade card: name, text, the research roll it needs, its copies in the deck."""

    name: str
    text: str
    roll: int
    copies: int


class TableContent(TypedDict):
    """What the drawn table needs beside the observation (the same all game long)."""

    map: MapFacts
    planets: dict[str, PlanetFacts]
    zap: dict[str, dict[str, str]]
    """Every Zap card by number (as text): name, text, timing."""
    technology: dict[str, dict[str, str]]
    upgrades: dict[str, UpgradeFacts]
    specials: dict[str, dict[str, str]]
    moments: dict[str, str]
    """Each Zap window's moment in words."""


def table_content(state: VenusState) -> TableContent:
    """Returns the map, the planets and every card by id: public, the same for every seed."""
    return TableContent(
        map=_map(state.board),
        planets=_planets(state),
        zap=_zap(state),
        technology=_technology(state),
        upgrades=_upgrades(state),
        specials=_specials(state),
        moments=dict(MOMENTS),
    )


def _map(board: Board) -> MapFacts:
    """Returns the areas (id, name, kind, x, y, neighbours, whose store, teleport number) and Orbit's ring."""
    orbit = board.area(board.orbit)
    reach = [math.hypot(a.x - orbit.x, a.y - orbit.y) for a in board.areas if a.is_earth]
    return MapFacts(
        name=board.name,
        size=1000,
        orbit=board.orbit,
        refuge=board.refuge,
        ring=round(max(reach, default=80.0) + RING_MARGIN, 1),
        areas=[
            AreaFacts(
                id=a.id,
                name=a.name,
                kind=a.kind,
                x=a.x,
                y=a.y,
                neighbours=list(a.neighbours),
                planet=a.planet,
                teleport=a.teleport,
            )
            for a in board.areas
        ],
    )


def _planets(state: VenusState) -> dict[str, PlanetFacts]:
    """Returns every planet the factions file knows: name, ships' letter, colour and its name, home area."""
    homes = {a.planet: a.id for a in state.board.areas if a.planet}
    found = {}
    for planet in state.factions.planets.values():
        colour, colour_name = COLOURS.get(planet.id, OTHER)
        found[planet.id] = PlanetFacts(
            name=planet.name,
            letter=planet.letter,
            colour=colour,
            colour_name=colour_name,
            home=homes.get(planet.id),
            ships=planet.ship_ids(),
        )
    return found


def _zap(state: VenusState) -> dict[str, dict[str, str]]:
    """Returns every Zap card by number (as text, for JSON): name, text and its timing's code."""
    return {
        str(n): {"name": c.name, "text": c.text, "timing": c.timing}
        for n, c in sorted(state.zap.cards.items())
    }


def _technology(state: VenusState) -> dict[str, dict[str, str]]:
    """Returns every Technology card by id: name, text, owner and slot."""
    return {
        card.id: {"name": card.name, "text": card.text, "planet": planet, "slot": slot}
        for planet, slots in state.tech.technology.items()
        for slot, card in slots.items()
    }


def _upgrades(state: VenusState) -> dict[str, UpgradeFacts]:
    """Returns every Upgrade card by id: name, text, the research roll it needs, copies in the deck."""
    tech = state.tech
    return {
        u.id: UpgradeFacts(name=u.name, text=u.text, roll=u.roll, copies=tech.upgrade_cards.count(u.id))
        for u in tech.upgrades.values()
    }


def _specials(state: VenusState) -> dict[str, dict[str, str]]:
    """Returns every Special card by id: name, text, owner."""
    return {s.id: {"name": s.name, "text": s.text, "planet": s.planet} for s in state.tech.specials.values()}
