"""Taking steps back within a turn (ruling A-17): ``undo`` and ``cancel``, and the base of every decision
of a turn (:class:`TurnDecision`), which offers them after its own choices.

Until a turn's payment is made, a player may take back any step that revealed nothing to the others:
a take-over from the center and its placement, a reorganisation (its start and fee, each move, its
``done``, or ``reorganise best``), ``end`` when it only opened the payment, and a laid payment card.
A proxy fight (it shows a proxy card and takes another player's corporation), a discard and every
draw cannot be taken back, nor can anything before them: each such step empties the record.

Each undoable step leaves a :class:`~parlour.games.venture.state.Step` record of what it changed, so
taking it back restores the state exactly; ``undos`` counts the steps taken back this turn and at most
``UNDO_LIMIT`` are, so every turn stays finite whatever is chosen (a turn without taking back is
finite: every transaction costs money the hand must cover, and a reorganisation never repeats an
arrangement, ruling A-16).
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Self

from mypy_extensions import mypyc_attr

from parlour.core.decisions import Decision, Seat
from parlour.games.venture.actions import (
    Cancel,
    Move,
    Pay,
    Place,
    Proxy,
    Reorganise,
    Take,
    Undo,
    VentureAction,
)
from parlour.games.venture.record import Step
from parlour.games.venture.state import VentureState

UNDO_LIMIT = 10
"""Steps a player may take back in one turn (``undo`` and ``cancel`` count one each): ruling A-17."""

UNDO, CANCEL = Undo.of(), Cancel.of()


@mypyc_attr(native_class=False)  # subclasses the core's decision (a Python class)
@dataclass(eq=False, kw_only=True)
class TurnDecision(Decision[VentureState, VentureAction]):
    """A decision of the current player's turn: its own choices, then ``undo`` and ``cancel`` (A-17).

    A subclass says what its seat may choose (:meth:`choices`), what a choice does (:meth:`act`), which
    choices can be taken back (:meth:`undoable`) and why a choice is refused (:meth:`refusal`); this
    class adds the take-backs and keeps the record of what each step changed.
    """

    @abstractmethod
    def choices(self, state: VentureState, seat: Seat) -> list[VentureAction]:
        """Returns the decision's own legal actions (a new list), in a stable order."""

    @abstractmethod
    def act(self, state: VentureState, seat: Seat, action: VentureAction) -> None:
        """Applies one of :meth:`choices`."""

    def undoable(self, state: VentureState, action: VentureAction) -> bool:
        """Returns whether a choice about to be applied can be taken back afterwards."""
        return True

    def refusal(self, state: VentureState, seat: Seat, action: object) -> str:
        """Returns why an action that names no unknown card is refused here."""
        return "no such card, corporation or stack here"

    def accepts(self, state: VentureState, seat: Seat, action: object) -> bool:
        """Returns whether an action not listed is legal all the same (a shorthand for listed ones)."""
        return False

    def may_cancel(self, state: VentureState) -> bool:
        """Returns whether ``cancel`` has a reorganisation to take back (only a reorganisation has)."""
        return False

    def forget_arrangement(self) -> None:
        """Forgets the arrangement the last move reached: only a reorganisation records them (and only a
        reorganisation's moves are undone), so other decisions have nothing to forget."""

    def copy(self) -> Self:
        """Returns a deep copy: every field of Venture's decisions is a scalar or a list of scalars, so
        copying the lists is enough (the core's general copy, which reads each field's type, is slower;
        the undo record copies the decision stack at every transaction)."""
        clone = object.__new__(type(self))
        fields = clone.__dict__
        fields.update(self.__dict__)
        for name, value in fields.items():
            if type(value) is list:
                fields[name] = value.copy()
        return clone

    # ----------------------------------------------------------------- the core's hooks
    def legal(self, state: VentureState, seat: Seat) -> list[VentureAction]:
        """Returns the decision's choices, then undo and cancel when they are offered (ruling A-17)."""
        actions = self.choices(state, seat)
        if can_undo(state):
            actions.append(UNDO)
        if state.undos < UNDO_LIMIT and self.may_cancel(state):
            actions.append(CANCEL)
        return actions

    def apply(self, state: VentureState, seat: Seat, action: VentureAction) -> None:
        """Applies a legal action, keeping what takes it back while that reveals nothing (ruling A-17)."""
        if isinstance(action, Undo):
            take_back(state, seat)
            return
        if isinstance(action, Cancel):
            cancel(state, seat)
            return
        step = record(state, seat, action) if self.undoable(state, action) else None
        turn = state.turn
        self.act(state, seat, action)
        if state.turn != turn:
            return  # the turn is over: the next one started with an empty record
        if step is None or state.over:
            state.undo_log.clear()
        else:
            state.undo_log.append(step)

    def why(self, state: VentureState, seat: Seat, action: object) -> str:
        """Returns a short reason why an action is not legal now, naming what to do instead."""
        unknown = _unknown_name(state, action)
        if unknown:
            return unknown
        if isinstance(action, Undo | Cancel):
            return _why_take_back(state, action)
        return self.refusal(state, seat, action)


