"""The conformance kit's checks on states met in greedy games, which reach the late game."""

from __future__ import annotations

import random

import pytest

from parlour.bots.registry import make_bot
from parlour.games.im_the_boss import GAME
from parlour.testing import kit


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (6, 3)])
def test_kit_checks_hold_along_greedy_games(players: int, seed: int) -> None:
    """Invariants, refusals, round trips, hidden hands and deep copies hold through a whole greedy game."""
    agents = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(players)]
    states = kit.states_of_match(GAME, agents, seed, 9)
    assert states[-1].is_over() and len(states[-1].deals) >= 10  # type: ignore[attr-defined]
    kit.check_states(GAME, states, random.Random(seed))
