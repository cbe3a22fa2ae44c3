"""The six home worlds: colours, spaceship pools, starting spaceships and the fixed turn order."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from parlour.core.content import read_house_json
from parlour.core.errors import ContentError

SOURCED_SHIPS = {"venus": 5, "earth": 4, "mars": 5, "ganymede": 6, "titan": 5, "pluto": 5}
"""Spaceships per set (rulebook: five each, Earth four, Ganymede six)."""


@dataclass(frozen=True, slots=True)
class Planet:
    """A home world and its spaceship set."""

    id: str
    name: str
    colour: str
    letter: str
    """The first letter of its spaceships' names (``V1``, ``V2``...)."""
    ships: int
    start_basic: int
    start_enhanced: int
    builds_basic: int
    """Spaceships one build action makes in the Basic game (Titan 2, Pluto 3)."""

    def ship_ids(self) -> list[str]:
        """Returns the names of this set's spaceships."""
        return [f"{self.letter}{i}" for i in range(1, self.ships + 1)]


@dataclass(frozen=True)
class Factions:
    """Every planet by id and the fixed clockwise order of the home worlds (Pluto first)."""

    planets: dict[str, Planet]
    order: tuple[str, ...]
    letters: dict[str, Planet] = field(init=False, repr=False, compare=False)
    owners: dict[str, str] = field(init=False, repr=False, compare=False)
    """Every spaceship's planet, by the ship's name (a ship's owner never changes)."""
    fleets: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    """Each planet's spaceships, by name in sorted order."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "letters", {p.letter: p for p in self.planets.values()})
        owners = {ship: p.id for p in self.letters.values() for ship in p.ship_ids()}
        object.__setattr__(self, "owners", owners)
        fleets = {p.id: tuple(sorted(p.ship_ids())) for p in self.planets.values()}
        object.__setattr__(self, "fleets", fleets)

    def by_letter(self, letter: str) -> Planet | None:
        """Returns the planet whose ships start with ``letter``."""
        return self.letters.get(letter)


def parse_factions(data: Any) -> Factions:
    """Returns the factions described by parsed JSON, refusing one that breaks a sourced fact."""
    try:
        planets = {
            p["id"]: Planet(
                p["id"],
                p["name"],
                p["colour"],
                p["letter"],
                int(p["ships"]),
                int(p["start_basic"]),
                int(p["start_enhanced"]),
                int(p["builds_basic"]),
            )
            for p in data["planets"]
        }
        order = tuple(data["order"])
    except (KeyError, TypeError, ValueError) as err:
        raise ContentError(f"factions file is malformed: missing or bad {err}") from None
    if {p: planet.ships for p, planet in planets.items()} != SOURCED_SHIPS:
        raise ContentError(
            "factions file: the spaceship sets are Venus, Mars, Titan, Pluto 5, Ganymede 6, Earth 4"
        )
    if sorted(order) != sorted(planets) or order[0] != "pluto":
        raise ContentError("factions file: order must list every planet once, Pluto first")
    if len({p.letter for p in planets.values()}) != len(planets):
        raise ContentError("factions file: every planet needs its own ship letter")
    return Factions(planets, order)


@cache
def load_factions() -> Factions:
    """Loads the factions shipped with Parlour."""
    return parse_factions(read_house_json(__package__ or "", "data/factions.json", "factions file"))
