"""The one source of legality: which actions each decision allows, and applying them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.core.decisions import RawDecision
from parlour.games.venus_needs_men import combat, population, research, steps, turns, zapping
from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men.actions import INFECTED, Action, act
from parlour.games.venus_needs_men.combat import SCAVENGE
from parlour.games.venus_needs_men.phases import (
    ACT,
    ATTACKING,
    COLLECTING,
    EXTEND,
    EXTRA,
    IMMEDIATE,
    MOVING,
    PHASE_OF,
    RELEASE,
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
    SCAVENGE: "Earth scavenging a wreck",
    RELEASE: "releasing ships from Mind Control",
}
STEP_VERBS = {
    "build": "build",
    "move": "move",
    "attack": "attack",
    "control": "attack",
    "collect": "collect",
    "infect": "collect",
    "purge": "collect",
    "research": "research",
}
"""The action each step verb belongs to."""
MODES = {
    ACT: steps.MAIN,
    MOVING: steps.MAIN,
    ATTACKING: steps.MAIN,
    COLLECTING: steps.MAIN,
    EXTRA: steps.EXTRA,
    IMMEDIATE: steps.IMMEDIATE,
    SCAVENGE: steps.IMMEDIATE,
}


def legal_actions(state: VenusState, seat: int) -> list[Any]:
    """Returns the legal actions of a seat that may act, by the decision on top of the stack."""
    top = state.stack.top
    planet = state.active
    if top.kind == ZAP:
        return zapping.window_actions(state, seat)
    if top.kind == ACT:
        fleet = state.fleet(planet)
        found = [PASS]
        for kind in ("build", "move", "attack", "collect", "research"):
            found += steps.steps(state, kind, planet, fleet)
        if tech.is_enhanced(state) and not state.cycled:
            found += [act("cycle", area=u) for u in sorted(set(state.face_up))]
        return found
    if top.kind in (MOVING, ATTACKING, COLLECTING):
        fleet = state.fleet(planet)
        if state.action != "move":
            fleet = [s for s in fleet if s not in state.acted]
        return [DONE, *steps.steps(state, state.action, planet, fleet)]
    if top.kind == EXTEND:
        return [END, *(act("extend", number=n) for n in turns.extension_options(state))]
    if top.kind == EXTRA:
        return steps.steps(state, top.data["action"], planet, state.fleet(planet), steps.EXTRA)
    if top.kind == SCAVENGE:
        return [PASS, *steps.research_steps(state, "earth")]
    if top.kind == RELEASE:
        return [act("release", ship=s) for s in combat.release_choices(state, top.data["planet"])]
    # An immediate action: any of the card player's planets, any of its ships.
    found = [PASS]
    for side in state.sides(seat):
        found += steps.steps(state, top.data["action"], side, state.fleet(side), steps.IMMEDIATE)
    return found


def apply(state: VenusState, seat: int, action: Action) -> None:
    """Applies a legal action, then runs what follows by itself."""
    top = state.stack.top
    if top.kind == ZAP:
        zapping.window_apply(state, seat, action)
    elif top.kind == EXTEND:
        _extend(state, seat, action)
    elif action.verb == "release":
        combat.release_ship(state, action.ship, chosen=True)
    elif action.verb == "cycle":
        research.cycle(state, action.area)
    elif action.verb in ("pass", "done"):
        if top.kind == ACT and action.verb == "pass":
            state.action = "move"  # Ruling A-15: passing is a move in which no ship moves.
            state.emit(f"{state.planet(state.active).name} does nothing.")
        elif top.kind in (IMMEDIATE, SCAVENGE):
            state.emit(f"{state.seat_name(seat)} declines the {PHASE_NAMES[top.kind]}.")
        state.stack.pop()
    else:
        _step(state, seat, top, action)
    turns.settle(state)


def _step(state: VenusState, seat: int, top: RawDecision, action: Action) -> None:
    """Takes one step of an action."""
    mode = MODES[top.kind]
    planet = _actor(state, seat, top, action)
    kind = STEP_VERBS[action.verb]
    if top.kind == ACT:
        state.action = kind
        state.stack.pop()
        if kind in PHASE_OF:
            state.stack.push(RawDecision(PHASE_OF[kind], [seat]))
    elif top.kind in (EXTRA, IMMEDIATE, SCAVENGE):
        state.stack.pop()
    if mode == steps.MAIN and action.ship:
        state.acted.append(action.ship)
    _carry_out(state, planet, action, mode)


def _carry_out(state: VenusState, planet: str, action: Action, mode: str) -> None:
    """Does what a step says."""
    cards = steps.cards_apply(state, mode)
    verb = action.verb
    if verb == "build":
        steps.build(state, planet, action, steps.build_count(state, planet, mode))
    elif verb == "move":
        steps.move(state, action)
    elif verb == "attack":
        combat.declare(state, action.ship, action.target, action.area, cards, mode == steps.MAIN)
    elif verb == "control":
        combat.control(state, action.ship, action.target)
    elif verb == "collect":
        area = action.area or state.ships[action.ship] or ""
        infected = action.target == INFECTED
        population.collect(state, planet, action.ship, area, cards and mode == steps.MAIN, infected)
    elif verb == "infect":
        population.infect(state, action.ship)
    elif verb == "purge":
        population.purge(state, planet, action.ship)
    else:
        research.attempt(state, planet, action.area, cards)


def _actor(state: VenusState, seat: int, top: RawDecision, action: Action) -> str:
    """Returns the planet taking a step: the ship's commander, Earth scavenging, or the active planet."""
    if action.ship:
        return state.controller(action.ship)
    if top.kind == SCAVENGE:
        return "earth"
    if top.kind != IMMEDIATE:
        return state.active
    if action.verb == "build":
        # An immediate build names where: a home world (its planet) or Earth's land.
        home = state.board.area(action.area)
        return home.planet if home.kind == "home" and home.planet else "earth"
    kind = STEP_VERBS[action.verb]
    return next(p for p in state.sides(seat) if steps.steps(state, kind, p, state.fleet(p), steps.IMMEDIATE))


