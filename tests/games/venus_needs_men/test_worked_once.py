"""What the rules work out once and keep (issue 15) is what working it out afresh gives: the steps a
phase (move, attack, collect), the extensions and an extra step offer as they settle, the Upgrades a
planet may research or cycle, the unseen Zap kinds. Checked after every action of random Basic and
Enhanced games, against the top decision's own ``legal`` and a clone's (which keeps nothing of the
original's legal actions)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour.games.venus_needs_men import GAME


@pytest.mark.parametrize("game", ["basic", "enhanced"])
def test_legal_actions_kept_are_those_worked_out_afresh(game: str) -> None:
    rng = random.Random(15)
    offered: Counter[str] = Counter()
    for seed in range(3):
        state = GAME.new_state(4, seed, {"game": game})
        while not state.is_over():
            seat = state.deciders()[0]
            legal = state.legal_actions(seat)
            offered[state.stack.top.kind] += 1
            assert legal == state.stack.top.legal(state, seat)
            assert legal == state.clone().legal_actions(seat)
            state.apply(rng.choice(legal), seat)
    # The playouts moved, attacked, collected and extended: the offered steps were checked.
    assert all(offered[kind] for kind in ("moving", "attacking", "collecting", "extend")), offered
