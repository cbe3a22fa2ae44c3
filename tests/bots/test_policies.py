"""The learned policy bot (parlour.bots.policies): it plays what the exported MaskablePPO policy would,
from the seat's view only, is offered as ``learned`` only where a policy ships, and reads its file as
hostile input."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from parlour.bots import networks, policies
from parlour.bots.networks import Network, NetworkError, read_network
from parlour.bots.policies import FORMAT, LearnedBot
from parlour.bots.registry import bot_names, make_bot
from parlour.core.encoding import observation
from parlour.core.match import play_match
from parlour.core.registry import load_game
from parlour.core.state import GameState

GAME = load_game("venture")


def random_policy(game: str = "venture", hidden: int = 8, seed: int = 0) -> Network:
    """A policy network with random weights for a four-player table of ``game``."""
    spec = load_game(game)
    adapter = spec.encoding(4, spec.options({}))
    inputs = adapter.encode(spec.new_state(4, 0, spec.options({})), 0).size
    rng = np.random.default_rng(seed)
    shapes = [(inputs, hidden), (hidden,), (hidden, hidden), (hidden,), (hidden, len(adapter.catalogue))]
    layers = [rng.normal(0, 1, s).astype(np.float32) for s in shapes]
    layers.append(np.zeros(len(adapter.catalogue), np.float32))
    return Network(FORMAT, game, tuple(layers))


def states(count: int = 40, seed: int = 2) -> list[GameState]:
    """States of random Venture games where the seat to act has a choice."""
    found: list[GameState] = []
    rng = random.Random(seed)
    state = GAME.new_state(4, seed, GAME.options({}))
    while len(found) < count:
        if state.is_over():
            state = GAME.new_state(4, rng.randrange(1000), GAME.options({}))
        seat = state.deciders()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            found.append(state.clone())
        state.apply_legal(rng.choice(legal), seat)
    return found


def test_it_plays_the_legal_action_of_the_highest_logit() -> None:
    net = random_policy()
    bot = LearnedBot(0, net)
    adapter = GAME.encoding(4, GAME.options({}))
    for state in states():
        seat = state.deciders()[0]
        legal = state.legal_actions(seat)
        logits = net.outputs_of(observation(adapter, state, seat)[None, :], "tanh")[0]
        ids = adapter.ids.of(legal, state.format_action)
        best = max(range(len(legal)), key=lambda i: (logits[ids[i]], -i))
        assert bot.choose(state, seat) is legal[best]


def test_it_chooses_from_the_seats_view_only() -> None:
    bot = LearnedBot(0, random_policy(seed=4))
    for state in states(12, seed=5):
        seat = state.deciders()[0]
        chosen = state.format_action(bot.choose(state, seat))
        for seed in range(3):
            world = state.determinize(seat, random.Random(seed))
            assert world.format_action(bot.choose(world, seat)) == chosen


def test_learned_is_a_bot_only_where_a_policy_ships(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "data" / "policies"
    folder.mkdir(parents=True)
    monkeypatch.setattr(policies, "shipped", lambda game: folder / f"{game}.npz")  # nothing there yet
    monkeypatch.setattr(policies, "_SHIPPED", {})
    assert "learned" not in bot_names(GAME)
    with pytest.raises(Exception, match="no bot 'learned'"):
        make_bot(GAME, "learned", 0)
    random_policy().save(folder / "venture.npz")
    assert "learned" in bot_names(GAME) and "learned" not in bot_names(load_game("embers"))
    agents = [make_bot(GAME, "learned", 0), make_bot(GAME, "greedy", 1), make_bot(GAME, "random", 2)]
    result = play_match(GAME, agents, 3)
    assert result.state.is_over()


def test_a_policy_for_another_table_is_refused_in_one_line(tmp_path: Path) -> None:
    net = random_policy("im-the-boss")
    state = states(1)[0]
    words = "reads 336 numbers for 1180 actions; this table has 580"
    with pytest.raises(NetworkError, match=words) as refused:
        LearnedBot(0, Network(FORMAT, "venture", net.weights)).choose(state, state.deciders()[0])
    assert "\n" not in str(refused.value)
    path = tmp_path / "p.npz"
    net.save(path)
    with pytest.raises(NetworkError, match="weights for 'im-the-boss', not 'venture'"):
        read_network(path, FORMAT, "venture")
    with pytest.raises(NetworkError, match="expected format 'parlour-values/1'"):
        read_network(path, "parlour-values/1")
    assert networks.shipped("policies", "venture").name == "venture.npz"


@pytest.mark.slow
def test_an_exported_maskable_ppo_policy_plays_as_sb3_predicts(tmp_path: Path) -> None:
    """The export (examples/sb3_maskable_ppo.py) keeps the policy: for states of real games, the learned
    bot plays the action MaskablePPO's deterministic prediction names."""
    pytest.importorskip("sb3_contrib")
    import gymnasium
    from sb3_contrib import MaskablePPO

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
    from sb3_maskable_ppo import export  # type: ignore[import-not-found]

    env = gymnasium.make("parlour/Venture-v0", players=4)
    model = MaskablePPO("MlpPolicy", env, seed=1, n_steps=64, batch_size=32)
    model.learn(total_timesteps=64)
    path = tmp_path / "venture.npz"
    export(model, "venture", path, {"steps": 64})
    bot = LearnedBot(0, read_network(path, FORMAT, "venture"))
    adapter = GAME.encoding(4, GAME.options({}))
    for state in states(25, seed=7):
        seat = state.deciders()[0]
        legal = state.legal_actions(seat)
        mask = np.zeros(len(adapter.catalogue), bool)
        ids = adapter.ids.of(legal, state.format_action)
        mask[ids] = True
        predicted, _ = model.predict(observation(adapter, state, seat), action_masks=mask, deterministic=True)
        assert ids[legal.index(bot.choose(state, seat))] == int(predicted)