def _extend(state: VenusState, seat: int, action: Action) -> None:
    """Discards a Zap card for one extra step, or ends the extensions."""
    if action.verb == "end":
        state.stack.pop()
        return
    state.hands[seat].remove(action.number)
    state.discards[seat].append(action.number)
    state.extended += 1
    card = state.card(action.number)
    state.emit(
        f"{state.seat_name(seat)} discards Zap card {card.number}, {card.name}, "
        f"to extend the {state.action} action (extension {state.extended} of 3)."
    )
    state.stack.push(RawDecision(EXTRA, [seat], {"action": state.action}))


def why_illegal(state: VenusState, seat: int, action: Any) -> str:
    """Returns why an action is not legal now."""
    phase = PHASE_NAMES.get(state.stack.top.kind, state.stack.top.kind)
    if not isinstance(action, Action):
        return f"it is not a Venus Needs Men! action (during {phase})"
    top = state.stack.top
    researching = top.kind in (ACT, SCAVENGE) or (top.kind == EXTRA and top.data["action"] == "research")
    if action.verb in ("research", "cycle") and tech.is_enhanced(state) and researching:
        planet = "earth" if top.kind == SCAVENGE else state.active
        return _why_not_research(state, action, planet, top.kind == ACT)
    verbs = sorted({a.verb for a in state.legal_actions(seat)})
    if action.verb not in verbs:
        return f"during {phase} {state.seat_name(seat)} may: {', '.join(verbs)}"
    if action.ship and action.ship not in state.ships:
        return f"there is no spaceship {action.ship} in this game"
    if action.verb == "zap" and action.number not in state.hands[seat]:
        return f"you do not hold Zap card {action.number}"
    legal = [a for a in state.legal_actions(seat) if a.verb == action.verb]
    if action.ship and action.verb in ("move", "attack", "control", "collect"):
        mine = [a for a in legal if a.ship == action.ship]
        if not mine:
            return _why_not_this_ship(state, seat, action.ship)
        if action.verb == "move":
            where = ", ".join(a.area for a in mine)
            return f"{action.ship} cannot move to {action.area or 'there'} now; it may move to: {where}"
        if action.verb in ("attack", "control"):
            return f"{action.ship} may {action.verb} only: {', '.join(sorted({a.target for a in mine}))}"
    return f"{action.verb} is possible now, but not with these arguments (type 'list' to see them)"


def _why_not_this_ship(state: VenusState, seat: int, ship: str) -> str:
    """Returns why a ship may take no such step now: whose it is, on the board, already acted, disabled."""
    if state.ships.get(ship) is None:
        return f"{ship} is not on the board"
    commander = state.controller(ship)
    if state.seat_of.get(commander) != seat:
        return f"{ship} is commanded by {state.planet(commander).name}"
    if ship in state.disabled:
        return f"{ship} is disabled (Robotic) until Pluto's next turn"
    if ship in state.seized:
        return f"{ship} was taken over this turn: it acts from Mars's next turn"
    if ship in state.acted:
        return f"{ship} has already taken its step in this action"
    return f"{ship} cannot do that from {state.board.area(state.ships[ship] or '').name}"


def _why_not_research(state: VenusState, action: Action, planet: str, may_cycle: bool) -> str:
    """Returns why ``research ID`` or ``cycle ID`` is refused: no such Upgrade, not face up, or (research)
    a duplicate of, or obsoleted by, a card the player has (rulebook, "Research Action")."""
    upgrades = state.tech.upgrades
    face_up = ", ".join(f"{u} ({upgrades[u].name})" for u in sorted(set(state.face_up))) or "none"
    if action.area not in upgrades:
        return f"there is no Upgrade {action.area!r} (face up: {face_up})"
    card = upgrades[action.area]
    if action.area not in state.face_up:
        return f"{card.name} is not face up (face up: {face_up})"
    if action.verb == "cycle":
        if may_cycle and not state.cycled:
            return f"{card.name} may be discarded now"
        return "a face-up Upgrade may be discarded once a turn, before the action"
    reason = tech.why_not_researchable(state, planet, action.area)
    return reason or f"{card.name} cannot be researched now"
