"""Rulebook "Actions": the single steps of build, move, attack, collect and research, and who may take them.

The main action, an extension's extra step and an immediate-action card take
the same steps; ``mode`` says which (``main``, ``extra``, ``immediate``): an
extra step gets one unit of the action, and under the rulebook's reading no
Technology or Special card applies to it (option ``extension_cards``, A-01).
"""

from __future__ import annotations

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
from parlour.games.venus_needs_men.state import VenusState

EARTH = "earth"
REFUGE = "refuge"
MAIN, EXTRA, IMMEDIATE = "main", "extra", "immediate"


def cards_apply(state: VenusState, mode: str) -> bool:
    """Returns whether Technology and Special cards apply to a step in this mode."""
    if not tech.is_enhanced(state):
        return False
    return mode != EXTRA or state.options["extension_cards"] == "errata"


def is_enemy(state: VenusState, planet: str, ship: str) -> bool:
    """Returns whether ``ship`` is an enemy of ``planet`` (partners in the team game are not, A-17)."""
    owner = state.controller(ship)
    return owner in state.seat_of and state.seat_of[owner] != state.seat_of[planet]


def ready(state: VenusState, ships: list[str]) -> list[str]:
    """Returns the ships that may act: not a disabled robot, nor a ship taken over this turn (A-10)."""
    return [s for s in ships if s not in state.disabled and s not in state.seized]


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
    if not state.supply(planet):
        return []
    areas = build_areas(state, planet, mode)
    if planet != EARTH and areas == [state.board.home(planet)] and mode != IMMEDIATE:
        return [Build.of()]
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
        state.ships[ship] = where
    state.emit(f"{state.planet(planet).name} builds {' '.join(built)} on {state.board.area(where).name}.")


# ------------------------------------------------------------------ move
def destinations(state: VenusState, ship: str) -> list[str]:
    """Returns where a ship may move: the movement table (A-02: never onto a home world or the Refuge)."""
    board, where = state.board, state.ships[ship]
    assert where is not None
    area = board.area(where)
    spaces = [n for n in board.neighbours(where) if board.area(n).kind in ("space", "orbit")]
    if area.kind == "orbit":
        return spaces + list(board.earth_areas())
    if area.kind in ("land", "ocean"):
        return [a for a in board.earth_areas() if a != where] + [board.orbit]
    return spaces


def can_still_move(state: VenusState, ship: str, mode: str) -> bool:
    """Returns whether a ship has move steps left (main action: its Movement card's areas)."""
    if mode != MAIN:
        return True
    allowed = tech.moves_per_ship(state, ship) if tech.is_enhanced(state) else 1
    return state.acted.count(ship) < allowed


def move_steps(state: VenusState, ships: list[str], mode: str = MAIN) -> list[VenusAction]:
    """Returns ``move SHIP AREA`` for each of these ships that may move, and each destination."""
    return [
        Move.of(s, d)
        for s in ready(state, ships)
        if can_still_move(state, s, mode)
        for d in destinations(state, s)
    ]


def move(state: VenusState, action: Move) -> None:
    """Moves a ship one area."""
    state.ships[action.ship] = action.area
    state.emit(f"{action.ship} moves to {state.board.area(action.area).name}.")


# ------------------------------------------------------------------ attack
def in_range(state: VenusState, ship: str, cards: bool) -> list[str]:
    """Returns the areas a ship can attack into (the attack table; Long-Range Missiles reach further)."""
    board, where = state.board, state.ships[ship]
    assert where is not None
    kind = board.area(where).kind
    if kind in ("land", "ocean"):
        return [
            where,
            board.orbit,
            *(n for n in board.neighbours(where) if board.area(n).kind in ("land", "ocean")),
        ]
    reach = [where, *board.earth_areas()] if kind == "orbit" else [where]
    if kind in ("space", "orbit") and cards and any(c.long for c in tech.weapons(state, ship)):
        # Long-Range Missiles: a ship in a space area (Orbit too, A-03) reaches neighbouring space areas.
        reach += [n for n in board.neighbours(where) if board.area(n).kind in ("space", "orbit")]
    return reach


def _targets(state: VenusState, planet: str, ship: str, cards: bool) -> list[str]:
    """Returns the enemy ships a ship can attack (the attack table)."""
    reach = set(in_range(state, ship, cards))
    return [t for t, where in sorted(state.ships.items()) if where in reach and is_enemy(state, planet, t)]


def attack_steps(state: VenusState, planet: str, ships: list[str], mode: str = MAIN) -> list[VenusAction]:
    """Returns ``attack SHIP TARGET [WEAPON]``, ``attack SHIP refuge`` and ``control SHIP TARGET``."""
    cards = cards_apply(state, mode)
    found: list[VenusAction] = []
    for ship in ready(state, ships):
        targets = _targets(state, planet, ship, cards)
        for target in targets:
            found.append(Attack.of(ship, target))
            if cards and any(c.qray for c in tech.weapons(state, ship)):
                # Only Gatling Lasers is a second weapon for a Q-Ray owner (its text); Auto Fire
                # Control and Energy Amplifier improve the Q-Ray instead.
                found += [
                    Attack.of(ship, target, c.id) for c in tech.weapons(state, ship) if c.id == "gatling"
                ]
        if cards and _can_raid(state, planet, ship):
            found.append(Attack.of(ship, REFUGE))
        if cards and tech.has_special(state, planet, "mindcontrol") and _may_seize(state, planet, ship):
            here = state.ships[ship]
            found += [Control.of(ship, t) for t in targets if state.ships[t] == here]
    return found


