"""The conformance kit's checks on states met in greedy games, Basic and Enhanced (they reach late states)."""

from __future__ import annotations

import random

import pytest

from parlour.bots.registry import make_bot
from parlour.games.venus_needs_men import GAME
from parlour.games.venus_needs_men.state import VenusState
from parlour.testing import kit


def greedy_states(players: int, seed: int, every: int, options: dict[str, str]) -> list[VenusState]:
    """Returns copies of every ``every``-th state of a game of greedy bots against random ones."""
    agents = [make_bot(GAME, "greedy" if s % 2 == 0 else "random", seed * 8 + s) for s in range(players)]
    state = GAME.new_state(players, seed, options)
    found = []
    while not state.is_over():
        if state.actions_applied % every == 0:
            found.append(state.clone())
        seat = state.deciders()[0]
        state.apply(agents[seat].choose(state, seat), seat)
    return [*found, state]


@pytest.mark.parametrize(
    ("players", "seed", "version"), [(2, 1, "basic"), (4, 2, "basic"), (3, 3, "enhanced"), (6, 4, "enhanced")]
)
def test_kit_checks_hold_along_greedy_games(players: int, seed: int, version: str) -> None:
    """Invariants, refusals, round trips, hidden hands and deep copies hold through a whole game."""
    rng = random.Random(seed)
    states = greedy_states(players, seed, 13, {"game": version})
    assert states[-1].is_over() and states[-1].winners()
    for i, state in enumerate(states):
        kit.check_invariants(state)
        kit.check_every_legal_action_applies(state)
        kit.check_refusals(state, states[i - 1] if i else None)
        kit.check_position_round_trip(GAME, state)
        kit.check_notation_round_trip(state)
        kit.check_views_hide_secrets(state, rng)
        kit.check_clone_is_deep(state, rng)


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
