"""Reading an Embers position (docs/positions.md, "Embers"): the header, the state's parts read through
its layout, then the checks legal play guarantees."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.chance import Chance
from parlour.core.decisions import Decision, DecisionKinds, DecisionStack
from parlour.core.errors import PositionError
from parlour.core.positions import Fields
from parlour.games.embers.answers import Answers
from parlour.games.embers.content import Content
from parlour.games.embers.game_state import EmbersGameState
from parlour.games.embers.state import FORMAT, LAYOUT, EmbersState
from parlour.games.embers.turn import Turn

KINDS = DecisionKinds(Turn, Answers)
"""Embers' decisions, by kind."""
HEADER = {"format", "game", "players", "options", "chance", "decisions"}


def read_position(
    content: Content, data: object, options: Mapping[str, object], players: range
) -> EmbersGameState:
    """Returns the state a position describes, refusing anything legal play cannot reach, naming the field."""
    found = Fields(data, "", HEADER | set(LAYOUT.keys()))
    if found.get("format") != FORMAT:
        raise PositionError("format", f"must be {FORMAT!r}")
    if (
        found.get("game", EmbersState.game_name) != EmbersState.game_name
    ):  # written since format 1's second month
        raise PositionError("game", f"must be {EmbersState.game_name!r}")
    count = found.integer("players", players.start, players.stop - 1)
    parts = LAYOUT.read(EmbersState, found.data)
    stack = DecisionStack.from_json(found.get("decisions"), "decisions", count, KINDS)
    state = EmbersGameState(content, count, options, Chance.from_json(found.get("chance")))
    vars(state).update(parts, stack=stack)
    for error in state.problems():
        raise error
    _check_hand_order(state)
    _check_decisions(state)
    return state


def _check_hand_order(state: EmbersState) -> None:
    """Each hand is in its canonical order (the embers rising, then the douse cards)."""
    for seat, hand in enumerate(state.hands):
        before = list(hand)
        state.sort_hand(seat)
        if hand != before:
            raise PositionError(f"hands[{seat}]", "must list the embers rising, then the douse cards")


def _check_decisions(state: EmbersState) -> None:
    """The stack is one legal play could leave: ``[turn]`` or ``[turn, answer]``, none once over."""
    stack = state.stack
    kinds = tuple(type(d) for d in stack)
    if state.over or not kinds:
        if kinds or not state.over:
            raise PositionError("decisions", "empty exactly when the game is over")
        return
    expected: tuple[type[Decision], ...] = (Turn,) if state.play is None else (Turn, Answers)
    if kinds != expected:
        names = [kind.kind for kind in expected]
        raise PositionError("decisions", f"must be {names} here, not {stack.kinds()}")
    turn = stack[0]
    assert isinstance(turn, Turn)
    if turn.seats != [state.active] or turn.concurrent:
        raise PositionError("decisions[0].seats", f"the turn asks the active seat alone, [{state.active}]")
    if turn.step != ("play" if state.play is None else "end"):
        raise PositionError("decisions[0].data.step", "not a step a turn waits at")
    if state.play is not None:
        _check_answers(state, stack[1])


def _check_answers(state: EmbersState, answers: object) -> None:
    """Rules 4.1-4.4: the seats still asked are the last ones of the order from the last card's player."""
    assert isinstance(answers, Answers)
    last = state.dousers[-1] if state.dousers else state.active
    order = state.others(last)
    if answers.concurrent or not answers.seats or answers.seats != order[len(order) - len(answers.seats) :]:
        raise PositionError("decisions[1].seats", f"must be the last seats of {order}, one at a time")
    if state.dousers and not state.chain:
        raise PositionError("dousers", "under chain=off a douse ends the answers")
