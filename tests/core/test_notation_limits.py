"""Every game refuses action text that is not a string or is far longer than any action, before parsing."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.core.errors import NotationError
from parlour.core.modular import MAX_NOTATION
from parlour.core.registry import game_names, load_game
from parlour.testing.kit import states_along


@pytest.mark.parametrize("name", game_names())
def test_overlong_and_non_text_actions_are_refused(name: str) -> None:
    state = load_game(name).new_state(3, 1)
    for text in ("pass " * 1000, "9" * 5000, " " * (MAX_NOTATION + 1)):
        with pytest.raises(NotationError, match=f"at most {MAX_NOTATION} characters"):
            state.parse_action(text)
    bad: Any
    for bad in (None, 7, b"pass", ["pass"]):
        with pytest.raises(NotationError, match="written as text"):
            state.parse_action(bad)


@pytest.mark.parametrize("name", game_names())
def test_every_legal_action_is_well_within_the_limit(name: str) -> None:
    game = load_game(name)
    longest = max(
        len(state.format_action(action))
        for seed in range(3)
        for state in states_along(game, 4, seed, 3, dict(game.quick_options))
        for seat in state.deciders()
        for action in state.legal_actions(seat)
    )
    assert longest <= MAX_NOTATION // 4
