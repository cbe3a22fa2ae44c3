"""Rulebook "Attack Action": declaring a target, rolling, Zap answers, destroying (or disabling) ships.

Basic game: two dice, any 8 or more destroys.  Enhanced game: the Weapon card's
dice against the target's Defense for its terrain; the Q-Ray's own table; Pluto's
robots are disabled first; Mars may take a target over instead of attacking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.core.decisions import RawDecision
from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men import population
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.phases import DECLARE, ROLL, SAVE, ZAP

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState

EARTH, REFUGE = "earth", "refuge"
REFUGE_DEFENSE = 10
SCAVENGE = "scavenge"
"""Earth's free research roll after an alien wreck on Earth (Underground Resistance)."""


def declare(state: VenusState, ship: str, target: str, weapon_id: str, cards: bool, main: bool) -> None:
    """Declares an attack: "You must declare which enemy spaceship you are attacking before you roll the
    dice." A Zap window opens between the declaration and the roll (ruling B-3, moment ``declare``)."""
    where = "the Secret Underground Refuge" if target == REFUGE else target
    state.emit(f"{ship} ({state.planet(state.controller(ship)).name}) declares an attack on {where}.")
    state.stack.push(
        RawDecision(
            ZAP,
            [],
            {
                "moment": DECLARE,
                "open": False,
                "attacker": ship,
                "target": target,
                "weapon": weapon_id,
                "cards": cards,
                "main": main,
            },
        )
    )


def still_possible(state: VenusState, data: dict[str, Any]) -> bool:
    """Returns whether a declared attack can still be rolled: both ships on the board, the target
    still an enemy in range (a card may have moved or destroyed one of them meanwhile)."""
    from parlour.games.venus_needs_men.steps import in_range, is_enemy

    ship, target = str(data["attacker"]), str(data["target"])
    if state.ships.get(ship) is None or ship in state.disabled:
        return False
    planet = state.controller(ship)
    if target == REFUGE:
        return state.ships[ship] == state.board.orbit and state.collected.get(EARTH, 0) > 0
    where = state.ships.get(target)
    return (
        where is not None
        and is_enemy(state, planet, target)
        and where in in_range(state, ship, data["cards"])
    )


def roll_declared(state: VenusState, data: dict[str, Any]) -> None:
    """After the declaration's window: the attack is rolled, or called off if it no longer can be (in
    the action itself the ship may then attack again: the target may be re-declared until the dice are
    rolled, ruling A-21)."""
    ship, target = str(data["attacker"]), str(data["target"])
    if not still_possible(state, data):
        if data["main"] and ship in state.acted and state.ships.get(ship) is not None:
            state.acted.remove(ship)
        state.emit(f"{ship}'s attack on {target} is called off.")
        return
    attack(state, ship, target, str(data["weapon"]), bool(data["cards"]))


def attack(state: VenusState, ship: str, target: str, weapon_id: str, cards: bool) -> None:
    """Rolls an attack and opens the Zap window after the roll."""
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
    state.emit(
        f"{ship} attacks {target} with {weapon.name}: rolls {' '.join(map(str, dice))}"
        + ("" if qray else f" (needs {need}{f' with +{weapon.bonus}' if weapon.bonus else ''})")
        + "."
    )
    if target != REFUGE and state.owner(target) == EARTH and attacker != EARTH and not state.earth_open:
        population.open_earth(state, attacker, "attacked an Earth ship")
    state.stack.push(
        RawDecision(
            ZAP,
            [],
            {
                "moment": ROLL,
                "open": False,
                "attacker": ship,
                "target": target,
                "dice": dice,
                "plays": [],
                "jam": 0,
                "need": need,
                "bonus": weapon.bonus,
                "qray": qray,
                "cards": cards,
            },
        )
    )


def control(state: VenusState, ship: str, target: str) -> None:
    """Mind Control: the target is the attacker's commander's now (usable from its next turn)."""
    planet = state.controller(ship)
    state.controlled[target] = planet
    state.seized.append(target)
    state.emit(f"{ship} takes {target} over by Mind Control.")
    if state.owner(target) == EARTH:
        population.open_earth(state, planet, "attacked an Earth ship")


def _decided(data: dict[str, Any]) -> bool | None:
    """Returns the verdict of the highest hit/miss Zap card played on this roll, if any (B-4)."""
    plays = sorted(data["plays"])
    return plays[-1][1] == "hit" if plays else None


def resolve_roll(state: VenusState, data: dict[str, Any]) -> None:
    """After the roll's window: carries out the result."""
    target, attacker = data["target"], data["attacker"]
    if target != REFUGE and state.ships.get(target) is None:
        return
    verdict = _decided(data)
    if data["qray"]:
        _qray(state, data, verdict)
        return
    hit = any(d + data["bonus"] - data["jam"] >= data["need"] for d in data["dice"])
    hit = hit if verdict is None else verdict
    if not hit:
        state.emit(f"{attacker} misses {target}.")
    elif target == REFUGE:
        population.raid(state, state.controller(attacker))
    else:
        threaten(state, target, 0, data["cards"])


