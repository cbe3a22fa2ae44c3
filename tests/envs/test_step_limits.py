"""Every environment ends: a fixed policy finishes the game or is truncated at the documented step limit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from parlour.core.registry import game_names
from parlour.envs import make
from parlour.envs.pettingzoo_env import ParlourEnv


def lowest_id_episode(env: ParlourEnv) -> tuple[int, bool, bool]:
    """Plays 'always the lowest legal id' for every agent; returns steps, terminated, truncated."""
    env.reset(seed=0)
    steps, terminated, truncated = 0, False, False
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            terminated, truncated = terminated or termination, truncated or truncation
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    return steps, terminated, truncated


@pytest.mark.slow
@pytest.mark.parametrize("name", game_names())
def test_the_lowest_id_policy_ends_every_game(name: str) -> None:
    """The policy that looped for ever in Venture's reorganisations (ruling A-16) now ends or is cut off."""
    env = make(name, players=4)
    assert env.max_steps == env.game.max_actions
    steps, terminated, truncated = lowest_id_episode(env)
    assert terminated != truncated
    assert steps <= env.max_steps
    assert truncated == (steps == env.max_steps and not env.state_.is_over())
    assert not env.agents


def test_truncation_cuts_an_episode_at_the_step_limit() -> None:
    env = make("im-the-boss", players=3, max_steps=40)
    steps, terminated, truncated = lowest_id_episode(env)
    assert (steps, terminated, truncated) == (40, False, True)
    assert not env.state_.is_over() and not env.agents


def test_truncated_agents_get_no_reward_and_only_none_steps() -> None:
    env = make("venture", players=2, max_steps=3)
    env.reset(seed=1)
    for _ in range(3):
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(env.infos[a] == {"steps": 3} for a in env.agents)
    _, reward, _, truncation, _ = env.last()
    assert truncation and reward == 0.0
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    env.reset(seed=1)
    assert env.steps == 0 and not any(env.truncations.values())


@pytest.mark.parametrize("bad", [0, -1, True, 2.5])
def test_a_step_limit_must_be_a_positive_whole_number(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_steps must be a positive whole number"):
        make("venture", players=3, max_steps=bad)