def _unknown_name(state: VentureState, action: object) -> str:
    """Returns a reason if the action names a corporation the deck does not have ('' otherwise)."""
    names: tuple[str | None, ...] = ()
    if isinstance(action, Take | Proxy):
        names = (action.corp,)
    elif isinstance(action, Move):
        names = (action.corp, action.onto)
    elif isinstance(action, Place):
        names = (action.onto,)
    for name in names:
        if name is not None and state.deck.corporation(name) is None:
            return f"there is no corporation {name} (corporations are written like ST-ABC: see 'info')"
    return ""


def _why_take_back(state: VentureState, action: Undo | Cancel) -> str:
    """Returns why undo or cancel is refused."""
    if state.undos >= UNDO_LIMIT:
        return f"you have taken back {UNDO_LIMIT} steps this turn, the most a turn allows"
    if isinstance(action, Cancel):
        return "cancel takes back a reorganisation under way, and none is"
    return "nothing to take back: a draw, a proxy fight or a payment made cannot be undone"


# ---------------------------------------------------------------- the record
def record(state: VentureState, seat: Seat, action: VentureAction) -> Step:
    """Returns the record that takes back ``action``, taken before it is applied."""
    if isinstance(action, Pay):
        resources = state.deck.resources
        hand, at = list(state.hands[seat]), []
        for name in action.cards:
            index = next(i for i, r in enumerate(hand) if resources[r].name == name)
            hand.pop(index)
            at.append(index)
        return Step(action, at=tuple(at))
    holdings = tuple(tuple(s) for s in state.holdings[seat])
    if isinstance(action, Move):
        return Step(action, holdings=holdings)
    return Step(
        action,
        holdings=holdings,
        center=tuple(state.center),
        owed=state.owed,
        transacted=state.transacted,
        decisions=state.stack.copy(),
    )


def restore(state: VentureState, seat: Seat, step: Step) -> None:
    """Puts the state back as it was before ``step`` (the record is left untouched)."""
    if step.kind == "pay":
        for index in reversed(step.at):
            state.hands[seat].insert(index, state.payment.pop())
        return
    state.holdings[seat] = [list(s) for s in step.holdings]
    if step.kind == "move":
        top = state.stack.top
        assert isinstance(top, TurnDecision)
        top.forget_arrangement()
        return
    assert step.decisions is not None
    state.center = list(step.center)
    state.owed, state.transacted = step.owed, step.transacted
    state.stack = step.decisions.copy()


def opens_reorganisation(step: Step) -> bool:
    """Returns whether a step started a reorganisation (``cancel`` takes back to before it)."""
    return isinstance(step.taken, Reorganise)


def can_undo(state: VentureState) -> bool:
    """Returns whether ``undo`` is offered: a step to take back and the turn's allowance left."""
    return bool(state.undo_log) and state.undos < UNDO_LIMIT


def take_back(state: VentureState, seat: Seat) -> None:
    """Takes back the last undoable step (``undo``)."""
    step = state.undo_log.pop()
    restore(state, seat, step)
    state.undos += 1
    if state.logging:  # the action's text is written only for a reader
        state.emit(
            f"seat {seat} takes back '{step.action}' ({UNDO_LIMIT - state.undos} more take-backs this turn)"
        )


def cancel(state: VentureState, seat: Seat) -> None:
    """Takes back the reorganisation under way: its moves, then its start and fee (``cancel``)."""
    while True:
        step = state.undo_log.pop()
        restore(state, seat, step)
        if opens_reorganisation(step):
            break
    state.undos += 1
    state.emit(
        f"seat {seat} cancels the reorganisation: holdings and fee as before "
        f"({UNDO_LIMIT - state.undos} more take-backs this turn)"
    )
