"""``steps.has_steps`` answers as ``bool(steps(...))`` would, without listing the steps (the decisions
nobody takes ask it after every action)."""

from __future__ import annotations

import random

import pytest

from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.steps import EXTRA, IMMEDIATE, MAIN, has_steps, steps

from ..typed import VENUS as GAME

KINDS = ("build", "move", "attack", "collect")


def visited(players: int, game: str, seed: int, every: int) -> list[VenusState]:
    """Returns every ``every``-th state of a random playout."""
    rng = random.Random(seed)
    state = GAME.new_state(players, seed, {"game": game})
    found = []
    while not state.is_over():
        if state.actions_applied % every == 0:
            found.append(state.clone())
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return found


@pytest.mark.parametrize(
    ("players", "game", "every"),
    [
        (4, "basic", 17),
        (3, "enhanced", 17),
        pytest.param(2, "basic", 2, marks=pytest.mark.slow),
        pytest.param(5, "enhanced", 2, marks=pytest.mark.slow),
        pytest.param(6, "enhanced", 3, marks=pytest.mark.slow),
    ],
)
def test_has_steps_answers_as_listing_the_steps_would(players: int, game: str, every: int) -> None:
    kinds = (*KINDS, "research") if game == "enhanced" else KINDS
    asked = 0
    for state in visited(players, game, players, every):
        for planet in state.planets:
            fleet = state.fleet(planet)
            for ships in (fleet, [s for s in fleet if s not in state.acted]):
                for kind in kinds:
                    for mode in (MAIN, EXTRA, IMMEDIATE):
                        expected = bool(steps(state, kind, planet, ships, mode))
                        assert has_steps(state, kind, planet, ships, mode) == expected, (kind, planet, mode)
                        asked += expected
    assert asked > 0  # some answers are yes (and, the game going on, many are no)
