"""Reading an Embers position (docs/positions.md, "Embers"): fields typed by the Table record, then the
checks legal play guarantees."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionKinds, DecisionStack
from parlour.core.errors import PositionError
from parlour.core.payloads import read_record
from parlour.core.positions import Fields
from parlour.games.embers.answers import Answers
from parlour.games.embers.content import Content
from parlour.games.embers.state import FORMAT, EmbersState, Table
from parlour.games.embers.turn import Turn

KINDS = DecisionKinds(Turn, Answers)
"""Embers' decisions, by kind."""
HEADER = {"format", "players", "options", "chance", "decisions"}
ZONES = {spec.name for spec in fields(Table)}


def read_position(
    content: Content, data: object, options: Mapping[str, object], players: range
) -> EmbersState:
    """Returns the state a position describes, refusing anything legal play cannot reach, naming the field."""
    found = Fields(data, "", HEADER | ZONES)
    if found.get("format") != FORMAT:
        raise PositionError("format", f"must be {FORMAT!r}")
    count = found.integer("players", players.start, players.stop - 1)
    table = read_record(Table, {k: v for k, v in found.data.items() if k in ZONES}, "")
    stack = DecisionStack.from_json(found.get("decisions"), "decisions", count, KINDS)
    state = EmbersState(content, count, options, Chance.from_json(found.get("chance")), table, stack)
    _check_cards(state)
    for where, what in state.problems():
        raise PositionError(where, what)
    _check_decisions(state)
    return state


def _check_cards(state: EmbersState) -> None:
    """Every card is named as the content names it, and each hand is in its canonical order."""
    table, names = state.table, set(state.content.names)
    piles = {"draw": table.draw, "fire": table.fire, "discard": table.discard}
    piles |= {f"hands[{s}]": hand for s, hand in enumerate(table.hands)}
    piles |= {f"taken[{s}]": pile for s, pile in enumerate(table.taken)}
    for where, pile in piles.items():
        for i, card in enumerate(pile):
            if card not in names:
                raise PositionError(f"{where}[{i}]", f"there is no card {card[:24]!r}")
    for seat, hand in enumerate(table.hands):
        before = list(hand)
        state.sort_hand(seat)
        if hand != before:
            raise PositionError(f"hands[{seat}]", "must list the embers rising, then the douse cards")


def _check_decisions(state: EmbersState) -> None:
    """The stack is one legal play could leave: ``[turn]`` or ``[turn, answer]``, none once over."""
    table, stack = state.table, state.stack
    kinds = stack.kinds()
    if table.over or not kinds:
        if kinds or not table.over:
            raise PositionError("decisions", "empty exactly when the game is over")
        return
    expected = ["turn"] if table.play is None else ["turn", "answer"]
    if kinds != expected:
        raise PositionError("decisions", f"must be {expected} here, not {kinds}")
    turn = stack[0]
    assert isinstance(turn, Turn)
    if turn.seats != [table.active] or turn.concurrent:
        raise PositionError("decisions[0].seats", f"the turn asks the active seat alone, [{table.active}]")
    if turn.step != ("play" if table.play is None else "end"):
        raise PositionError("decisions[0].data.step", "not a step a turn waits at")
    if table.play is not None:
        _check_answers(state, stack[1])


def _check_answers(state: EmbersState, answers: object) -> None:
    """Rules 4.1-4.4: the seats still asked are the last ones of the order from the last card's player."""
    table = state.table
    assert isinstance(answers, Answers)
    last = table.dousers[-1] if table.dousers else table.active
    order = state.others(last)
    if answers.concurrent or not answers.seats or answers.seats != order[len(order) - len(answers.seats) :]:
        raise PositionError("decisions[1].seats", f"must be the last seats of {order}, one at a time")
    if table.dousers and not state.chain:
        raise PositionError("dousers", "under chain=off a douse ends the answers")
