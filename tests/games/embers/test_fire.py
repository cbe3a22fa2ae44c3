"""Rules chapter 5: the fire (an ember stands or is doused; the fire taken at 15; the turn passes on)."""

from __future__ import annotations

from .scenario import deal, play, texts

HANDS = (["1", "7", "8", "8", "douse"], ["5", "6", "7", "douse", "douse"], ["1", "2", "3", "4", "douse"])


def test_rule_5_1_an_ember_under_one_douse_is_doused() -> None:
    state = deal(*HANDS)
    events = play(state, "0: play 8", "1: douse", "2: pass", "0: pass")
    assert "seat 0's 8 is doused" in texts(events)
    assert state.fire == [] and state.discard == ["douse", "8"]


def test_rule_5_1_an_ember_under_two_douses_stands_and_both_are_discarded() -> None:
    state = deal(*HANDS)
    play(state, "0: play 8", "1: douse", "2: douse", "0: pass", "1: pass")
    assert state.fire == ["8"] and state.discard == ["douse", "douse"]


def test_rule_5_1_an_ember_nobody_douses_stands() -> None:
    state = deal(*HANDS)
    events = play(state, "0: play 7", "1: pass", "2: pass")
    assert "seat 0's 7 stands: the fire totals 7" in texts(events) and state.fire == ["7"]


def test_rule_5_2_the_ember_that_brings_the_fire_to_15_takes_it() -> None:
    state = deal(*HANDS)
    play(state, "0: play 8", "1: pass", "2: pass", "1: play 6", "2: pass", "0: pass")
    assert state.fire == ["8", "6"] and state.fire_total() == 14
    events = play(state, "2: play 1", "0: pass", "1: pass")
    assert "seat 2 takes the fire: 3 cards" in texts(events)
    assert state.fire == [] and state.taken[2] == ["8", "6", "1"] and state.scores()[2] == 3


def test_rule_5_2_a_doused_ember_takes_nothing() -> None:
    state = deal(*HANDS)
    play(state, "0: play 8", "1: pass", "2: pass", "1: play 7", "2: douse", "0: pass", "1: pass")
    assert state.fire == ["8"] and state.taken == [[], [], []]


def test_rule_5_3_then_the_turn_passes_to_the_left() -> None:
    state = deal(*HANDS)
    play(state, "0: play 1", "1: pass", "2: pass")
    assert state.turn_player() == 1 and state.turns_played() == 2
    play(state, "1: play 5", "2: pass", "0: pass", "2: play 1", "0: pass", "1: pass")
    assert state.turn_player() == 0 and state.turns_played() == 4
