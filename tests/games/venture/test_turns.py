"""Turns, the deal and 'a word of caution' (rulebook: 'The Setup and the Deal', 'The Play'; A-6, 13-15)."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.core.chance import Chance
from parlour.core.errors import IllegalActionError
from parlour.games.venture.content import PROFIT, load_deck

from ..typed import VENTURE as GAME
from .scenario import hand, legal, load, names, play, stacks

DECK = load_deck()
SAFE_DRAW = ["10", "10", "12", "12", "14", "14"]


# ------------------------------------------------------------------ the turn
def test_a_turn_without_transactions_must_discard() -> None:
    """'If none are possible or desirable, he discards one card from his hand instead': end is refused."""
    state = load(
        hands=[["20", "x1"], [], []], center=["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"], draw=SAFE_DRAW
    )
    assert "end" not in legal(state)
    with pytest.raises(IllegalActionError, match="a turn without transactions ends by discarding a card"):
        play(state, "end")
    assert [a for a in legal(state) if a.startswith("discard")] == ["discard 20", "discard x1"]
    play(state, "discard x1")
    assert names(state, "discard") == ["x1"]
    assert hand(state, 0) == ["10", "10", "20"]
    assert state.current == 1 and state.turn == 2


def test_after_a_transaction_the_turn_ends_and_discarding_is_refused() -> None:
    """A player who has transacted ends his turn with 'end'; the discard is only for a turn without them."""
    state = load(
        hands=[["20", "x1"], [], []], center=["ST-A", "OI-B", "RR-C", "RE-D", "AU-E"], draw=SAFE_DRAW
    )
    play(state, "take ST-A")
    assert "end" in legal(state)
    assert not [a for a in legal(state) if a.startswith("discard")]
    with pytest.raises(IllegalActionError, match="end it instead of discarding"):
        play(state, "discard x1")


def test_play_moves_clockwise() -> None:
    """'The player to the left of the dealer has first turn; play moves clockwise.'"""
    state = load(4, hands=[["x1"], ["x1"], ["x1"], ["x1/2"]], current=2, draw=SAFE_DRAW)
    seats = []
    for card in ["x1", "x1/2", "x1", "x1"]:
        seats.append(state.current)
        play(state, f"discard {card}")
    assert seats == [2, 3, 0, 1]
    assert state.current == 2 and state.turn == 5


def test_only_the_current_player_may_act() -> None:
    """Other seats are refused while it is not their turn."""
    state = load(hands=[["x1"], ["x1"], ["x1"]])
    with pytest.raises(IllegalActionError, match="seat 1 may not act now"):
        state.apply(state.parse_action("discard x1"), 1)


@pytest.mark.parametrize("seat", ["0", True, 1.0, -1, 3])
def test_odd_seats_are_refused(seat: Any) -> None:
    state = GAME.new_state(3, 1)
    action = state.legal_actions()[0]
    with pytest.raises(IllegalActionError, match="no seat"):
        state.apply(action, seat)


# ------------------------------------------------------------------ the setup and the deal
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_opening_deal(players: int) -> None:
    """'five cards are placed, face up, in the center'; 'seven cards are dealt ... to each player'."""
    for seed in range(15):
        state = GAME.new_state(players, seed)
        assert [len(h) for h in state.hands] == [7] * players
        assert all(state.card(r).kind != PROFIT for h in state.hands for r in h)
        assert names(state, "draw").count("profit") == 2
        assert len(state.draw) == len(DECK.resources) - 7 * players
        assert len(state.center) == 5
        aside = 14 if players == 2 else 0
        assert len(state.aside) == aside
        assert len(state.stock) == len(DECK.corporations) - 5 - aside
        assert state.profits == [0] * players and state.turn == 1
        assert state.invariant_errors() == []


def test_two_players_set_14_corporations_aside_for_the_whole_game() -> None:
    """'If only two people play, 14 Corporations are ... set aside, not to be used during the game.'"""
    import random

    state = GAME.new_state(2, 11)
    aside = names(state, "aside")
    assert len(aside) == 14
    rng = random.Random(11)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        assert names(state, "aside") == aside
    held = {c for seat in range(2) for s in stacks(state, seat) for c in s}
    assert held.isdisjoint(aside)


def _seeds_with_profit_dealt(players: int) -> list[int]:
    """Returns seeds whose shuffled resources put a Profit card among the first 7 x players cards."""
    found = []
    for seed in range(300):
        chance = Chance(seed)
        chance.shuffle(range(len(DECK.corporations)))
        order = chance.shuffle(range(len(DECK.resources)))
        if any(DECK.resources[r].kind == PROFIT for r in order[: 7 * players]):
            found.append(seed)
    return found


def test_a_profit_card_in_the_opening_deal_is_replaced_and_reshuffled() -> None:
    """'if any player has a Profit card, he is dealt another card and the Profit card is reshuffled'."""
    seeds = _seeds_with_profit_dealt(4)
    assert len(seeds) >= 10
    for seed in seeds[:10]:
        state = GAME.new_state(4, seed)
        assert [len(h) for h in state.hands] == [7, 7, 7, 7]
        assert all(state.card(r).kind != PROFIT for h in state.hands for r in h)
        assert names(state, "draw").count("profit") == 2
        assert state.profits == [0, 0, 0, 0] and state.profit_rounds == 0


def test_the_dealer_is_chosen_at_random() -> None:
    """Ruling A-13: a random dealer, so every seat opens some games."""
    first = {GAME.new_state(4, seed).current for seed in range(60)}
    assert first == {0, 1, 2, 3}


def test_opposite_seeds_deal_different_games() -> None:
    """Seeds s and -s are different games (the generator is seeded from a sign-safe string)."""
    a, b = GAME.new_state(4, 5), GAME.new_state(4, -5)
    assert a.to_position()["stock"] != b.to_position()["stock"]


# ------------------------------------------------------------------ a word of caution
# Seat 1 owns a stack with two Steel corporations: ST-AB (upper) offends; A is common to all.
OFFENDING = {1: [["ST-A", "OI-AE", "ST-AB"], ["RE-D"]]}


def test_word_of_caution_must_reorganise_before_anything_else() -> None:
    """'two Corporations from one industry in the same Conglomerate, he must reorganize' first."""
    state = load(hands=[["x1"], ["10", "x1"], []], holdings=OFFENDING, draw=SAFE_DRAW)
    play(state, "discard x1")  # seat 0 ends; seat 1's turn begins and the stack is discovered
    assert state.current == 1
    assert legal(state) == ["reorganise"]
    with pytest.raises(IllegalActionError):
        play(state, "discard x1")
    play(state, "reorganise")
    assert state.owed == 4
    assert "done" not in legal(state)
    play(state, "move ST-AB alone", "done")
    assert stacks(state, 1) == [["ST-A", "OI-AE"], ["RE-D"], ["ST-AB"]]
    assert "discard x1" not in legal(state)  # the reorganisation was a transaction
    play(state, "end", "pay 10", "done")
    assert state.current == 2


def test_word_of_caution_refusal_says_to_reorganise_first() -> None:
    """A discard or end refused because the player must reorganise says so."""
    state = load(hands=[["x1"], ["10", "x1"], []], holdings=OFFENDING, draw=SAFE_DRAW)
    play(state, "discard x1")
    for text in ["discard x1", "end"]:
        with pytest.raises(IllegalActionError, match="reorganise first"):
            play(state, text)


def test_word_of_caution_unaffordable_discards_all_capital_and_separates() -> None:
    """'he must discard all his Capital cards and place the offending Corporation by itself.'"""
    state = load(hands=[["x1"], ["1c", "1s", "x1/2"], []], holdings=OFFENDING, draw=SAFE_DRAW)
    play(state, "discard x1")
    # Seat 1 owes 4 for a reorganisation but holds 2: capital discarded, proxies kept (A-6c),
    # the upper Steel card stands alone (A-6b), the turn ends with the usual draw (A-6d).
    assert stacks(state, 1) == [["ST-A", "OI-AE"], ["RE-D"], ["ST-AB"]]
    assert names(state, "discard") == ["x1", "1c", "1s"]
    assert hand(state, 1) == ["12", "12", "x1/2"]
    assert state.current == 2
    assert state.turn == 3


def test_word_of_caution_stack_scores_as_if_the_offending_card_stood_alone() -> None:
    """Ruling A-6(e): before the correction, a Profit card scores the stack without its offending card."""
    state = load(
        hands=[["x1"], ["10"], []],
        holdings={1: [["ST-A", "OI-AE", "RR-AE", "ST-AB"]]},
        draw=["profit", "10", "12"],
    )
    play(state, "discard x1")
    # Without ST-AB: three corporations with A in common, 1 million (not 3 for four).
    assert state.profits == [0, 1, 0]


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    """Ruling A-14: Venture seats 2 to 6 players; other counts are refused."""
    from parlour.core.errors import OptionError

    with pytest.raises(OptionError, match=f"Venture takes 2 to 6 players, not {players}"):
        GAME.new_state(players, 1)


def test_default_options_follow_the_rulings() -> None:
    """A-1 pay once per turn, A-3 proxy-won cards may stack, A-7 no last draw, A-12 a 400-turn limit,
    A-19 the first of tied best arrangements."""
    assert GAME.options() == {
        "payment": "turn",
        "proxy_placement": "stack",
        "last_draw": "no",
        "max_turns": 400,
        "best_ties": "first",
        "deck": GAME.available_content("deck")[0].reference(),
    }
    assert GAME.content_set("deck", GAME.options()).name == "house"


def test_paying_on_the_turn_itself_says_to_end_the_transactions_first() -> None:
    """A 'pay' line before 'end' is refused with what to do instead (a step of another decision)."""
    state = load(hands=[["20"], [], []])
    assert state.why_illegal(state.parse_action("pay 20"), 0) == (
        "nothing is being paid now: end the transactions first, then pay"
    )
