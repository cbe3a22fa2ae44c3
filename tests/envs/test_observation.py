"""An encoder's direct array (``Encoding.write``, through ``observation``) is its features' array, byte for
byte, and the PettingZoo observation is that array."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from parlour.core.encoding import observation
from parlour.core.registry import load_game
from parlour.envs import make
from parlour.testing.kit import states_along

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("venture", 4, {}),
    ("im-the-boss", 5, {"money": "public"}),
    ("venus-needs-men", 3, {"game": "basic"}),
    ("venus-needs-men", 4, {"game": "enhanced"}),
    ("embers", 3, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_direct_array_is_the_features_array(name: str, players: int, options: dict[str, Any]) -> None:
    """``observation`` gives the bytes of ``encode(...).array()`` at every seat along a random game."""
    game = load_game(name)
    full = game.options(options)
    encoding = game.encoding(players, full)
    compared = 0
    for state in states_along(game, players, 7, 5, full):
        for seat in range(players):
            got, expected = observation(encoding, state, seat), encoding.encode(state, seat).array()
            assert got.dtype == expected.dtype == np.float32
            assert got.tobytes() == expected.tobytes()
            compared += 1
    assert compared > 20


def test_the_environment_observes_the_encoders_array() -> None:
    """The PettingZoo observation of the acting agent is the encoder's tensor of its seat."""
    env = make("im-the-boss", players=4)
    env.reset(seed=3)
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    expected = env.adapter.encode(env.state_, seat).array()
    assert env.observe(agent)["observation"].tobytes() == expected.tobytes()
