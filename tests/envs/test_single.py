"""The single-seat Gymnasium environment (``parlour.envs.single``): one learner against Parlour's bots,
registered with Gymnasium, vectorisable, masked, seeded, and refusing bad settings in one line."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import parlour.envs
from parlour.envs.registration import ENV_IDS
from parlour.envs.single_seat import SingleSeatEnv

GAMES: dict[str, dict[str, Any]] = {"venture": {}, "im-the-boss": {}, "venus-needs-men": {"game": "enhanced"}}


def play(env: Any, seed: int, rng: np.random.Generator) -> tuple[list[int], float, bool, bool]:
    """Plays one episode with random legal ids; returns the ids, the last reward and how it ended."""
    observation, info = env.reset(seed=seed)
    ids: list[int] = []
    while True:
        mask = info["action_mask"]
        assert mask.any(), "the learner is asked only when it may act"
        action = int(rng.choice(np.flatnonzero(mask)))
        ids.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(observation)
        if terminated or truncated:
            return ids, float(reward), terminated, truncated
        assert reward == 0.0, "a game pays only at its end"


@pytest.mark.parametrize("game", list(GAMES))
def test_gymnasium_makes_every_game_and_a_random_learner_plays_it_to_the_end(game: str) -> None:
    env = gymnasium.make(ENV_IDS[game], players=4, opponents=["greedy", "random", "random"], **GAMES[game])
    ids, reward, terminated, truncated = play(env, 3, np.random.default_rng(0))
    base = env.unwrapped
    assert isinstance(base, SingleSeatEnv)
    assert terminated and not truncated and base.state_.is_over()
    winners = base.state_.winners()
    assert reward == (1 / len(winners) if 0 in winners else 0.0)
    assert ids and all(0 <= i < len(base.catalogue) for i in ids)


def test_the_same_seed_plays_the_same_episode() -> None:
    first = play(parlour.envs.single("venture", opponents=["greedy"]), 11, np.random.default_rng(5))
    again = play(parlour.envs.single("venture", opponents=["greedy"]), 11, np.random.default_rng(5))
    assert first == again


def test_the_score_reward_is_the_margin_over_the_best_other_seat() -> None:
    env = parlour.envs.single("im-the-boss", opponents="random", reward="score", seat=2)
    _, reward, terminated, _ = play(env, 4, np.random.default_rng(1))
    scores = env.state_.scores()
    assert terminated and reward == scores[2] - max(scores[0], scores[1], scores[3])


def test_rotate_moves_the_learner_one_seat_each_episode() -> None:
    env = parlour.envs.single("venture", players=3, seat="rotate")
    seats = []
    for seed in range(4):
        _, info = env.reset(seed=seed)
        seats.append(info["seat"])
        assert env.state_.deciders()[0] == info["seat"]
    assert seats == [0, 1, 2, 0]


def test_an_illegal_id_raises_by_default_and_changes_nothing() -> None:
    env = parlour.envs.single("venture")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before, steps = env.state_.to_position(), env.steps
    with pytest.raises(ValueError, match=f"action {illegal} .* is not legal for seat 0 now"):
        env.step(illegal)
    with pytest.raises(ValueError, match="an action is an id"):
        env.step(2.0)
    assert env.state_.to_position() == before and env.steps == steps


def test_penalty_mode_answers_an_illegal_id_with_the_penalty_and_no_move() -> None:
    env = parlour.envs.single("venture", illegal="penalty", illegal_penalty=-0.5, max_steps=40)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before, steps = env.state_.to_position(), env.steps
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-0.5, False, False, True)
    assert env.state_.to_position() == before and env.steps == steps + 1
    while not truncated:  # illegal ids count toward the limit: an episode cannot go on for ever
        _, reward, terminated, truncated, _ = env.step(illegal)
    assert env.steps == 40 and not terminated


def test_gymnasiums_checker_passes_in_penalty_mode() -> None:
    """Gymnasium's checker samples ids without the mask: the penalty mode is there for it."""
    check_env(parlour.envs.single("venture", illegal="penalty"), skip_render_check=True)


def test_the_dict_form_is_rllibs_observations_and_float_mask() -> None:
    env = parlour.envs.single("venus-needs-men", observations="dict")
    observation, info = env.reset(seed=1)
    assert set(observation) == {"observations", "action_mask"}
    assert observation["action_mask"].dtype == np.float32
    assert np.array_equal(observation["action_mask"], info["action_mask"])
    assert np.array_equal(env.action_masks(), observation["action_mask"] > 0)


def test_a_vector_of_environments_steps_together() -> None:
    envs = gymnasium.make_vec(ENV_IDS["venture"], num_envs=2, vectorization_mode="sync", players=3)
    observations, infos = envs.reset(seed=[1, 2])  # type: ignore[arg-type]
    assert observations.shape[0] == 2
    actions = [int(np.flatnonzero(mask)[0]) for mask in infos["action_mask"]]
    observations, rewards, terminated, truncated, infos = envs.step(np.array(actions))
    assert rewards.shape == terminated.shape == truncated.shape == (2,)
    assert observations.shape[0] == 2 and len(infos["action_mask"]) == 2
    envs.close()


def test_truncation_pays_nothing() -> None:
    env = parlour.envs.single("im-the-boss", max_steps=30)
    _, reward, terminated, truncated = play(env, 1, np.random.default_rng(0))
    assert truncated and not terminated and reward == 0.0 and env.steps >= 30
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"opponents": []}, "opponents must be a list of bot names"),
        ({"opponents": ["random", "random"]}, "opponents must name one bot or 3"),
        ({"opponents": ["cmd:./bot"]}, "a cmd: program is not started"),
        ({"opponents": ["nonsense"]}, "nonsense"),
        ({"seat": 4}, "seat must be a whole number from 0 to 3 or 'rotate'"),
        ({"seat": True}, "seat must be a whole number"),
        ({"reward": "share"}, "reward must be one of win, score"),
        ({"illegal": "ignore"}, "illegal must be one of raise, penalty"),
        ({"observations": "image"}, "observations must be one of flat, dict"),
        ({"max_steps": 0}, "max_steps must be a positive whole number"),
        ({"players": 9}, "9"),
        ({"render_mode": "human"}, "render_mode must be None or 'ansi'"),
    ],
)
def test_bad_settings_are_refused_in_one_line(settings: dict[str, Any], words: str) -> None:
    with pytest.raises(Exception, match=words) as caught:
        parlour.envs.single("venture", **settings)
    assert "\n" not in str(caught.value)


def test_ansi_render_shows_the_learners_seat() -> None:
    env = parlour.envs.single("venture", render_mode="ansi")
    env.reset(seed=0)
    shown = env.render()
    assert isinstance(shown, str) and shown == env.state_.render(0)
