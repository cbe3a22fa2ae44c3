"""What the drawn table in the browser reads: ``table_content`` (the deck's public facts) and the
observation's fields for it (each stack's profit, the payment's worth, the fee, the hand's sets, the
cheapest covering payment for the payer)."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from parlour.games.venture import VentureState
from parlour.games.venture.content import CAPITAL, SET_DENOMINATIONS, Resource
from parlour.games.venture.payment import payment_value
from parlour.games.venture.scoring import holdings_profit
from parlour.games.venture.views import hand_sets
from parlour.testing import kit

from ..typed import VENTURE as GAME
from ..typed import states_along

SETS = {2: 16, 3: 32, 4: 64}


def _state(players: int, seed: int) -> VentureState:
    state = GAME.new_state(players, seed)
    assert isinstance(state, VentureState)
    return state


def test_table_content_is_public_the_same_for_every_seed_and_determinisation_and_json_ready() -> None:
    """The content never depends on the deal: every seed, player count and re-deal gives the same."""
    first = _state(4, 0).table_content()
    assert json.loads(json.dumps(first)) == first
    rng = random.Random(3)
    for players, seed in itertools.product((2, 3, 6), range(4)):
        state = _state(players, seed)
        assert state.table_content() == first
        assert state.determinize(0, rng).table_content() == first
    for state in states_along(GAME, 3, 5, every=29):
        assert state.table_content() == first


def test_table_content_describes_every_card_of_the_deck() -> None:
    """Industries with name and colour, each corporation's industry, letters and value (4 + 4 per
    letter), each kind of resources card with its count, the set values and the profit table."""
    state = _state(3, 1)
    content = state.table_content()
    codes = {i["code"]: i for i in content["industries"]}
    assert set(codes) == set(state.deck.industries)
    assert all(i["name"] and i["colour"].startswith("#") for i in content["industries"])
    assert len(set(i["colour"] for i in content["industries"])) == 6
    assert set(content["corporations"]) == {c.name for c in state.deck.corporations}
    for corp in state.deck.corporations:
        facts = content["corporations"][corp.name]
        assert facts == {
            "industry": corp.industry,
            "letters": "".join(sorted(corp.letters)),
            "value": corp.value,
        }
        assert facts["value"] == 4 + 4 * len(facts["letters"])
    resources = content["resources"]
    assert sum(r["count"] for r in resources.values()) == len(state.deck.resources) == 54
    assert resources["3c"] == {"kind": "capital", "value": 3, "symbol": "circle", "count": 2}
    assert resources["14"]["symbol"] is None
    assert resources["x1/2"]["multiplier"] == "½×" and resources["x3/2"]["halves"] == 3
    assert content["set_values"] == {"2": 16, "3": 32, "4": 64}
    assert content["profit_table"] == {"3": 1, "4": 3, "5": 8, "6": 20}


def _cards(counts: tuple[int, ...], symbol: str = "t") -> list[Resource]:
    cards: list[Resource] = []
    for denomination, count in zip(SET_DENOMINATIONS, counts, strict=True):
        cards += [Resource(len(cards), CAPITAL, f"{denomination}{symbol}", denomination, symbol)] * count
    return cards


@pytest.mark.parametrize("counts", list(itertools.product(range(3), repeat=4)))
def test_the_hands_sets_are_the_grouping_the_payment_counts(counts: tuple[int, ...]) -> None:
    """The sets shown are real sets (two to four unlike denominations of one symbol) and, with the
    remaining cards at face value, worth exactly what the hand pays (payment_value)."""
    cards = _cards(counts)
    sets = hand_sets(cards, SETS)
    left = [c.value for c in cards]
    for found in sets:
        values = [int(name[:-1]) for name in found["cards"]]
        assert 2 <= len(values) <= 4 and len(set(values)) == len(values)
        assert found["worth"] == SETS[len(values)]
        for value in values:
            left.remove(value)
    assert sum(s["worth"] for s in sets) + sum(left) == payment_value(cards, SETS)


def test_a_hand_of_two_symbols_shows_a_set_for_each_and_plain_cards_in_none() -> None:
    cards = _cards((1, 1, 0, 1), "t") + _cards((1, 0, 0, 1), "s") + [Resource(9, CAPITAL, "14", 14)]
    assert hand_sets(cards, SETS) == [
        {"cards": ["1s", "8s"], "worth": 16},
        {"cards": ["1t", "3t", "8t"], "worth": 32},
    ]


def test_stack_profits_add_up_to_the_holdings_profit_and_the_fee_counts_corporations() -> None:
    for state in states_along(GAME, 3, 2, every=7):
        view: Any = state.public_observation()
        for seat in range(3):
            assert sum(s["profit"] for s in view["holdings"][seat]) == holdings_profit(state, seat)
        if not state.over:
            assert view["reorganise_fee"] == state.corporations_held(state.current)
        laid = [state.card(r) for r in state.payment]
        assert view["payment_worth"] == payment_value(laid, state.deck.set_values)


def _paying(seed: int) -> VentureState:
    """Returns a game at its first payment that has cards to choose from."""
    for state in states_along(GAME, 3, seed, every=1):
        if not state.over and state.stack.top.kind == "pay" and not state.payment:
            return state
    raise AssertionError("no payment in that game")


@pytest.mark.parametrize("seed", range(4))
def test_the_payer_alone_is_offered_the_cheapest_covering_payment(seed: int) -> None:
    """The paying seat's view names cards of its hand that cover the debt (its preselection); every
    other seat and the spectators see none; once the laid cards cover the debt, nothing more."""
    state = _paying(seed)
    payer = state.current
    chosen: Any = state.observation(payer)["cheapest_payment"]
    assert chosen
    hand = [state.card(r) for r in state.hands[payer]]
    picked = []
    for name in chosen:
        card = next(c for c in hand if c.name == name)
        hand.remove(card)
        picked.append(card)
    assert payment_value(picked, state.deck.set_values) >= state.owed
    assert state.public_observation()["cheapest_payment"] is None
    assert all(state.observation(s)["cheapest_payment"] is None for s in range(3) if s != payer)
    state.apply(state.parse_action("pay " + " ".join(chosen)))
    assert state.observation(payer)["cheapest_payment"] == []


def test_the_new_fields_depend_only_on_what_the_seat_may_know() -> None:
    """Re-dealing what a seat cannot see leaves its view (hand sets, cheapest payment) unchanged."""
    rng = random.Random(4)
    for seed in range(2):
        kit.check_views_hide_secrets(_paying(seed), rng)
    for state in states_along(GAME, 3, 6, every=11):
        kit.check_views_hide_secrets(state, rng)
