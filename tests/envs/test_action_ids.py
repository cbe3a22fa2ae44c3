"""Catalogue ids found from action objects (core.encoding.ActionIds) are the ids of the actions' texts."""

from __future__ import annotations

import pytest

from parlour.core.encoding import ActionIds
from parlour.core.registry import load_game
from parlour.games.im_the_boss.actions import Include, Tip


def test_ids_are_the_catalogue_places_of_the_actions_texts_for_new_and_known_objects() -> None:
    ids = ActionIds(["pass", "tip @1 3", "include R @2 5"])
    first = [Include("R", 2, 5), Tip(1, 3)]
    assert ids.of(first) == [2, 1]
    assert ids.of(list(first)) == [2, 1]  # the same objects, found by identity
    assert ids.of([Tip(1, 3), Include("R", 2, 5)]) == [1, 2]  # equal objects, found by equality
    with pytest.raises(KeyError):
        ids.of([Tip(2, 3)])


def test_the_memory_starts_afresh_past_its_limit_and_ids_stay_right() -> None:
    ids = ActionIds([f"tip @1 {n}" for n in range(50)])
    ids.LIMIT = 7
    for _ in range(3):
        actions = [Tip(1, n) for n in range(50)]
        assert ids.of(actions) == list(range(50))


def test_every_legal_action_of_random_games_has_its_texts_id() -> None:
    for name in ("venture", "im-the-boss", "venus-needs-men", "embers"):
        game = load_game(name)
        state = game.new_state(3, 5, game.quick_options)
        encoding = game.encoding(3, game.options(game.quick_options))
        for _ in range(60):
            if state.is_over():
                break
            seat = state.deciders()[0]
            legal = state.legal_actions(seat)
            assert encoding.ids.of(legal) == [encoding.ids.by_text[str(a)] for a in legal]
            state.apply_legal(legal[len(legal) // 2], seat)
