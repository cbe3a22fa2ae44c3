"""Every worked example of the Venture rulebook, played through the engine.

Each test is named by the rulebook section; its docstring quotes the example's
setup.  Where the house deck lacks a card the example names, the test uses
cards with the same letter relations and says so.
"""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalActionError
from parlour.games.venture import VentureState
from parlour.games.venture.content import Resource, load_deck
from parlour.games.venture.payment import payment_value

from .scenario import hand, legal, load, names, play, stacks

DECK = load_deck()
SETS = DECK.set_values
NOT_PROFIT = ["10", "10", "12", "12", "14", "14"]


def cards(*names_: str) -> list[Resource]:
    """Returns resources cards of the house deck by name."""
    by_name = {c.name: c for c in DECK.resources}
    return [by_name[n] for n in names_]


# ------------------------------------------------------------------ The Cards: Capital cards
def test_capital_cards_set_example_one_and_five_triangle_make_16() -> None:
    """'A player has a 1 million and a 5 million card with a triangle ... worth 16 million.'"""
    assert payment_value(cards("1t", "5t"), SETS) == 16
    state = load(hands=[["1t", "5t"], [], []], center=["ST-ABC", "OI-BCEF", "RR-C", "RE-D", "AU-E"])
    # ST-ABC is worth 16 (three letters): the set pays for it; OI-BCEF (20) is too dear.
    assert "take ST-ABC" in legal(state)
    assert "take OI-BCEF" not in legal(state)
    play(state, "take ST-ABC", "end", "pay 1t")
    assert "done" not in legal(state)  # 1 million alone does not cover 16
    play(state, "pay 5t", "done")
    assert names(state, "discard") == ["1t", "5t"]
    assert stacks(state, 0) == [["ST-ABC"]]


def test_capital_cards_set_example_two_three_circles_are_worth_6() -> None:
    """'He also holds two 3 million cards with a circle ... worth only 6 million.'"""
    assert payment_value(cards("3c", "3c"), SETS) == 6
    state = load(hands=[["3c", "3c"], [], []], center=["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"])
    # The cheapest corporation costs 8: six million pays for nothing, so only discards are legal.
    assert legal(state) == ["discard 3c"]


@pytest.mark.parametrize(
    ("hand_", "value"),
    [
        (["1s", "8s"], 16),
        (["3s", "5s"], 16),
        (["1c", "3c", "8c"], 32),
        (["1t", "3t", "5t", "8t"], 64),
        (["1t", "3t", "5t", "8t", "1c", "5c"], 80),
        (["1s", "1s", "3s"], 17),  # one set of two plus a lone 1: 16 + 1
        (["1t", "1c", "1s"], 3),  # one card of each symbol is no set
    ],
)
def test_capital_cards_set_values_16_32_64(hand_: list[str], value: int) -> None:
    """'A two-card set is worth 16 million ... three-card set 32 million and a four-card set 64 million.'"""
    assert payment_value(cards(*hand_), SETS) == value


def test_capital_cards_four_card_set_pays_64_in_the_engine() -> None:
    """'A four-card set (one of each of 1, 3, 5 and 8 million ... identical symbols) is worth 64 million.'"""
    state = load(
        hands=[["1c", "3c", "5c", "8c"], [], []],
        center=["ST-ABCDE", "OI-BCDEF", "RR-ACDEF", "RE-A", "AU-E"],
    )
    play(state, "take ST-ABCDE", "take OI-BCDEF")
    # OI-BCDEF fits on ST-ABCDE (letters BCDE in common): the place decision comes first.
    assert legal(state) == ["place on ST-ABCDE", "place alone"]
    play(state, "place alone")
    assert state.owed == 48
    # 48 + 20 would exceed the 64 of the set; 48 + 8 would not.
    assert "take RR-ACDEF" not in legal(state)
    assert "take RE-A" in legal(state)
    play(state, "end", "pay 1c", "pay 3c", "pay 5c")
    assert "done" not in legal(state)  # a three-card set: 32 < 48
    play(state, "pay 8c", "done")
    assert names(state, "discard") == ["1c", "3c", "5c", "8c"]
    assert state.current == 1


# ------------------------------------------------------------------ 1) Forming Conglomerates
def test_forming_conglomerates_example_railroads_cd_automobiles_def_oil_ef() -> None:
    """'took over ... Railroads ... CD ... takes over Automobiles ... DEF ... Oil ... EF ... by itself.'

    The house deck has no Automobiles DEF and no Oil EF; the test uses Real Estate
    DEF (RE-DEF) and Automobiles EF (AU-EF): the same letters, other industries,
    so RE-DEF shares D with RR-CD and AU-EF lacks the D common to both.
    """
    state = load(
        hands=[["12", "16", "12"], ["x1"], ["x1"]],
        center=["RR-CD", "RE-DEF", "AU-EF", "ST-A", "OI-B"],
        draw=NOT_PROFIT,
    )
    # First turn: Railroads CD, on its own.
    play(state, "take RR-CD", "end", "pay 12", "done")
    assert stacks(state, 0) == [["RR-CD"]]
    play(state, "discard x1", "discard x1")  # the two opponents pass
    assert state.current == 0
    # Second turn: RE-DEF shares D with RR-CD and is another industry: it may go on top.
    play(state, "take RE-DEF")
    assert legal(state) == ["place on RR-CD", "place alone"]
    play(state, "place on RR-CD")
    # AU-EF has no D: it cannot join, so it is placed by itself without being asked.
    play(state, "take AU-EF")
    assert state.stack.top.kind == "turn"
    assert stacks(state, 0) == [["RR-CD", "RE-DEF"], ["AU-EF"]]
    assert state.owed == 16 + 12


