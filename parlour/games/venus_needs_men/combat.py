"""Rulebook "Attack Action": declaring a target, rolling, Zap answers, destroying (or disabling) ships.

Basic game: two dice, any 8 or more destroys.  Enhanced game: the Weapon card's
dice against the target's Defense for its terrain; the Q-Ray's own table; Pluto's
robots are disabled first; Mars may take a target over instead of attacking.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.decisions import Seat
from parlour.core.errors import PositionError
from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men import population, research
from parlour.games.venus_needs_men.actions import PASS, Pass, Release, Research, VenusAction
from parlour.games.venus_needs_men.decision import VenusDecision
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.phases import RELEASE
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.steps import IMMEDIATE, cards_apply, is_enemy, reach, research_steps

EARTH, REFUGE = "earth", "refuge"
REFUGE_DEFENSE = 10
SCAVENGE = "scavenge"
"""Earth's free research roll after an alien wreck on Earth (Underground Resistance)."""


def still_possible(state: VenusState, ship: str, target: str, cards: bool) -> bool:
    """Returns whether a declared attack can still be rolled: both ships on the board, the target
    still an enemy in range (a card may have moved or destroyed one of them meanwhile)."""
    if state.ships.get(ship) is None or ship in state.disabled:
        return False
    planet = state.controller(ship)
    if target == REFUGE:
        return state.ships[ship] == state.board.orbit and state.collected.get(EARTH, 0) > 0
    where = state.ships.get(target)
    return where is not None and is_enemy(state, planet, target) and where in reach(state, ship, cards)


def roll(
    state: VenusState, ship: str, target: str, weapon_id: str, cards: bool
) -> tuple[list[int], int, int, bool]:
    """Rolls an attack: returns the dice, the number to reach, the weapon's bonus and whether it is the
    Q-Ray's roll (the Zap window after the roll answers it)."""
    attacker = state.controller(ship)
    need = (
        REFUGE_DEFENSE if target == REFUGE else (tech.defense(state, target) if cards else tech.BASIC_DEFENSE)
    )
    qray = cards and not weapon_id and target != REFUGE and any(c.qray for c in tech.weapons(state, ship))
    if qray:
        weapon = next(c for c in tech.weapons(state, ship) if c.qray)
    elif weapon_id:
        weapon = state.tech.card(weapon_id)
    else:
        weapon = tech.best_weapon(state, ship, need) if cards else tech.BASIC
    dice = [state.chance.roll(DIE) for _ in range(1 if qray else weapon.dice)]
    if state.logging:
        state.emit(
            f"{ship} attacks {target} with {weapon.name}: rolls {' '.join(map(str, dice))}"
            + ("" if qray else f" (needs {need}{f' with +{weapon.bonus}' if weapon.bonus else ''})")
            + "."
        )
    if target != REFUGE and state.owner(target) == EARTH and attacker != EARTH and not state.earth_open:
        population.open_earth(state, attacker, "attacked an Earth ship")
    return dice, need, weapon.bonus, qray


def control(state: VenusState, ship: str, target: str) -> None:
    """Mind Control: the target is the attacker's commander's now (usable from its next turn)."""
    planet = state.controller(ship)
    state.control_ship(target, planet)
    state.seized.append(target)
    state.emit(f"{ship} takes {target} over by Mind Control.")
    if state.owner(target) == EARTH:
        population.open_earth(state, planet, "attacked an Earth ship")


def qray(state: VenusState, attacker: str, target: str, result: int, verdict: bool | None) -> list[str]:
    """The Q-Ray's table (revised card text) for the die's ``result``; every 4 or 5 is rolled again with
    AFC or EA (A-09). Returns the ships it threatens with destruction, in order (it teleports itself)."""
    if verdict is not None:
        result = 10 if verdict else 3
    rerolls = any(c.id in ("autofire", "amplifier") for c in tech.weapons(state, attacker))
    while rerolls and result in (4, 5):
        result = state.chance.roll(DIE)
        state.emit(f"The Q-Ray is rolled again: {result}.")
    if result <= 1:
        state.emit("The Q-Ray backfires: both ships are destroyed.")
        return [attacker, target]
    if result == 2:
        teleport(state, target)
        teleport(state, attacker)
    elif result <= 5:
        state.emit("The Q-Ray has no effect.")
    elif result <= 7:
        teleport(state, target)
    else:
        return [target]
    return []


def teleport(state: VenusState, ship: str) -> None:
    """Sends a ship to a random space area (a die picks it on the house map, A-08)."""
    if state.ships.get(ship) is None:
        return
    roll = state.chance.roll(DIE)
    where = state.board.teleport(roll)
    state.place_ship(ship, where)
    state.emit(f"{ship} teleports to {state.board.area(where).name} (rolled {roll}).")


def wreck(state: VenusState, ship: str, cards: bool) -> None:
    """A ship not saved is destroyed, or (Pluto's robots, by cards or a Zap card) disabled first."""
    robot = state.owner(ship) == "pluto" and ship not in state.controlled
    if cards and robot and tech.has_special(state, "pluto", "robotic") and ship not in state.disabled:
        state.disabled.append(ship)
        state.emit(f"{ship} is disabled, not destroyed (Robotic).")
        return
    destroy(state, ship)


