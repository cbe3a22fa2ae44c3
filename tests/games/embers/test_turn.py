"""Rules chapter 3: a turn (draw up, a skipped turn, play an ember or discard a douse card)."""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalActionError
from parlour.testing.kit import snapshot

from .scenario import deal, play, texts


def test_rule_3_1_a_turn_begins_by_drawing_up_to_five_cards() -> None:
    state = deal(["1", "2", "3", "4", "douse"], ["5", "6", "7", "8", "8"], draw=["6", "7"])
    play(state, "0: discard")
    assert state.hands[0] == ["1", "2", "3", "4"]  # it draws at the start of its turn, not the end
    play(state, "1: play 8", "0: pass")
    assert state.hands[0] == ["1", "2", "3", "4", "6"]
    assert state.hands[1] == ["5", "6", "7", "8"]


def test_rule_3_1_fewer_when_the_draw_pile_runs_out() -> None:
    state = deal(["1", "2", "3", "4", "douse"], ["5", "6", "7", "8", "8"], draw=["6"])
    state.draw, spare = state.draw[:1], state.draw[1:]
    state.discard.extend(spare)  # the pile holds only the 6
    play(state, "0: discard", "1: play 5", "0: pass")
    assert state.hands[0] == ["1", "2", "3", "4", "6"] and state.draw == []
    play(state, "0: play 1", "1: pass")
    assert state.hands[1] == ["6", "7", "8", "8"] and state.deciders() == (1,)


def test_rule_3_1_the_draw_is_secret_to_the_others() -> None:
    state = deal(["1", "2", "3", "4", "douse"], ["5", "6", "7", "8", "8"], draw=["6"])
    play(state, "0: discard", "1: play 5")
    events = play(state, "0: pass")
    drawn = [event for event in events if "draws" in event.text]
    assert [(e.text, e.seat, e.secret) for e in drawn] == [("seat 0 draws 1", 0, "drew 6")]
    assert drawn[0].for_seat(1) == "seat 0 draws 1"


def test_rule_3_2_a_player_without_a_card_is_skipped() -> None:
    douses = ["douse"] * 5
    state = deal(["1", "2", "3", "4", "5"], douses, ["6", "6", "6", "7", "7"])
    state.discard.extend(state.draw)
    state.draw = []
    play(state, "0: play 1", "1: douse", "2: pass", "0: pass", "1: discard")
    play(state, "2: play 6", "0: pass", "1: douse", "2: pass", "0: pass")
    play(state, "0: play 2", "1: douse", "2: pass", "0: pass", "1: discard")
    play(state, "2: play 6", "0: pass", "1: pass")
    assert state.hands[1] == []
    events = play(state, "0: play 3", "1: pass", "2: pass")
    assert "seat 1 holds no card: the turn is skipped" in texts(events)
    assert state.deciders() == (2,) and state.active == 2 and not state.is_over()


def test_rule_3_3_a_turn_offers_each_ember_number_once_rising_then_discard() -> None:
    state = deal(["7", "2", "douse", "2", "5"], ["1", "1", "1", "3", "3"])
    assert [str(a) for a in state.legal_actions(0)] == ["play 2", "play 5", "play 7", "discard"]
    assert [str(a) for a in deal(["7", "2", "2", "5", "5"], ["1"] * 3 + ["3"] * 2).legal_actions(0)] == [
        "play 2",
        "play 5",
        "play 7",
    ]


def test_rule_3_3_discarding_a_douse_card_ends_the_turn_without_answers() -> None:
    state = deal(["1", "2", "3", "4", "douse"], ["5", "6", "7", "8", "8"])
    play(state, "0: discard")
    assert state.discard == ["douse"] and state.deciders() == (1,)
    assert state.stack.kinds() == ["turn"]


def test_rule_3_3_playing_an_ember_opens_the_answers() -> None:
    state = deal(["1", "2", "3", "4", "douse"], ["5", "6", "7", "8", "8"], ["1", "2", "3", "4", "5"])
    events = play(state, "0: play 3")
    assert texts(events) == ["seat 0 plays 3"]
    assert state.play == "3" and state.stack.kinds() == ["turn", "answer"]


@pytest.mark.parametrize(
    ("seat", "text", "reason"),
    [
        (0, "play 8", "you hold no 8"),
        (0, "play 0", "you hold no 0"),
        (0, "douse", "it is your turn: play an ember or discard a douse card"),
        (1, "play 5", "seat 1 may not act now"),
    ],
)
def test_an_illegal_turn_action_is_refused_saying_why_and_changes_nothing(
    seat: int, text: str, reason: str
) -> None:
    state = deal(["1", "2", "3", "4", "5"], ["5", "6", "7", "8", "8"])
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_notation(text, seat)
    assert snapshot(state) == before
