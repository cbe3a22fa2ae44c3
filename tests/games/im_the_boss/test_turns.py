"""Setup and the turn (rulebook: 'Setup', 'Game Play'): marker, roll, draw, hand limit, reshuffle, options."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.core.chance import Forced
from parlour.core.errors import IllegalActionError
from parlour.games.im_the_boss import BossGameState
from parlour.testing.kit import snapshot

from ..typed import BOSS as GAME
from .scenario import CONTENT, check, hand, kinds, legal, load, marker, names, play

# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_player_is_dealt_five_cards(players: int) -> None:
    """'deal 5 cards face down to each player. The remainder of the deck is placed face down'."""
    for seed in range(5):
        state = GAME.new_state(players, seed)
        assert [len(h) for h in state.hands] == [5] * players
        assert len(state.draw) == len(CONTENT.cards) - 5 * players
        assert state.discard == [] and state.money == [0] * players
        check(state)


@pytest.mark.parametrize(("players", "per_seat", "spares"), [(3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)])
def test_placards_are_dealt_by_player_count(players: int, per_seat: int, spares: int) -> None:
    """Three players hold two placards each; with 4 or 5 the unused ones lie beside the board as spares."""
    for seed in range(5):
        state = GAME.new_state(players, seed)
        held = Counter(s for s in state.owners.values() if s is not None)
        assert held == Counter({s: per_seat for s in range(players)})
        assert len(state.spares()) == spares


def test_placards_are_dealt_at_random() -> None:
    """'Randomly distribute the 6 Investor placards': different seeds give different owners."""
    deals = {tuple(GAME.new_state(3, seed).owners.values()) for seed in range(12)}
    assert len(deals) > 3


def test_the_deal_cards_are_stacked_in_order() -> None:
    """'#1 on the top and #15 on the bottom'; the board starts uncovered and the marker unplaced."""
    state = GAME.new_state(4, 1)
    assert state.deal_cards == list(range(1, 16))
    assert state.covered == [None] * 16
    assert state.marker is None and state.turn == 0


def test_the_first_player_is_random_and_the_player_to_the_right_places_the_marker() -> None:
    """'Randomly determine who will take the first turn. The player to his right places the marker'."""
    firsts = set()
    for seed in range(30):
        state = GAME.new_state(4, seed)
        firsts.add(state.first)
        assert kinds(state) == ["marker"]
        assert state.deciders() == ((state.first - 1) % 4,)
    assert firsts == {0, 1, 2, 3}


def test_the_marker_goes_on_any_space_then_the_first_player_begins() -> None:
    """The marker may be placed on any of the 16 spaces; then the first player has turn 1."""
    state = GAME.new_state(3, 2)
    placer = state.deciders()[0]
    assert legal(state) == [f"marker {n}" for n in range(1, 17)]
    play(state, f"{placer}: marker 11")
    assert marker(state) + 1 == 11
    assert state.deciders() == (state.first,)
    assert state.turn == 1 and kinds(state) == ["turn"]


def test_only_the_player_to_the_right_may_place_the_marker() -> None:
    """Another seat placing the marker is refused and the state is unchanged."""
    state = GAME.new_state(3, 2)
    placer = state.deciders()[0]
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="may not act now"):
        state.apply_notation("marker 3", (placer + 1) % 3)
    assert snapshot(state) == before


# ------------------------------------------------------------------ the turn


def test_a_turn_offers_the_deal_here_or_a_roll() -> None:
    """'On your turn': try the deal where the marker stands, or roll the die."""
    state = load(current=1)
    assert legal(state, 1) == ["deal", "roll"]
    assert state.deciders() == (1,)


def test_others_may_not_act_on_a_players_turn() -> None:
    """'until you make this announcement, opponents can't ... play any Influence cards': others refused."""
    state = load(hands=[["boss"], ["travel:any"], []], current=1)
    before = snapshot(state)
    for seat, text in [(0, "roll"), (2, "deal"), (0, "boss")]:
        with pytest.raises(IllegalActionError):
            state.apply_notation(text, seat)
    assert snapshot(state) == before


def test_no_cards_are_played_on_ones_own_turn_outside_a_negotiation() -> None:
    """Ruling A-03: the active player plays no Influence card before choosing (not even a triple)."""
    state = load(hands=[["recruit"] * 3 + ["boss", "travel:any"], [], []])
    for line in ["recruit O", "boss", "travel O", "lay R"]:
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="may: deal, roll"):
            play(state, line)
        assert snapshot(state) == before


def test_the_roll_moves_the_marker_clockwise() -> None:
    """'Roll the die and move the marker clockwise the indicated number of spaces'."""
    state = load(marker=3, forced=[("die", 4)])
    play(state, "roll")
    assert marker(state) + 1 == 7
    assert kinds(state) == ["arrive"]


