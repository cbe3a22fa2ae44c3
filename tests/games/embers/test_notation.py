"""Embers' notation (docs/games/embers.md, "Notation"): every action round-trips; bad text is refused."""

from __future__ import annotations

import pytest

from parlour.core.errors import NotationError
from parlour.games.embers import GAME
from parlour.games.embers.actions import DISCARD, DOUSE, PASS, Play

STATE = GAME.new_state(3, 0)


@pytest.mark.parametrize("action", [*(Play.of(n) for n in range(1, 9)), DISCARD, DOUSE, PASS])
def test_every_action_round_trips(action: object) -> None:
    text = str(action)
    assert STATE.parse_action(text) == action
    assert STATE.format_action(STATE.parse_action(text)) == text


@pytest.mark.parametrize(
    ("text", "action"),
    [("play 7", Play(7)), ("PLAY 7", Play(7)), ("  play   07 ", Play(7)), ("Douse", DOUSE), ("pass", PASS)],
)
def test_case_and_spaces_are_forgiven(text: str, action: object) -> None:
    assert STATE.parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("burn 3", "unknown verb 'burn' \\(verbs: play, discard, douse, pass\\)"),
        ("play", "'play' takes an ember's number, not 0 argument\\(s\\)"),
        ("play seven", "'seven' is not an ember's number"),
        ("play 123", "'123' is not an ember's number"),
        ("pass 3", "'pass' takes no arguments, not 1 argument\\(s\\)"),
    ],
)
def test_text_that_is_no_action_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as err:
        STATE.parse_action(text)
    assert "\n" not in str(err.value)


def test_legal_actions_share_one_object_per_text() -> None:
    state = GAME.new_state(3, 4)
    plays = [action for action in state.legal_actions(0) if isinstance(action, Play)]
    assert plays and all(action is Play.of(action.ember) for action in plays)
