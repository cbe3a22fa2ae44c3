"""How a game of Venus Needs Men! stands part-way through, for search: population, and ships placed to
collect more.

Search (``parlour/bots/ismcts.py``) stops its playouts some turns ahead and judges them by
``GameState.estimate()``. Collected population alone barely moves in that time: a ship is built on its
home world, flies through space and Orbit to Earth, and collects one unit a turn only once it stands on
a populated land area. :func:`progress` also counts those ships, each by how close it is to collecting:

- ``COLLECTING`` (0.5) a ship on a land area with units left, for as many ships as the area has units
  (it collects one a turn: about a unit within the seat's next turn or two, less what attacks take);
- ``NEAR`` (0.2) a ship elsewhere on Earth (a land area emptied, or one with more ships than units, an
  ocean area) or in Orbit, a move or two from a populated area;
- ``AWAY`` (0.05) a ship on a home world or in space, several turns out (but built: better than none).

Disabled robots (Pluto) and a seat that may not collect yet (Earth, before an alien opens it) count as
``AWAY`` and ``NEAR``. Each seat's estimate is its collected population plus at most ``COLLECTING`` a
ship on the board. The weights are the ones that measured well, not fitted: against three greedy bots
(seat 0 of four, 100 games) ismcts won about twice as many games with them as with collected
population alone (docs/search.md has the figures).
"""

from __future__ import annotations

from parlour.games.venus_needs_men.board import HOME, LAND, OCEAN, ORBIT, SPACE
from parlour.games.venus_needs_men.state import VenusState

COLLECTING = 0.5
"""A ship on a land area with units left, up to one ship a unit: half a unit to come."""
NEAR = 0.2
"""A ship on Earth or in Orbit that cannot collect where it stands."""
AWAY = 0.05
"""A ship on a home world or in space (and a disabled robot)."""
EARTH = "earth"
"""Earth's side, which collects only once an alien has opened it (ruling A-06)."""
WORTH = {HOME: AWAY, SPACE: AWAY, ORBIT: NEAR, LAND: NEAR, OCEAN: NEAR}
"""What a ship is worth by the kind of area it stands on, unless it stands where it can collect."""


def progress(state: VenusState) -> list[float]:
    """Returns each seat's collected population plus the worth of its ships (a finished game: scores)."""
    if state.over:
        return state.scores()
    values = [float(p) for p in state.seat_populations()]
    for planet in state.planets:
        values[state.seat_of[planet]] += fleet_worth(state, planet)
    return values


def fleet_worth(state: VenusState, planet: str) -> float:
    """Returns what a planet's ships on the board (those it commands) are worth towards its population."""
    ships, board, disabled = state.ships, state.board, state.disabled
    may_collect = planet != EARTH or state.earth_open
    worth = 0.0
    # Ships by area: those on a land area with units collect, up to one a unit.
    crowds: dict[str, int] = {}
    for ship in state.fleet(planet):
        where = ships[ship]
        assert where is not None
        if ship in disabled:
            worth += AWAY
        elif may_collect and board.area(where).kind == LAND:
            crowds[where] = crowds.get(where, 0) + 1
        else:
            worth += WORTH.get(board.area(where).kind, 0.0)
    for area, count in crowds.items():
        units = state.population[area] + state.infected.get(area, 0)
        collecting = min(count, units)
        worth += COLLECTING * collecting + NEAR * (count - collecting)
    return worth
