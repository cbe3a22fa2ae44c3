"""Rules chapter 6: the end and the scores."""

from __future__ import annotations

from typing import cast

from parlour.core.state import ScoreStep
from parlour.games.embers import EmbersGameState
from parlour.testing.kit import playout

from ..typed import EMBERS as GAME
from .scenario import deal, play, texts


def last_cards() -> EmbersGameState:
    """Seat 0 holds a 7 and seat 1 nothing; the draw pile is empty; the fire holds 8."""
    state = deal(["7", "1", "2", "3", "4"], ["8", "5", "6", "douse", "douse"])
    for seat, keep in ((0, ["7"]), (1, [])):
        state.discard.extend(c for c in state.hands[seat] if c not in keep)
        state.hands[seat] = keep
    state.discard.extend(state.draw)
    state.draw = []
    state.discard.remove("8")
    state.fire = ["8"]
    return state


def test_rule_6_1_the_game_ends_when_no_player_holds_a_card() -> None:
    state = last_cards()
    events = play(state, "0: play 7", "1: pass")
    assert texts(events)[-1] == "every card has been played: the game ends"
    assert state.is_over() and state.deciders() == () and state.stack.kinds() == []
    assert state.end_reason() == "Every card has been played (rule 6.1)."


def test_rule_6_1_embers_left_in_the_fire_score_nothing() -> None:
    state = last_cards()
    state.fire = []
    state.discard.append("8")
    play(state, "0: play 7", "1: pass")
    assert state.is_over() and state.fire == ["7"] and state.scores() == [0.0, 0.0]


def test_rule_6_2_a_point_a_card_in_the_score_pile_and_ties_share_the_win() -> None:
    state = last_cards()
    play(state, "0: play 7", "1: pass")
    assert state.scores() == [2.0, 0.0] and state.winners() == [0]
    assert state.score_steps() == [
        ScoreStep(0, "cards in the score pile", 2),
        ScoreStep(1, "cards in the score pile", 0),
    ]
    state.taken = [["1"], ["2"]]
    assert state.winners() == [0, 1] and state.ranking() == [1, 1]


def test_every_game_ends_with_every_card_scored_or_in_the_fire_or_discarded() -> None:
    for seed in range(20):
        state = cast(EmbersGameState, playout(GAME, 2 + seed % 4, seed))
        taken = sum(len(pile) for pile in state.taken)
        assert taken + len(state.fire) + len(state.discard) == 30
        assert sum(state.scores()) == taken and state.invariant_errors() == []
