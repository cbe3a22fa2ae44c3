"""Rulebook "Actions": the single steps of build, move, attack, collect and research, and who may take them.

The main action, an extension's extra step and an immediate-action card take
the same steps; ``mode`` says which (``main``, ``extra``, ``immediate``): an
extra step gets one unit of the action, and under the rulebook's reading no
Technology or Special card applies to it (option ``extension_cards``, A-01).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men.actions import (
    Attack,
    Build,
    Collect,
    Control,
    Infect,
    Move,
    Purge,
    Research,
    VenusAction,
)
from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.fleets import Fleets
from parlour.games.venus_needs_men.state import VenusState

EARTH = "earth"
REFUGE = "refuge"
MAIN, EXTRA, IMMEDIATE = "main", "extra", "immediate"
BUILD = Build.of()
"""``build``: new ships on the home world."""
SPACES = ("space", "orbit")
EARTHLY = ("land", "ocean")


class Tables:
    """The movement and attack tables worked out for every area of one board (they depend on the board
    alone), and each ship's moves from each area as actions: the steps are listed after every action."""

    def __init__(self, board: Board) -> None:
        self.board = board
        ids = board.ids
        self.destinations = {a: tuple(_destinations(board, a)) for a in ids}
        """Where a ship may move from each area."""
        self.reach = {a: frozenset(_reach(board, a, False)) for a in ids}
        """The areas a ship in each area can attack into."""
        self.long_reach = {a: frozenset(_reach(board, a, True)) for a in ids}
        """... with Long-Range Missiles."""
        self.around = {a: (a, *board.neighbours(a)) for a in ids}
        """Each area and its neighbours, in the board's order (where an Amphibious ship may collect)."""
        self._moves: dict[tuple[str, str], tuple[Move, ...]] = {}
        self._ship_moves: dict[str, dict[str, tuple[Move, ...]]] = {}
        """:meth:`moves` by ship, then area (two string look-ups: no key to build and hash)."""
        self.kept_attacks: dict[tuple[str, str], Attack] = {}
        """The actions :meth:`attack` made, by ship and target."""
        self.ship_attacks: dict[str, dict[str, Attack]] = {}
        """:meth:`attack`'s actions by ship, then target."""
        self.kept_collects: dict[tuple[str, str, bool], Collect] = {}
        """The actions :meth:`collect` made, by ship, area and kind."""
        self._launches: dict[str, tuple[Build, ...]] = {}

    def moves(self, ship: str, where: str) -> tuple[Move, ...]:
        """Returns ``move SHIP AREA`` for each area the ship may move to from ``where``."""
        key = (ship, where)
        found = self._moves.get(key)
        if found is None:
            found = self._moves[key] = tuple(Move.of(ship, d) for d in self.destinations[where])
        return found

    def fleet_moves(self, ships: Sequence[str], places: dict[str, str | None]) -> list[VenusAction]:
        """Returns ``move SHIP AREA`` for each of these ships, from where each stands (``places``), and
        each area it may move to (:meth:`moves`, looked up without a call per ship)."""
        found: list[VenusAction] = []
        by_ship = self._ship_moves
        for ship in ships:
            where = places[ship]
            assert where is not None
            kept = by_ship.get(ship)
            if kept is None:
                kept = by_ship[ship] = {}
            moves = kept.get(where)
            if moves is None:
                moves = kept[where] = self.moves(ship, where)
            found += moves
        return found

    def attack(self, ship: str, target: str) -> Attack:
        """Returns ``attack SHIP TARGET``."""
        key = (ship, target)
        found = self.kept_attacks.get(key)
        if found is None:
            found = self.kept_attacks[key] = Attack.of(ship, target)
        return found

    def attacks(self, ship: str, targets: list[str]) -> list[Attack]:
        """Returns ``attack SHIP TARGET`` for each target (:meth:`attack`, looked up without a call each)."""
        kept = self.ship_attacks.get(ship)
        if kept is None:
            kept = self.ship_attacks[ship] = {}
        found: list[Attack] = []
        for target in targets:
            attack = kept.get(target)
            if attack is None:
                attack = kept[target] = self.attack(ship, target)
            found.append(attack)
        return found

    def launches(self, planet: str) -> tuple[Build, ...]:
        """Returns the builds of a planet with Quality Control: on its home world or a space area next to
        it, each named (just ``build`` when no such area is there)."""
        found = self._launches.get(planet)
        if found is None:
            board = self.board
            home = board.home(planet)
            areas = [home, *(n for n in board.neighbours(home) if board.area(n).kind == "space")]
            found = (BUILD,) if areas == [home] else tuple(Build.of(a) for a in areas)
            self._launches[planet] = found
        return found

    def collect(self, ship: str, area: str, infected: bool) -> Collect:
        """Returns ``collect SHIP [AREA] [infected]``."""
        key = (ship, area, infected)
        found = self.kept_collects.get(key)
        if found is None:
            found = self.kept_collects[key] = (
                Collect.of(ship, area, True) if infected else Collect.of(ship, area)
            )
        return found