# ------------------------------------------------------------------ 2) Proxy Fights
def _proxy_state(proxy_hand: list[str]) -> VentureState:
    """Seat 1 owns the 24-million ST-ABCDE alone; seat 0 holds ``proxy_hand``."""
    return load(hands=[proxy_hand, ["10"], ["10"]], holdings={1: [["ST-ABCDE"]]}, draw=NOT_PROFIT)


def test_proxy_fights_example_half_pays_12_for_24() -> None:
    """'with the 1/2x Proxy Fight card ... a 24 million Corporation ... at least 12 million'."""
    assert "proxy x1/2 ST-ABCDE" not in legal(_proxy_state(["x1/2", "10"]))
    state = _proxy_state(["x1/2", "12"])
    assert "proxy x1/2 ST-ABCDE" in legal(state)
    play(state, "proxy x1/2 ST-ABCDE")
    assert state.owed == 12
    assert names(state, "discard") == ["x1/2"]
    assert stacks(state, 0) == [["ST-ABCDE"]] and stacks(state, 1) == []
    play(state, "end", "pay 12", "done")
    assert names(state, "discard") == ["x1/2", "12"]


def test_proxy_fights_example_one_and_a_half_pays_36_for_24() -> None:
    """'(If he had played 1 1/2x card, the cost of the Corporation would be 36 million.)'"""
    assert "proxy x3/2 ST-ABCDE" not in legal(_proxy_state(["x3/2", "20", "14"]))
    state = _proxy_state(["x3/2", "20", "16"])
    play(state, "proxy x3/2 ST-ABCDE")
    assert state.owed == 36
    assert stacks(state, 0) == [["ST-ABCDE"]]


# ------------------------------------------------------------------ 3) Reorganization
THIRTEEN = [
    ["ST-A"], ["OI-AE"], ["RR-C"], ["RE-D"], ["AU-E"], ["SH-F"], ["ST-D"],
    ["OI-B"], ["RR-F"], ["RE-A"], ["AU-B"], ["SH-C"], ["ST-AB"],
]  # fmt: skip


def test_reorganization_example_13_corporations_cost_13() -> None:
    """'Thus a player with 13 Corporations pays 13 million to move only one card.'"""
    short = load(hands=[["10", "1c", "1s"], [], []], holdings={0: THIRTEEN})
    assert "reorganise" not in legal(short)  # 12 million cannot pay 13
    with pytest.raises(IllegalActionError):
        play(short, "reorganise")
    state = load(hands=[["10", "3c"], [], []], holdings={0: THIRTEEN}, draw=NOT_PROFIT)
    play(state, "reorganise")
    assert state.owed == 13
    play(state, "move OI-AE on ST-A", "done", "end", "pay 10")
    assert "done" not in legal(state)
    play(state, "pay 3c", "done")
    assert stacks(state, 0)[0] == ["ST-A", "OI-AE"]
    assert len(stacks(state, 0)) == 12
    assert names(state, "discard") == ["10", "3c"]


# ------------------------------------------------------------------ The Scoring of Profits
DE_FOUR = ["ST-ABDE", "OI-BCDEF", "RR-CDE", "RE-DE"]  # D and E common to all four
A_FIVE = ["ST-A", "OI-AE", "RR-ACDF", "AU-AC", "SH-AF"]  # only A common to all five


def test_scoring_of_profits_example_14_million() -> None:
    """'four Corporations ... D and E common ... 6 million ... five ... one letter ... 8 ... 14 million.'"""
    state = load(
        hands=[["x1"], ["x1"], ["x1"]],
        holdings={0: [DE_FOUR, A_FIVE]},
        draw=["profit", "10", "12"],
        profits=[5, 0, 0],
    )
    play(state, "discard x1")
    assert state.profits == [5 + 14, 0, 0]
    assert state.profit_rounds == 1
    assert hand(state, 0) == ["10", "12"]
    assert names(state, "discard") == ["x1", "profit"]


def test_scoring_of_profits_two_profit_cards_in_succession_score_twice() -> None:
    """'(If two Profit cards are drawn in succession, profits are entered to each player's score twice.)'"""
    state = load(
        hands=[["x1"], ["x1"], ["x1"]],
        holdings={0: [DE_FOUR, A_FIVE], 2: [["ST-ABC", "OI-BCD", "RR-CD"]]},
        draw=["profit", "profit", "10", "12"],
    )
    play(state, "discard x1")
    assert state.profits == [28, 0, 2]
    assert state.profit_rounds == 2
    assert hand(state, 0) == ["10", "12"]
    assert names(state, "discard") == ["x1", "profit", "profit"]
