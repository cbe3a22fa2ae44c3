"""Rulebook "Population Action" and winning: collecting, receiving, and the immediate win."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from parlour.games.venus_needs_men.steps import EARTH

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState


def needed(state: VenusState) -> int:
    """Returns the population a seat needs to win (team game: half the total, rounded up)."""
    return math.ceil(state.board.total(state.options["length"]) / state.players)


def collect(state: VenusState, planet: str, ship: str) -> None:
    """A ship collects one unit from its area to its home world (Earth: to the Refuge)."""
    where = state.ships[ship]
    assert where is not None
    take(state, planet, where)
    if planet != EARTH and not state.earth_open:
        state.earth_open = True
        state.emit("An alien has collected population: Earth may collect from now on.")
    check_win(state)


def take(state: VenusState, planet: str, area: str) -> None:
    """Moves one unit from a land area to a planet's home world."""
    state.population[area] -= 1
    state.collected[planet] += 1
    state.emit(
        f"{state.planet(planet).name} takes one population unit from {state.board.area(area).name} "
        f"({state.collected[planet]} in all)."
    )


def check_win(state: VenusState) -> None:
    """Ends the game at once if some seats have reached the population needed (they share the win)."""
    target = needed(state)
    reached = [s for s in range(state.players) if state.seat_population(s) >= target]
    if reached and not state.over:
        end_game(state, reached, f"reached {target} population")


def end_game(state: VenusState, winners: list[int], why: str) -> None:
    """Ends the game with these winners."""
    state.over = True
    state.winners_ = winners
    while len(state.stack):
        state.stack.pop()
    names = ", ".join(f"seat {s} ({'+'.join(state.sides(s))})" for s in winners)
    state.emit(f"The game is over: {names} {why}.")
