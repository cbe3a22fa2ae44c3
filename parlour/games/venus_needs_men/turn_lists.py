"""The legal-action lists of the turn's own decisions (its action's choice, its phases, its extensions),
apart from the decisions in ``turns.py`` so that they compile (``VenusGame.hot_modules``): a decision
subclasses the core's Python class, these functions read the state alone."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.venus_needs_men.actions import DONE, END, PASS, Cycle, Extend, Research, VenusAction
from parlour.games.venus_needs_men.options import EXTENSIONS
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.steps import (
    EXTRA,
    MAIN,
    attack_steps,
    build_steps,
    collect_steps,
    fleets_of,
    has_steps,
    move_steps,
    research_steps,
    steps,
)


def fleet(state: VenusState) -> tuple[str, ...]:
    """Returns the active planet's fleet (:meth:`VenusState.fleet`, not copied)."""
    return fleets_of(state).of.get(state.planets[state.current], ())


def act_steps(state: VenusState) -> list[VenusAction]:
    """Returns the ``act`` decision's choices: pass, the first step of build, move, attack, collect and
    research in that order (a ship's steps only when the active planet has a ship on the board), then the
    face-up Upgrades it may cycle (Enhanced game, once a turn, before the action)."""
    planet = state.planets[state.current]
    ships = fleets_of(state).of.get(planet, ())
    found: list[VenusAction] = [PASS]
    found += build_steps(state, planet, MAIN)
    if ships:
        found += move_steps(state, ships, MAIN)
        found += attack_steps(state, planet, ships, MAIN)
        found += collect_steps(state, planet, ships, MAIN)
    if state.enhanced:  # research_steps lists none in the Basic game
        found += research_steps(state, planet)
        if not state.cycled:
            found += cycles(state)
    return found


def after_cycle(
    state: VenusState, listed: list[VenusAction], cycled: VenusAction
) -> list[VenusAction] | None:
    """Returns :func:`act_steps` once the face-up Upgrade of ``cycled`` (one of the choices ``listed``
    before it, by identity) has been cycled: the same steps up to the research steps (a cycle changes
    only the face-up row), then the research steps of the new row (no more cycles this turn). None when
    ``cycled`` is not among the choices listed (then they are worked out afresh)."""
    end, found_cycle = len(listed), False
    while end > 0:
        last = listed[end - 1]
        if not isinstance(last, Research) and not isinstance(last, Cycle):
            break
        found_cycle = found_cycle or last is cycled
        end -= 1
    if not found_cycle:
        return None
    found = listed[:end]
    found += research_steps(state, state.planets[state.current])
    return found


def cycles(state: VenusState) -> tuple[VenusAction, ...]:
    """Returns ``cycle ID`` for each face-up Upgrade, in id order (kept in ``state.tech.memo``)."""
    key = ("cycle", *state.face_up)
    memo = state.tech.memo
    found: tuple[VenusAction, ...] | None = memo.get(key)
    if found is None:
        found = tuple(Cycle.of(u) for u in sorted(set(state.face_up)))
        memo[key] = found
    return found


def unacted(state: VenusState) -> Sequence[str]:
    """Returns the active planet's ships that may still step in its action (a move: every ship, each
    as far as its Movement card lets it)."""
    ships = fleet(state)
    if state.action == "move":
        return ships
    acted = state.acted
    return [s for s in ships if s not in acted]


def phase_steps(state: VenusState) -> list[VenusAction]:
    """Returns ``done`` and every further step of the turn's action, or an empty list when no step is
    left (the phase then ends by itself)."""
    if state.action == "move":  # steps(...) of a move, without the look-ups it needs not
        found = move_steps(state, fleet(state), MAIN)
    else:
        found = steps(state, state.action, state.planets[state.current], unacted(state), MAIN)
    if not found:
        return found
    return [DONE, *found]


def extension_options(state: VenusState) -> list[int]:
    """Returns the Zap cards the active seat may discard for an extra step (none when none is possible)."""
    if not state.action or state.extended >= EXTENSIONS:
        return []
    hand = state.hands[state.seat_of[state.planets[state.current]]]
    if not hand:
        return []
    if not has_steps(state, state.action, state.planets[state.current], fleet(state), EXTRA):
        return []
    return sorted(hand)


def extension_choices(state: VenusState) -> list[VenusAction]:
    """Returns ``end`` and ``extend N`` for every card the active seat may discard, or an empty list when
    no card can buy a step (the extensions then end by themselves)."""
    options = extension_options(state)
    if not options:
        return []
    found: list[VenusAction] = [END]
    for number in options:
        found.append(Extend.of(number))
    return found
