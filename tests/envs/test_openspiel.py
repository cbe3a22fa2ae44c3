"""The OpenSpiel registration: explicit chance, random_sim_test, serialisation, ISMCTSBot, truncation."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import parlour.envs.openspiel  # noqa: F401 - registers the games with OpenSpiel

SHORT: list[tuple[str, dict[str, Any]]] = [
    ("parlour_venture", {"players": 3, "max_turns": 12}),
    ("parlour_im_the_boss", {"players": 3, "max_turns": 10, "negotiation_limit": 3}),
    ("parlour_venus_needs_men", {"players": 2, "max_turns": 12}),
    ("parlour_venus_needs_men", {"players": 4, "max_turns": 12, "game": "enhanced", "planets": "random"}),
]
GAMES = ["parlour_venture", "parlour_im_the_boss", "parlour_venus_needs_men"]


def sample(state: Any, rng: random.Random) -> int:
    """Returns a chance outcome drawn with the node's probabilities."""
    outcomes = state.chance_outcomes()
    drawn: int = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return drawn


def deal(game: Any, rng: random.Random) -> Any:
    """Returns a new state after its deal, every chance outcome drawn from ``rng``."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    return state


def step(state: Any, rng: random.Random) -> None:
    """Applies one random chance outcome or legal action."""
    state.apply_action(sample(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))


# ---------------------------------------------------------------- OpenSpiel's own checks
def test_games_declare_explicit_chance_and_no_seed() -> None:
    """Chance is explicit and no game parameter is a seed that would fix the hidden cards."""
    for name in GAMES:
        game = pyspiel.load_game(name)
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert "seed" not in game.get_parameters()
        assert game.max_chance_outcomes() > 0
        assert game.new_initial_state().is_chance_node()


@pytest.mark.parametrize(("name", "params"), SHORT)
def test_random_sim_test_passes(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's random_sim_test: chance nodes, legal actions, clones, serialisation, returns."""
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), SHORT[:3])
def test_openspiels_ismcts_bot_plays_a_whole_game(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's ISMCTSBot, resampling through the engine's determinisation, finishes a game."""
    game = pyspiel.load_game(name, params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 1.5, 6, random_state=np.random.RandomState(s))
        for s in range(game.num_players())
    ]
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.inner.is_over()
    assert abs(sum(state.returns()) - 1.0) < 1e-9


# ---------------------------------------------------------------- chance nodes
@pytest.mark.parametrize(("name", "params"), SHORT)
def test_chance_outcomes_are_distributions_over_documented_ids(name: str, params: dict[str, Any]) -> None:
    """Every chance node lists distinct ascending ids below max_chance_outcomes; probabilities sum to 1."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(1)
    nodes, dice, games = 0, 0, 0
    while games < 2 or (dice == 0 and games < 8):  # short random games may roll no die
        games += 1
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                ids = [a for a, _ in outcomes]
                assert ids == sorted(set(ids)) and len(ids) >= 2
                assert all(0 <= a < game.max_chance_outcomes() and p > 0 for a, p in outcomes)
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                assert state.legal_actions() == ids
                text = state.action_to_string(pyspiel.PlayerId.CHANCE, ids[0])
                assert text.startswith(("roll ", "next "))
                dice += text.startswith("roll ")
                nodes += 1
            step(state, rng)
    assert nodes > 50
    assert dice > 0


def test_a_pile_is_chosen_item_by_item_with_probabilities_by_multiplicity() -> None:
    """A shuffle's chance node weighs each name by its copies left; ids follow ``chance_names``."""
    game = pyspiel.load_game("parlour_venture", {"players": 3})
    state = game.new_initial_state()
    while len(set(state.request.names)) == len(state.request.names):
        state.apply_action(state.chance_outcomes()[0][0])  # the corporations (54 distinct names)
    outcomes = dict(state.chance_outcomes())  # the resources cards: 22 names, several copies each
    names = state.request.names
    for outcome, probability in outcomes.items():
        name = game.chance_names[outcome - game.adapter.faces - 1]
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcome) == f"next {name}"
        assert probability == pytest.approx(names.count(name) / len(names))
    assert len(set(outcomes.values())) > 1
    with pytest.raises(ValueError, match="not left in this pile"):
        state.apply_action(game.adapter.faces + 1)  # a corporation's id: not in the resources pile


