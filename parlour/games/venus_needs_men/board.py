"""Venus Needs Men!'s board as data (rulebook: 'Parts of the Game'): 30 areas, neighbour lines, population."""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from parlour.core.content import read_house_json
from parlour.core.errors import ContentError, OptionError

FORMAT = "parlour-venus-needs-men-map/1"
"""The ``format`` every map file names."""

HOME, SPACE, ORBIT, LAND, OCEAN, REFUGE = "home", "space", "orbit", "land", "ocean", "refuge"
KINDS = (HOME, SPACE, ORBIT, LAND, OCEAN, REFUGE)
"""The kinds of area; ``space`` is a space area other than Orbit."""
KIND_COUNTS = {HOME: 5, SPACE: 10, ORBIT: 1, LAND: 8, OCEAN: 5, REFUGE: 1}
"""Areas of each kind (rulebook: 30 areas; 11 space areas, Orbit one of them; 8 land, 5 ocean)."""
PLANETS = ("venus", "mars", "ganymede", "titan", "pluto")
"""The five alien home worlds (rulebook, 'Parts of the Game')."""
EARTH = "earth"
"""Earth's player, whose population goes to the Refuge."""
FIRST = "pluto"
"""Pluto takes the first turn (rulebook, 'Turns')."""
LENGTHS = ("short", "normal", "long", "epic")
"""The game lengths of the rulebook's table ('Game Length')."""
NORMAL_TOTAL = 101
"""Earth's total population in the normal game (rulebook, 'Overview')."""
TIE_DIVISORS = (2, 3, 4, 5, 6)
"""Player counts a length's total must not be divisible by, to avoid ties (rulebook, 'Game Length'; A-14)."""
SOURCED_POPULATION = {
    "china": {"short": 20, "normal": 27, "long": 34, "epic": 40},
    "india": {"short": 16, "normal": 21, "long": 26, "epic": 31},
    "europe": {"short": 12, "normal": 16, "long": 20, "epic": 24},
    "africa": {"short": 7, "normal": 9, "long": 11, "epic": 13},
    "namerica": {"short": 6, "normal": 8, "long": 10, "epic": 12},
}
"""The populations the rulebook prints ('Setup', 'Game Length'); Australia's row is cut off."""
SOURCED_LAND = (*SOURCED_POPULATION, "australia")
"""The land areas the rulebook names."""
TELEPORT_FACES = 10
"""A die has ten faces (0 counts as 10): the teleport numbers of the space areas other than Orbit (A-08)."""
CANVAS = 1000
"""Drawing coordinates run from 0 to this, y downwards."""

_ID = re.compile(r"[a-z]+")


@dataclass(frozen=True, slots=True)
class Area:
    """One area of the board: its notation id, name, kind, neighbour lines and drawing position."""

    id: str
    """Short lowercase word used in notation, e.g. ``china``, ``orbit``."""
    name: str
    kind: str
    """One of KINDS."""
    neighbours: tuple[str, ...]
    """Ids of the areas joined to this one by a broken line."""
    x: int
    y: int
    population: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    """Starting population by game length (land areas only)."""
    teleport: int | None = None
    """The die number that teleports a ship here (space areas other than Orbit)."""
    planet: str | None = None
    """Whose population this area stores: the planet of a home world, ``earth`` for the Refuge."""
    source: str = ""
    """Whether the entry is sourced or house, and from where."""

    @property
    def is_earth(self) -> bool:
        """Returns whether this is one of Earth's land or ocean areas (not the Refuge)."""
        return self.kind in (LAND, OCEAN)

    @property
    def is_space(self) -> bool:
        """Returns whether this is a space area, Orbit included."""
        return self.kind in (SPACE, ORBIT)


