"""Drawing and the center (rulebook: 'The Play', 'The Scoring of Profits'; rulings A-10, A-11)."""

from __future__ import annotations

import pytest

from parlour.games.venture.content import Corporation, load_deck
from parlour.games.venture.scoring import stack_profit

from .scenario import hand, load, names, play, stacks

DECK = load_deck()


def corp_named(name: str) -> Corporation:
    """Returns the deck's corporation written ``name`` (the tests name only real ones)."""
    corp = DECK.corporation(name)
    assert corp is not None, name
    return corp


def test_two_cards_are_drawn_at_the_end_of_a_turn() -> None:
    """'At the end of each turn, even if a player chooses to skip a round ... and discard, he draws two.'"""
    state = load(
        hands=[["x1", "20"], [], []], draw=["12", "3s", "16"], discard=["profit", "profit"], spare_resources=2
    )
    play(state, "discard x1")
    assert hand(state, 0) == ["12", "20", "3s"]
    assert names(state, "draw") == ["16"]
    assert names(state, "discard") == ["profit", "profit", "x1"]
    assert state.current == 1


def test_two_cards_are_drawn_after_transactions_too() -> None:
    """The draw of two ends every turn, after the payment."""
    state = load(
        hands=[["10"], [], []], center=["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"], draw=["12", "14", "16"]
    )
    play(state, "take ST-A", "end", "pay 10", "done")
    assert hand(state, 0) == ["12", "14"]
    assert names(state, "draw")[0] == "16"


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    """'When the deck is depleted, the discard pile is shuffled and turned face down for a new deck.'"""
    state = load(
        hands=[["20"], [], []],
        draw=["10"],
        discard=["12", "14", "16", "profit", "profit"],
        spare_resources=2,
        forced=[("order", ["16", "20", "12", "14", "profit", "profit"])],
    )
    play(state, "discard 20")  # the discard pile is now 12 14 16 profit profit 20
    assert hand(state, 0) == ["10", "16"]
    assert names(state, "draw") == ["20", "12", "14", "profit", "profit"]
    assert names(state, "discard") == []


def test_a_profit_card_is_exposed_replaced_scored_then_discarded() -> None:
    """'it is exposed at once and the player draws another card ... placed on the discard pile.'"""
    state = load(
        hands=[["x1"], [], []],
        holdings={1: [["ST-ABC", "OI-BCD", "RR-CD"]]},
        draw=["12", "profit", "14", "16"],
    )
    play(state, "discard x1")
    assert hand(state, 0) == ["12", "14"]
    assert state.profits == [0, 1, 0]  # every player scores, not only the one who drew it
    assert names(state, "discard") == ["x1", "profit"]
    assert names(state, "draw")[0] == "16"


def test_the_exposed_profit_card_is_not_reshuffled_for_its_own_replacement() -> None:
    """Ruling A-10: while its replacement is drawn, the exposed Profit card is not in the discard pile."""
    state = load(
        hands=[["20"], [], []],
        draw=["profit"],
        discard=["12", "profit"],
        spare_resources=2,
        # Refused if the exposed Profit card were in the pile (it would need a second "profit").
        forced=[("order", ["20", "12", "profit"])],
    )
    play(state, "discard 20")
    assert hand(state, 0) == ["12", "20"]
    assert names(state, "draw") == ["profit"]
    assert names(state, "discard") == ["profit"]
    assert state.profit_rounds == 1


def test_draw_what_exists_when_deck_and_discard_run_dry() -> None:
    """Ruling A-11: with one card and the Profit cards left, the player draws the one and play goes on."""
    state = load(hands=[[], [], []], draw=["10"], discard=["profit", "profit"], spare_resources=2)
    play(state, "end")  # an empty hand, no transaction: the turn ends without a discard
    assert hand(state, 0) == ["10"]
    assert state.profit_rounds == 2
    assert names(state, "draw") == [] and names(state, "discard") == ["profit", "profit"]
    assert state.current == 1
    assert state.invariant_errors() == []


