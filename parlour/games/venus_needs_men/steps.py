"""Rulebook "Actions": the single steps of build, move, attack and collect, and who may take them.

The main action, an extension's extra step and an immediate-action card all
take the same steps; only which ships may act differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.venus_needs_men.actions import Action, act

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState

EARTH = "earth"


def is_enemy(state: VenusState, planet: str, ship: str) -> bool:
    """Returns whether ``ship`` is an enemy of ``planet`` (a team's two planets are partners, A-17)."""
    owner = state.owner(ship)
    return owner in state.seat_of and state.seat_of[owner] != state.seat_of[planet]


# ------------------------------------------------------------------ build
def build_steps(state: VenusState, planet: str) -> list[Action]:
    """Returns ``build`` (home world) or ``build AREA`` (Earth: any populated area) if a ship is left."""
    if not state.supply(planet):
        return []
    if planet != EARTH:
        return [act("build")]
    return [act("build", area=a) for a in state.board.land_areas() if state.population[a] > 0]


def build(state: VenusState, planet: str, action: Action, count: int) -> None:
    """Puts up to ``count`` new ships on the home world (Earth: on the chosen area)."""
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


def move_steps(state: VenusState, ships: list[str]) -> list[Action]:
    """Returns ``move SHIP AREA`` for each of these ships and each destination."""
    return [act("move", ship=s, area=d) for s in ships for d in destinations(state, s)]


def move(state: VenusState, action: Action) -> None:
    """Moves a ship one area."""
    state.ships[action.ship] = action.area
    state.emit(f"{action.ship} moves to {state.board.area(action.area).name}.")


# ------------------------------------------------------------------ attack
def in_range(state: VenusState, ship: str) -> list[str]:
    """Returns the areas a ship can attack into (the attack table)."""
    board, where = state.board, state.ships[ship]
    assert where is not None
    kind = board.area(where).kind
    if kind == "orbit":
        return [where, *board.earth_areas()]
    if kind in ("land", "ocean"):
        return [
            where,
            board.orbit,
            *(n for n in board.neighbours(where) if board.area(n).kind in ("land", "ocean")),
        ]
    return [where]


def attack_steps(state: VenusState, planet: str, ships: list[str]) -> list[Action]:
    """Returns ``attack SHIP TARGET`` for each of these ships and each enemy ship in range."""
    found = []
    for ship in ships:
        reach = set(in_range(state, ship))
        found += [
            act("attack", ship=ship, target=t)
            for t, where in sorted(state.ships.items())
            if where in reach and is_enemy(state, planet, t)
        ]
    return found


# ------------------------------------------------------------------ collect
def collect_steps(state: VenusState, planet: str, ships: list[str]) -> list[Action]:
    """Returns ``collect SHIP`` for each of these ships on a populated land area (Earth once open)."""
    if planet == EARTH and not state.earth_open:
        return []
    return [act("collect", ship=s) for s in ships if state.population.get(state.ships[s] or "", 0) > 0]


def steps(state: VenusState, kind: str, planet: str, ships: list[str]) -> list[Action]:
    """Returns the steps of one kind for these ships."""
    if kind == "build":
        return build_steps(state, planet)
    if kind == "move":
        return move_steps(state, ships)
    if kind == "attack":
        return attack_steps(state, planet, ships)
    return collect_steps(state, planet, ships)
