"""Rules chapter 4: answers (who is asked, in what order; a douse answered by a douse; chain=off)."""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalActionError

from .scenario import deal, play

HANDS = (
    ["1", "2", "3", "4", "douse"],
    ["5", "6", "7", "douse", "douse"],
    ["1", "2", "3", "4", "5"],
    ["8"] * 3,
)


def test_rule_4_1_every_other_player_is_asked_in_turn_from_the_players_left() -> None:
    state = deal(*HANDS[:3], ["6", "7", "8", "8", "douse"])
    play(state, "0: discard", "1: play 5")
    assert state.waiting() == (2, 3, 0) and state.deciders() == (2,)
    play(state, "2: pass")
    assert state.waiting() == (3, 0)


def test_rule_4_1_a_player_without_a_douse_card_is_asked_and_may_only_pass() -> None:
    state = deal(*HANDS[:3])
    play(state, "0: play 1")
    assert state.deciders() == (1,) and [str(a) for a in state.legal_actions(1)] == ["douse", "pass"]
    play(state, "1: pass")
    assert state.deciders() == (2,) and [str(a) for a in state.legal_actions(2)] == ["pass"]
    assert state.only_pass(2) and state.passing_window()
    with pytest.raises(IllegalActionError, match="you hold no douse card"):
        state.apply_notation("douse", 2)


def test_rule_4_2_a_douse_asks_everyone_but_the_douser_again_from_its_left() -> None:
    state = deal(*HANDS[:3])
    play(state, "0: play 1", "1: douse")
    assert state.dousers == [1] and state.waiting() == (2, 0)
    play(state, "2: pass", "0: douse")
    assert state.dousers == [1, 0] and state.waiting() == (1, 2)


def test_rule_4_3_the_answers_end_when_everyone_asked_has_passed() -> None:
    state = deal(*HANDS[:3])
    play(state, "0: play 1", "1: douse", "2: pass")
    assert state.stack.kinds() == ["turn", "answer"]
    play(state, "0: pass")
    assert state.stack.kinds() == ["turn"] and state.play is None and state.deciders() == (1,)


def test_rule_4_4_under_chain_off_a_douse_ends_the_answers() -> None:
    state = deal(*HANDS[:3], chain="off")
    play(state, "0: play 1", "1: douse")
    assert state.stack.kinds() == ["turn"] and state.discard == ["douse", "1"]
    assert state.deciders() == (1,)


def test_the_worked_turn_of_the_rule_text_a_doused_douse_lets_the_ember_stand() -> None:
    state = deal(["7", "1", "2", "3", "douse"], ["1", "2", "3", "4", "5"], ["4", "5", "6", "douse", "douse"])
    play(state, "0: play 7", "1: pass", "2: douse", "0: douse", "1: pass", "2: pass")
    assert state.fire == ["7"] and state.discard == ["douse", "douse"]