@dataclass(frozen=True)
class Board:
    """The whole board: areas in file order and the clockwise order of the seats (home worlds, Earth)."""

    name: str
    areas: tuple[Area, ...]
    turn_order: tuple[str, ...]
    """Planets clockwise from Pluto, Earth included: the seating order of A-05(a)."""
    _by_id: dict[str, Area] = field(init=False, repr=False, compare=False)
    _distances: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)

    _earth: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _land: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _orbit: str | None = field(init=False, repr=False, compare=False)
    _refuge: str | None = field(init=False, repr=False, compare=False)
    _homes: dict[str, str] = field(init=False, repr=False, compare=False)
    _totals: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {a.id: a for a in self.areas})
        object.__setattr__(self, "_distances", {})
        object.__setattr__(self, "_earth", tuple(a.id for a in self.areas if a.is_earth))
        object.__setattr__(self, "_land", tuple(a.id for a in self.areas if a.kind == LAND))
        # Looked up on every step of play: found once (the first of each, as the lookups below find them).
        object.__setattr__(self, "_orbit", next((a.id for a in self.areas if a.kind == ORBIT), None))
        object.__setattr__(self, "_refuge", next((a.id for a in self.areas if a.kind == REFUGE), None))
        homes: dict[str, str] = {}
        for a in self.areas:
            if a.planet is not None:
                homes.setdefault(a.planet, a.id)
        object.__setattr__(self, "_homes", homes)
        object.__setattr__(self, "_totals", {})

    @property
    def ids(self) -> tuple[str, ...]:
        """Returns every area id in file order."""
        return tuple(a.id for a in self.areas)

    def has(self, area_id: str) -> bool:
        """Returns whether the board has an area with this id."""
        return area_id in self._by_id

    def area(self, area_id: str) -> Area:
        """Returns the area with this id; KeyError names an unknown one."""
        try:
            return self._by_id[area_id]
        except KeyError:
            raise KeyError(f"no area {area_id!r} on the board") from None

    @property
    def kinds(self) -> dict[str, tuple[str, ...]]:
        """Returns the area ids of each kind, in file order."""
        return {kind: tuple(a.id for a in self.areas if a.kind == kind) for kind in KINDS}

    def earth_areas(self) -> tuple[str, ...]:
        """Returns the ids of Earth's land and ocean areas (where ships may go; not the Refuge)."""
        return self._earth

    def land_areas(self) -> tuple[str, ...]:
        """Returns the ids of the land areas, which hold population."""
        return self._land

    def space_areas(self) -> tuple[str, ...]:
        """Returns the ids of the 11 space areas, Orbit included."""
        return tuple(a.id for a in self.areas if a.is_space)

    @property
    def orbit(self) -> str:
        """Returns Orbit's id."""
        if self._orbit is None:
            raise StopIteration("the board has no Orbit")
        return self._orbit

    @property
    def refuge(self) -> str:
        """Returns the Secret Underground Refuge's id."""
        if self._refuge is None:
            raise StopIteration("the board has no Refuge")
        return self._refuge

    def home(self, planet: str) -> str:
        """Returns the id of a planet's home world (the Refuge for Earth); KeyError if none."""
        found = self._homes.get(planet)
        if found is None:
            raise KeyError(f"no home world for {planet!r}")
        return found

    def neighbours(self, area_id: str) -> tuple[str, ...]:
        """Returns the ids joined to an area by neighbour lines."""
        return self.area(area_id).neighbours

    def are_neighbours(self, a: str, b: str) -> bool:
        """Returns whether a neighbour line joins two areas."""
        return b in self.area(a).neighbours

    def distance(self, a: str, b: str) -> int | None:
        """Returns the fewest neighbour lines from a to b, or None when no chain of lines joins them.

        Orbit's reach to every Earth area is a movement rule, not a neighbour line, so the distance between
        a space area and an Earth area is None on the house map.
        """
        self.area(b)
        if a not in self._distances:
            self.area(a)
            found = {a: 0}
            queue = deque([a])
            while queue:
                here = queue.popleft()
                for there in self._by_id[here].neighbours:
                    if there not in found:
                        found[there] = found[here] + 1
                        queue.append(there)
            self._distances[a] = found
        return self._distances[a].get(b)

    def teleport(self, roll: int) -> str:
        """Returns the space area a Q-Ray teleport lands in for a die roll 1 to 10 (0 counts as 10)."""
        number = TELEPORT_FACES if roll == 0 else roll
        for a in self.areas:
            if a.teleport == number:
                return a.id
        raise ValueError(f"a die shows 0 to {TELEPORT_FACES}, not {roll}")

    def population(self, length: str = "normal") -> dict[str, int]:
        """Returns the starting population of each land area for a game length."""
        if length not in LENGTHS:
            raise OptionError(f"unknown game length {length!r}: choose one of {', '.join(LENGTHS)}")
        return {a.id: a.population[length] for a in self.areas if a.kind == LAND}

    def total(self, length: str = "normal") -> int:
        """Returns Earth's total population for a game length (worked out once: the win checks ask it
        after every unit collected)."""
        found = self._totals.get(length)
        if found is None:
            found = self._totals[length] = sum(self.population(length).values())
        return found

    def needed(self, length: str, players: int) -> int:
        """Returns the population a player needs to win: the total divided by the players, rounded up."""
        if not 2 <= players <= 6:
            raise OptionError(f"Venus Needs Men! is for 2 to 6 players, not {players}")
        return -(-self.total(length) // players)


def _fail(where: str, message: str) -> ContentError:
    """Returns a content error naming the place in the map file."""
    return ContentError(f"map file, {where}: {message}")


def _text(value: object, where: str) -> str:
    """Returns a non-empty string or refuses the entry."""
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"must be non-empty text, not {value!r}")
    return value


