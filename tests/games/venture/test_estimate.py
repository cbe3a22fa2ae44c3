"""Venture's estimate for search (parlour.games.venture.estimate): profits, and the holdings' profit at
every scoring left."""

from __future__ import annotations

import random

import pytest

from parlour.bots.registry import make_bot
from parlour.games.venture import GAME
from parlour.games.venture.estimate import PER_CORPORATION, outlook, scorings_left
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.scoring import holdings_profit

from ..typed import choose


def played(players: int, seed: int, actions: int) -> VentureGameState:
    """Returns a game that greedy bots have played ``actions`` actions into (or to its end)."""
    state = GAME.new_state(players, seed)
    assert isinstance(state, VentureGameState)
    bots = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(players)]
    for _ in range(actions):
        if state.is_over():
            break
        seat = state.deciders()[0]
        state.apply_legal(choose(bots[seat], state, seat), seat)
    return state


def test_a_fresh_game_expects_the_final_scoring_and_one_per_eleven_corporations_left() -> None:
    """Five center corporations and the stock: 1 + 0.09 a corporation, about six scorings."""
    state = played(4, 1, 0)
    left = len(state.center) + len(state.stock)
    assert left == 54
    assert scorings_left(state) == pytest.approx(1 + PER_CORPORATION * left) == pytest.approx(5.86)


def test_the_estimate_counts_the_holdings_at_every_scoring_left() -> None:
    """Part-way through, each seat's estimate is its profits plus its holdings' profit times the
    scorings left, and the game state's ``estimate()`` is :func:`outlook`."""
    state = played(4, 2, 150)
    assert not state.is_over()
    times = scorings_left(state)
    assert 1.0 < times < 5.86
    expected = [p + times * holdings_profit(state, s) for s, p in enumerate(state.profits)]
    assert state.estimate() == outlook(state) == pytest.approx(expected)
    assert any(holdings_profit(state, s) for s in range(4))


def test_scorings_left_fall_as_corporations_are_taken_and_the_end_gives_the_scores() -> None:
    """Through whole greedy games the scorings left never rise and stay at least one; a finished
    game's estimate is its scores, and an unfinished one is never below the profits banked."""
    for players, seed in ((3, 5), (4, 6), (5, 7)):
        state = GAME.new_state(players, seed)
        assert isinstance(state, VentureGameState)
        bots = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(players)]
        last = scorings_left(state)
        while not state.is_over():
            now = scorings_left(state)
            assert 1.0 <= now <= last
            assert all(e >= p for e, p in zip(state.estimate(), state.profits, strict=True))
            last = now
            seat = state.deciders()[0]
            state.apply_legal(choose(bots[seat], state, seat), seat)
        assert state.estimate() == state.scores()


def test_with_no_profit_cards_expected_it_is_one_scoring_of_the_holdings() -> None:
    """With ``PER_CORPORATION`` 0 the estimate is the former one: profits plus one scoring."""
    state = played(4, random.Random(3).randrange(100), 120)
    import parlour.games.venture.estimate as module

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "PER_CORPORATION", 0.0)
        assert outlook(state) == [float(p + holdings_profit(state, s)) for s, p in enumerate(state.profits)]