def test_the_center_is_refilled_from_the_stock() -> None:
    """'The player also replaces any Corporations taken from the center ... with cards from the stock.'"""
    state = load(
        hands=[["20"], [], []],
        center=["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"],
        stock=["SH-F", "ST-D", "OI-E"],
        draw=["10", "10"],
    )
    stock_size = len(names(state, "stock"))
    play(state, "take ST-A", "take RE-D", "end")
    assert names(state, "center") == ["OI-B", "RR-C", "AU-E"]  # not refilled before the turn ends
    play(state, "pay 20", "done")
    assert names(state, "center") == ["OI-B", "RR-C", "AU-E", "SH-F", "ST-D"]
    assert names(state, "stock")[0] == "OI-E"
    assert len(names(state, "stock")) == stock_size - 2


def test_the_center_shrinks_when_the_stock_cannot_refill_it() -> None:
    """With one card left in the stock, two take-overs leave four center corporations."""
    state = load(
        hands=[["20"], [], []],
        center=["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"],
        stock=["SH-F"],
        spare_corps=2,
        draw=["10", "10"],
    )
    play(state, "take ST-A", "take RE-D", "end", "pay 20", "done")
    assert names(state, "center") == ["OI-B", "RR-C", "AU-E", "SH-F"]
    assert names(state, "stock") == []
    assert not state.is_over()


@pytest.mark.parametrize(
    ("stack", "profit"),
    [
        (["ST-A"], 0),
        (["ST-A", "RE-A"], 0),
        (["ST-A", "RE-A", "OI-AE"], 1),
        (["ST-A", "RE-A", "OI-AE", "AU-AC"], 3),
        (["ST-A", "RE-A", "OI-AE", "AU-AC", "SH-AF"], 8),
        (["ST-A", "RE-A", "OI-AE", "AU-AC", "SH-AF", "RR-ACDF"], 20),
        (["RR-AE", "OI-AE", "AU-AEF"], 2),  # A and E common: doubled
        (["RR-ACDEF", "SH-ACDF", "RE-ABDEF"], 3),  # A, D and F common: tripled
        (["ST-ABDE", "OI-BCDEF", "RR-CDE", "RE-DE"], 6),  # the rulebook's D and E
    ],
)
def test_profit_table_by_size_times_common_letters(stack: list[str], profit: int) -> None:
    """'3 Corporations 1 million, 4 ... 3, 5 ... 8, 6 ... 20'; 'two letters ... double; three ... triple'."""
    assert stack_profit([corp_named(n) for n in stack]) == profit


def test_profit_scoring_counts_every_stack_of_every_player() -> None:
    """'all players calculate their profits': each stack of each seat is scored and added."""
    state = load(
        hands=[["x1"], [], []],
        holdings={
            0: [["ST-A", "RE-A", "OI-AE"], ["RR-AE", "AU-AEF", "SH-ACE"]],
            2: [["ST-ABDE", "OI-BCDEF", "RR-CDE", "RE-DE"]],
        },
        draw=["profit", "10", "12"],
        profits=[3, 4, 5],
    )
    play(state, "discard x1")
    assert state.profits == [3 + 1 + 2, 4, 5 + 6]
    assert stacks(state, 0) == [["ST-A", "RE-A", "OI-AE"], ["RR-AE", "AU-AEF", "SH-ACE"]]


def test_profit_cards_exposed_in_a_draw_are_not_drawn_again_in_it() -> None:
    """Rulings A-10/A-11: with only Profit cards left, each scores once and the draw gets what exists."""
    state = load(hands=[[], ["x1"], []], draw=["profit"], discard=["profit"], spare_resources=2)
    play(state, "end")
    assert hand(state, 0) == []
    assert state.profit_rounds == 2
    assert names(state, "discard") == ["profit", "profit"]
    assert names(state, "draw") == []
