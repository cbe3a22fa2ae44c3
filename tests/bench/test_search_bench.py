"""The search bench's duel runs: both bots play legal moves to the end and the wins are counted."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from search_bench import TimedOpenSpielBot, duel_game


def test_a_duel_game_finishes_and_shares_out_the_win() -> None:
    """A short Venture game with tiny budgets: one point of wins, split between the two sides."""
    row = duel_game("venture", 1, 0.005, {"max_turns": 6})
    assert row["parlour_seats"] == [1, 3]
    assert abs(row["parlour"] + row["openspiel"] - 1.0) < 1e-9
    assert row["moves"] > 6


def test_openspiels_timed_bot_plays_legal_moves() -> None:
    """It plays legal moves, at least two simulations each (its first only expands the root)."""
    import pyspiel

    import parlour.envs.openspiel  # noqa: F401

    # Eight turns: five moves always fit (four one-move turns end a four-turn game, whatever the bot picks).
    game = pyspiel.load_game("parlour_venture", {"players": 4, "max_turns": 8})
    bot = TimedOpenSpielBot(game, 0.05, 0)
    state = game.new_initial_state()
    while state.is_chance_node():  # the deal
        state.apply_action(state.chance_outcomes()[0][0])
    for _ in range(5):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert bot.simulations >= 10
    assert bot.per_simulation > 0