def test_the_outcomes_chosen_are_the_deal() -> None:
    """The chance outcomes chosen are forced: the pile order is exactly the names chosen, in order."""
    game = pyspiel.load_game("parlour_im_the_boss", {"players": 4})
    rng = random.Random(5)
    state = game.new_initial_state()
    chosen: list[str] = []
    while state.is_chance_node() and state.request.kind == "order" and len(state.request.names) < 50:
        state.apply_action(sample(state, rng))  # the placards
    pile = state.request.names
    while state.is_chance_node() and state.request.names == pile:
        outcome = sample(state, rng)
        chosen.append(state.action_to_string(pyspiel.PlayerId.CHANCE, outcome).removeprefix("next "))
        state.apply_action(outcome)
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    inner = state.inner
    hands = [[inner.name(c) for c in inner.hands[s]] for s in range(4)]
    dealt = [name for hand in hands for name in hand] + [inner.name(c) for c in inner.draw]
    assert dealt[: len(chosen)] == chosen


def test_load_game_twice_does_not_fix_the_deal() -> None:
    """Two loads with default parameters, chance sampled differently, deal different hidden hands."""
    for name in GAMES:
        first = deal(pyspiel.load_game(name), random.Random(1)).inner.to_position()
        second = deal(pyspiel.load_game(name), random.Random(2)).inner.to_position()
        again = deal(pyspiel.load_game(name), random.Random(1)).inner.to_position()
        assert first["hands"] != second["hands"]
        assert first == again  # the same outcomes give the same deal: chance lives in the outcomes


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_two_chance_samples_can_give_the_same_information_state(name: str) -> None:
    """Swapping two deal outcomes between other seats' cards: hidden cards differ, the info state does not."""
    game = pyspiel.load_game(name, {"players": 4})
    rng = random.Random(3)
    state = deal(game, rng)
    player = state.current_player()
    history = state.history()
    found = 0
    for _ in range(400):
        i, j = sorted(rng.sample(range(len(history)), 2))
        if history[i] == history[j]:
            continue
        swapped = list(history)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        other = game.new_initial_state()
        try:
            for outcome in swapped:
                if not other.is_chance_node() or outcome not in dict(other.chance_outcomes()):
                    raise ValueError("not a deal")
                other.apply_action(outcome)
        except ValueError:
            continue
        if other.is_chance_node() or other.current_player() != player:
            continue
        if other.information_state_string(player) != state.information_state_string(player):
            continue
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.observation_string(player) == state.observation_string(player)
        hidden = [s for s in range(4) if s != player]
        if any(other.inner.observation(s) != state.inner.observation(s) for s in hidden):
            found += 1  # a seat's hidden cards differ, and ``player`` cannot tell
    assert found > 0


def test_information_states_hide_other_hands() -> None:
    """A player's information state is the same in a resampled world (its hidden cards re-dealt)."""
    game = pyspiel.load_game("parlour_im_the_boss", {"players": 4})
    rng = random.Random(0)
    state = deal(game, rng)
    for _ in range(6):
        step(state, rng)
    while state.is_chance_node():
        step(state, rng)
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.information_state_tensor(player) == state.information_state_tensor(player)
    assert other.history() == []  # the real chance outcomes stay behind
    assert "next" not in state.information_state_string(player)


