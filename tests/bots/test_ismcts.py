"""The generic ISMCTS bot: legal, reproducible, blind to hidden cards, usable by name with a budget."""

from __future__ import annotations

import json
import random
from typing import cast

import pytest

from parlour.bots.ismcts import Budget, IsmctsBot, Settings, reward, searched
from parlour.bots.registry import bot_names, make_bot
from parlour.core.errors import OptionError
from parlour.core.match import play_match
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState


def midgame(name: str, seed: int = 3, steps: int = 9) -> GameState:
    """Returns a four-player state a few random actions into a game."""
    game = load_game(name)
    state = game.new_state(4, seed, game.quick_options)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


@pytest.mark.parametrize("name", game_names())
def test_it_chooses_a_legal_action_reproducibly(name: str) -> None:
    """With an iteration budget and a seed the choice is legal and the same every time."""
    state = midgame(name)
    seat = state.deciders()[0]
    first = IsmctsBot(5, Budget(iterations=12)).choose(state, seat)
    again = IsmctsBot(5, Budget(iterations=12)).choose(state, seat)
    assert state.is_legal(first, seat) and first == again


@pytest.mark.parametrize("name", game_names())
def test_it_cannot_see_hidden_cards(name: str) -> None:
    """In a state the seat cannot tell apart from the real one (hidden cards re-dealt) it chooses the same."""
    state = midgame(name)
    seat = state.deciders()[0]
    other = state.determinize(seat, random.Random(99))
    assert other.observation(seat) == state.observation(seat)
    bot = IsmctsBot(5, Budget(iterations=12))
    assert bot.choose(state, seat) == IsmctsBot(5, Budget(iterations=12)).choose(other, seat)


@pytest.mark.parametrize("name", game_names())
def test_determinisations_depend_only_on_what_the_seat_knows(name: str) -> None:
    """Two indistinguishable states determinise identically from the same generator."""
    state = midgame(name)
    seat = state.deciders()[0]
    other = state.determinize(seat, random.Random(7))
    one = state.determinize(seat, random.Random(1)).to_position()
    two = other.determinize(seat, random.Random(1)).to_position()
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", game_names())
def test_it_plays_whole_games_by_name(name: str) -> None:
    """'ismcts:3it' plays a whole (short) game against random bots."""
    game = load_game(name)
    agents = [make_bot(game, "ismcts:3it", 1), *(make_bot(game, "random", s) for s in (2, 3))]
    result = play_match(game, agents, 4, game.quick_options)
    assert result.state.is_over() and "ismcts" in bot_names(game)


def test_budgets_are_read_from_their_names() -> None:
    """Budgets: 200ms, 1s, 500it and a bare number; a bad one is refused clearly."""
    assert Budget.parse("200ms") == Budget(milliseconds=200)
    assert Budget.parse("1s") == Budget(milliseconds=1000)
    assert Budget.parse("500it") == Budget(iterations=500) == Budget.parse("500")
    game = load_game("venture")
    with pytest.raises(OptionError, match="ismcts budget"):
        make_bot(game, "ismcts:fast", 0)
    with pytest.raises(OptionError, match="no playout bot"):
        make_bot(game, "ismcts:10it:nobody", 0)
    assert make_bot(game, "ismcts:10it", 0).name == "ismcts:10it::horizon=12"  # Venture's own settings


@pytest.mark.parametrize(
    "text",
    ["infs", "nans", "0s", "-1s", "0it", "0ms", "0.0001s", "1e400s", "3601s", "10000001it", "9" * 5000],
)
def test_budgets_out_of_range_are_refused(text: str) -> None:
    """No zero, negative, infinite or endless budget; no number too long to read."""
    with pytest.raises(ValueError, match="ismcts budget"):
        Budget.parse(text)


def test_the_largest_budgets_are_accepted() -> None:
    assert Budget.parse("3600s") == Budget(milliseconds=3_600_000)
    assert Budget.parse("10000000it") == Budget(iterations=10_000_000)
    assert Budget.parse("0.5s") == Budget(milliseconds=500)


def test_rewards_favour_winners_and_stay_in_range() -> None:
    """A finished game's rewards lie in 0..1 and every winner gets more than every loser."""
    game = load_game("venture")
    result = play_match(game, [make_bot(game, "random", s) for s in range(3)], 2)
    values = reward(result.state)
    winners = result.state.winners()
    assert all(0.0 <= v <= 1.0 for v in values)
    assert min(values[s] for s in winners) > max(
        (v for s, v in enumerate(values) if s not in winners), default=-1
    )


