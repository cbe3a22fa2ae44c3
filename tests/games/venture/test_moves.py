"""The reorganisation's moves as the rules list them (``unseen_moves``, arrangements compared by key)
equal the moves worked out from scratch (every move, its arrangement's text, those not seen), after
every action of random games; and keys that collide are told apart by the stacks themselves."""

from __future__ import annotations

import random

import pytest

from parlour.games.venture import VentureState, arrangements
from parlour.games.venture.arrangements import key, moves, seen_forms, unseen_moves
from parlour.games.venture.content import load_deck
from parlour.games.venture.reorganisation import Reorganisation

from ..typed import VENTURE as GAME
from .scenario import load, play


def from_scratch(state: VentureState, seat: int, seen: list[str]) -> list[str]:
    """Returns the moves to arrangements not seen, each arrangement written out in full."""
    return [str(m) for m, after in moves(state.deck, state.holdings[seat]) if after not in set(seen)]


def listed(state: VentureState, seat: int, seen: list[str]) -> list[str]:
    """Returns the moves ``unseen_moves`` lists."""
    return [str(m) for m in unseen_moves(state.deck, state.holdings[seat], seen)]


@pytest.mark.parametrize("games", [6, pytest.param(60, marks=pytest.mark.slow)])
def test_the_listed_moves_are_the_moves_from_scratch_after_every_action(games: int) -> None:
    rng = random.Random(games)
    compared = 0
    for game in range(games):
        state = GAME.new_state(rng.choice((2, 3, 4, 5)), game)
        while not state.is_over():
            top = state.stack.top
            if isinstance(top, Reorganisation):
                seat = top.seats[0]
                assert listed(state, seat, top.seen) == from_scratch(state, seat, top.seen)
                compared += 1
            seat = state.deciders()[0]
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 20 * games


def test_a_key_is_the_same_for_the_same_stacks_in_any_order() -> None:
    stacks = [[3, 1], [4], [0, 2, 5]]
    deck = load_deck()
    assert key(deck, stacks) == key(deck, list(reversed(stacks)))
    # A stack's order is part of the arrangement.
    assert key(deck, stacks) != key(deck, [[1, 3], [4], [0, 2, 5]])
    text = arrangements.arrangement(deck, stacks)
    # A form is the stacks sorted: the same for the stacks in any order.
    form = ((0, 2, 5), (3, 1), (4,))
    assert arrangements.form(stacks) == arrangements.form(list(reversed(stacks))) == form
    assert seen_forms(deck, [text]) == (frozenset({key(deck, stacks)}), {key(deck, stacks): [form]})


def test_colliding_keys_are_told_apart_by_the_stacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were every key seen (all colliding), the moves listed would still be exactly the unseen ones."""
    state = load(hands=[["20", "10"], [], []], holdings={0: [["OI-BCD", "ST-DF"], ["RR-CD"], ["RE-DEF"]]})
    play(state, "reorganise", "move ST-DF alone", "move RR-CD on RE-DEF")
    top = state.stack.top
    assert isinstance(top, Reorganisation)
    expected = from_scratch(state, 0, top.seen)

    class Everything(frozenset[int]):
        def __contains__(self, item: object) -> bool:
            return True

    class AllForms(dict[int, list[arrangements.Form]]):
        """Every seen form under every key (as if all keys collided)."""

        def get(self, key: int, default: object = None) -> list[arrangements.Form]:
            return [form for forms in self.values() for form in forms]

    assert expected
    keys_and_forms = arrangements.seen_forms
    monkeypatch.setattr(
        arrangements, "seen_forms", lambda deck, seen: (Everything(), AllForms(keys_and_forms(deck, seen)[1]))
    )
    assert listed(state, 0, top.seen) == expected
    assert len(expected) < len(list(moves(state.deck, state.holdings[0])))  # some moves were refused
