"""The end of the game (rulebook: 'The End-of-Game Reorganization and Scoring'; A-7, A-9, A-12)."""

from __future__ import annotations

from typing import Any

from parlour.core.state import rank
from parlour.games.venture import VentureState

from .scenario import hand, legal, load, names, play, stacks

THREE_A = ["RE-A", "OI-AE", "AU-AC"]  # a conglomerate of three with A in common: 1 million


def last_corporation(**kwargs: Any) -> VentureState:
    """Seat 0 may buy ST-A, the last center corporation; the stock is empty."""
    kwargs.setdefault("draw", ["10", "12", "14", "16"])
    return load(
        hands=[["10", "x1"], ["x1"], ["x1"]],
        center=["ST-A"],
        stock=[],
        spare_corps=2,  # every other corporation stands alone in seat 2's holdings (scores 0)
        holdings={0: [THREE_A]},
        profits=[5, 7, 0],
        **kwargs,
    )


def test_the_game_ends_when_the_last_center_corporation_is_taken() -> None:
    """'When the stock is depleted, play continues until the last Corporation ... is purchased.'"""
    state = last_corporation()
    play(state, "take ST-A", "place on AU-AC", "end", "pay 10", "done")
    assert state.is_over()
    assert state.deciders() == ()
    assert state.legal_actions(0) == []
    # Final scoring: RE-A OI-AE AU-AC ST-A, four with A in common, earn 3.
    assert state.profits == [5 + 3, 7, 0]


def test_the_last_buyer_does_not_draw_by_default() -> None:
    """Ruling A-7 (default last_draw=no): 'makes as many transactions as he wishes and play ends'."""
    state = last_corporation(draw=["profit", "12", "14"])
    play(state, "take ST-A", "place alone", "end", "pay 10", "done")
    assert state.is_over()
    assert hand(state, 0) == ["x1"]
    assert names(state, "draw")[:3] == ["profit", "12", "14"]
    assert state.profit_rounds == 0
    assert state.profits == [5 + 1, 7, 0]


def test_option_last_draw_yes_draws_and_may_score_a_profit_card() -> None:
    """Option last_draw=yes: the last buyer draws two; a Profit card drawn scores before the final scoring."""
    state = last_corporation(draw=["profit", "12", "14"], options={"last_draw": "yes"})
    play(state, "take ST-A", "place alone", "end", "pay 10", "done")
    assert state.is_over()
    assert hand(state, 0) == ["12", "14", "x1"]
    assert state.profit_rounds == 1
    assert state.profits == [5 + 1 + 1, 7, 0]  # the Profit card's 1, then the final scoring's 1


def test_the_last_buyer_may_go_on_transacting_before_play_ends() -> None:
    """'The player who takes over this card makes as many transactions as he wishes and play ends.'"""
    state = load(
        hands=[["20", "x1/2"], ["x1"], ["x1"]],
        center=["ST-A"],
        stock=[],
        spare_corps=2,
        holdings={0: [["RE-A", "OI-AE"], ["AU-AC"]], 1: [["SH-AF"]]},
        draw=["10", "12"],
    )
    play(state, "take ST-A", "place on OI-AE")
    assert not state.is_over()
    play(state, "proxy x1/2 SH-AF", "place on ST-A", "reorganise", "move AU-AC on SH-AF", "done")
    assert not state.is_over()
    assert state.owed == 8 + 6 + 5  # ST-A, half of SH-AF's 12, five corporations
    play(state, "end", "pay 20", "done")
    assert state.is_over()
    assert stacks(state, 0) == [["RE-A", "OI-AE", "ST-A", "SH-AF", "AU-AC"]]
    assert state.profits[0] == 8  # five with A in common


def test_play_goes_on_while_center_corporations_remain() -> None:
    """With the stock empty, a turn that leaves a center corporation does not end the game."""
    state = load(
        hands=[["10", "x1"], ["x1"], ["x1"]],
        center=["ST-A", "RE-A"],
        stock=[],
        spare_corps=2,
        draw=["10", "12", "14", "16"],
    )
    play(state, "take ST-A", "end", "pay 10", "done")
    assert not state.is_over()
    assert names(state, "center") == ["RE-A"]
    assert state.current == 1
    play(state, "discard x1")
    assert not state.is_over()


def test_the_turn_limit_ends_the_game_with_final_scoring() -> None:
    """Ruling A-12: option max_turns ends the game after that many turns, with the final scoring."""
    state = load(
        hands=[["x1"], ["x1"], ["x1"]],
        holdings={1: [THREE_A]},
        turn=9,
        options={"max_turns": 10},
        draw=["10", "12", "14", "16"],
    )
    play(state, "discard x1")
    assert not state.is_over() and state.turn == 10
    play(state, "discard x1")
    assert state.is_over()
    assert state.profits == [0, 1, 0]


def test_max_turns_zero_means_no_limit() -> None:
    """Option max_turns=0 never ends the game by the turn count."""
    state = load(hands=[["x1"], ["x1"], ["x1"]], turn=5000, options={"max_turns": 0}, draw=["10"] * 4)
    play(state, "discard x1", "discard x1")
    assert not state.is_over() and state.turn == 5002


def test_final_scoring_is_added_to_previous_profits() -> None:
    """'Amounts are entered on the score sheet and added to previous profits for grand totals.'"""
    state = last_corporation()
    play(state, "take ST-A", "place alone", "end", "pay 10", "done")
    assert state.scores() == [6.0, 7.0, 0.0]
    assert state.winners() == [1]
    assert state.ranking() == [2, 1, 3]


def test_ties_share_the_win() -> None:
    """Ruling A-9: players tied on the largest grand total share the win."""
    state = last_corporation()
    state.profits[1] = 6  # seat 0 will finish on 5 + 1 = 6
    play(state, "take ST-A", "place alone", "end", "pay 10", "done")
    assert state.scores() == [6.0, 6.0, 0.0]
    assert state.winners() == [0, 1]
    assert state.ranking() == [1, 1, 3]
    assert rank([3, 9, 9, 1]) == [3, 1, 1, 4]
    assert legal(state) == []
