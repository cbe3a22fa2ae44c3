"""What the negotiation works out once and keeps (issue 15: the hand plays and who supplies what, by hand
and table; whether the deal stands; the Boss's lines of the terms) is what working it out afresh gives:
after every action of random games, the legal actions equal a clone's (a copied negotiation keeps
nothing, so its clone works everything out again)."""

from __future__ import annotations

import random

from parlour.games.im_the_boss import GAME
from parlour.games.im_the_boss.bargain import Bargain


def test_negotiation_legal_actions_kept_are_those_worked_out_afresh() -> None:
    rng = random.Random(15)
    bargains = 0
    for seed in range(3):
        state = GAME.new_state(4, seed)
        while not state.is_over():
            seat = state.deciders()[0]
            legal = state.legal_actions(seat)
            if isinstance(state.stack.top, Bargain):
                bargains += 1
                assert legal == state.clone().legal_actions(seat)
            state.apply(rng.choice(legal), seat)
    assert bargains