_TABLES: dict[int, Tables] = {}
"""The tables of each board seen, by the board's ``id`` (each entry keeps its board alive, so no other
board takes its ``id``)."""


def tables(board: Board) -> Tables:
    """Returns the movement and attack tables of a board (worked out once)."""
    found = _TABLES.get(id(board))
    if found is None or found.board is not board:
        found = _TABLES[id(board)] = Tables(board)
    return found


def fleets_of(state: VenusState) -> Fleets:
    """Returns :attr:`VenusState.fleets` (read without a Python call while the state keeps them)."""
    found = state._fleets
    return found if found is not None else state.fleets


def cards_apply(state: VenusState, mode: str) -> bool:
    """Returns whether Technology and Special cards apply to a step in this mode."""
    if not state.enhanced:
        return False
    return mode != EXTRA or state.options["extension_cards"] == "errata"


def is_enemy(state: VenusState, planet: str, ship: str) -> bool:
    """Returns whether ``ship`` is an enemy of ``planet`` (partners in the team game are not, A-17)."""
    owner = state.controller(ship)
    return owner in state.seat_of and state.seat_of[owner] != state.seat_of[planet]


def enemies(state: VenusState, planet: str) -> list[tuple[str, str]]:
    """Returns every enemy ship of ``planet`` on the board with its area, in name order."""
    ships = state.ships
    return [(ship, ships[ship] or "") for ship in fleets_of(state).enemies(state.seat_of[planet])]


def has_enemy(state: VenusState, planet: str) -> bool:
    """Returns whether ``planet`` has an enemy ship on the board."""
    return bool(fleets_of(state).enemies(state.seat_of[planet]))


def ready(state: VenusState, ships: Sequence[str]) -> Sequence[str]:
    """Returns the ships that may act: not a disabled robot, nor a ship taken over this turn (A-10)."""
    disabled, seized = state.disabled, state.seized
    if not disabled and not seized:
        return ships
    return [s for s in ships if s not in disabled and s not in seized]


# ------------------------------------------------------------------ build
def build_areas(state: VenusState, planet: str, mode: str) -> list[str]:
    """Returns where new ships go: the home world (Quality Control: or next to it); Earth: populated land."""
    if planet == EARTH:
        return [a for a in state.board.land_areas() if state.population[a] + state.infected[a] > 0]
    home = state.board.home(planet)
    if mode == MAIN and cards_apply(state, mode) and tech.launches(state, planet):
        return [home, *(n for n in state.board.neighbours(home) if state.board.area(n).kind == "space")]
    return [home]


