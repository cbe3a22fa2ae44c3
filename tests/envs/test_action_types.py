"""The environments take whole-number action ids only: a float (even 2.0), a bool, text or None is refused
with ValueError and changes nothing, in every game (docs/environments.md)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import parlour.envs.openspiel  # noqa: F401 - registers the games with OpenSpiel
from parlour.core.registry import game_names, load_game
from parlour.envs import make
from parlour.envs.openspiel import short_name
from parlour.testing.kit import snapshot


def refused(legal: int) -> list[object]:
    """Returns the values that are not action ids, made from a legal id so that a lax environment would
    take some of them for it."""
    return [
        float(legal),
        legal + 0.5,
        legal - 0.5,
        np.float64(legal),
        np.float32(legal),
        bool(legal),
        not legal,
        np.bool_(legal),
        str(legal),
        "\ud800",
        None,
        np.array(legal),
        [legal],
    ]


def players(name: str) -> int:
    """Returns the smallest table of the game with at least two seats."""
    return max(2, load_game(name).min_players)


@pytest.mark.parametrize("name", game_names())
def test_pettingzoo_refuses_anything_but_an_int_and_changes_nothing(name: str) -> None:
    env = make(name, players=players(name))
    env.reset(seed=5)
    for _ in range(3):
        agent = env.agent_selection
        legal = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
        before = (snapshot(env.state_), env.agent_selection, env.steps)
        for value in refused(legal):
            with pytest.raises(ValueError, match="an action is an id") as raised:
                env.step(value)  # type: ignore[arg-type]
            assert "\n" not in str(raised.value)
            assert (snapshot(env.state_), env.agent_selection, env.steps) == before, value
        env.step(np.int64(legal))  # type: ignore[arg-type]  # a NumPy integer is an id: the next legal step works
        assert env.steps == before[2] + 1


@pytest.mark.parametrize("name", game_names())
def test_pettingzoo_refuses_ids_out_of_range_in_one_line(name: str) -> None:
    env = make(name, players=players(name))
    env.reset(seed=5)
    before = snapshot(env.state_)
    for value in (-1, len(env.catalogue), 10**30, np.int64(-1)):
        with pytest.raises(ValueError, match=rf"an action is an id 0\.\.{len(env.catalogue) - 1}, not"):
            env.step(value)  # type: ignore[arg-type]  # np.int64 too, which the declared int leaves out
    assert snapshot(env.state_) == before


@pytest.mark.parametrize("name", game_names())
def test_openspiel_refuses_anything_but_an_int_and_changes_nothing(name: str) -> None:
    """At chance nodes and player nodes alike, ``apply_action`` (and with OpenSpiel's legality check)."""
    game = pyspiel.load_game(short_name(name), {"players": players(name)})
    state = game.new_initial_state()
    rng = random.Random(5)
    kinds: set[bool] = set()
    while len(kinds) < 2 and not state.is_terminal():
        chance = state.is_chance_node()
        kinds.add(chance)
        ids = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
        before = (str(state), state.history(), state.current_player())
        count = game.max_chance_outcomes() if chance else game.num_distinct_actions()
        for value in [*refused(ids[0]), -1, count, 10**30]:
            for apply in (state.apply_action, state.apply_action_with_legality_check):
                with pytest.raises(ValueError, match="an action is an id") as raised:
                    apply(value)
                assert "\n" not in str(raised.value)
                assert (str(state), state.history(), state.current_player()) == before, value
        state.apply_action(np.int64(rng.choice(ids)))  # the next step works
        assert len(state.history()) == len(before[1]) + 1
    assert kinds == {True, False}
