"""Rules chapters 1 and 2: the components and the setup."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.core.errors import ContentError, OptionError
from parlour.games.embers.content import content_of, house_content

from ..typed import EMBERS as GAME
from .scenario import deal


def test_rule_1_1_thirty_cards_three_embers_of_each_number_and_six_douse_cards() -> None:
    deck = Counter(house_content().deck)
    assert deck == {**{str(n): 3 for n in range(1, 9)}, "douse": 6}


def test_a_content_file_the_rules_cannot_play_with_is_refused() -> None:
    good = {"cards": [{"name": "1", "ember": 1, "copies": 3}, {"name": "douse", "ember": None, "copies": 1}]}
    content_of({**good, "hand": 5, "blaze": 15})
    with pytest.raises(ContentError, match=r"cards\.json\.hand: missing"):
        content_of(good)
    with pytest.raises(ContentError, match="embers named by their numbers"):
        content_of({"cards": [{"name": "one", "ember": 1, "copies": 3}], "hand": 5, "blaze": 15})


def test_rule_2_1_each_player_is_dealt_five_cards_the_rest_is_the_draw_pile() -> None:
    state = GAME.new_state(4, 11)
    assert [len(hand) for hand in state.hands] == [5, 5, 5, 5]
    assert len(state.draw) == 10
    assert state.invariant_errors() == []


def test_rule_2_1_the_shuffle_is_the_states_seeded_chance() -> None:
    assert GAME.new_state(3, 5).to_position() == GAME.new_state(3, 5).to_position()
    assert GAME.new_state(3, 5).hands != GAME.new_state(3, 6).hands
    state = deal(["1", "2", "3", "4", "5"], ["douse", "douse", "8", "8", "8"], draw=["7"])
    assert state.hands[1] == ["8", "8", "8", "douse", "douse"]  # embers rising, then douse cards
    assert state.draw[0] == "7"


def test_rule_2_2_seat_0_begins_with_an_empty_fire() -> None:
    state = GAME.new_state(3, 2)
    assert state.deciders() == (0,) and state.fire == [] and state.turn_player() == 0


def test_two_to_five_players() -> None:
    for players in (1, 6):
        with pytest.raises(OptionError, match="Embers takes 2 to 5 players"):
            GAME.new_state(players, 0)
