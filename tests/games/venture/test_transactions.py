"""Transactions (rulebook: 'The Play' 1-3): take-overs, conglomerates, proxy fights, reorganisation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlour.core.errors import IllegalActionError
from parlour.games.venture import VentureState

from .scenario import hand, legal, load, names, play, stacks

CENTER = ["ST-A", "OI-AE", "RR-CD", "RE-DEF", "AU-EF"]
SAFE_DRAW = ["10", "10", "12", "12", "14", "14"]


def snapshot(state: VentureState) -> str:
    """Returns the whole state as canonical JSON text."""
    return json.dumps(state.to_position(), sort_keys=True)


def refused(state: VentureState, text: str) -> str:
    """Applies an action that must be refused; checks the state is unchanged; returns the reason."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as err:
        play(state, text)
    assert snapshot(state) == before
    return str(err.value)


# ------------------------------------------------------------------ take-overs
def test_take_over_costs_the_value_4_plus_4_per_letter() -> None:
    """A corporation's value is 8 million for one letter up to 24 for five; taking it owes that much."""
    state = load(
        hands=[["20", "20", "20", "20"], [], []], center=["ST-A", "OI-BC", "RR-CDE", "RE-ABDE", "SH-ABCDF"]
    )
    owed = []
    for corp in ["ST-A", "OI-BC", "RR-CDE", "RE-ABDE", "SH-ABCDF"]:
        play(state, f"take {corp}")
        if state.stack.top.kind == "place":
            play(state, "place alone")
        owed.append(state.owed)
    assert owed == [8, 8 + 12, 8 + 12 + 16, 8 + 12 + 16 + 20, 8 + 12 + 16 + 20 + 24]
    assert names(state, "center") == []
    assert len(stacks(state, 0)) == 5


def test_take_over_moves_the_card_from_the_center_to_the_holdings() -> None:
    """'This Corporation is placed face up on the table in front of him.'"""
    state = load(hands=[["10"], [], []], center=CENTER)
    play(state, "take ST-A")
    assert names(state, "center") == ["OI-AE", "RR-CD", "RE-DEF", "AU-EF"]
    assert stacks(state, 0) == [["ST-A"]]
    assert state.transacted is True
    assert "take ST-A" not in legal(state)


def test_a_fitting_corporation_goes_on_top_of_the_stack() -> None:
    """Ruling A-4: a newly taken corporation is put on top; 'place on' names the stack's top card."""
    state = load(
        hands=[["20", "20", "20"], [], []],
        holdings={0: [["RR-CD", "RE-DEF"], ["ST-A"]]},
        center=["SH-ACDF", "OI-B", "AU-E", "ST-D", "RE-A"],
    )
    play(state, "take SH-ACDF")
    # D is common to RR-CD and RE-DEF; A is ST-A's letter: both stacks fit, named by their tops.
    assert legal(state) == ["place on RE-DEF", "place on ST-A", "place alone"]
    assert refused(state, "take OI-B").startswith("take OI-B is not legal")
    play(state, "place on RE-DEF")
    assert stacks(state, 0) == [["RR-CD", "RE-DEF", "SH-ACDF"], ["ST-A"]]


def test_a_corporation_of_an_industry_already_in_the_stack_cannot_join() -> None:
    """'providing the two Corporations ... are from different industries': ST-D may not join ST."""
    state = load(hands=[["20"], [], []], holdings={0: [["ST-ABDE", "RE-DE"]]}, center=["ST-D", *CENTER[1:]])
    play(state, "take ST-D")
    assert state.stack.top.kind == "turn"  # not asked: it can only stand alone
    assert stacks(state, 0) == [["ST-ABDE", "RE-DE"], ["ST-D"]]


def test_a_corporation_must_share_a_letter_common_to_all() -> None:
    """'at least one letter in common to all Corporations': OI-AE lacks the B of ST-AB and RE-BF."""
    state = load(
        hands=[["20", "10"], [], []],
        holdings={0: [["ST-AB", "RE-BF"]]},  # B is common to both; A is not
        center=["OI-AE", "AU-BD", "RR-C", "RE-D", "SH-F"],
    )
    play(state, "take OI-AE")
    assert stacks(state, 0) == [["ST-AB", "RE-BF"], ["OI-AE"]]
    play(state, "take AU-BD")
    assert legal(state) == ["place on RE-BF", "place alone"]