def test_unfinished_games_are_judged_by_the_estimate() -> None:
    """Venture's estimate adds what the holdings will earn at the scorings left; others use the scores."""
    from parlour.games.venture.estimate import scorings_left
    from parlour.games.venture.scoring import holdings_profit

    state = midgame("venture", steps=60)
    times = scorings_left(state)  # type: ignore[arg-type]
    assert state.estimate() == [p + times * holdings_profit(state, s) for s, p in enumerate(state.profits)]  # type: ignore[attr-defined,arg-type]
    boss = midgame("im-the-boss")
    assert boss.estimate() == boss.scores()
    values, estimates = reward(state), state.estimate()
    assert [s for s, v in enumerate(values) if v == max(values)] == [
        s for s, x in enumerate(estimates) if x == max(estimates)
    ]


def venture_at(kind: str, seed: int = 4) -> GameState:
    """Returns a four-player Venture game played by greedy bots up to a decision of the given kind."""
    game = load_game("venture")
    state = game.new_state(4, seed)
    bots = [make_bot(game, "greedy", s) for s in range(4)]
    while state.stack.top.kind != kind or len(state.legal_actions(state.deciders()[0])) < 2:
        seat = state.deciders()[0]
        state.apply(bots[seat].choose(state, seat), seat)
    return state


def test_routine_decisions_are_left_to_the_adviser() -> None:
    """Paying is bookkeeping: the search returns the greedy bot's choice without iterating."""
    from parlour.games.venture.bots import GreedyBot

    state = venture_at("pay")
    seat = state.deciders()[0]
    assert state.routine_decision()
    bot = IsmctsBot(1, Budget(iterations=50), adviser=GreedyBot)
    assert bot.choose(state, seat) == GreedyBot(0).choose(state, seat)
    assert bot.iterations_done == 0


def test_routine_steps_are_not_tree_nodes() -> None:
    """Below the root the tree branches only on transactions: placing, paying and moving are the policy's."""
    state = venture_at("turn")
    seat = state.deciders()[0]
    assert not state.routine_decision()
    bot = make_bot(load_game("venture"), "ismcts:150it", 2)
    assert isinstance(bot, IsmctsBot)
    bot.choose(state, seat)
    assert bot.last_root is not None and bot.last_root.children
    texts: list[str] = []
    stack = [bot.last_root]
    while stack:
        node = stack.pop()
        texts.extend(state.format_action(a) for a in node.children)
        stack.extend(node.children.values())
    assert texts and not [t for t in texts if t.split()[0] in ("pay", "place", "move", "done")]


def test_settings_are_read_from_the_name() -> None:
    """A fourth part sets the search's tunables; the name says which differ; a bad one is refused."""
    game = load_game("venus-needs-men")
    bot = make_bot(game, "ismcts:20it::horizon=2,explore=0.5", 0)
    assert isinstance(bot, IsmctsBot)
    assert (bot.settings.horizon, bot.settings.explore) == (
        2,
        0.5,
    ) and bot.name == "ismcts:20it::explore=0.5,horizon=2"
    assert Settings.parse("") == Settings()
    # Venus Needs Men!'s and Venture's playouts look further ahead unless the name says otherwise.
    venus = make_bot(game, "ismcts:20it", 0)
    venture = make_bot(load_game("venture"), "ismcts:20it", 0)
    assert isinstance(venus, IsmctsBot) and isinstance(venture, IsmctsBot)
    assert (venus.settings.horizon, venture.settings.horizon) == (12, 12) and Settings().horizon < 12
    for text in ("horizon", "speed=2", "horizon=1.5", "explore=-1", "explore=1e9", "race=x"):
        with pytest.raises(OptionError, match="ismcts setting"):
            make_bot(game, f"ismcts:20it::{text}", 0)


class Scored:
    """A stand-in for an unfinished game with given estimates (all ``reward`` reads)."""

    def __init__(self, scores: list[float]) -> None:
        self.values = scores

    def is_over(self) -> bool:
        return False

    def estimate(self) -> list[float]:
        return self.values


def test_rewards_do_not_change_when_every_score_rises_alike() -> None:
    """Points everyone gains (Venus Needs Men!'s Natural Disaster) do not help the seat behind."""
    low = reward(cast(GameState, Scored([4.0, 10.0, 7.0, 9.0])))
    high = reward(cast(GameState, Scored([14.0, 20.0, 17.0, 19.0])))
    assert low == pytest.approx(high) and low.index(max(low)) == 1 and low.index(min(low)) == 0


