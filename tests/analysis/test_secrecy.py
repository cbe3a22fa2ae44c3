"""The analysis never reads a hidden card: a record whose hidden cards are swapped for others the seat
could not tell apart (the game's own determinize, another seed) gets the same judgement."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.analysis.analyse import analyse
from parlour.analysis.decisions import judged
from parlour.analysis.settings import Budget
from parlour.core.errors import ParlourError
from parlour.core.record import start_state
from parlour.core.registry import load_game

from .games import bots_record, record_from


def _swapped_pair(name: str, seats: list[str], seed: int, after: int) -> tuple[Any, ...]:
    """Returns the records from seat 0's first judged decision after move ``after`` of a bots' game: the
    real one, and one whose hidden cards are re-dealt for seat 0 (the same moves while legal)."""
    game = load_game(name)
    record = bots_record(name, seats, seed)
    state = start_state(game, record)
    for index, move in enumerate(record.moves):
        action = state.parse_action(move.action)
        if index >= after and move.seat == 0 and judged(state, 0, action):
            break
        state.apply(action, move.seat)
    rest = [m.action for m in record.moves[index:]]
    real = record_from(game, state, rest)
    for other in range(991, 1091):
        # Venture's determinize may deal a Profit card into a hand, which no position holds: try again.
        swapped_state = state.determinize(0, random.Random(other))
        try:
            game.state_from_position(swapped_state.to_position())
            break
        except ParlourError:
            continue
    assert swapped_state.to_position() != state.to_position()  # some hidden card did move
    assert swapped_state.observation(0) == state.observation(0)
    return real, record_from(game, swapped_state, rest)


@pytest.mark.parametrize(
    ("name", "seats", "after"),
    [("embers", ["human", "random", "random"], 10), ("venture", ["human", "quick", "quick", "quick"], 40)],
)
def test_swapped_hidden_cards_change_no_judgement(name: str, seats: list[str], after: int) -> None:
    real, swapped = _swapped_pair(name, seats, 4, after)
    assert real.moves[0].seat == 0
    one = analyse(real, [0], budget=Budget(6), seed=11, moves=[0])
    two = analyse(swapped, [0], budget=Budget(6), seed=11, moves=[0])
    assert len(one.decisions) == 1
    assert one.decisions[0] == two.decisions[0]
    # The real outcome differs (or may), but nothing judged from the seat's view does.
    assert one.decisions[0].actions == two.decisions[0].actions


def test_a_different_seed_gives_other_samples() -> None:
    """The check above could not pass by ignoring the state: another seed changes the figures."""
    real, _ = _swapped_pair("embers", ["human", "random", "random"], 4, 10)
    one = analyse(real, [0], budget=Budget(6), seed=11, moves=[0])
    two = analyse(real, [0], budget=Budget(6), seed=12, moves=[0])
    assert one.decisions[0].actions != two.decisions[0].actions
