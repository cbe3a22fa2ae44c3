"""The shape of a Venus Needs Men! position's decision stack: each decision in a place play can put it.

Each decision's payload is read through its class's typed fields (``DecisionStack.from_json`` with
``rules.KINDS``) and checked against the state by the class itself (``check``: ships of this game,
Zap cards of the right effect, the seats it asks). Here only where each sits is checked: a turn is
the program ``finish``, the end Zap window, ``extend``, the action's decision; what interrupts it
sits above. Which seats a Zap window may list is the window's own rule (``zapping.asked``).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.decisions import Decision
from parlour.core.errors import PositionError
from parlour.games.venus_needs_men.combat import Releasing, Scavenge
from parlour.games.venus_needs_men.decision import VenusDecision
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.turns import PHASES, Act, Attacking, Extending, Extra, Finish, Phase
from parlour.games.venus_needs_men.zapping import (
    DeclareWindow,
    EndWindow,
    Immediate,
    RollWindow,
    StartWindow,
    ZapWindow,
)

TOP_ONLY = (Extra, Immediate, Scavenge, Releasing)
"""Decisions whose step pops them first: nothing is ever pushed on them."""
INTERRUPTS = (ZapWindow, Immediate, Scavenge, Releasing)
"""Decisions pushed in the middle of a turn (a release ends one)."""


def _answerable(window: Decision) -> bool:
    """Returns whether a decision is a Zap window, whose card could push a step or a window (every
    window offers "any time" cards to some seat, a save window too: ruling B-3)."""
    return isinstance(window, ZapWindow)


def _base_length(stack: list[Decision]) -> int:
    """Returns how many decisions at the bottom form the turn's program (finish, end window, extend...)."""
    expected: list[Callable[[Decision], bool]] = [
        lambda d: isinstance(d, Finish),
        lambda d: isinstance(d, EndWindow),
        lambda d: isinstance(d, Extending),
        lambda d: isinstance(d, Act | Phase | Extra),
    ]
    length = 0
    for decision, fits in zip(stack, expected, strict=False):
        if not fits(decision):
            break
        length += 1
    return length


def _may_sit_on(upper: Decision, lower: Decision) -> bool:
    """Returns whether legal play can push ``upper`` directly on ``lower``."""
    if isinstance(upper, StartWindow):
        return isinstance(lower, Act)
    if isinstance(upper, Releasing):
        return isinstance(lower, Finish)  # Ships are released at the end of a turn.
    if isinstance(upper, Immediate):
        # An immediate-action card is played from a window (never a save window).
        return _answerable(lower)
    if isinstance(upper, DeclareWindow | RollWindow):
        # An attack step: the attack action's phase, an extension's step, an immediate card's step.
        return isinstance(lower, Attacking | Extending) or _answerable(lower)
    # A save window and Earth's scavenging follow a hit, a Zap card or a wreck wherever those happen.
    return isinstance(lower, Attacking | Extending | ZapWindow)


def read_stack(state: VenusState) -> None:
    """Checks every decision and the stack's shape: the turn's program, then what interrupts it."""
    stack = list(state.stack)
    if not stack:
        return
    for i, decision in enumerate(stack):
        assert isinstance(decision, VenusDecision)
        decision.check(state, f"decisions[{i}]")
    base = _base_length(stack)
    if base == 0:
        raise PositionError("decisions[0]", "a turn's decisions start with 'finish'")
    for i in range(base, len(stack)):
        upper, lower = stack[i], stack[i - 1]
        if not isinstance(upper, INTERRUPTS) or isinstance(upper, EndWindow) or not _may_sit_on(upper, lower):
            raise PositionError(f"decisions[{i}]", f"a {_name(upper)} cannot follow a {_name(lower)}")
    for i, decision in enumerate(stack[:-1]):
        above = stack[i + 1]
        if isinstance(decision, TOP_ONLY) or (
            isinstance(decision, Act) and not isinstance(above, StartWindow)
        ):
            raise PositionError(f"decisions[{i}]", f"nothing is pushed on a {_name(decision)}")
        if isinstance(decision, ZapWindow) and (decision.open or decision.seats):
            raise PositionError(f"decisions[{i}]", "a Zap window under another decision is closed")
    _read_action(state, stack, base)


def _name(decision: Decision) -> str:
    """Returns a decision's name for messages (a window with its moment)."""
    if isinstance(decision, ZapWindow):
        return f"{decision.moment} Zap window"
    return f"'{decision.kind}' decision"


def _read_action(state: VenusState, stack: list[Decision], base: int) -> None:
    """Checks the turn's chosen action against its decisions: none before 'act', the phase's own after."""
    step = stack[3] if base == 4 else None
    if isinstance(step, Act) and state.action:
        raise PositionError("action", "no action is chosen while the 'act' decision is pending")
    if isinstance(step, Phase) and PHASES.get(state.action) is not type(step):
        raise PositionError("action", f"must be the action the '{step.kind}' decision continues")


__all__ = ["read_stack"]
