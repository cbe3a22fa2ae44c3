"""Paying (rulebook: 'The Play'; rulings A-1, A-2): one card at a time, covered before done, no change."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlour.core.errors import IllegalActionError
from parlour.games.venture import VentureState

from .scenario import hand, legal, load, names, play, stacks

CENTER = ["ST-A", "RE-A", "OI-BC", "RR-CDE", "AU-E"]
SAFE_DRAW = ["10", "10", "12", "12", "14", "14"]


def owing(hand_: list[str], *takes: str, **kwargs: Any) -> VentureState:
    """Returns seat 0 after taking the given corporations (each alone) and ending the turn."""
    state = load(hands=[hand_, ["x1"], ["x1"]], center=CENTER, draw=SAFE_DRAW, **kwargs)
    for corp in takes:
        play(state, f"take {corp}")
        if state.stack.top.kind == "place":
            play(state, "place alone")
    play(state, "end")
    return state


def test_ending_a_turn_that_owes_money_asks_for_payment() -> None:
    """'When a player completes transactions, costs are totalled and paid for with Capital cards.'"""
    state = owing(["10", "12", "x1/2"], "ST-A", "RE-A")
    assert state.stack.top.kind == "pay"
    assert state.owed == 16
    # Only capital cards are offered, one name each; no done before the debt is covered.
    assert legal(state) == ["pay 10", "pay 12"]


def test_cards_are_paid_one_at_a_time_and_done_only_when_covered() -> None:
    """Each 'pay CARD' lays one capital card down; 'done' is legal only once the cards cover the debt."""
    state = owing(["10", "12", "x1/2"], "ST-A", "RE-A")
    play(state, "pay 10")
    assert names(state, "payment") == ["10"]
    assert hand(state, 0) == ["12", "x1/2"]
    assert state.owed == 16
    with pytest.raises(IllegalActionError, match="do not cover the 16 million owed"):
        play(state, "done")
    play(state, "pay 12")
    assert legal(state) == ["done"]
    play(state, "done")
    assert names(state, "payment") == []
    assert names(state, "discard") == ["10", "12"]
    assert state.owed == 0
    assert state.current == 1


def test_no_change_is_given() -> None:
    """'If cards total more than purchases, a player does not receive change.'"""
    state = owing(["20", "x1"], "ST-A")
    play(state, "pay 20", "done")
    assert names(state, "discard") == ["20"]
    assert hand(state, 0) == ["10", "10", "x1"]  # the two drawn cards, nothing handed back
    assert state.profits == [0, 0, 0]


def test_over_payment_is_allowed() -> None:
    """Ruling A-2: cards beyond what is needed may be handed in too (a way to dump cards)."""
    state = owing(["12", "10", "14"], "ST-A")
    play(state, "pay 12")
    assert legal(state) == ["pay 10", "pay 14", "done"]
    play(state, "pay 10", "pay 14", "done")
    assert names(state, "discard") == ["12", "10", "14"]
    assert hand(state, 0) == ["10", "10"]


def test_a_set_laid_down_counts_at_its_set_value() -> None:
    """A triangle 1 and 5 laid down together pay 16, not 6."""
    state = owing(["1t", "5t"], "ST-A", "RE-A")
    play(state, "pay 5t")
    assert "done" not in legal(state)
    play(state, "pay 1t")
    assert legal(state) == ["done"]


def test_a_proxy_card_cannot_be_paid() -> None:
    """Payment is made 'with Capital cards and/or sets'; proxy fight cards are not money."""
    state = owing(["10", "x1"], "ST-A")
    with pytest.raises(IllegalActionError):
        play(state, "pay x1")
    with pytest.raises(IllegalActionError, match=r"pay CARD \(or several: pay 10 3c\), then done"):
        play(state, "take RE-A")


def test_an_empty_hand_ends_the_turn_without_discard_or_payment() -> None:
    """A player with no cards and no transactions owes nothing: 'end' is his only action, then he draws."""
    state = load(hands=[[], ["x1"], ["x1"]], center=CENTER, draw=SAFE_DRAW)
    assert legal(state) == ["end"]
    play(state, "end")
    assert state.current == 1
    assert hand(state, 0) == ["10", "10"]
    assert names(state, "discard") == []


def test_payment_turn_totals_all_costs_once() -> None:
    """Ruling A-1 (default payment=turn): one 20 pays for two 8-million take-overs."""
    state = owing(["20"], "ST-A", "RE-A")
    assert state.owed == 16
    play(state, "pay 20", "done")
    assert stacks(state, 0) == [["ST-A"], ["RE-A"]]
    assert names(state, "discard") == ["20"]


def test_option_payment_each_pays_every_transaction_at_once() -> None:
    """Option payment=each: each transaction is paid when made, and the excess of each is lost."""
    state = load(hands=[["20"], [], []], center=CENTER, draw=SAFE_DRAW, options={"payment": "each"})
    play(state, "take ST-A")
    assert state.stack.top.kind == "pay"
    assert state.owed == 8
    play(state, "pay 20", "done")
    assert state.stack.top.kind == "turn"
    assert state.owed == 0
    assert names(state, "discard") == ["20"]
    # Nothing is left to pay for RE-A, which the single 20 would have covered under payment=turn.
    assert [a for a in legal(state) if a.startswith("take")] == []
    assert legal(state) == ["end"]
    play(state, "end")
    assert state.current == 1


def test_option_payment_each_after_placement_and_reorganisation() -> None:
    """Option payment=each: payment follows the placement of a won card, and the end of a reorganisation."""
    state = load(
        hands=[["10", "10", "3c"], [], []],
        holdings={0: [["ST-AB"]]},
        center=CENTER,
        draw=SAFE_DRAW,
        options={"payment": "each"},
    )
    play(state, "take RE-A")
    assert state.stack.top.kind == "place"
    play(state, "place on ST-AB")
    assert state.stack.top.kind == "pay" and state.owed == 8
    play(state, "pay 10", "done", "reorganise")
    assert state.stack.top.kind == "reorganise" and state.owed == 2
    play(state, "move RE-A alone", "done")
    assert state.stack.top.kind == "pay"
    play(state, "pay 3c", "done")
    assert names(state, "discard") == ["10", "3c"]
    assert hand(state, 0) == ["10"]


def test_refused_payment_leaves_the_state_unchanged() -> None:
    """Paying a card not in the hand is refused and changes nothing."""
    state = owing(["12", "x1"], "ST-A")
    before = json.dumps(state.to_position(), sort_keys=True)
    for text in ["pay 14", "pay profit", "discard 12", "end"]:
        with pytest.raises(IllegalActionError):
            play(state, text)
    assert json.dumps(state.to_position(), sort_keys=True) == before


def _paying() -> VentureState:
    """Returns seat 0 paying the 24 owed for RR-CDE and ST-A."""
    state = load(
        hands=[["14", "12", "10", "3s", "3s", "3t", "x1"], [], []], center=["RR-CDE", "ST-A", "OI-E"]
    )
    play(state, "take RR-CDE", "take ST-A", "end")
    return state


def test_one_line_lays_several_cards_in_order() -> None:
    """Ruling A-18: 'pay 14 12 10 3s 3s 3t' is the same as six pay lines, as one action."""
    one, many = _paying(), _paying()
    play(one, "pay 14 12 10 3s 3s 3t")
    play(many, "pay 14", "pay 12", "pay 10", "pay 3s", "pay 3s", "pay 3t")
    assert (
        one.to_position()["payment"] == many.to_position()["payment"] == ["14", "12", "10", "3s", "3s", "3t"]
    )
    assert hand(one, 0) == hand(many, 0) == ["x1"]
    assert "done" in legal(one)
    play(one, "undo")  # one line, one step back
    assert hand(one, 0) == sorted(["14", "12", "10", "3s", "3s", "3t", "x1"])


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("pay 14 14", "you hold only 1 14 card"),
        ("pay 10 20", "you hold no 20 card"),
        ("pay 10 x1", "x1 is not a capital card"),
    ],
)
def test_a_line_with_a_card_not_in_hand_is_refused_whole_and_says_which(line: str, reason: str) -> None:
    """Nothing is laid when one card of the line is missing; the reason names it."""
    state = _paying()
    before = state.to_position()
    with pytest.raises(IllegalActionError, match=reason):
        play(state, line)
    assert state.to_position() == before


def test_several_cards_outside_a_payment_are_refused() -> None:
    """A pay line is only for paying: in the turn it says to end the transactions first."""
    state = load(hands=[["14", "12"], [], []])
    with pytest.raises(IllegalActionError, match="end the transactions first"):
        play(state, "pay 14 12")


def test_the_payment_hint_never_lists_nothing() -> None:
    """Once the laid cards cover the debt the hint says done, not an empty list of cards."""
    state = _paying()
    assert any(h.startswith("pay ") and "covers the 24 owed" in h for h in state.hints(0))
    play(state, "pay 14 12 10")
    assert state.hints(0) == ["The cards laid down cover the 24 owed: done."]
