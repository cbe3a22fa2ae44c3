"""The generic ISMCTS bot: legal, reproducible, blind to hidden cards, usable by name with a budget."""

from __future__ import annotations

import json
import random

import pytest

from parlour.bots.ismcts import Budget, IsmctsBot, reward
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
    with pytest.raises(OptionError, match="search budget"):
        make_bot(game, "ismcts:fast", 0)
    with pytest.raises(OptionError, match="no playout bot"):
        make_bot(game, "ismcts:10it:nobody", 0)
    assert make_bot(game, "ismcts:10it", 0).name == "ismcts:10it"


@pytest.mark.parametrize(
    "text",
    ["infs", "nans", "0s", "-1s", "0it", "0ms", "0.0001s", "1e400s", "3601s", "10000001it", "9" * 5000],
)
def test_budgets_out_of_range_are_refused(text: str) -> None:
    """No zero, negative, infinite or endless budget; no number too long to read."""
    with pytest.raises(ValueError, match="search budget"):
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
    """Venture's estimate adds what the holdings would earn at the final scoring; others use the scores."""
    from parlour.games.venture.scoring import holdings_profit

    state = midgame("venture", steps=60)
    assert state.estimate() == [p + holdings_profit(state, s) for s, p in enumerate(state.profits)]  # type: ignore[attr-defined]
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
    while state.stack.top.kind != kind or len(state.legal_actions(state.deciders()[0])) < 2:  # type: ignore[attr-defined]
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