def _may_seize(state: VenusState, planet: str, ship: str) -> bool:
    """Returns whether a Mars ship may take one more ship over: one each, counted per area (A-10)."""
    if state.owner(ship) != planet or ship in state.controlled:
        return False
    here = state.ships[ship]
    own = sum(
        1
        for s, w in state.ships.items()
        if w == here and state.owner(s) == planet and s not in state.controlled
    )
    held = sum(1 for s, p in state.controlled.items() if p == planet and state.ships[s] == here)
    return held < own


def _can_raid(state: VenusState, planet: str, ship: str) -> bool:
    """Returns whether an alien ship in Orbit may attack Earth's Refuge (Earth's Special)."""
    return (
        planet != EARTH
        and tech.has_special(state, EARTH, "resistance")
        and state.ships[ship] == state.board.orbit
        and state.collected.get(EARTH, 0) > 0
        and state.seat_of[EARTH] != state.seat_of[planet]
    )


# ------------------------------------------------------------------ population
def collect_sources(state: VenusState, planet: str, ship: str, cards: bool) -> list[str]:
    """Returns the land areas a ship may collect from: its own (Amphibious: or a neighbouring one)."""
    where = state.ships[ship]
    assert where is not None
    areas = [where]
    if cards and tech.has_special(state, planet, "amphibious"):
        areas += list(state.board.neighbours(where))
    return [a for a in areas if state.population.get(a, 0) + state.infected.get(a, 0) > 0]


def collect_steps(state: VenusState, planet: str, ships: list[str], mode: str = MAIN) -> list[VenusAction]:
    """Returns ``collect SHIP [AREA]``, and Titan's ``infect SHIP`` and Pluto's ``purge SHIP``."""
    cards = cards_apply(state, mode)
    found: list[VenusAction] = []
    for ship in ready(state, ships):
        where = state.ships[ship] or ""
        if planet != EARTH or state.earth_open:
            for a in collect_sources(state, planet, ship, cards):
                found.append(Collect.of(ship, "" if a == where else a))
                if _choice_of_units(state, a):
                    found.append(Collect.of(ship, "" if a == where else a, True))
        if tech.has_special(state, planet, "parasites") and state.population.get(where, 0) > 0:
            found.append(Infect.of(ship))
        if tech.has_special(state, planet, "robotic") and state.infected.get(where, 0) > 0:
            found.append(Purge.of(ship))
    return found


def _choice_of_units(state: VenusState, area: str) -> bool:
    """Returns whether a collector chooses between a healthy and an infected unit here (ruling A-23,
    option ``infected``): both kinds are there."""
    return (
        state.options.get("infected", "choose") == "choose"
        and state.population.get(area, 0) > 0
        and state.infected.get(area, 0) > 0
    )


# ------------------------------------------------------------------ research
def research_steps(state: VenusState, planet: str) -> list[VenusAction]:
    """Returns ``research ID`` for each face-up Upgrade the planet may try for (Enhanced game)."""
    if not tech.is_enhanced(state):
        return []
    return [Research.of(u) for u in sorted(set(state.face_up)) if tech.researchable(state, planet, u)]


def has_steps(state: VenusState, kind: str, planet: str, ships: list[str], mode: str = MAIN) -> bool:
    """Returns whether :func:`steps` would list any step, without listing them all (the steps nobody
    decides ask it after every action)."""
    if kind == "move":
        return any(can_still_move(state, s, mode) and destinations(state, s) for s in ready(state, ships))
    if kind == "attack":
        cards = cards_apply(state, mode)
        return any(
            (cards and _can_raid(state, planet, s)) or _has_target(state, planet, s, cards)
            for s in ready(state, ships)
        )
    if kind == "collect":
        return any(_may_collect(state, planet, s, cards_apply(state, mode)) for s in ready(state, ships))
    return bool(steps(state, kind, planet, ships, mode))


def _has_target(state: VenusState, planet: str, ship: str, cards: bool) -> bool:
    """Returns whether a ship has an enemy ship in range."""
    reach = set(in_range(state, ship, cards))
    return any(where in reach and is_enemy(state, planet, t) for t, where in state.ships.items())


def _may_collect(state: VenusState, planet: str, ship: str, cards: bool) -> bool:
    """Returns whether a ship has a collect, infect or purge step."""
    where = state.ships[ship] or ""
    if (planet != EARTH or state.earth_open) and collect_sources(state, planet, ship, cards):
        return True
    if tech.has_special(state, planet, "parasites") and state.population.get(where, 0) > 0:
        return True
    return tech.has_special(state, planet, "robotic") and state.infected.get(where, 0) > 0


def steps(state: VenusState, kind: str, planet: str, ships: list[str], mode: str = MAIN) -> list[VenusAction]:
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
