"""The observation tensors are the same, value for value and block for block, as the reference encoders
(tests/envs/reference_encoding.py: the encoders before issue 15, built from each seat's observation), over
random games of every game and mode; and a tensor never depends on what its seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from parlour.core.encoding import Encoding
from parlour.core.registry import load_game
from parlour.core.state import GameState
from parlour.games.embers.content import house_content
from parlour.testing.kit import states_along

from . import reference_encoding as reference

TABLES: list[tuple[str, int, dict[str, Any], list[int]]] = [
    ("embers", 3, {}, [0, 1, 2, 3]),
    ("venture", 4, {}, [0, 1]),
    ("venture", 2, {"payment": "each"}, [2]),
    ("im-the-boss", 4, {}, [0]),
    ("im-the-boss", 6, {"money": "public", "length": "short", "negotiation_limit": 4}, [1]),
    ("im-the-boss", 3, {"max_turns": 30, "negotiation_limit": 3}, [2, 3]),
    ("venus-needs-men", 4, {"game": "basic"}, [0]),
    ("venus-needs-men", 4, {"game": "enhanced"}, [1]),
    ("venus-needs-men", 6, {"game": "enhanced", "extension_cards": "errata"}, [2]),
    ("venus-needs-men", 2, {"game": "enhanced", "max_turns": 30}, [3]),
]
REWRITTEN = TABLES
"""The tables whose encoders issue 15 rewrote (every game's)."""


def reference_encoder(name: str, players: int, options: dict[str, Any]) -> reference.Encoder:
    """Returns the old encoder of a table."""
    game: Any = load_game(name)
    if name == "embers":
        return reference.embers_encoder(house_content(), players)
    if name == "venture":
        return reference.venture_encoder(game.deck(options), players)
    if name == "im-the-boss":
        return reference.boss_encoder(game.content(options), players, options)
    return reference.venus_encoder(game.zap(options), players, options)


def states(name: str, players: int, options: dict[str, Any], seeds: list[int]) -> list[GameState]:
    """Returns every third state of random games of the table, and their ends."""
    game = load_game(name)
    return [s for seed in seeds for s in states_along(game, players, seed, 3, options)]


def differing(before: reference.Features, got: np.ndarray, expected: np.ndarray) -> list[str]:
    """Returns the names of the blocks whose values differ."""
    return [n for n, s, k in before.layout() if not np.array_equal(got[s : s + k], expected[s : s + k])]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options", "seeds"), REWRITTEN)
def test_every_tensor_is_the_reference_encoders(
    name: str, players: int, options: dict[str, Any], seeds: list[int]
) -> None:
    game = load_game(name)
    full = game.options(options)
    encoding: Encoding = game.encoding(players, full)
    old = reference_encoder(name, players, full)
    compared = 0
    for state in states(name, players, full, seeds):
        for seat in range(players):
            new, before = encoding.encode(state, seat), old(state, seat)
            assert new.layout() == before.layout()
            expected = before.array()
            got = new.array()
            assert got.dtype == expected.dtype == np.float32
            assert np.array_equal(got, expected), f"{name} seat {seat}: {differing(before, got, expected)}"
            compared += 1
    assert compared > 50


@pytest.mark.parametrize(("name", "players", "options", "seeds"), TABLES[::2])
def test_a_tensor_is_the_same_in_every_state_its_seat_cannot_tell_apart(
    name: str, players: int, options: dict[str, Any], seeds: list[int]
) -> None:
    game = load_game(name)
    full = game.options(options)
    encoding = game.encoding(players, full)
    rng = random.Random(7)
    for state in states(name, players, full, seeds[:1])[::5]:
        for seat in range(players):
            other = state.determinize(seat, rng)
            assert np.array_equal(encoding.encode(other, seat).array(), encoding.encode(state, seat).array())