def _qray(state: VenusState, data: dict[str, Any], verdict: bool | None) -> None:
    """The Q-Ray's table (revised card text); every 4 or 5 is rolled again with AFC or EA (A-09)."""
    attacker, target = data["attacker"], data["target"]
    roll = data["dice"][0] - data["jam"]
    if verdict is not None:
        roll = 10 if verdict else 3
    rerolls = any(c.id in ("autofire", "amplifier") for c in tech.weapons(state, attacker))
    while rerolls and roll in (4, 5):
        roll = state.chance.roll(DIE)
        state.emit(f"The Q-Ray is rolled again: {roll}.")
    if roll <= 1:
        state.emit("The Q-Ray backfires: both ships are destroyed.")
        threaten(state, attacker, 0, True)
        threaten(state, target, 0, True)
    elif roll == 2:
        teleport(state, target)
        teleport(state, attacker)
    elif roll <= 5:
        state.emit("The Q-Ray has no effect.")
    elif roll <= 7:
        teleport(state, target)
    else:
        threaten(state, target, 0, True)


def teleport(state: VenusState, ship: str) -> None:
    """Sends a ship to a random space area (a die picks it on the house map, A-08)."""
    if state.ships.get(ship) is None:
        return
    roll = state.chance.roll(DIE)
    where = state.board.teleport(roll)
    state.ships[ship] = where
    state.emit(f"{ship} teleports to {state.board.area(where).name} (rolled {roll}).")


def threaten(state: VenusState, ship: str, cause: int, cards: bool = False) -> None:
    """A ship is about to be destroyed (by a hit, or by Zap card ``cause``): its owner may save it."""
    state.stack.push(
        RawDecision(
            ZAP,
            [],
            {"moment": SAVE, "open": False, "ship": ship, "cause": cause, "saved_by": 0, "cards": cards},
        )
    )


def resolve_save(state: VenusState, data: dict[str, Any]) -> None:
    """Destroys (or disables) the ship unless a saving card beat the cause (a hit is always beaten)."""
    ship, saved_by, cause = data["ship"], data["saved_by"], data["cause"]
    if state.ships.get(ship) is None:
        return
    if saved_by and saved_by > cause:
        state.emit(f"{ship} is saved by Zap card {saved_by}.")
        return
    robot = state.owner(ship) == "pluto" and ship not in state.controlled
    if (
        (data.get("cards") or cause)
        and robot
        and tech.has_special(state, "pluto", "robotic")
        and ship not in state.disabled
    ):
        state.disabled.append(ship)
        state.emit(f"{ship} is disabled, not destroyed (Robotic).")
        return
    destroy(state, ship)


def destroy(state: VenusState, ship: str) -> None:
    """Removes a ship to its owner's supply; a wreck on Earth lets Earth scavenge (Enhanced)."""
    where = state.ships[ship]
    state.ships[ship] = None
    state.controlled.pop(ship, None)
    if ship in state.disabled:
        state.disabled.remove(ship)
    state.emit(f"{ship} is destroyed{'' if where is None else ' in ' + state.board.area(where).name}.")
    earthly = where is not None and state.board.area(where).kind in ("land", "ocean")
    if earthly and state.owner(ship) != EARTH and tech.has_special(state, EARTH, "resistance"):
        from parlour.games.venus_needs_men.steps import research_steps

        if research_steps(state, EARTH):
            state.stack.push(RawDecision(SCAVENGE, [state.seat_of[EARTH]]))


def _excess(state: VenusState) -> list[tuple[str, str, list[str], int]]:
    """Returns (area, planet, ships held there, own ships there) wherever a planet holds more ships
    by Mind Control than it has of its own in the area (ruling A-10(v): counted per area)."""
    found = []
    for area in sorted({w for w in state.ships.values() if w is not None}):
        for planet in sorted(set(state.controlled.values())):
            own = sum(
                1
                for s, w in state.ships.items()
                if w == area and state.owner(s) == planet and s not in state.controlled
            )
            held = sorted(s for s, p in state.controlled.items() if p == planet and state.ships[s] == area)
            if len(held) > own:
                found.append((area, planet, held, own))
    return found


def release_ship(state: VenusState, ship: str, chosen: bool = False) -> None:
    """Gives a controlled ship back to its owner."""
    planet = state.controlled.pop(ship)
    how = f" ({state.planet(planet).name}'s choice)" if chosen else ""
    state.emit(
        f"{ship} is released from Mind Control and returns to {state.planet(state.owner(ship)).name}{how}."
    )


def release(state: VenusState) -> str | None:
    """End of any turn: where a planet holds no ship of its own, every ship it controls there goes free;
    where it has fewer of its own than it holds, it must choose which to release ("you must release
    controlled spaceships of your choice"): returns the first such planet (None if nothing is left)."""
    for _area, _planet, held, own in _excess(state):
        if own == 0:
            for ship in held:
                release_ship(state, ship)
    excess = _excess(state)
    return excess[0][1] if excess else None


def release_choices(state: VenusState, planet: str) -> list[str]:
    """Returns the ships ``planet`` may release now: those it holds where it holds too many."""
    return sorted(s for _area, p, held, _own in _excess(state) if p == planet for s in held)