def build_steps(state: VenusState, planet: str, mode: str = MAIN) -> list[VenusAction]:
    """Returns ``build`` (or ``build AREA`` where there is a choice) if a ship is left."""
    if planet not in fleets_of(state).supplied:  # state.has_supply
        return []
    launching = mode == MAIN and state.enhanced and tech.loadout(state, planet).launch  # tech.launches
    if planet != EARTH and mode != IMMEDIATE:
        # The home world alone needs no name; Quality Control adds the space areas next to it.
        return list(tables(state.board).launches(planet)) if launching else [BUILD]
    areas = build_areas(state, planet, mode)
    if planet != EARTH and areas == [state.board.home(planet)] and mode != IMMEDIATE:
        return [BUILD]
    return [Build.of(a) for a in areas]


def build_count(state: VenusState, planet: str, mode: str) -> int:
    """Returns the ships one build step makes: Basic Titan 2 and Pluto 3; extra steps always 1."""
    if mode != MAIN:
        return 1
    if tech.is_enhanced(state):
        return tech.build_count(state, planet)
    return state.planet(planet).builds_basic


def build(state: VenusState, planet: str, action: Build, count: int) -> None:
    """Puts up to ``count`` new ships on the home world (or the chosen area)."""
    where = action.area or state.board.home(planet)
    built = state.supply(planet)[:count]
    for ship in built:
        state.place_ship(ship, where)
    if state.logging:
        state.emit(f"{state.planet(planet).name} builds {' '.join(built)} on {state.board.area(where).name}.")


# ------------------------------------------------------------------ move
def _destinations(board: Board, where: str) -> list[str]:
    """Returns where a ship in ``where`` may move: the movement table (A-02: never onto a home world or
    the Refuge)."""
    area = board.area(where)
    spaces = [n for n in board.neighbours(where) if board.area(n).kind in SPACES]
    if area.kind == "orbit":
        return spaces + list(board.earth_areas())
    if area.kind in EARTHLY:
        return [a for a in board.earth_areas() if a != where] + [board.orbit]
    return spaces


def destinations(state: VenusState, ship: str) -> list[str]:
    """Returns where a ship may move: the movement table (A-02: never onto a home world or the Refuge)."""
    where = state.ships[ship]
    assert where is not None
    return list(tables(state.board).destinations[where])


def can_still_move(state: VenusState, ship: str, mode: str) -> bool:
    """Returns whether a ship has move steps left (main action: its Movement card's areas)."""
    if mode != MAIN:
        return True
    allowed = tech.moves_per_ship(state, ship) if tech.is_enhanced(state) else 1
    return state.acted.count(ship) < allowed


def _movers(state: VenusState, ships: Sequence[str], mode: str) -> list[str]:
    """Returns the ships that may take a move step: ready, with move steps left (:func:`can_still_move`)."""
    movers = ready(state, ships) if state.disabled or state.seized else ships
    if mode != MAIN:
        return list(movers)
    acted = state.acted
    if not state.enhanced:
        return [s for s in movers if s not in acted] if acted else list(movers)
    found = []
    owners, owner, most = state.factions.owners, "", 0  # a fleet lists each owner's ships together
    for ship in movers:
        if owners[ship] != owner:
            owner = owners[ship]
            most = tech.loadout(state, owner).moves
        if (acted.count(ship) if acted else 0) < most:
            found.append(ship)
    return found


def _may_move(state: VenusState, ships: Sequence[str], mode: str) -> bool:
    """Returns whether one of these ships may take a move step (:func:`_movers` with a destination),
    stopping at the first."""
    places, destinations = state.ships, tables(state.board).destinations
    disabled, seized, acted, owners = state.disabled, state.seized, state.acted, state.factions.owners
    main, enhanced = mode == MAIN, state.enhanced
    owner, most = "", 0  # each owner's move steps a ship (read once for a run of its ships)
    for ship in ships:
        if (disabled or seized) and (ship in disabled or ship in seized):
            continue
        if main:
            if enhanced:
                if owners[ship] != owner:
                    owner = owners[ship]
                    most = tech.loadout(state, owner).moves
                if acted.count(ship) >= most:
                    continue
            elif ship in acted:
                continue
        where = places[ship]
        assert where is not None
        if destinations[where]:
            return True
    return False


