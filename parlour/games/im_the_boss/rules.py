"""The one source of legality: which actions each decision allows, and applying them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.im_the_boss import bargain, closing, plays, turn
from parlour.games.im_the_boss.actions import Action
from parlour.games.im_the_boss.phases import ARRIVE, BARGAIN, CLOSING, LIMIT, MARKER, RESPOND, TURN

if TYPE_CHECKING:
    from parlour.games.im_the_boss.state import BossState

PHASE_NAMES = {
    MARKER: "the marker is being placed",
    TURN: "the turn's choice (deal or roll)",
    ARRIVE: "the choice after the roll (deal or draw)",
    LIMIT: "discarding down to 12 cards",
    BARGAIN: "the negotiation",
    RESPOND: "the Stop window",
    CLOSING: "the closing round",
}


def legal_actions(state: BossState, seat: int) -> list[Any]:
    """Returns the legal actions of a seat that may act, by the decision on top of the stack."""
    kind = state.stack.top.kind
    if kind == BARGAIN:
        return bargain.actions(state, seat)
    if kind == RESPOND:
        return plays.respond_actions(state, seat)
    if kind == CLOSING:
        return closing.closing_actions(state, seat)
    if kind == TURN:
        return turn.turn_actions(state)
    if kind == ARRIVE:
        return turn.arrive_actions(state)
    if kind == LIMIT:
        return turn.limit_actions(state, seat)
    return turn.marker_actions(state)


def apply(state: BossState, seat: int, action: Action) -> None:
    """Applies a legal action."""
    kind = state.stack.top.kind
    if kind == BARGAIN:
        bargain.apply(state, seat, action)
    elif kind == RESPOND:
        plays.respond(state, seat, action)
    elif kind == CLOSING:
        closing.closing_apply(state, seat, action)
    elif kind in (TURN, ARRIVE):
        if action.verb == "deal":
            bargain.open_negotiation(state, seat)
        elif action.verb == "roll":
            turn.roll(state, seat)
        else:
            turn.draw_three(state, seat)
    elif kind == LIMIT:
        turn.limit_apply(state, seat, action)
    else:
        turn.place_marker(state, seat, action)


def why_illegal(state: BossState, seat: int, action: Any) -> str:
    """Returns why an action is not legal now, as precisely as cheaply possible."""
    phase = PHASE_NAMES[state.stack.top.kind]
    if not isinstance(action, Action):
        return f"it is not an I'm the Boss! action (during {phase})"
    verbs = sorted({a.verb for a in state.legal_actions(seat)})
    if action.verb not in verbs:
        return f"during {phase} seat {seat} may: {', '.join(verbs)}"
    nego = state.nego
    if action.colour and action.colour not in state.content.colours:
        return f"there is no colour {action.colour} (colours: {' '.join(state.content.colours)})"
    if nego is not None and action.colour and action.colour not in state.space(nego.space).colours:
        return f"this deal (space {nego.space + 1}) does not list {action.colour}"
    if nego is not None and action.number > nego.proceeds:
        return f"the proceeds are {nego.proceeds} million: no amount may exceed what is left of them"
    if action.seat >= state.players:
        return f"there is no seat {action.seat}"
    return f"{action.verb} is possible now, but not with these arguments (type 'list' to see them)"
