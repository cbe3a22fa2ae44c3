"""Rulebook "Turns": refilling Zap hands, the turn's program, extensions, skips, extra turns, the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from parlour.core.decisions import Seat
from parlour.core.errors import PositionError
from parlour.games.venus_needs_men import combat, research
from parlour.games.venus_needs_men.actions import (
    DONE,
    END,
    STEPS,
    Cycle,
    Done,
    Extend,
    Move,
    Pass,
    ShipAction,
    VenusAction,
)
from parlour.games.venus_needs_men.decision import VenusDecision
from parlour.games.venus_needs_men.phases import (
    ACT,
    ATTACKING,
    COLLECTING,
    EXTEND,
    EXTRA,
    FINISH,
    MOVING,
)
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.steps import EXTRA as EXTRA_MODE
from parlour.games.venus_needs_men.steps import MAIN as MAIN_MODE
from parlour.games.venus_needs_men.steps import has_steps, move, steps
from parlour.games.venus_needs_men.turn_lists import (
    act_steps,
    after_cycle,
    extension_choices,
    fleet,
    phase_steps,
    unacted,
)
from parlour.games.venus_needs_men.turn_order import begin_turn, next_side
from parlour.games.venus_needs_men.zapping import EndWindow, StartWindow, asked, take_step

ACTIONS = ("build", "move", "attack", "collect", "research")
"""The actions a turn takes (its first step chooses one)."""


def start_turn(state: VenusState, index: int) -> None:
    """Begins side ``index``'s turn: refill to three Zap cards (:func:`~.turn_order.begin_turn`), then the
    turn's program."""
    begun = begin_turn(state, index)
    if begun is None:
        return
    seat, everyone = begun
    state.stack.push(Finish())
    state.stack.push(EndWindow(open=False))
    state.stack.push(Extending(seats=[seat]))
    state.stack.push(Act(seats=[seat]))
    # Ruling B-3: the start window asks the active seat alone, unless there was no end window before it
    # (the first turn), or what happens at Pluto's turn start matters (robots are repaired then, so a
    # robot disabled now stays out of this whole turn): ``everyone``.
    # The window opens at once (as ZapWindow.auto would open it now, nothing coming between), and one
    # that asks nobody would close at once with nothing to carry out: it is then not pushed at all.
    window = StartWindow(open=True, everyone=everyone)
    window.seats = asked(state, window)
    if window.seats:
        state.stack.push(window)


def finish_turn(state: VenusState) -> None:
    """Ends the turn: upgrades take effect, Mind Control releases, Titan's parasites come home; then the
    next turn (an extra one after Time Dilation, else the next side that is not skipping:
    :func:`~.turn_order.next_side`)."""
    index = next_side(state)
    if index is not None:
        start_turn(state, index)


# ------------------------------------------------------------------ the turn's decisions
@dataclass(eq=False, kw_only=True)
class Act(VenusDecision):
    """The active player's first step decides its action: build, move, attack, collect, research (or
    pass); a face-up Upgrade may be cycled first."""

    kind = ACT
    phase = "choosing the action"
    own_turn = True
    cycles = True
    listed: list[VenusAction] | None = field(default=None, init=False, repr=False)
    """The choices :meth:`legal` listed last (kept, not stored; None until listed): cycling an Upgrade
    changes only their research steps (:func:`~.turn_lists.after_cycle`)."""

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns pass, the first step of every action, and the Upgrades that may be cycled
        (:func:`~.turn_lists.act_steps`)."""
        found = self.listed = act_steps(state)
        return found

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Cycles an Upgrade (the choices left then offered: :func:`~.turn_lists.after_cycle`), passes,
        or takes the action's first step."""
        if isinstance(action, Cycle):
            listed = self.listed
            research.cycle(state, action.upgrade)
            found = after_cycle(state, listed, action) if listed is not None else None
            self.listed = found
            if found is not None:
                # Nothing else changes before the seat chooses again (this decision's auto is the base's).
                state.offer_legal(seat, found)
            return
        state.stack.pop()
        if isinstance(action, Pass):
            state.action = "move"  # Ruling A-15: passing is a move in which no ship moves.
            if state.logging:
                state.emit(f"{state.planet(state.active).name} does nothing.")
            return
        kind = STEPS[type(action)]
        state.action = kind
        phase = PHASES.get(kind)
        if phase is not None:
            state.stack.push(phase(seats=[seat]))
        _main_step(state, action)

    def researcher(self, state: VenusState) -> str | None:
        """Returns the active planet: research is one of its actions."""
        return state.active


def _main_step(state: VenusState, action: VenusAction) -> None:
    """Takes a step of the turn's action (the ship has then acted) for its commander (:func:`_commander`)."""
    if type(action) is Move:  # the commonest step, which take_step takes whoever commands the ship
        state.acted.append(action.ship)
        move(state, action)
    elif isinstance(action, ShipAction):
        state.acted.append(action.ship)
        take_step(state, state.controller(action.ship), action, MAIN_MODE)
    else:
        take_step(state, state.planets[state.current], action, MAIN_MODE)


def _commander(state: VenusState, action: VenusAction) -> str:
    """Returns the planet taking a step of the turn: the ship's commander, else the active planet."""
    return state.controller(action.ship) if isinstance(action, ShipAction) else state.active