def test_any_or_all_center_corporations_may_be_taken_in_one_turn() -> None:
    """'Any or all Corporations from the center of the table can be taken over during one turn.'"""
    state = load(hands=[["20", "20", "20", "20"], [], []], center=CENTER, draw=SAFE_DRAW)
    for corp in CENTER:
        play(state, f"take {corp}")
        if state.stack.top.kind == "place":
            play(state, "place alone")
    assert state.owed == 8 + 12 + 12 + 16 + 12
    play(state, "end", "pay 20", "pay 20", "pay 20", "done")
    assert sorted(c for s in stacks(state, 0) for c in s) == sorted(CENTER)


def test_cannot_take_what_the_hand_cannot_pay() -> None:
    """Costs are committed only while the hand can pay them all: the running total never exceeds it."""
    state = load(hands=[["10", "12"], [], []], center=["ST-AB", "RE-A", "OI-BC", "RR-CDE", "AU-E"])
    assert legal(state)[:5] == ["take ST-AB", "take RE-A", "take OI-BC", "take RR-CDE", "take AU-E"]
    play(state, "take ST-AB")
    # 22 million in hand, 12 owed: only the 8-million corporations remain affordable.
    assert [a for a in legal(state) if a.startswith("take")] == ["take RE-A", "take AU-E"]
    reason = refused(state, "take OI-BC")
    assert "OI-BC costs 12 million and you can pay only 10 more" in reason
    play(state, "take RE-A", "place on ST-AB")
    assert state.owed == 20
    assert [a for a in legal(state) if a.startswith("take")] == []


def test_cannot_take_what_the_hand_cannot_pay_counts_sets() -> None:
    """A set counts at its set value when deciding what can be paid: 1t + 5t is 16, not 6."""
    state = load(hands=[["1t", "5t"], [], []], center=["ST-A", "RE-A", "OI-BC", "RR-CDE", "AU-E"])
    play(state, "take ST-A")
    assert state.owed == 8
    assert [a for a in legal(state) if a.startswith("take")] == ["take RE-A", "take AU-E"]
    play(state, "take RE-A", "place alone")
    assert state.owed == 16
    assert [a for a in legal(state) if a.startswith("take")] == []


def test_a_corporation_not_in_the_center_cannot_be_taken() -> None:
    """Only the face-up center corporations are for sale."""
    state = load(hands=[["20"], [], []], center=CENTER, holdings={1: [["SH-F"]]})
    assert "is not in the center" in refused(state, "take SH-F")
    assert "is not in the center" in refused(state, "take OI-BCDEF")


# ------------------------------------------------------------------ proxy fights
def _proxy_table(proxy_hand: list[str], **kwargs: Any) -> VentureState:
    """Seat 1 has a conglomerate RR-CD under RE-DEF and a lone AU-EF; seat 0 has ST-A."""
    return load(
        hands=[proxy_hand, ["10"], ["10"]],
        holdings={0: [["ST-DF"]], 1: [["RR-CD", "RE-DEF"], ["AU-EF"]], 2: [["SH-F"]]},
        center=["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"],
        draw=SAFE_DRAW,
        **kwargs,
    )


def test_proxy_only_on_an_opponents_top_or_lone_corporation() -> None:
    """'only the top uncovered Corporation from a Conglomerate or ... a Corporation which stands alone.'"""
    state = _proxy_table(["x1", "20", "20"])
    proxies = [a for a in legal(state) if a.startswith("proxy")]
    assert proxies == ["proxy x1 RE-DEF", "proxy x1 AU-EF", "proxy x1 SH-F"]
    refused(state, "proxy x1 RR-CD")  # covered by RE-DEF
    refused(state, "proxy x1 ST-DF")  # his own
    refused(state, "proxy x1/2 AU-EF")  # no such card in hand


def test_proxy_card_and_cost_follow_the_multiplier() -> None:
    """'1/2x ... one-half its value. With a 1x card ... full value ... 1 1/2x ... one and one-half'."""
    costs = {}
    for card in ["x1/2", "x1", "x3/2"]:
        state = _proxy_table([card, "20", "20"])
        play(state, f"proxy {card} RE-DEF")  # RE-DEF is worth 16
        costs[card] = state.owed
    assert costs == {"x1/2": 8, "x1": 16, "x3/2": 24}


