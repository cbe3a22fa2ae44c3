"""Rulebook "Attack Action": declaring a target, rolling, Zap answers, and destroying ships."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.core.decisions import Decision
from parlour.games.venus_needs_men.options import BASIC_DICE, BASIC_HIT, DIE
from parlour.games.venus_needs_men.phases import ROLL, SAVE, ZAP
from parlour.games.venus_needs_men.steps import EARTH

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState


def attack(state: VenusState, ship: str, target: str) -> None:
    """Rolls the attack (Basic: two dice) and opens the Zap window after the roll."""
    dice = [state.chance.roll(DIE) for _ in range(BASIC_DICE)]
    attacker, defender = state.owner(ship), state.owner(target)
    state.emit(f"{ship} attacks {target}: rolls {' '.join(map(str, dice))}.")
    if defender == EARTH and attacker != EARTH and not state.earth_open:
        state.earth_open = True
        state.emit("An alien has attacked an Earth ship: Earth may collect from now on.")
    state.stack.push(
        Decision(
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
            },
        )
    )


def resolve_roll(state: VenusState, data: dict[str, Any]) -> None:
    """After the roll's window: a hit (any die 8+, Zap cards decide by number) threatens the target."""
    dice = [d - data["jam"] for d in data["dice"]]
    hit = any(d >= BASIC_HIT for d in dice)
    plays = sorted(data["plays"])
    if plays:
        # Ruling: of conflicting hit/miss cards, the highest number wins.
        hit = plays[-1][1] == "hit"
    target = data["target"]
    if state.ships.get(target) is None:
        return
    if not hit:
        state.emit(f"{data['attacker']} misses {target}.")
        return
    threaten(state, target, 0)


def threaten(state: VenusState, ship: str, cause: int) -> None:
    """A ship is about to be destroyed (by a hit, or by Zap card ``cause``): its owner may save it."""
    state.stack.push(
        Decision(ZAP, [], {"moment": SAVE, "open": False, "ship": ship, "cause": cause, "saved_by": 0})
    )


def resolve_save(state: VenusState, data: dict[str, Any]) -> None:
    """Destroys the ship unless a saving card beat the cause (a hit is always beaten)."""
    ship, saved_by, cause = data["ship"], data["saved_by"], data["cause"]
    if state.ships.get(ship) is None:
        return
    if saved_by and saved_by > cause:
        state.emit(f"{ship} is saved by Zap card {saved_by}.")
        return
    destroy(state, ship)


def destroy(state: VenusState, ship: str) -> None:
    """Removes a ship from the board to its owner's supply."""
    where = state.ships[ship]
    state.ships[ship] = None
    state.emit(f"{ship} is destroyed{'' if where is None else ' in ' + state.board.area(where).name}.")
