"""Position data from callers: copied before a game reads it, within limits, JSON values only."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from parlour.core.errors import PositionError
from parlour.core.positions import MAX_DEPTH, MAX_INT, MAX_STRING, MAX_VALUES, copy_json
from parlour.core.registry import game_names, load_game
from parlour.testing.kit import playout


def test_a_copy_shares_nothing_with_the_original() -> None:
    data: dict[str, Any] = {"a": [1, {"b": [2, 3]}], "c": None, "d": "x", "e": 1.5, "f": True}
    copied: Any = copy_json(data)
    assert copied == data
    copied["a"][1]["b"].append(4)
    assert data["a"][1]["b"] == [2, 3]


def test_tuples_are_read_as_lists() -> None:
    assert copy_json({"a": (1, (2,))}) == {"a": [1, [2]]}


@pytest.mark.parametrize(
    ("value", "field", "message"),
    [
        ({"a": {1: 2}}, "a", "keys must be strings"),
        ({"a": [float("nan")]}, "a[0]", "finite"),
        ({"a": [float("inf")]}, "a[0]", "finite"),
        ({"a": MAX_INT + 1}, "a", "integer too large"),
        ({"a": -(MAX_INT + 1)}, "a", "integer too large"),
        ({"a": "x" * (MAX_STRING + 1)}, "a", "string longer"),
        ({"a": {1, 2}}, "a", "must be JSON data, not a set"),
        ({"a": [object()]}, "a[0]", "must be JSON data"),
        ({"a": b"bytes"}, "a", "must be JSON data, not a bytes"),
    ],
)
def test_values_json_cannot_hold_are_refused_naming_the_field(value: Any, field: str, message: str) -> None:
    with pytest.raises(PositionError, match=message) as err:
        copy_json(value)
    assert err.value.field == field


def test_deep_nesting_is_refused() -> None:
    deep: Any = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    with pytest.raises(PositionError, match="nested deeper"):
        copy_json(deep)
    fine: Any = []
    for _ in range(MAX_DEPTH - 1):
        fine = [fine]
    assert copy_json(fine) == fine


def test_a_self_containing_structure_is_refused_not_followed_for_ever() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(PositionError, match="nested deeper"):
        copy_json({"a": loop})


def test_too_many_values_are_refused() -> None:
    with pytest.raises(PositionError, match=f"more than {MAX_VALUES} values"):
        copy_json({"a": [0] * MAX_VALUES})


@pytest.mark.parametrize("name", game_names())
def test_a_loaded_state_never_changes_the_callers_position(name: str) -> None:
    """state_from_position used to keep the caller's dicts: later moves changed the caller's JSON."""
    game = load_game(name)
    states = []
    playout(game, game.min_players + 1, 3, game.quick_options, lambda s, step: states.append(s.clone()))
    for state in states[:: max(1, len(states) // 25)]:
        data = state.to_position()
        before = copy.deepcopy(data)
        loaded = game.state_from_position(data)
        for _ in range(5):
            if loaded.is_over():
                break
            seat = loaded.deciders()[0]
            loaded.apply(loaded.legal_actions(seat)[-1], seat)
        assert data == before


@pytest.mark.parametrize("name", game_names())
def test_every_game_refuses_python_values_a_json_position_cannot_hold(name: str) -> None:
    game = load_game(name)
    data = game.new_state(game.min_players, 1).to_position()
    data["chance"] = {"seed": 1, "events": 0, "forced": [], 7: 1}
    with pytest.raises(PositionError, match="keys must be strings") as err:
        game.state_from_position(data)
    assert err.value.field == "chance"
    json.dumps(game.new_state(game.min_players, 1).to_position())
