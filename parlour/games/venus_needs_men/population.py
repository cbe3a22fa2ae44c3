"""Rulebook "Population Action" and winning: collecting, infecting, receiving, the immediate win."""

from __future__ import annotations

import math

from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men.state import VenusState

EARTH = "earth"


def needed(state: VenusState) -> int:
    """Returns the population a seat needs to win (team game: half the total, rounded up)."""
    return math.ceil(state.board.total(state.options["length"]) / state.players)


def collect(
    state: VenusState, planet: str, ship: str, area: str, cards: bool, infected: bool = False
) -> None:
    """A ship collects one unit (Alluring: two) from ``area`` to its commander's home world: healthy
    units first, or infected ones first when the collector chose them (ruling A-23)."""
    units = 2 if cards and tech.has_special(state, planet, "alluring") else 1
    for _ in range(units):
        if state.population[area] + state.infected[area] > 0:
            take(state, planet, area, infected, ship)
    open_earth(state, planet, "collected population")
    check_win(state)


def take(state: VenusState, planet: str, area: str, infected: bool = False, ship: str = "") -> None:
    """Moves one unit from a land area to a planet's home world: a healthy one first (an infected one
    first if ``infected``); either kind when only one is left."""
    sick = state.infected[area] > 0 and (infected or state.population[area] == 0)
    if sick:
        state.infected[area] -= 1
    else:
        state.population[area] -= 1
    state.collected[planet] += 1
    if not state.logging:
        return
    name, unit = state.planet(planet).name, f"one {'infected ' if sick else ''}population unit"
    where = state.board.area(area).name
    if ship:
        state.emit(f"{ship} collects {unit} from {where} for {name} ({state.collected[planet]} in all).")
    else:
        state.emit(f"{name} receives {unit} from {where} ({state.collected[planet]} in all).")


def open_earth(state: VenusState, planet: str, why: str) -> None:
    """Opens Earth's collection the first time an alien does one of the things that open it (A-06)."""
    if planet != EARTH and not state.earth_open and EARTH in state.seat_of:
        state.earth_open = True
        state.emit(f"An alien has {why}: Earth may collect from now on.")


def infect(state: VenusState, ship: str) -> None:
    """Titan's Parasites: one healthy unit where the ship stands becomes infected."""
    where = state.ships[ship]
    assert where is not None
    state.population[where] -= 1
    state.infected[where] += 1
    state.emit(f"{ship} infects one unit in {state.board.area(where).name}.")


def purge(state: VenusState, planet: str, ship: str) -> None:
    """Pluto's robots destroy one infected unit where the ship stands."""
    where = state.ships[ship]
    assert where is not None
    state.infected[where] -= 1
    state.emit(f"{ship} destroys one infected unit in {state.board.area(where).name}.")
    open_earth(state, planet, "destroyed population")
    check_win(state)


def hive(state: VenusState) -> None:
    """End of Titan's turn: Titan collects one infected unit from every land area holding any."""
    for area in state.board.land_areas():
        if state.infected[area] > 0:
            state.infected[area] -= 1
            state.collected["titan"] += 1
            state.emit(f"Titan's parasites bring one infected unit home from {state.board.area(area).name}.")
    check_win(state)


def raid(state: VenusState, planet: str) -> None:
    """A hit on the Refuge: one unit goes from the Refuge to the attacker's home world (if any is left)."""
    if state.collected[EARTH] <= 0:
        state.emit("The Refuge is empty: the raid takes nothing.")
        return
    state.collected[EARTH] -= 1
    state.collected[planet] += 1
    state.emit(
        f"{state.planet(planet).name} takes one unit from the Secret Underground Refuge "
        f"({state.collected[planet]} in all; {state.collected[EARTH]} left there)."
    )
    check_win(state)


def reached(state: VenusState) -> list[int]:
    """Returns the seats that have the population needed to win."""
    target = needed(state)
    return [s for s, population in enumerate(state.seat_populations()) if population >= target]


def nothing_left(state: VenusState) -> bool:
    """Returns whether no seat can collect any more population (ruling B-7): no unit, healthy or
    infected, is left on Earth's land, and no unit can be raided from the Refuge."""
    if sum(state.population.values()) + sum(state.infected.values()) > 0:
        return False
    raidable = tech.has_special(state, EARTH, "resistance") and state.collected.get(EARTH, 0) > 0
    return not raidable


def leaders(state: VenusState) -> list[int]:
    """Returns the seats with the most population."""
    populations = state.seat_populations()
    best = max(populations)
    return [s for s, population in enumerate(populations) if population == best]


def check_win(state: VenusState) -> None:
    """Ends the game at once if some seats have reached the population needed (they share the win), or
    if nobody can collect any more (ruling B-7: the leaders share the win)."""
    if state.over:
        return
    winners = reached(state)
    if winners:
        end_game(state, winners, f"reached {needed(state)} population")
    elif nothing_left(state):
        end_game(state, leaders(state), "lead, and nobody can collect any more population")


def names(state: VenusState, seats: list[int]) -> str:
    """Returns seats named by planet: "Mars", "Mars and Venus", "Mars, Venus and Titan"."""
    words = [state.seat_name(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def end_game(state: VenusState, winners: list[int], why: str) -> None:
    """Ends the game with these winners."""
    state.over = True
    state.winners_ = winners
    while len(state.stack):
        state.stack.pop()
    shared = " (a shared win)" if len(winners) > 1 else ""
    state.emit(f"The game is over: {names(state, winners)} {why}{shared}.")
