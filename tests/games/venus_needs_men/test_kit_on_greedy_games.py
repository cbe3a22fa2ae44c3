"""The conformance kit's checks on states met in greedy games, Basic and Enhanced (they reach late states)."""

from __future__ import annotations

import random

import pytest

from parlour.bots.registry import make_bot
from parlour.games.venus_needs_men import GAME
from parlour.testing import kit


@pytest.mark.parametrize(
    ("players", "seed", "version"), [(2, 1, "basic"), (4, 2, "basic"), (3, 3, "enhanced"), (6, 4, "enhanced")]
)
def test_kit_checks_hold_along_greedy_games(players: int, seed: int, version: str) -> None:
    """Invariants, refusals, round trips, hidden hands and deep copies hold through a whole game."""
    agents = [make_bot(GAME, "greedy" if s % 2 == 0 else "random", seed * 8 + s) for s in range(players)]
    states = kit.states_of_match(GAME, agents, seed, 13, {"game": version})
    assert states[-1].is_over() and states[-1].winners()
    kit.check_states(GAME, states, random.Random(seed))


def test_greedy_wins_most_four_player_basic_games_against_random() -> None:
    """A short sample: greedy in seat 0 wins most games against three random bots."""
    from parlour.bots.simulation import simulate

    summary = simulate("venus-needs-men", ["greedy", "random", "random", "random"], 12, 7)
    assert summary["seats"][0]["win_rate"] >= 0.7


@pytest.mark.parametrize("players", [2, 4, 6])
def test_kit_on_random_enhanced_games(players: int) -> None:
    """The whole kit on random Enhanced playouts (both readings of extended actions)."""
    kit.check_game(GAME, players, range(2), {"game": "enhanced", "max_turns": 30})
    kit.check_game(
        GAME, players, range(1), {"game": "enhanced", "max_turns": 30, "extension_cards": "errata"}
    )
