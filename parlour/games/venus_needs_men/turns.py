"""Rulebook "Turns": refilling Zap hands, the turn's program, extensions, skips, extra turns, the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.decisions import RawDecision
from parlour.games.venus_needs_men import combat, population, research, zapping
from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men.options import EXTENSIONS, HAND
from parlour.games.venus_needs_men.phases import (
    ACT,
    ATTACKING,
    COLLECTING,
    END,
    EXTEND,
    EXTRA,
    FINISH,
    MOVING,
    RELEASE,
    START,
    ZAP,
)
from parlour.games.venus_needs_men.steps import EXTRA as EXTRA_MODE
from parlour.games.venus_needs_men.steps import steps

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState


def start_turn(state: VenusState, index: int) -> None:
    """Begins side ``index``'s turn: refill to three Zap cards, then the turn's program."""
    limit = state.options["max_turns"]
    if limit and state.turn >= limit:
        population.end_game(state, population.leaders(state), f"lead at the turn limit ({limit} turns)")
        return
    state.turn += 1
    state.current = index
    state.action, state.acted, state.extended, state.cycled, state.seized = "", [], 0, False, []
    seat = state.active_seat
    repaired = [s for s in state.disabled if state.owner(s) == state.active]
    if repaired:
        state.disabled = [s for s in state.disabled if s not in repaired]
        state.emit(f"{' '.join(repaired)} repaired (Robotic).")
    state.emit(f"Turn {state.turn}: {state.planet(state.active).name}.")
    drawn = []
    while len(state.hands[seat]) < HAND and state.decks[seat]:
        drawn.append(state.decks[seat].pop(0))
        state.hands[seat].append(drawn[-1])
    if drawn:
        # Which cards were drawn is the drawer's secret (Event.secret); how many is public.
        state.emit(
            f"{state.seat_name(seat)} draws {len(drawn)} Zap card{'s' if len(drawn) > 1 else ''} "
            f"({len(state.decks[seat])} left in the deck).",
            seat,
            "drew " + ", ".join(f"{n} {state.card(n).name}" for n in drawn),
        )
    state.stack.push(RawDecision(FINISH, []))
    zapping.open_window(state, END)
    state.stack.push(RawDecision(EXTEND, [seat]))
    state.stack.push(RawDecision(ACT, [seat]))
    # Ruling B-3: the start window asks the active seat alone, unless there was no end window before it
    # (the first turn), or what happens at Pluto's turn start matters (robots are repaired then, so a
    # robot disabled now stays out of this whole turn).
    robots = tech.has_special(state, state.active, "robotic")
    zapping.open_window(state, START, everyone=state.turn == 1 or bool(repaired) or robots)


def finish_turn(state: VenusState) -> None:
    """Ends the turn: upgrades take effect, Mind Control releases, Titan's parasites come home; then the
    next turn (an extra one after Time Dilation, else the next side that is not skipping)."""
    planet = state.active
    research.take_effect(state)
    if planet == "titan" and tech.has_special(state, "titan", "parasites"):
        population.hive(state)
        if state.over:
            return
    if state.extra_turns.get(planet):
        state.extra_turns[planet] -= 1
        state.emit(f"{state.planet(planet).name} takes an extra turn (Time Dilation).")
        start_turn(state, state.current)
        return
    index = state.current
    for _ in range(len(state.planets) * 4):
        index = (index + 1) % len(state.planets)
        side = state.planets[index]
        if not state.skips.get(side):
            break
        state.skips[side] -= 1
        state.emit(f"{state.planet(side).name} skips its turn (Ion Storm).")
    start_turn(state, index)


def extension_options(state: VenusState) -> list[int]:
    """Returns the Zap cards the active seat may discard for an extra step (none when none is possible)."""
    seat = state.active_seat
    if not state.action or state.extended >= EXTENSIONS or not state.hands[seat]:
        return []
    if not steps(state, state.action, state.active, state.fleet(state.active), EXTRA_MODE):
        return []
    return sorted(state.hands[seat])


def _more_steps(state: VenusState) -> bool:
    """Returns whether the action in progress has another step for some ship."""
    fleet = state.fleet(state.active)
    if state.action != "move":
        fleet = [s for s in fleet if s not in state.acted]
    return bool(steps(state, state.action, state.active, fleet))


def settle(state: VenusState) -> None:
    """Runs the steps nobody decides (closed windows, the end of a turn) until a seat must act."""
    while not state.over and len(state.stack):
        top = state.stack.top
        if top.kind == ZAP:
            if not top.data["open"]:
                top.data["open"] = True
                top.seats = zapping.asked(state, top)
            if top.is_settled:
                zapping.close_window(state)
                continue
            return
        if top.kind == EXTEND and not extension_options(state):
            state.stack.pop()
            continue
        if top.kind == EXTRA and not steps(
            state, top.data["action"], state.active, state.fleet(state.active), EXTRA_MODE
        ):
            state.stack.pop()
            continue
        if top.kind in (MOVING, ATTACKING, COLLECTING) and not _more_steps(state):
            state.stack.pop()  # Only 'done' is left: the action ends by itself.
            continue
        if top.kind == FINISH:
            chooser = combat.release(state)
            if chooser is not None:
                # Ruling A-10(v): Mars chooses which of its controlled ships go free.
                state.stack.push(RawDecision(RELEASE, [state.seat_of[chooser]], {"planet": chooser}))
                return
            state.stack.pop()
            finish_turn(state)
            continue
        if top.kind == RELEASE and not combat.release_choices(state, top.data["planet"]):
            state.stack.pop()
            continue
        return


__all__ = ["ACT", "finish_turn", "settle", "start_turn"]