def _int(value: object, where: str, low: int, high: int) -> int:
    """Returns a whole number from low to high or refuses the entry."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"must be a whole number from {low} to {high}, not {value!r}")
    return value


def _population(value: object, where: str) -> Mapping[str, int]:
    """Returns a land area's population per length."""
    if not isinstance(value, dict) or set(value) != set(LENGTHS):
        raise _fail(where, f"must give a population for each length: {', '.join(LENGTHS)}")
    for length in LENGTHS:
        _int(value[length], f"{where}.{length}", 0, 10**6)
    return MappingProxyType({length: int(value[length]) for length in LENGTHS})


def _area(entry: object, i: int) -> Area:
    """Reads one area entry, checking the fields its kind needs and refusing those it must not have."""
    where = f"areas[{i}]"
    if not isinstance(entry, dict):
        raise _fail(where, "must be an object")
    area_id = entry.get("id")
    if not isinstance(area_id, str) or not _ID.fullmatch(area_id):
        raise _fail(f"{where}.id", f"must be a lowercase word (a-z), not {area_id!r}")
    where = f"{where} ({area_id})"
    name = _text(entry.get("name"), f"{where}.name")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise _fail(f"{where}.kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    neighbours = entry.get("neighbours")
    if not isinstance(neighbours, list) or not all(isinstance(n, str) for n in neighbours):
        raise _fail(f"{where}.neighbours", "must be a list of area ids")
    if len(set(neighbours)) != len(neighbours) or area_id in neighbours:
        raise _fail(f"{where}.neighbours", "lists an area twice or the area itself")
    x = _int(entry.get("x"), f"{where}.x", 0, CANVAS)
    y = _int(entry.get("y"), f"{where}.y", 0, CANVAS)
    population: Mapping[str, int] = MappingProxyType({})
    if kind == LAND:
        population = _population(entry.get("population"), f"{where}.population")
    elif "population" in entry:
        raise _fail(f"{where}.population", "only land areas have a starting population")
    teleport = None
    if kind == SPACE:
        teleport = _int(entry.get("teleport"), f"{where}.teleport", 1, TELEPORT_FACES)
    elif "teleport" in entry:
        raise _fail(f"{where}.teleport", "only space areas other than Orbit have a teleport number")
    planet = entry.get("planet")
    if kind == HOME and planet not in PLANETS:
        raise _fail(
            f"{where}.planet", f"a home world's planet is one of {', '.join(PLANETS)}, not {planet!r}"
        )
    if kind == REFUGE and planet != EARTH:
        raise _fail(f"{where}.planet", f"the Refuge stores Earth's population: planet must be {EARTH!r}")
    if kind not in (HOME, REFUGE) and planet is not None:
        raise _fail(f"{where}.planet", "only home worlds and the Refuge have a planet")
    source = entry.get("source", "")
    if not isinstance(source, str):
        raise _fail(f"{where}.source", "must be text")
    return Area(area_id, name, kind, tuple(neighbours), x, y, population, teleport, planet, source)


_ALLOWED = {
    HOME: (SPACE, ORBIT),
    SPACE: (HOME, SPACE, ORBIT),
    ORBIT: (HOME, SPACE, LAND, OCEAN),
    LAND: (LAND, OCEAN, ORBIT),
    OCEAN: (LAND, OCEAN, ORBIT),
    REFUGE: (),
}
"""Which kinds each kind may neighbour: ships move from space to space and around Earth (rulebook, 'Move')."""
_TOUCH = {
    HOME: "a home world touches only space areas",
    SPACE: "a space area touches no Earth area",
    ORBIT: "Orbit touches only space areas, home worlds and Earth areas",
    LAND: "an Earth area touches only Earth areas and Orbit",
    OCEAN: "an Earth area touches only Earth areas and Orbit",
    REFUGE: "the Refuge has no neighbours: no spaceship can move there",
}


def _check_lines(areas: list[Area]) -> None:
    """Checks that neighbour lines join known areas of fitting kinds, both ways."""
    by_id = {a.id: a for a in areas}
    for i, a in enumerate(areas):
        where = f"areas[{i}] ({a.id}).neighbours"
        for n in a.neighbours:
            other = by_id.get(n)
            if other is None:
                raise _fail(where, f"unknown area {n!r}")
            if REFUGE in (a.kind, other.kind):
                other_end = n if a.kind == REFUGE else a.id
                raise _fail(where, f"{_TOUCH[REFUGE]} (this file joins it to {other_end!r})")
            if other.kind not in _ALLOWED[a.kind]:
                raise _fail(where, f"{_TOUCH[a.kind]}, not {n!r} ({other.kind})")
            if a.id not in other.neighbours:
                raise _fail(where, f"lists {n!r}, but {n!r} does not list {a.id!r}: lines join both ways")


def _check_connected(areas: list[Area]) -> None:
    """Checks that every area but the Refuge can be reached from Orbit (which reaches every Earth area)."""
    by_id = {a.id: a for a in areas}
    orbit = next(a for a in areas if a.kind == ORBIT)
    earth = [a.id for a in areas if a.is_earth]
    found = {orbit.id}
    queue = deque([orbit.id])
    while queue:
        here = queue.popleft()
        step = list(by_id[here].neighbours) + (earth if here == orbit.id else [])
        for there in step:
            if there not in found:
                found.add(there)
                queue.append(there)
    lost = [a.id for a in areas if a.kind != REFUGE and a.id not in found]
    if lost:
        raise _fail(
            "neighbours", f"{', '.join(lost)} cannot be reached from Orbit: the board is not connected"
        )


def _check_population(areas: list[Area]) -> None:
    """Checks the rulebook's printed populations and each length's total (normal 101, no ties possible)."""
    by_id = {a.id: a for a in areas}
    for area_id in SOURCED_LAND:
        if by_id.get(area_id) is None or by_id[area_id].kind != LAND:
            raise _fail("areas", f"the rulebook's land area {area_id!r} is missing")
    for area_id, printed in SOURCED_POPULATION.items():
        for length, value in printed.items():
            found = by_id[area_id].population[length]
            if found != value:
                raise _fail(
                    f"{area_id}.population.{length}", f"the rulebook prints {value}, this file has {found}"
                )
    for length in LENGTHS:
        total = sum(a.population[length] for a in areas if a.kind == LAND)
        if length == "normal" and total != NORMAL_TOTAL:
            raise _fail("population.normal", f"Earth's total is {NORMAL_TOTAL}, this file's {total}")
        for d in TIE_DIVISORS:
            if total % d == 0:
                raise _fail(
                    f"population.{length}",
                    f"the total {total} is divisible by {d}: {d} players could tie (A-14)",
                )


def _check_teleports(areas: list[Area]) -> None:
    """Checks that the space areas other than Orbit carry the die numbers 1 to 10, each once."""
    seen: dict[int, str] = {}
    for a in areas:
        if a.teleport is not None:
            if a.teleport in seen:
                raise _fail(f"{a.id}.teleport", f"number {a.teleport} is also {seen[a.teleport]!r}'s")
            seen[a.teleport] = a.id
    missing = sorted(set(range(1, TELEPORT_FACES + 1)) - set(seen))
    if missing:
        raise _fail("teleport", f"no space area has the number {missing[0]}")


def _clockwise(area: Area, centre: Area) -> float:
    """Returns the clockwise angle of an area around a centre, from straight up (y grows downwards)."""
    return math.atan2(area.x - centre.x, centre.y - area.y) % math.tau


def _turn_order(data: dict[str, object], areas: list[Area]) -> tuple[str, ...]:
    """Reads the seating order and checks that the home worlds and the Refuge lie clockwise in it."""
    order = data.get("turn_order")
    seats = (*PLANETS, EARTH)
    if not isinstance(order, list) or sorted(order, key=str) != sorted(seats):
        raise _fail("turn_order", f"must list {', '.join(seats)}, each once")
    if order[0] != FIRST:
        raise _fail("turn_order", f"Pluto takes the first turn: the list starts with {FIRST!r}")
    homes = {a.planet: a for a in areas if a.planet is not None}
    orbit = next(a for a in areas if a.kind == ORBIT)
    placed = sorted(order, key=lambda p: _clockwise(homes[p], orbit))
    start = placed.index(FIRST)
    if placed[start:] + placed[:start] != order:
        raise _fail(
            "turn_order",
            f"the home worlds and the Refuge lie clockwise as {', '.join(placed)}, not in this order",
        )
    return tuple(order)


def parse_board(data: object) -> Board:
    """Returns the board described by parsed JSON, refusing one that breaks the rulebook or a house rule."""
    if not isinstance(data, dict):
        raise ContentError("map file: must be a JSON object")
    if data.get("format") != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}, not {data.get('format')!r}")
    entries = data.get("areas")
    if not isinstance(entries, list):
        raise _fail("areas", "must be a list of areas")
    areas: list[Area] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        area = _area(entry, i)
        if area.id in seen:
            raise _fail(f"areas[{i}].id", f"{area.id!r} is already areas[{seen[area.id]}]'s id")
        seen[area.id] = i
        areas.append(area)
    for kind, count in KIND_COUNTS.items():
        found = sum(1 for a in areas if a.kind == kind)
        if found != count:
            raise _fail("areas", f"the board has {count} {kind} areas, this file {found}")
    planets = sorted(str(a.planet) for a in areas if a.kind == HOME)
    if planets != sorted(PLANETS):
        raise _fail("areas", f"the home worlds are {', '.join(PLANETS)}, each once; this file has {planets}")
    _check_lines(areas)
    _check_connected(areas)
    _check_teleports(areas)
    _check_population(areas)
    turn_order = _turn_order(data, areas)
    return Board(_text(data.get("name", "map"), "name"), tuple(areas), turn_order)


@cache
def load_board() -> Board:
    """Loads the house map shipped with Parlour."""
    return parse_board(read_house_json(__package__ or "", "data/map.json", "map file"))