def test_the_roll_skips_covered_spaces() -> None:
    """'skipping over board spaces that are covered by deal cards': covered spaces are not counted."""
    state = load(marker=3, covered={4: 1, 5: 2, 7: 3}, forced=[("die", 3)])
    play(state, "roll")
    # Free spaces after 3: 6, 8, 9.
    assert marker(state) + 1 == 9


def test_the_roll_wraps_around_the_board() -> None:
    """The board is a ring: from space 15 a roll of 4 (space 16 covered) lands on space 4."""
    state = load(marker=15, covered={16: 1}, forced=[("die", 4)])
    play(state, "roll")
    assert marker(state) + 1 == 4


def test_after_the_roll_deal_or_draw() -> None:
    """'At this new space, you again have a choice': deal or draw, and no second roll."""
    state = load(forced=[("die", 2)])
    play(state, "roll")
    assert legal(state) == ["deal", "draw"]
    with pytest.raises(IllegalActionError, match="may: deal, draw"):
        play(state, "roll")


def test_drawing_takes_the_top_three_cards_and_ends_the_turn() -> None:
    """'Draw three cards from the deck'; 'the player to your left ... will take the next turn'."""
    state = load(
        hands=[["boss"], [], []], draw=["stop", "clan:R", "travel:any"], decision="arrive", current=2
    )
    play(state, "draw")
    assert hand(state, 2) == ["clan:R", "stop", "travel:any"]
    assert state.current == 0 and state.turn == 2 and kinds(state) == ["turn"]
    check(state)


def test_a_draw_to_exactly_twelve_is_allowed() -> None:
    """Twelve cards is within the limit: the turn passes at once."""
    state = load(hands=[["boss"] * 9, [], []], draw=["stop"] * 3, decision="arrive")
    play(state, "draw")
    assert len(state.hands[0]) == 12 and state.current == 1


def test_over_twelve_cards_the_player_discards_down_to_exactly_twelve() -> None:
    """'No player may hold more than 12': a draw to 14 makes the player discard two, then the turn passes."""
    state = load(
        hands=[["boss"] * 9 + ["stop"] * 2, [], []], draw=["stop", "clan:G", "travel:B"], decision="arrive"
    )
    play(state, "draw")
    assert kinds(state) == ["limit"] and state.deciders() == (0,)
    assert legal(state) == ["discard boss", "discard clan:G", "discard stop", "discard travel:B"]
    play(state, "discard travel:B")
    assert kinds(state) == ["limit"] and len(state.hands[0]) == 13
    # Ruling B-8: the discard pile is face up, hand-limit discards included.
    assert state.observation(2)["discard"] == ["travel:B"]
    play(state, "discard stop")
    assert len(state.hands[0]) == 12
    assert names(state, state.discard[-2:]) == ["travel:B", "stop"]
    assert state.current == 1 and kinds(state) == ["turn"]
    check(state)


def test_only_held_cards_may_be_discarded() -> None:
    """Discarding a card the player does not hold is refused, the state unchanged."""
    state = load(hands=[["boss"] * 9 + ["stop"] * 2, [], []], draw=["stop"] * 3, decision="arrive")
    play(state, "draw")
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        play(state, "discard clan:R")
    assert snapshot(state) == before


def test_over_twelve_a_recruitment_triple_takes_another_players_placard() -> None:
    """'discard down to 12 cards or play a Recruitment triple': with 3 players any other seat's placard."""
    state = load(hands=[["recruit"] * 3 + ["boss"] * 9, [], []], draw=["stop"] * 3, decision="arrive")
    play(state, "draw")
    assert [a for a in legal(state) if a.startswith("recruit")] == [
        "recruit O",
        "recruit G",
        "recruit B",
        "recruit Y",
    ]
    play(state, "recruit G")
    assert state.owners["G"] == 0 and state.placards(0) == "RMG"
    assert hand(state, 0).count("recruit") == 0 and len(state.hands[0]) == 12
    assert names(state, state.discard) == ["recruit"] * 3
    # No Stop window outside a negotiation (ruling A-02): the turn passes at once.
    assert kinds(state) == ["turn"] and state.current == 1
    check(state)


def test_the_hand_limit_triple_takes_a_spare_first() -> None:
    """With 4 or 5 players 'the extra Investor placards near the board must be recruited first'."""
    state = load(4, hands=[["recruit"] * 4 + ["boss"] * 8, [], [], []], draw=["stop"] * 3, decision="arrive")
    play(state, "draw")
    assert [a for a in legal(state) if a.startswith("recruit")] == ["recruit B", "recruit Y"]
    play(state, "recruit Y")
    assert state.owners["Y"] == 0 and state.spares() == "B"
    assert state.current == 1