def move_steps(state: VenusState, ships: Sequence[str], mode: str = MAIN) -> list[VenusAction]:
    """Returns ``move SHIP AREA`` for each of these ships that may move, and each destination."""
    return tables(state.board).fleet_moves(_movers(state, ships, mode), state.ships)


def move(state: VenusState, action: Move) -> None:
    """Moves a ship one area (:meth:`VenusState.place_ship` inline: a ship on the board stays on it)."""
    ships, ship = state.ships, action.ship
    if ships[ship] is None:
        state._fleets = None
    ships[ship] = action.area
    if state._events is not None:  # state.logging
        state.emit(f"{action.ship} moves to {state.board.area(action.area).name}.")


# ------------------------------------------------------------------ attack
def _reach(board: Board, where: str, long: bool) -> list[str]:
    """Returns the areas a ship in ``where`` can attack into (the attack table; ``long``: with Long-Range
    Missiles, which reach neighbouring space areas from a space area, Orbit too, A-03)."""
    kind = board.area(where).kind
    if kind in EARTHLY:
        return [where, board.orbit, *(n for n in board.neighbours(where) if board.area(n).kind in EARTHLY)]
    reach = [where, *board.earth_areas()] if kind == "orbit" else [where]
    if kind in SPACES and long:
        reach += [n for n in board.neighbours(where) if board.area(n).kind in SPACES]
    return reach


def _long_range(state: VenusState, ship: str, cards: bool) -> bool:
    """Returns whether a ship's attack reaches further (Long-Range Missiles, with cards applying)."""
    return cards and tech.loadout(state, state.factions.owners[ship]).long


def in_range(state: VenusState, ship: str, cards: bool) -> list[str]:
    """Returns the areas a ship can attack into (the attack table; Long-Range Missiles reach further)."""
    where = state.ships[ship]
    assert where is not None
    return _reach(state.board, where, _long_range(state, ship, cards))


def reach(state: VenusState, ship: str, cards: bool) -> frozenset[str]:
    """Returns :func:`in_range` as a set."""
    where = state.ships[ship]
    assert where is not None
    table = tables(state.board)
    return (table.long_reach if _long_range(state, ship, cards) else table.reach)[where]


def attack_steps(state: VenusState, planet: str, ships: Sequence[str], mode: str = MAIN) -> list[VenusAction]:
    """Returns ``attack SHIP TARGET [WEAPON]``, ``attack SHIP refuge`` and ``control SHIP TARGET``."""
    found: list[VenusAction] = []
    attackers = ready(state, ships) if state.disabled or state.seized else ships
    if not attackers:
        return found
    cards = state.enhanced and cards_apply(state, mode)
    rivals = fleets_of(state).enemies(state.seat_of[planet])  # on the board: each has an area
    raid = cards and _may_raid(state, planet)
    if not rivals and not raid:
        return found  # no enemy ship on the board to attack, take over or raid from
    places, table = state.ships, tables(state.board)
    occupied: set[str | None] = set()
    for rival in rivals:
        occupied.add(places[rival])
    orbit = state.board.orbit if raid else None
    seize = cards and state.tech.specials[planet].id == "mindcontrol"  # Mars's Special (planet in play)
    owners, owner, loadout = state.factions.owners, "", None
    reaches, long_reaches = table.reach, table.long_reach
    aims: dict[str, list[str]] = {}  # the targets from each area (long range: the area's name after a '+')
    for ship in attackers:
        where = places[ship]
        assert where is not None
        second: tuple[str, ...] = ()
        if cards:
            if owners[ship] != owner:
                owner = owners[ship]
                loadout = tech.loadout(state, owner)
            assert loadout is not None
            second = loadout.second
            key = "+" + where if loadout.long else where
            area = (long_reaches if loadout.long else reaches)[where]
        else:
            key, area = where, reaches[where]
        targets = aims.get(key)
        if targets is None:
            hit = not occupied.isdisjoint(area)
            targets = aims[key] = [t for t in rivals if places[t] in area] if hit else []
        if targets:
            # Only Gatling Lasers is a second weapon for a Q-Ray owner (its text); Auto Fire Control and
            # Energy Amplifier improve the Q-Ray instead.
            if second:
                for target in targets:
                    found.append(table.attack(ship, target))
                    found += [Attack.of(ship, target, weapon) for weapon in second]
            else:
                found += table.attacks(ship, targets)
        if raid and where == orbit:
            found.append(Attack.of(ship, REFUGE))
        if seize and targets and _may_seize(state, planet, ship):
            found += [Control.of(ship, t) for t in targets if places[t] == where]
    return found