def test_one_iteration_plays_the_advisers_choice() -> None:
    """A search too short to compare anything keeps the adviser's choice (the greedy bot's)."""
    from parlour.games.venus_needs_men.bots import GreedyBot

    state = midgame("venus-needs-men", steps=30)
    rng = random.Random(2)
    while (seat := state.deciders()[0]) is not None and (
        len(state.legal_actions(seat)) < 3 or GreedyBot(0).choose(state, seat) == state.legal_actions(seat)[0]
    ):
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    bot = IsmctsBot(3, Budget(iterations=1), GreedyBot, GreedyBot)
    assert bot.choose(state, seat) == GreedyBot(0).choose(state, seat) and bot.iterations_done == 1


@pytest.mark.parametrize("race", [0, 4])
def test_the_tree_below_its_own_move_is_kept_for_its_next_decision(race: int) -> None:
    """When the seat decides again right after its own move, the search starts from the tree below it."""
    state = venture_at("turn")
    seat = state.deciders()[0]
    bot = make_bot(load_game("venture"), f"ismcts:40it::race={race}", 2)
    assert isinstance(bot, IsmctsBot)
    action = bot.choose(state, seat)
    assert bot.last_root is not None
    below = bot.last_root.children[action]
    before = below.visits
    state.apply(action, seat)
    while state.deciders()[0] == seat and (state.routine_decision() or len(state.legal_actions(seat)) == 1):
        state.apply(bot.choose(state, seat), seat)
    if state.deciders()[0] == seat:
        done = bot.iterations_done
        bot.choose(state, seat)
        # Every iteration of the new search passes through the kept tree (a race may end early).
        assert bot.last_root is below and below.visits == before + bot.iterations_done - done > before
    # Anyone else's move in between starts a fresh tree.
    other = midgame("venture")
    mover = other.deciders()[0]
    bot.choose(other, mover)
    first = bot.last_root
    other.apply(random.Random(1).choice(other.legal_actions(mover)), mover)
    while not other.is_over() and other.deciders()[0] == mover:
        other.apply(other.legal_actions(mover)[0], mover)
    if not other.is_over():
        bot.choose(other, other.deciders()[0])
        assert bot.last_root is not first and bot.last_root is not None


def test_steps_back_are_left_out_of_the_search() -> None:
    """Venture's undo and cancel (ruling A-17) are not searched, unless nothing else is legal."""
    from parlour.games.venture.actions import Cancel, Undo

    state = venture_at("turn")
    legal = state.legal_actions(state.deciders()[0])
    assert searched([Undo(), *legal, Cancel()]) == [a for a in legal if not isinstance(a, Undo | Cancel)]
    assert searched([Undo()]) == [Undo()]


def test_a_race_with_every_rival_beaten_ends_early() -> None:
    """Once every other action is clearly no better than the adviser's, the race stops spending."""
    from parlour.games.venus_needs_men.bots import GreedyBot

    state = midgame("venus-needs-men", steps=30)
    seat = state.deciders()[0]
    while len(searched(state.legal_actions(seat))) != 2:
        state.apply(random.Random(5).choice(state.legal_actions(seat)), seat)
        seat = state.deciders()[0]
    bot = IsmctsBot(3, Budget(iterations=400), GreedyBot, GreedyBot, Settings(horizon=1))
    bot.choose(state, seat)
    assert 6 <= bot.iterations_done < 400
    # Told nothing apart, the race may run again further ahead (once), on the rest of the budget.
    deeper = IsmctsBot(3, Budget(iterations=400), GreedyBot, GreedyBot, Settings(horizon=1, deepen=8))
    deeper.choose(state, seat)
    assert deeper.iterations_done > bot.iterations_done and deeper._until == state.turns_played() + 9


def test_an_action_overrules_the_adviser_only_on_enough_shared_worlds() -> None:
    """A rival ahead on two worlds replaces the adviser's choice by default, not when three are asked for."""
    differences: dict[object, list[float]] = {
        "lucky": [0.2, 0.3],
        "steady": [0.1, 0.1, 0.1],
        "worse": [-0.1, 0.0, 0.1],
    }
    assert IsmctsBot(0)._pick("greedy", differences) == "lucky"
    assert IsmctsBot(0, settings=Settings(samples=3))._pick("greedy", differences) == "steady"
    assert IsmctsBot(0, settings=Settings(samples=4))._pick("greedy", differences) == "greedy"
    assert (
        make_bot(load_game("venture"), "ismcts:9it::samples=3", 0).name == "ismcts:9it::horizon=12,samples=3"
    )
