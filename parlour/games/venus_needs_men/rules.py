"""The one source of legality: which actions each decision allows, and applying them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.core.decisions import Decision
from parlour.games.venus_needs_men import combat, population, steps, turns, zapping
from parlour.games.venus_needs_men.actions import Action, act
from parlour.games.venus_needs_men.phases import (
    ACT,
    ATTACKING,
    COLLECTING,
    EXTEND,
    EXTRA,
    IMMEDIATE,
    MOVING,
    PHASE_OF,
    ZAP,
)

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState

PASS, DONE, END = act("pass"), act("done"), act("end")
PHASE_NAMES = {
    ZAP: "a Zap window",
    ACT: "choosing the action",
    MOVING: "moving",
    ATTACKING: "attacking",
    COLLECTING: "collecting",
    EXTEND: "extending the action",
    EXTRA: "the extra step",
    IMMEDIATE: "an immediate action",
}


def legal_actions(state: VenusState, seat: int) -> list[Any]:
    """Returns the legal actions of a seat that may act, by the decision on top of the stack."""
    top = state.stack.top
    planet = state.active
    if top.kind == ZAP:
        return zapping.window_actions(state, seat)
    if top.kind == ACT:
        fleet = state.fleet(planet)
        found = [PASS, *steps.build_steps(state, planet)]
        for kind in ("move", "attack", "collect"):
            found += steps.steps(state, kind, planet, fleet)
        return found
    if top.kind in (MOVING, ATTACKING, COLLECTING):
        ready = [s for s in state.fleet(planet) if s not in state.acted]
        return [DONE, *steps.steps(state, state.action, planet, ready)]
    if top.kind == EXTEND:
        return [END, *(act("extend", number=n) for n in turns.extension_options(state))]
    if top.kind == EXTRA:
        return steps.steps(state, top.data["action"], planet, state.fleet(planet))
    # An immediate action: any of the card player's planets, any of its ships.
    found = [PASS]
    for side in state.sides(seat):
        found += steps.steps(state, top.data["action"], side, state.fleet(side))
    return found


def apply(state: VenusState, seat: int, action: Action) -> None:
    """Applies a legal action, then runs what follows by itself."""
    top = state.stack.top
    if top.kind == ZAP:
        zapping.window_apply(state, seat, action)
    elif top.kind == EXTEND:
        _extend(state, seat, action)
    elif action.verb in ("pass", "done"):
        if top.kind == ACT and action.verb == "pass":
            state.action = "move"  # Ruling A-15: passing is a move in which no ship moves.
            state.emit(f"{state.planet(state.active).name} does nothing.")
        state.stack.pop()
    else:
        _step(state, seat, top, action)
    turns.settle(state)


def _step(state: VenusState, seat: int, top: Decision, action: Action) -> None:
    """Takes one build, move, attack or collect step."""
    planet = state.owner(action.ship) if action.ship else _builder(state, seat, top)
    kind = action.verb
    if top.kind == ACT:
        state.action = kind
        state.stack.pop()
        if kind != "build":
            state.stack.push(Decision(PHASE_OF[kind], [seat]))
    elif top.kind in (EXTRA, IMMEDIATE):
        state.stack.pop()
    if top.kind in (ACT, MOVING, ATTACKING, COLLECTING) and action.ship:
        state.acted.append(action.ship)
    if kind == "build":
        count = state.planet(planet).builds_basic if top.kind == ACT else 1
        steps.build(state, planet, action, count)
    elif kind == "move":
        steps.move(state, action)
    elif kind == "attack":
        combat.attack(state, action.ship, action.target)
    else:
        population.collect(state, planet, action.ship)


def _builder(state: VenusState, seat: int, top: Decision) -> str:
    """Returns the planet that builds: the active one, or (immediate action) the card player's that can."""
    if top.kind != IMMEDIATE:
        return state.active
    return next(p for p in state.sides(seat) if steps.build_steps(state, p))


def _extend(state: VenusState, seat: int, action: Action) -> None:
    """Discards a Zap card for one extra step, or ends the extensions."""
    if action.verb == "end":
        state.stack.pop()
        return
    state.hands[seat].remove(action.number)
    state.discards[seat].append(action.number)
    state.extended += 1
    state.emit(f"Seat {seat} discards Zap card {action.number} to extend the {state.action} action.")
    state.stack.push(Decision(EXTRA, [seat], {"action": state.action}))


def why_illegal(state: VenusState, seat: int, action: Any) -> str:
    """Returns why an action is not legal now."""
    phase = PHASE_NAMES.get(state.stack.top.kind, state.stack.top.kind)
    if not isinstance(action, Action):
        return f"it is not a Venus Needs Men! action (during {phase})"
    verbs = sorted({a.verb for a in state.legal_actions(seat)})
    if action.verb not in verbs:
        return f"during {phase} seat {seat} may: {', '.join(verbs)}"
    if action.ship and action.ship not in state.ships:
        return f"there is no spaceship {action.ship} in this game"
    if action.area and not state.board.has(action.area) and action.area not in state.planets:
        return f"there is no area {action.area!r}"
    if action.verb == "zap" and action.number not in state.hands[seat]:
        return f"you do not hold Zap card {action.number}"
    return f"{action.verb} is possible now, but not with these arguments (type 'list' to see them)"
