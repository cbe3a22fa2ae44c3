"""The cheapest payment (the bots' plan for a debt) as searched over counts and remembered, against the
search written plainly over cards: the same cards, at the opening of a payment and after each card laid."""

from __future__ import annotations

import random

import pytest

from parlour.games.venture import VentureState, payment
from parlour.games.venture.content import CAPITAL, Resource
from parlour.games.venture.payment import cheapest_payment, payment_value

from ..typed import VENTURE as GAME


def plainly(state: VentureState, seat: int, budget: int = 20_000) -> list[str]:
    """The cheapest payment as first written: a depth-first search over card names, worth recounted."""
    laid = [state.card(r) for r in state.payment]
    hand = [state.card(r) for r in state.hands[seat] if state.card(r).kind == CAPITAL]
    sets = state.deck.set_values
    kinds: dict[str, list[Resource]] = {}
    for card in sorted(hand, key=lambda c: (-c.value, c.name)):
        kinds.setdefault(card.name, []).append(card)
    names = list(kinds)
    best: tuple[int, list[str]] | None = None
    nodes = 0

    def search(start: int, chosen: list[Resource], counts: dict[str, int]) -> None:
        nonlocal best, nodes
        nodes += 1
        if payment_value(laid + chosen, sets) >= state.owed:
            rest = list(hand)
            for card in chosen:
                rest.remove(card)
            kept = payment_value(rest, sets)
            if best is None or kept > best[0]:
                best = (kept, [c.name for c in chosen])
            return
        for index in range(start, len(names)):
            name = names[index]
            if counts.get(name, 0) < len(kinds[name]) and nodes < budget:
                counts[name] = counts.get(name, 0) + 1
                search(index, [*chosen, kinds[name][counts[name] - 1]], counts)
                counts[name] -= 1

    search(0, [], {})
    return best[1] if best is not None else [c.name for c in hand]


def situation(rng: random.Random, seed: int) -> VentureState:
    """Returns seat 0 owing a random debt with random capital in hand and laid down (and a proxy or two)."""
    state = GAME.new_state(4, seed)
    cards = state.deck.resources
    capital = [r.id for r in cards if r.kind == CAPITAL]
    other = [r.id for r in cards if r.kind != CAPITAL]
    drawn = rng.sample(capital, rng.randint(0, 16))
    split = rng.randint(0, len(drawn))
    state.hands[0] = drawn[:split] + rng.sample(other, rng.randint(0, 2))
    rng.shuffle(state.hands[0])
    state.payment = drawn[split:]
    state.owed = rng.randint(0, 150)
    return state


@pytest.mark.parametrize("cases", [300, pytest.param(4000, marks=pytest.mark.slow)])
def test_the_plan_is_the_plain_search_s_at_every_step_of_a_payment(cases: int) -> None:
    """A payment opens, its plan's cards are laid one by one (the plan after each comes from the memo,
    remembered when the payment opened) and every plan equals the plain search's; small budgets too."""
    rng = random.Random(cases)
    remembered = 0
    for case in range(cases):
        state = situation(rng, case)
        budget = rng.choice((20_000, 20_000, rng.randint(1, 60)))
        if rng.random() < 0.5:
            payment._PLANS.clear()
        for _ in range(20):
            key = payment._key(state, 0, budget)
            remembered += key in payment._PLANS
            plan = cheapest_payment(state, 0, budget)
            assert plan == plainly(state, 0, budget), (case, budget)
            first: str | None = plan[0] if plan else None
            held = [r for r in state.hands[0] if state.card(r).name == first]
            if not held:
                break
            state.hands[0].remove(held[0])
            state.payment.append(held[0])
    assert remembered > cases // 2  # the plans after a card laid were mostly remembered, and checked


def test_a_forgotten_memo_gives_the_same_plans() -> None:
    rng = random.Random(7)
    states = [situation(rng, case) for case in range(60)]
    first = [cheapest_payment(s, 0) for s in states]
    payment._PLANS.clear()
    assert [cheapest_payment(s, 0) for s in reversed(states)] == list(reversed(first))


def test_a_card_counted_twice_is_refused_not_spilled_into_the_next_name() -> None:
    """Counts are packed into one integer, each name in bits that hold the deck's most cards of one name;
    a hand counting one card more than that is refused, not read as another name's cards."""
    state = GAME.new_state(4, 0)
    capital = [r for r in state.deck.resources if r.kind == CAPITAL]
    name = capital[0].name
    most = max(sum(1 for c in capital if c.name == n) for n in {c.name for c in capital})
    state.hands[0] = [capital[0].id] * (most + 1)
    state.owed = 1
    payment._PLANS.clear()
    with pytest.raises(ValueError, match=f"{most + 1} {name} cards counted"):
        cheapest_payment(state, 0)
    with pytest.raises(ValueError, match="more than the deck's"):
        payment.wealth(state, 0)
    state.hands[0] = [capital[0].id] * most
    assert payment.wealth(state, 0) == payment_value([capital[0]] * most, state.deck.set_values)