def _may_seize(state: VenusState, planet: str, ship: str) -> bool:
    """Returns whether a Mars ship may take one more ship over: one each, counted per area (A-10)."""
    controlled, places = state.controlled, state.ships
    if state.owner(ship) != planet or ship in controlled:
        return False
    here = places[ship]
    # The planet's own ships on the board are the ships it commands that are not held by Mind Control.
    own = sum(1 for s in fleets_of(state).of.get(planet, ()) if places[s] == here and s not in controlled)
    held = sum(1 for s, p in controlled.items() if p == planet and places[s] == here)
    return held < own


def _may_raid(state: VenusState, planet: str) -> bool:
    """Returns whether a ship of ``planet`` in Orbit may attack Earth's Refuge (Earth's Special)."""
    return (
        state.collected.get(EARTH, 0) > 0
        and planet != EARTH
        and tech.has_special(state, EARTH, "resistance")
        and state.seat_of[EARTH] != state.seat_of[planet]
    )


# ------------------------------------------------------------------ population
def collect_sources(state: VenusState, planet: str, ship: str, cards: bool) -> list[str]:
    """Returns the land areas a ship may collect from: its own (Amphibious: or a neighbouring one)."""
    return _sources(state, ship, cards and tech.has_special(state, planet, "amphibious"))


def _sources(state: VenusState, ship: str, amphibious: bool) -> list[str]:
    """Returns the land areas with units a ship may collect from (``amphibious``: neighbours too)."""
    where = state.ships[ship]
    assert where is not None
    population, infected = state.population, state.infected
    if not amphibious:
        return [where] if population.get(where, 0) + infected.get(where, 0) > 0 else []
    areas = [where, *state.board.neighbours(where)]
    return [a for a in areas if population.get(a, 0) + infected.get(a, 0) > 0]


def collect_steps(
    state: VenusState, planet: str, ships: Sequence[str], mode: str = MAIN
) -> list[VenusAction]:
    """Returns ``collect SHIP [AREA]``, and Titan's ``infect SHIP`` and Pluto's ``purge SHIP``."""
    found: list[VenusAction] = []
    collectors = ready(state, ships) if state.disabled or state.seized else ships
    if not collectors:
        return found
    may_collect, amphibious, parasites, robotic = _collecting(state, planet, cards_apply(state, mode))
    population, infected, table = state.population, state.infected, tables(state.board)
    # Ruling A-23 (option ``infected``): where healthy and infected units share an area, the collector
    # chooses which kind it takes.
    choosing = state.options.get("infected", "choose") == "choose"
    places, around, kept = state.ships, table.around, table.kept_collects
    sources: dict[str, list[tuple[str, bool]]] = {}  # each area's sources, and whether both kinds are there
    for ship in collectors:
        where = places[ship] or ""
        if may_collect:
            here = sources.get(where)
            if here is None:
                areas = around[where] if amphibious else (where,)
                here = sources[where] = [
                    (
                        "" if a == where else a,
                        choosing and population.get(a, 0) > 0 and infected.get(a, 0) > 0,
                    )
                    for a in areas
                    if population.get(a, 0) + infected.get(a, 0) > 0
                ]
            for a, both in here:
                found.append(kept.get((ship, a, False)) or table.collect(ship, a, False))
                if both:
                    found.append(table.collect(ship, a, True))
        if parasites and population.get(where, 0) > 0:
            found.append(Infect.of(ship))
        if robotic and infected.get(where, 0) > 0:
            found.append(Purge.of(ship))
    return found