def test_two_recruitment_cards_are_no_triple() -> None:
    """'These cards can be played only in sets of three': with two, only discards are offered."""
    state = load(hands=[["recruit"] * 2 + ["boss"] * 10, [], []], draw=["stop"] * 3, decision="arrive")
    play(state, "draw")
    assert all(a.startswith("discard") for a in legal(state))


def test_the_discard_pile_is_reshuffled_the_moment_the_deck_is_exhausted() -> None:
    """Ruling A-04 (a): drawing the last card reshuffles the discard pile into a new deck at once."""
    state = load(draw=["stop", "clan:Y"], spare="discard", decision="arrive")
    pile = len(state.discard)
    state.chance.forced.append(Forced("order", sorted(names(state, state.discard), reverse=True)))
    play(state, "draw")
    # Two from the old deck, the third from the top of the reshuffled pile.
    assert names(state, state.hands[0]) == ["stop", "clan:Y", "travel:any"]
    assert state.discard == [] and len(state.draw) == pile - 1
    check(state)


def test_a_deck_emptied_by_the_last_draw_is_rebuilt_before_anything_else_is_discarded() -> None:
    """Ruling A-04 (a): when a draw takes exactly the last card, the pile becomes the deck straight away."""
    state = load(draw=["stop", "clan:Y", "boss"], spare="discard", decision="arrive")
    pile = len(state.discard)
    play(state, "draw")
    assert names(state, state.hands[0]) == ["stop", "clan:Y", "boss"]
    assert len(state.draw) == pile and state.discard == []


def test_the_turn_passes_clockwise() -> None:
    """Turns go to the left: seats 0, 1, 2, 0 with three players."""
    state = load(forced=[("die", 1)] * 4)
    seen = []
    for _ in range(4):
        seen.append(state.current)
        play(state, "roll", "draw")
    assert seen == [0, 1, 2, 0] and state.turn == 5


# ------------------------------------------------------------------ options


def must_deal_game(cards: int, must_deal: str = "yes") -> BossGameState:
    """Seat 2 draws after its roll, then seat 0 starts its turn holding ``cards`` cards (option must_deal)."""
    state = load(
        options={"must_deal": must_deal},
        hands=[["stop"] * cards, [], []],
        current=2,
        decision="arrive",
        forced=[("die", 2)],
    )
    play(state, "draw")
    assert state.current == 0
    return state


def test_must_deal_with_ten_cards_forbids_drawing() -> None:
    """Variant must_deal: a player starting a turn with 10 or more cards must try a deal (no draw)."""
    state = must_deal_game(10)
    assert state.must_deal
    assert legal(state) == ["deal", "roll"]
    play(state, "roll")
    assert legal(state) == ["deal"]
    with pytest.raises(IllegalActionError):
        play(state, "draw")


def test_must_deal_leaves_smaller_hands_free_to_draw() -> None:
    """Variant must_deal: with 9 cards the player may still roll and draw."""
    state = must_deal_game(9)
    assert not state.must_deal
    play(state, "roll")
    assert legal(state) == ["deal", "draw"]


def test_without_must_deal_a_large_hand_may_draw() -> None:
    """The rulebook has no such duty: by default a player with 10 cards may draw."""
    state = must_deal_game(10, must_deal="no")
    assert not state.must_deal
    play(state, "roll")
    assert legal(state) == ["deal", "draw"]


def test_the_short_game_removes_deal_cards_3_6_and_9() -> None:
    """Variant: 'Short game: remove deal cards 3, 6 and 9'."""
    state = GAME.new_state(3, 0, {"length": "short"})
    assert state.deal_cards == [1, 2, 4, 5, 7, 8, 10, 11, 12, 13, 14, 15]
    assert GAME.new_state(3, 0).deal_cards == list(range(1, 16))


def test_the_turn_limit_ends_the_game() -> None:
    """Ruling B-3: after max_turns turns the game ends and money decides."""
    state = load(options={"max_turns": 2}, forced=[("die", 1), ("die", 1)], money=[0, 3, 1])
    play(state, "roll", "draw")
    assert state.turn == 2 and not state.is_over()
    play(state, "roll", "draw")
    assert state.is_over() and state.deciders() == ()
    assert state.winners() == [1]


def test_an_impossible_forced_die_is_refused_and_undone() -> None:
    """A forced die result off the die (7) is refused when the roll uses it; the state is as before."""
    state = load(marker=3, forced=[("die", 7)])
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"outside 1\.\.6"):
        play(state, "roll")
    assert snapshot(state) == before and marker(state) + 1 == 3


def test_ties_for_the_most_money_share_the_win() -> None:
    """Ruling A-18: 'the player with the largest amount wins', and equal largest amounts share the win."""
    state = load(options={"max_turns": 1}, forced=[("die", 1)], money=[5, 2, 5])
    play(state, "roll", "draw")
    assert state.is_over() and state.winners() == [0, 2] and state.ranking() == [1, 3, 1]
