"""What each seat is shown: its own hand and public zones, never another seat's hand."""

from __future__ import annotations

import json
import random
from typing import cast

import pytest

from parlour.core.errors import IllegalActionError
from parlour.core.registry import load_game
from parlour.games.venture.content import PROFIT
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.state import VentureState
from parlour.testing import kit

from ..typed import VENTURE as GAME


def _hand(state: VentureGameState, seat: int) -> list[str]:
    return sorted(state.card(r).name for r in state.hands[seat])


@pytest.mark.parametrize("seed", range(4))
def test_a_seat_sees_its_own_hand_and_only_sizes_of_the_others(seed: int) -> None:
    """The only card list of a hand in a seat's view is its own; others appear as counts."""
    for along in kit.states_along(GAME, 4, seed, every=13):
        state = cast(VentureGameState, along)
        for seat in range(4):
            view = state.observation(seat)
            assert sorted(view["hand"]) == _hand(state, seat)
            assert view["hand_sizes"] == [len(h) for h in state.hands]
            assert set(view) - {"hand"} == set(state.public_observation())
            assert "hand" not in state.public_observation()
            assert "draw" not in view and "stock" not in view


def test_views_do_not_change_when_hidden_cards_are_re_dealt() -> None:
    """Re-dealing every card a seat cannot see leaves its view and the public view unchanged."""
    rng = random.Random(1)
    for state in kit.states_along(GAME, 3, 9, every=17):
        kit.check_views_hide_secrets(state, rng)


def test_a_changed_opponent_hand_would_be_noticed_by_the_check() -> None:
    """The redaction check can fail: a view that leaked hands would differ after re-dealing."""
    state = GAME.new_state(3, 4)
    other = state.determinize(0, random.Random(2))

    def leaked(s: VentureState) -> str:
        return json.dumps([[s.card(r).name for r in h] for h in s.hands])

    assert leaked(other) != leaked(state)
    assert other.observation(0) == state.observation(0)


def test_draw_events_tell_the_cards_only_to_the_drawer() -> None:
    """A draw event names the cards for the drawing seat alone."""
    state = GAME.new_state(3, 5)
    seat = state.deciders()[0]
    discard = next(a for a in state.legal_actions() if str(a).startswith("discard"))
    events = state.apply(discard)
    draw = next(e for e in events if e.secret is not None)
    assert draw.seat == seat and draw.secret
    assert draw.secret not in draw.for_seat((seat + 1) % 3)
    assert draw.secret in draw.for_seat(seat)
    assert draw.secret not in draw.for_seat(None)


def test_observation_of_a_seat_not_at_the_table_is_refused() -> None:
    state = GAME.new_state(3, 5)
    for seat in (-1, 3):
        with pytest.raises(IllegalActionError):
            state.observation(seat)


def test_the_encoding_reads_only_a_game_of_venture() -> None:
    """The encoder reads Venture's typed observation: another game's state is refused, not misread."""
    encode = GAME.encoding(3, {}).encode
    assert encode(GAME.new_state(3, 1), 0).size > 0
    with pytest.raises(TypeError, match="reads a VentureGameState, not EmbersGameState"):
        encode(load_game("embers").new_state(2, 0), 0)


@pytest.mark.parametrize("seed", range(40))
def test_a_redeal_never_puts_a_profit_card_in_a_hand(seed: int) -> None:
    """A Profit card drawn scores at once and is replaced (ruling A-15), so no hand ever holds one: the
    hands a seat cannot see are re-dealt from the other cards, and the profit cards stay in the deck."""
    state = GAME.new_state(4, seed)
    for step in range(seed % 7):  # a few turns in, so hands and deck have moved
        state.apply(state.legal_actions()[step % len(state.legal_actions())])
    other = state.determinize(seed % 4, random.Random(seed))

    def profit(r: int) -> bool:
        return other.card(r).kind == PROFIT

    assert not any(profit(r) for hand in other.hands for r in hand)
    assert sum(profit(r) for r in other.draw) == sum(state.card(r).kind == PROFIT for r in state.draw)
    assert sorted(other.draw + [r for h in other.hands for r in h]) == sorted(
        state.draw + [r for h in state.hands for r in h]
    )
    assert other.hands[seed % 4] == state.hands[seed % 4]
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
    GAME.state_from_position(other.to_position())  # a world the position loader accepts
