"""The PettingZoo environments pass PettingZoo's own api_test and seed_test for every game and option set."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from parlour.envs import make
from parlour.testing.kit import snapshot

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("venture", 2, {}),
    ("venture", 4, {"payment": "each"}),
    ("im-the-boss", 3, {"max_turns": 24, "negotiation_limit": 4}),
    ("im-the-boss", 6, {"max_turns": 24, "negotiation_limit": 4, "money": "public", "length": "short"}),
    ("venus-needs-men", 2, {"max_turns": 30}),
    ("venus-needs-men", 4, {"game": "enhanced", "max_turns": 30}),
    ("venus-needs-men", 6, {"game": "enhanced", "max_turns": 30, "extension_cards": "errata"}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(name: str, players: int, options: dict[str, Any]) -> None:
    """PettingZoo's api_test and seed_test, as their authors run them on their own environments."""
    with warnings.catch_warnings():
        # Masked environments use a Dict observation space; PettingZoo's classic games do the same.
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(name, players=players, render_mode="ansi", **options), num_cycles=200)
        seed_test(lambda: make(name, players=players, **options), num_cycles=150)


@pytest.mark.parametrize(("name", "players", "options"), CASES[::2])
def test_masked_random_episodes_reach_the_end_with_rewards(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Sampling only masked-in actions always finishes the game; winners share a reward of 1."""
    env = make(name, players=players, **options)
    env.reset(seed=3)
    total = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter(100_000):
        observation, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert observation["observation"].min() >= 0 and observation["observation"].max() <= 1
        env.step(env.action_space(agent).sample(observation["action_mask"]))
    assert not env.agents and abs(sum(total.values()) - 1.0) < 1e-9


def test_an_illegal_id_is_refused_and_changes_nothing() -> None:
    """An id the mask rules out raises ValueError naming it; the game is untouched."""
    env = make("venture", players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = snapshot(env.state_)
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert snapshot(env.state_) == before


def test_observations_never_carry_another_seats_hand() -> None:
    """A seat's tensor is the same in every state it cannot tell apart (hidden cards re-dealt)."""
    import random

    env = make("im-the-boss", players=4)
    env.reset(seed=2)
    for _ in range(40):
        agent = env.agent_selection
        env.step(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
    for seat in range(4):
        mine = env.adapter.encode(env.state_, seat).array()
        other = env.state_.determinize(seat, random.Random(seat))
        assert np.array_equal(env.adapter.encode(other, seat).array(), mine)