@dataclass(eq=False, kw_only=True)
class Phase(VenusDecision):
    """More steps of the chosen action (each ship once; a move as far as each ship's card allows), or
    ``done``; the action ends by itself when no step is left."""

    own_turn = True

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns done and every further step."""
        return phase_steps(state) or [DONE]

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Takes the step, or ends the action."""
        if isinstance(action, Done):
            state.stack.pop()
            return
        _main_step(state, action)

    def auto(self, state: VenusState) -> bool:
        """Ends the action when only 'done' is left (the steps are listed here, and offered as the seat's
        legal actions: :meth:`legal` would list them again)."""
        if self.seats:
            found = phase_steps(state)
            if found:
                state.offer_legal(self.seats[0], found)
                return False
            state.stack.pop()  # close_unless, inline on this hot path
            return True
        more = has_steps(state, state.action, state.planets[state.current], unacted(state))
        return self.close_unless(state, more)


@dataclass(eq=False, kw_only=True)
class Moving(Phase):
    """More steps of a move action."""

    kind = MOVING
    phase = "moving"


@dataclass(eq=False, kw_only=True)
class Attacking(Phase):
    """More steps of an attack action (or, while no ship has attacked yet, the action's choice again)."""

    kind = ATTACKING
    phase = "attacking"

    def auto(self, state: VenusState) -> bool:
        """Gives the action's choice back when its first declaration was withdrawn or called off before
        any die was rolled ("as long as you haven't ... rolled the dice ... you can change your mind",
        ruling A-21); else as :meth:`Phase.auto`."""
        if state.acted:
            return super().auto(state)
        state.stack.pop()
        state.action = ""
        state.stack.push(Act(seats=[state.active_seat]))
        if state.logging:
            state.emit(f"{state.planet(state.active).name} chooses its action again.")
        return True


@dataclass(eq=False, kw_only=True)
class Collecting(Phase):
    """More steps of a population action."""

    kind = COLLECTING
    phase = "collecting"


PHASES: dict[str, type[Phase]] = {"move": Moving, "attack": Attacking, "collect": Collecting}
"""The phase that continues each action (build and research are one step)."""


@dataclass(eq=False, kw_only=True)
class Extending(VenusDecision):
    """Discard a Zap card for one extra step of the action (up to three), or ``end``."""

    kind = EXTEND
    phase = "extending the action"
    own_turn = True

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns end, and ``extend N`` for every card the seat may discard."""
        return extension_choices(state) or [END]

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Discards the card for an extra step, or ends the extensions."""
        if not isinstance(action, Extend):
            state.stack.pop()
            return
        state.hands[seat].remove(action.card)
        state.discards[seat].append(action.card)
        state.extended += 1
        card = state.card(action.card)
        state.emit(
            f"{state.seat_name(seat)} discards Zap card {card.number}, {card.name}, "
            f"to extend the {state.action} action (extension {state.extended} of 3)."
        )
        state.stack.push(Extra(seats=[seat], action=ACTION_NAMES[state.action]))

    def auto(self, state: VenusState) -> bool:
        """Ends the extensions when no card can buy a step (else offers :meth:`legal`'s list, made here)."""
        choices = extension_choices(state)
        if choices:
            if self.seats:
                state.offer_legal(self.seats[0], choices)
            return False
        state.stack.pop()  # close_unless, inline
        return True


@dataclass(eq=False, kw_only=True)
class Extra(VenusDecision):
    """The one extra step an extension buys (one unit of the action; A-01 for the cards that apply)."""

    kind = EXTRA
    phase = "the extra step"
    own_turn = True
    action: Literal["build", "move", "attack", "collect", "research"]
    """The turn's action."""

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns the extra steps of the action."""
        return steps(state, self.action, state.active, fleet(state), EXTRA_MODE)

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Takes the step."""
        state.stack.pop()
        take_step(state, _commander(state, action), action, EXTRA_MODE)

    def auto(self, state: VenusState) -> bool:
        """Drops the step when there is none (a card changed the board meanwhile); else offers the steps
        listed here as :meth:`legal`'s."""
        if not self.seats:
            more = has_steps(state, self.action, state.active, fleet(state), EXTRA_MODE)
            return self.close_unless(state, more)
        found = steps(state, self.action, state.active, fleet(state), EXTRA_MODE)
        if found:
            state.offer_legal(self.seats[0], found)
        return self.close_unless(state, bool(found))

    def researcher(self, state: VenusState) -> str | None:
        """Returns the active planet when the action is research."""
        return state.active if self.action == "research" else None

    def check(self, state: VenusState, path: str) -> None:
        """Refuses an extra step of another action than the turn's."""
        super().check(state, path)
        if self.action != state.action:
            raise PositionError(f"{path}.data.action", "an extra step belongs to the turn's action")


@dataclass(eq=False, kw_only=True)
class Finish(VenusDecision):
    """The end of the turn (nobody decides it): Mind Control releases, then the next turn."""

    kind = FINISH
    phase = "the end of the turn"

    def auto(self, state: VenusState) -> bool:
        """Releases ships (Mars chooses where it must, ruling A-10(v)), then ends the turn."""
        chooser = combat.release(state) if state.controlled else None  # nothing held: nothing to release
        if chooser is not None:
            state.stack.push(combat.Releasing(seats=[state.seat_of[chooser]], planet=chooser))
            return True
        state.stack.pop()
        finish_turn(state)
        return True

    def check(self, state: VenusState, path: str) -> None:
        """Refuses an end of the turn that asks a seat."""
        super().check(state, path)
        if self.seats:
            raise PositionError(f"{path}.seats", "the end of the turn asks nobody")


ACTION_NAMES: dict[str, Literal["build", "move", "attack", "collect", "research"]] = {
    "build": "build",
    "move": "move",
    "attack": "attack",
    "collect": "collect",
    "research": "research",
}
"""The turn's actions, by name."""


__all__ = ["Act", "Extending", "Extra", "Finish", "Phase", "finish_turn", "start_turn"]