def test_proxy_card_is_discarded_and_the_corporation_changes_hands() -> None:
    """'The Proxy Fight card along with the required Capital cards are placed on the discard pile.'"""
    state = _proxy_table(["x1", "20"])
    play(state, "proxy x1 AU-EF")
    assert names(state, "discard") == ["x1"]
    assert hand(state, 0) == ["20"]
    assert stacks(state, 1) == [["RR-CD", "RE-DEF"]]
    assert state.stack.top.kind == "place"  # AU-EF shares F with ST-DF: he is asked where it goes
    play(state, "place alone")
    assert stacks(state, 0) == [["ST-DF"], ["AU-EF"]]
    play(state, "end", "pay 20", "done")
    assert names(state, "discard") == ["x1", "20"]


def test_one_corporation_per_proxy_card_and_the_card_below_is_then_exposed() -> None:
    """'Only one Corporation can be taken over with each Proxy Fight card.'"""
    state = _proxy_table(["x1/2", "x1/2", "20", "20"])
    play(state, "proxy x1/2 RE-DEF")
    if state.stack.top.kind == "place":
        play(state, "place alone")
    assert [a for a in legal(state) if a.startswith("proxy")] == [
        "proxy x1/2 RR-CD",
        "proxy x1/2 AU-EF",
        "proxy x1/2 SH-F",
    ]
    play(state, "proxy x1/2 RR-CD")
    if state.stack.top.kind == "place":
        play(state, "place alone")
    assert [a for a in legal(state) if a.startswith("proxy")] == []
    assert stacks(state, 1) == [["AU-EF"]]
    assert state.owed == 8 + 6


def test_proxy_won_corporation_may_join_a_fitting_stack() -> None:
    """Ruling A-3 (default proxy_placement=stack): the won card may go on a stack it fits, or alone."""
    state = _proxy_table(["x1", "20"])
    play(state, "proxy x1 RE-DEF")
    # RE-DEF shares D and F with ST-DF and is another industry.
    assert legal(state) == ["place on ST-DF", "place alone"]
    play(state, "place on ST-DF")
    assert stacks(state, 0) == [["ST-DF", "RE-DEF"]]


def test_option_proxy_placement_alone_puts_the_won_corporation_by_itself() -> None:
    """Option proxy_placement=alone: a proxy-won corporation stands alone (a take-over may still stack)."""
    state = _proxy_table(["x1", "20", "20"], options={"proxy_placement": "alone"})
    play(state, "proxy x1 RE-DEF")
    assert state.stack.top.kind == "turn"
    assert stacks(state, 0) == [["ST-DF"], ["RE-DEF"]]
    play(state, "take RE-D")
    # RE-D fits ST-DF (D) but not RE-DEF (same industry): a take-over may still join a stack.
    assert legal(state) == ["place on ST-DF", "place alone"]


def test_proxy_cannot_exceed_what_the_hand_can_pay() -> None:
    """A proxy fight is a cost like any other: it must fit in what the hand can still pay."""
    state = _proxy_table(["x3/2", "20"])
    # RE-DEF at 1½× costs 24 > 20; AU-EF (12) costs 18 and SH-F (8) 12.
    assert [a for a in legal(state) if a.startswith("proxy")] == ["proxy x3/2 AU-EF", "proxy x3/2 SH-F"]


# ------------------------------------------------------------------ reorganisation
def _lawful(state: VentureState, seat: int) -> bool:
    """Returns whether every stack of the seat has distinct industries and a common letter."""
    for stack in state.holdings[seat]:
        corps = [state.corp(c) for c in stack]
        common = set.intersection(*(set(c.letters) for c in corps))
        if len({c.industry for c in corps}) != len(corps) or not common:
            return False
    return True


REORGANISABLE = {0: [["RR-CD", "RE-DEF"], ["AU-EF"]]}


def test_reorganisation_costs_one_million_per_corporation_held() -> None:
    """'1 million for each Corporation the player has at the time he reorganizes'."""
    state = load(hands=[["10"], [], []], holdings=REORGANISABLE, draw=SAFE_DRAW)
    play(state, "reorganise")
    assert state.owed == 3
    assert state.stack.top.kind == "reorganise"
    assert state.transacted is True


