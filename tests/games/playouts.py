"""Weighted random playouts the games' property tests share: seats favour some verbs over the others."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping
from typing import Any

from parlour.core.game import Game, OptionsGiven
from parlour.core.state import GameState


def weighted_playout(
    game: Game,
    table: tuple[int, int],
    options: OptionsGiven,
    weights: Mapping[str, float],
    each: Callable[[Any, int], None],
) -> Any:
    """Plays the game of ``table`` (players, seed) to its end, a random decider at a time choosing a
    random action, each verb weighted by ``weights`` (1 for the others); ``each(state, step)`` checks
    every step.  Returns the final state."""
    players, seed = table
    state: GameState = game.new_state(players, seed, options)
    rng = random.Random(seed)
    for step in itertools.count(1):
        if state.is_over():
            break
        seat = rng.choice(state.deciders())
        legal = state.legal_actions(seat)
        state.apply(rng.choices(legal, [weights.get(str(a).split()[0], 1.0) for a in legal])[0], seat)
        each(state, step)
    return state