def test_resampling_at_a_chance_node_is_refused() -> None:
    """resample_from_infostate is defined at player nodes only."""
    state = pyspiel.load_game("parlour_venture").new_initial_state()
    with pytest.raises(ValueError, match="player and terminal nodes"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_an_illegal_action_changes_nothing() -> None:
    """An action id that is not legal is refused and leaves the state as it was."""
    game = pyspiel.load_game("parlour_venture", {"players": 3})
    state = deal(game, random.Random(0))
    before = (str(state), state.history(), state.information_state_string(state.current_player()))
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert (str(state), state.history(), state.information_state_string(state.current_player())) == before


# ---------------------------------------------------------------- serialisation
@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), SHORT)
def test_serialisation_round_trips_through_chance_nodes(name: str, params: dict[str, Any]) -> None:
    """Serialised or pickled at chance and player nodes, a state continues exactly as the original."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(4)
    state = game.new_initial_state()
    chance_nodes = 0
    for count in range(400):
        if state.is_terminal():
            break
        if count % 7 == 0 or (state.is_chance_node() and chance_nodes < 3):
            chance_nodes += state.is_chance_node()
            _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
            for copy in (again, pickle.loads(pickle.dumps(state)), state.clone()):
                assert str(copy) == str(state)
                assert copy.history() == state.history()
                assert copy.is_chance_node() == state.is_chance_node()
                if state.is_chance_node():
                    assert copy.chance_outcomes() == state.chance_outcomes()
                else:
                    assert copy.legal_actions() == state.legal_actions()
                # the copy goes on exactly as the original
                branch, mirror = state.clone(), copy
                follow = random.Random(count)
                for _ in range(20):
                    if branch.is_terminal():
                        break
                    chance = branch.is_chance_node()
                    action = sample(branch, follow) if chance else follow.choice(branch.legal_actions())
                    branch.apply_action(action)
                    mirror.apply_action(action)
                assert str(mirror) == str(branch)
                for p in range(game.num_players()):
                    assert mirror.information_state_string(p) == branch.information_state_string(p)
        step(state, rng)
    assert chance_nodes >= 3


# ---------------------------------------------------------------- game length
@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_the_lowest_id_policy_reaches_the_end_or_the_truncation(name: str) -> None:
    """Always the lowest legal id: every game stops (over, or truncated at max_game_length)."""
    game = pyspiel.load_game(name)
    assert game.max_game_length() == game.parlour.max_actions
    rng = random.Random(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
        else:
            state.apply_action(min(state.legal_actions()))
            decisions += 1
        assert decisions <= game.max_game_length()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.inner.is_over() or (state.truncated() and decisions == game.max_game_length())
    assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_truncation_ends_the_game_and_pays_the_leaders() -> None:
    """At max_game_length player actions the state is terminal; the leaders by estimate share the win."""
    game = pyspiel.load_game("parlour_venus_needs_men", {"players": 3, "max_game_length": 30})
    rng = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        step(state, rng)
    assert state.truncated() and len(state.moves) == 30 and not state.inner.is_over()
    assert state.legal_actions() == []
    best = max(state.inner.estimate())
    leaders = [s for s, v in enumerate(state.inner.estimate()) if v == best]
    assert state.returns() == [1 / len(leaders) if s in leaders else 0.0 for s in range(3)]
    assert "truncated" in str(state)
    with pytest.raises(ValueError, match="at least 1"):
        pyspiel.load_game("parlour_venture", {"max_game_length": 0})


# ---------------------------------------------------------------- actions applied in place
@pytest.mark.parametrize("name", [*GAMES, "parlour_embers"])
def test_actions_in_place_give_what_a_copy_would(name: str) -> None:
    """Each player action, applied to the wrapped state itself, leaves the same position (or asks for the
    same chance event, the state as before) as applying it to a copy, the wrapper's reference path."""
    from parlour.core.chance import ChanceRequest
    from parlour.envs.openspiel import _attempt

    game = pyspiel.load_game(name, {"players": 4})
    rng = random.Random(3)
    state, asked = game.new_initial_state(), 0
    for _ in range(1500):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
            continue
        action, before = rng.choice(state.legal_actions()), state.inner.to_position()
        seat = state.current_player()
        legal = state.inner.legal_actions(seat)
        text = state.action_to_string(seat, action)
        listed = next(a for a in legal if state.inner.format_action(a) == text)
        copied = _attempt(state.get_game(), state.inner, (seat, ""), [], listed)
        state.apply_action(action)
        if state.is_chance_node():
            asked += 1
            assert state.request == copied and state.inner.to_position() == before
        else:
            assert not isinstance(copied, ChanceRequest)
            assert state.inner.to_position() == copied.to_position()
    assert asked > 0 or name == "parlour_embers"  # some actions asked for chance (a draw, a die)
