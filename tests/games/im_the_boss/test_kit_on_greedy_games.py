"""The conformance kit's checks on states met in greedy games, which reach the late game."""

from __future__ import annotations

import random

import pytest

from parlour.bots.registry import make_bot
from parlour.games.im_the_boss import GAME
from parlour.games.im_the_boss.state import BossState
from parlour.testing import kit


def greedy_states(players: int, seed: int, every: int) -> list[BossState]:
    """Returns copies of every ``every``-th state of a greedy game, and its final state."""
    agents = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(players)]
    state = GAME.new_state(players, seed)
    found = []
    while not state.is_over():
        if state.actions_applied % every == 0:
            found.append(state.clone())
        seat = state.deciders()[0]
        state.apply(agents[seat].choose(state, seat), seat)
    return [*found, state]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (6, 3)])
def test_kit_checks_hold_along_greedy_games(players: int, seed: int) -> None:
    """Invariants, refusals, round trips, hidden hands and deep copies hold through a whole greedy game."""
    rng = random.Random(seed)
    states = greedy_states(players, seed, 9)
    assert states[-1].is_over() and len(states[-1].deals) >= 10
    for i, state in enumerate(states):
        kit.check_invariants(state)
        kit.check_every_legal_action_applies(state)
        kit.check_refusals(state, states[i - 1] if i else None)
        kit.check_position_round_trip(GAME, state)
        kit.check_notation_round_trip(state)
        kit.check_views_hide_secrets(state, rng)
        kit.check_clone_is_deep(state, rng)