def destroy(state: VenusState, ship: str) -> None:
    """Removes a ship to its owner's supply; a wreck on Earth lets Earth scavenge (Enhanced)."""
    where = state.ships[ship]
    state.place_ship(ship, None)
    state.free_ship(ship)
    if ship in state.disabled:
        state.disabled.remove(ship)
    if state.logging:
        state.emit(f"{ship} is destroyed{'' if where is None else ' in ' + state.board.area(where).name}.")
    earthly = where is not None and state.board.area(where).kind in ("land", "ocean")
    resistance = tech.has_special(state, EARTH, "resistance")
    if earthly and state.owner(ship) != EARTH and resistance and research_steps(state, EARTH):
        state.stack.push(Scavenge(seats=[state.seat_of[EARTH]]))


def _excess(state: VenusState) -> list[tuple[str, str, list[str], int]]:
    """Returns (area, planet, ships held there, own ships there) wherever a planet holds more ships
    by Mind Control than it has of its own in the area (ruling A-10(v): counted per area)."""
    found: list[tuple[str, str, list[str], int]] = []
    controlled, places = state.controlled, state.ships
    holders = sorted(set(controlled.values()))
    if not holders:
        return found
    held_in = {places[s] for s in controlled}  # only where a ship is held can a planet hold too many
    fleets = state.fleets.of
    for area in sorted({w for w in places.values() if w is not None}):
        if area not in held_in:
            continue
        for planet in holders:
            # The planet's own ships on the board: those it commands that are not held by Mind Control.
            own = sum(1 for s in fleets.get(planet, ()) if places[s] == area and s not in controlled)
            held = sorted(s for s, p in controlled.items() if p == planet and places[s] == area)
            if len(held) > own:
                found.append((area, planet, held, own))
    return found


def release_ship(state: VenusState, ship: str, chosen: bool = False) -> None:
    """Gives a controlled ship back to its owner."""
    planet = state.free_ship(ship)
    if planet is None:
        raise KeyError(ship)
    how = f" ({state.planet(planet).name}'s choice)" if chosen else ""
    state.emit(
        f"{ship} is released from Mind Control and returns to {state.planet(state.owner(ship)).name}{how}."
    )


def release(state: VenusState) -> str | None:
    """End of any turn: where a planet holds no ship of its own, every ship it controls there goes free;
    where it has fewer of its own than it holds, it must choose which to release ("you must release
    controlled spaceships of your choice"): returns the first such planet (None if nothing is left)."""
    if not state.controlled:
        return None  # nothing is held: nothing to release (what _excess would find)
    for _area, _planet, held, own in _excess(state):
        if own == 0:
            for ship in held:
                release_ship(state, ship)
    excess = _excess(state)
    return excess[0][1] if excess else None


def release_choices(state: VenusState, planet: str) -> list[str]:
    """Returns the ships ``planet`` may release now: those it holds where it holds too many."""
    return sorted(s for _area, p, held, _own in _excess(state) if p == planet for s in held)


# ------------------------------------------------------------------ decisions
@dataclass(eq=False, kw_only=True)
class Scavenge(VenusDecision):
    """Earth's free research roll after an alien wreck on Earth (Underground Resistance), or a pass."""

    kind = SCAVENGE
    phase = "Earth scavenging a wreck"

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns pass and ``research ID`` for each Upgrade Earth may try for."""
        return [PASS, *research_steps(state, EARTH)]

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Rolls for the Upgrade (or declines)."""
        state.stack.pop()
        if isinstance(action, Pass):
            state.emit(f"{state.seat_name(seat)} declines the {self.phase}.")
        elif isinstance(action, Research):
            research.attempt(state, EARTH, action.upgrade, cards_apply(state, IMMEDIATE))

    def researcher(self, state: VenusState) -> str | None:
        """Returns Earth: the roll is its research."""
        return EARTH

    def check(self, state: VenusState, path: str) -> None:
        """Refuses a scavenging asked of anyone but Earth."""
        super().check(state, path)
        if EARTH not in state.seat_of or self.seats != [state.seat_of[EARTH]]:
            raise PositionError(f"{path}.seats", "only Earth scavenges a wreck")


@dataclass(eq=False, kw_only=True)
class Releasing(VenusDecision):
    """Mind Control at the end of a turn: the planet holding too many ships in an area chooses which to
    release (ruling A-10(v))."""

    kind = RELEASE
    phase = "releasing ships from Mind Control"
    planet: str
    """The planet choosing."""

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns ``release SHIP`` for each ship the planet may release now."""
        return [Release.of(s) for s in release_choices(state, self.planet)]

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Releases the chosen ship."""
        assert isinstance(action, Release)
        release_ship(state, action.ship, chosen=True)

    def auto(self, state: VenusState) -> bool:
        """Ends the choice when the planet holds no more ships than it may."""
        return self.close_unless(state, bool(release_choices(state, self.planet)))

    def check(self, state: VenusState, path: str) -> None:
        """Refuses a planet without Mind Control, or a choice asked of another seat than its own."""
        super().check(state, path)
        if not tech.has_special(state, self.planet, "mindcontrol"):
            raise PositionError(
                f"{path}.data.planet", "must be a planet in play with Mind Control (Enhanced: Mars)"
            )
        if self.seats != [state.seat_of[self.planet]]:
            raise PositionError(
                f"{path}.seats", "the planet with Mind Control chooses which ships to release"
            )