# ------------------------------------------------------------------ research
def research_steps(state: VenusState, planet: str) -> list[VenusAction]:
    """Returns ``research ID`` for each face-up Upgrade the planet may try for (Enhanced game)."""
    if not state.enhanced:
        return []
    pending = state.pending_upgrades.get(planet, ())
    key = ("research", planet, *state.upgrades.get(planet, ()), "", *pending, "", *state.face_up)
    memo = state.tech.memo
    found: tuple[Research, ...] | None = memo.get(key)
    if found is None:
        # What it reads: the planet's Upgrades in effect (its loadout), those acquired this turn, the face-up
        # ones, and the cards (``state.tech``, which keeps the memo).
        have = tech.held(state, planet)
        found = memo[key] = tuple(
            research_of(u) for u in sorted(set(state.face_up)) if tech.researchable(state, planet, u, have)
        )
    return list(found)


_RESEARCH: dict[str, Research] = {}


def research_of(upgrade: str) -> Research:
    """Returns ``research ID`` (the shared action, found without building its key)."""
    found = _RESEARCH.get(upgrade)
    if found is None:
        found = _RESEARCH[upgrade] = Research.of(upgrade)
    return found


def has_steps(state: VenusState, kind: str, planet: str, ships: Sequence[str], mode: str = MAIN) -> bool:
    """Returns whether :func:`steps` would list any step, without listing them all (the steps nobody
    decides ask it after every action)."""
    if kind == "move":
        return _may_move(state, ships, mode)
    if kind == "attack":
        attackers = ready(state, ships)
        if not attackers:
            return False
        cards = cards_apply(state, mode)
        if cards and _may_raid(state, planet):
            orbit = state.board.orbit
            if any(state.ships[s] == orbit for s in attackers):
                return True
        occupied = {where for _, where in enemies(state, planet)}
        return any(not occupied.isdisjoint(reach(state, s, cards)) for s in attackers)
    if kind == "collect":
        return _may_collect(state, planet, ready(state, ships), cards_apply(state, mode))
    return bool(steps(state, kind, planet, ships, mode))


def _collecting(state: VenusState, planet: str, cards: bool) -> tuple[bool, bool, bool, bool]:
    """Returns whether the planet may collect (Earth once opened), and whether its Special is in effect
    as Amphibious (where cards apply), Parasites or Robotic."""
    special = tech.special(state, planet)
    may_collect = planet != EARTH or state.earth_open
    return may_collect, cards and special == "amphibious", special == "parasites", special == "robotic"


def _may_collect(state: VenusState, planet: str, ships: Sequence[str], cards: bool) -> bool:
    """Returns whether one of these ships has a collect, infect or purge step."""
    if not ships:
        return False
    may_collect, amphibious, parasites, robotic = _collecting(state, planet, cards)
    population, infected = state.population, state.infected
    for ship in ships:
        where = state.ships[ship] or ""
        if may_collect and _sources(state, ship, amphibious):
            return True
        if parasites and population.get(where, 0) > 0:
            return True
        if robotic and infected.get(where, 0) > 0:
            return True
    return False


def steps(
    state: VenusState, kind: str, planet: str, ships: Sequence[str], mode: str = MAIN
) -> list[VenusAction]:
    """Returns the steps of one kind of action for these ships."""
    if kind == "build":
        return build_steps(state, planet, mode)
    if kind == "move":
        return move_steps(state, ships, mode)
    if kind == "attack":
        return attack_steps(state, planet, ships, mode)
    if kind == "research":
        return research_steps(state, planet)
    return collect_steps(state, planet, ships, mode)