SHIPPED = ("venture", "im-the-boss", "venus-needs-men")
"""The games whose reference policy ships (docs/baselines.md: fitted to the greedy bot's choices)."""


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_policy_says_how_it_was_trained_and_plays_a_game_legally(name: str) -> None:
    """The shipped file reads as its game's policy, names the command, seed and teacher that made it,
    and its bot plays a whole game against greedy bots to the end."""
    assert policies.has_policy(name)
    net = read_network(policies.shipped(name), FORMAT, name)
    assert str(net.about["command"]).startswith(f"python examples/sb3_maskable_ppo.py {name} ")
    assert isinstance(net.about["seed"], int) and net.about["teacher"] == "greedy"
    assert net.about["players"] == 4 and "--export" not in str(net.about["command"])
    game = load_game(name)
    agents = [make_bot(game, "learned", 0), *(make_bot(game, "greedy", s) for s in (1, 2, 3))]
    assert play_match(game, agents, 5).state.is_over()


@pytest.mark.parametrize("name", SHIPPED)
def test_the_learned_bot_is_refused_in_one_line_where_its_policy_cannot_read_the_table(name: str) -> None:
    """A policy reads one tensor size and names one catalogue: at every player count, ``learned`` is
    refused (before any game, in one line naming the count) or plays a whole game; four players fit."""
    from parlour.bots.simulation import simulate
    from parlour.core.errors import OptionError

    game = load_game(name)
    fitting = []
    for players in range(game.min_players, game.max_players + 1):
        seats = ["learned", *["random"] * (players - 1)]
        try:
            summary = simulate(name, seats, 1, seed=players)
        except OptionError as refused:
            assert f"does not fit a table of {players} players" in str(refused)
            assert "\n" not in str(refused)
            with pytest.raises(OptionError, match="does not fit"):
                make_bot(game, "ismcts:20it:learned", 0, players=players)
            continue
        assert summary["games"] == 1
        fitting.append(players)
    assert 4 in fitting