def test_reorganisation_offers_only_lawful_moves() -> None:
    """'providing all Corporations in each Conglomerate are from different industries and have ...'"""
    state = load(hands=[["10"], [], []], holdings=REORGANISABLE, draw=SAFE_DRAW)
    play(state, "reorganise")
    # RE-DEF fits on AU-EF (E, F); AU-EF cannot go on RE-DEF (D is common there); RR-CD fits nowhere.
    assert legal(state) == ["move RR-CD alone", "move RE-DEF alone", "move RE-DEF on AU-EF", "done"]
    refused(state, "move AU-EF on RE-DEF")
    refused(state, "take ST-A")
    play(state, "move RE-DEF on AU-EF", "done")
    assert stacks(state, 0) == [["RR-CD"], ["AU-EF", "RE-DEF"]]
    play(state, "end", "pay 10", "done")
    assert names(state, "discard") == ["10"]


def test_reorganisation_moves_keep_every_stack_lawful() -> None:
    """Whatever moves are made, in any order, each stack stays a lawful conglomerate."""
    import random

    holdings = {
        0: [["ST-ABCDE", "OI-BCDEF", "RR-CDE", "RE-DE"], ["ST-A", "OI-AE", "RR-ACDF", "AU-AC", "SH-AF"]]
    }
    state = load(hands=[["20"], [], []], holdings=holdings)
    play(state, "reorganise")
    rng = random.Random(7)
    made = 0
    while moves := [a for a in state.legal_actions() if str(a).startswith("move")]:
        state.apply(rng.choice(moves))
        made += 1
        assert _lawful(state, 0)
        assert "done" in legal(state)
    assert made == 18, "every move up to the cap of two per corporation held (ruling A-16)"
    assert sorted(c for s in stacks(state, 0) for c in s) == sorted(c for s in holdings[0] for c in s)


def test_reorganisation_done_only_when_every_stack_is_lawful() -> None:
    """A stack holding two corporations of one industry must be broken up before the reorganisation ends."""
    state = load(
        hands=[["10"], [], []],
        holdings={0: [["ST-A", "OI-AE", "ST-AB"]]},
        draw=SAFE_DRAW,
        turn_data={"must_reorganise": True},
    )
    play(state, "reorganise")
    assert "done" not in legal(state)
    assert "still holds two corporations of one industry" in refused(state, "done")
    play(state, "move OI-AE alone")
    assert "done" not in legal(state)
    play(state, "move ST-AB on OI-AE", "done")
    assert stacks(state, 0) == [["ST-A"], ["OI-AE", "ST-AB"]]


def test_reorganisation_needs_the_money_and_two_corporations() -> None:
    """Reorganising is a cost like any other: refused when the hand cannot pay 1 million per corporation."""
    poor = load(hands=[["1c", "1s"], [], []], holdings=REORGANISABLE)
    assert "reorganise" not in legal(poor)
    assert "(1 per corporation held)" in refused(poor, "reorganise")
    lone = load(hands=[["20"], [], []], holdings={0: [["AU-EF"]]})
    assert "reorganise" not in legal(lone)


def test_each_reorganisation_is_its_own_transaction() -> None:
    """Ruling A-5: each reorganisation is charged the corporations held at that moment."""
    center = ["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"]
    state = load(hands=[["20", "10"], [], []], holdings=REORGANISABLE, center=center, draw=SAFE_DRAW)
    play(state, "reorganise", "done")
    assert state.owed == 3
    play(state, "take ST-A")
    assert state.owed == 3 + 8
    play(state, "reorganise")
    assert state.owed == 3 + 8 + 4
    play(state, "done", "reorganise", "done")
    assert state.owed == 3 + 8 + 4 + 4


def test_transactions_in_any_order_within_one_turn() -> None:
    """'During each turn, a player can make as many of these transactions as he wishes and in any order.'"""
    state = _proxy_table(["x1/2", "20", "20", "10"])
    play(state, "proxy x1/2 AU-EF", "place alone", "reorganise", "done", "take ST-A")
    assert state.owed == 6 + 2 + 8
    play(state, "reorganise", "move AU-EF on ST-DF", "done")
    assert state.owed == 6 + 2 + 8 + 3
    play(state, "end", "pay 20", "done")
    assert state.current == 1
    assert stacks(state, 0) == [["ST-DF", "AU-EF"], ["ST-A"]]
