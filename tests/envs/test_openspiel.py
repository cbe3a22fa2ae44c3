"""The OpenSpiel registration: random_sim_test, serialisation, and OpenSpiel's own ISMCTSBot on every game."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import parlour.envs.openspiel  # noqa: F401  (registers the games)

SHORT: list[tuple[str, dict[str, Any]]] = [
    ("parlour_venture", {"players": 3, "max_turns": 12}),
    ("parlour_im_the_boss", {"players": 3, "max_turns": 10, "negotiation_limit": 3}),
    ("parlour_venus_needs_men", {"players": 2, "max_turns": 12}),
    ("parlour_venus_needs_men", {"players": 4, "max_turns": 12, "game": "enhanced"}),
]


@pytest.mark.parametrize(("name", "params"), SHORT)
def test_random_sim_test_passes(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's own random_sim_test (legal actions, clones, information states, returns)."""
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "params"), SHORT)
def test_states_serialise_and_pickle(name: str, params: dict[str, Any]) -> None:
    """pyspiel's serialisation and pickling give back the same state."""
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[-1])
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(state)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


@pytest.mark.parametrize(("name", "params"), SHORT[:3])
def test_openspiels_ismcts_bot_plays_a_whole_game(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's ISMCTSBot, resampling through the engine's determinisation, finishes a game."""
    game = pyspiel.load_game(name, params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 1.5, 6, random_state=np.random.RandomState(s))
        for s in range(game.num_players())
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_information_states_hide_other_hands() -> None:
    """A player's information state is the same in a resampled world (its hidden cards re-dealt)."""
    game = pyspiel.load_game("parlour_im_the_boss", {"players": 4})
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.information_state_tensor(player) == state.information_state_tensor(player)
