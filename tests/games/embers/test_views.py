"""What each seat sees ("What is secret"): views, re-deals of the unseen cards, the encoding."""

from __future__ import annotations

import json
import random

from parlour.games.embers import GAME
from parlour.games.embers.state import LAYOUT, EmbersState
from parlour.testing.kit import states_along

from .scenario import deal, play

HANDS = (["1", "7", "8", "8", "douse"], ["5", "6", "7", "douse", "douse"], ["1", "2", "3", "4", "douse"])


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    state = deal(*HANDS)
    mine = state.observation(1)
    assert mine["hand"] == ["5", "6", "7", "douse", "douse"] and mine["hand_sizes"] == [5, 5, 5]
    assert state.public_observation()["hand"] is None
    text = state.render(1)
    assert "Your hand: 5 6 7 douse douse" in text and "1 7 8 8" not in text
    assert "Your hand" not in state.render(None)


def test_the_ember_answered_and_its_douses_are_public() -> None:
    state = deal(*HANDS)
    play(state, "0: play 7", "1: douse")
    seen = state.public_observation()
    assert (seen["play"], seen["dousers"], seen["decision"], seen["deciders"]) == ("7", [1], "answer", [2])
    assert "In play: seat 0's 7, doused by seat 1" in state.render(None)
    assert state.decision_summary() == "seat 2 to answer seat 1's douse: douse or pass"


def test_a_re_deal_changes_only_what_the_seat_cannot_see() -> None:
    state = deal(*HANDS)
    play(state, "0: play 8", "1: pass", "2: pass")
    other = state.determinize(1, random.Random(3))
    assert other.observation(1) == state.observation(1)
    assert other.hands[1] == state.hands[1] and other.fire == state.fire
    assert sorted(other.hands[0] + other.hands[2] + other.draw) == sorted(
        state.hands[0] + state.hands[2] + state.draw
    )
    assert other.hands != state.hands or other.draw != state.draw
    again = other.determinize(1, random.Random(5)).to_position()
    assert json.dumps(state.determinize(1, random.Random(5)).to_position()) == json.dumps(again)


def test_the_layout_hides_the_other_hands_and_the_draw_pile_and_nothing_else() -> None:
    state = deal(*HANDS)
    assert [name for name, _ in LAYOUT.unseen(state, 1)] == ["hands[0]", "hands[2]", "draw"]
    assert [name for name, _ in LAYOUT.unseen(state, None)] == ["hands[0]", "hands[1]", "hands[2]", "draw"]


def test_the_layout_describes_every_attribute_of_the_state_once() -> None:
    """Every attribute ``EmbersState`` declares (its zones, content and options) is a part of its layout,
    which copies, re-deals and writes them; a copy shares only the shared parts."""
    declared = set(EmbersState.__annotations__)
    parts = {part.name for part in LAYOUT.parts}
    assert declared <= parts and parts - declared == {"players", "chance", "stack"}
    state = deal(*HANDS)
    copy = state.clone()
    mine, its = vars(state), vars(copy)
    assert its.keys() == mine.keys() and type(copy) is type(state)
    values = (int, str, type(None))  # never changed in place: a copy may share them
    same = {name for name, value in mine.items() if its[name] is value and not isinstance(value, values)}
    assert same == {"content", "options"}


def test_the_encoding_covers_every_legal_action_with_a_fixed_size() -> None:
    encoding = GAME.encoding(3, GAME.options())
    assert encoding.catalogue[:2] == ["play 1", "play 2"] and encoding.catalogue[-3:] == [
        "discard",
        "douse",
        "pass",
    ]
    sizes = set()
    for state in states_along(GAME, 3, 2, 3):
        for seat in state.deciders():
            assert {str(a) for a in state.legal_actions(seat)} <= set(encoding.catalogue)
        sizes.add(encoding.encode(state, 0).size)
    assert len(sizes) == 1


def test_table_content_and_card_texts_are_public_facts() -> None:
    state = GAME.new_state(2, 0)
    assert state.table_content() == {
        "cards": {**{str(n): 3 for n in range(1, 9)}, "douse": 6},
        "hand": 5,
        "blaze": 15,
    }
    assert (
        state.card_texts()["douse"].startswith("Douse:")
        and state.card_texts()["7"] == "Ember 7: adds 7 to the fire."
    )
