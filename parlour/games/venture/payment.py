"""Paying (rulebook: 'Capital Cards', 'The Play'): what a handful of capital cards is worth, what a
player can pay, and the cards that pay a debt most cheaply."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from parlour.core.decisions import Seat
from parlour.games.venture.content import CAPITAL, SET_DENOMINATIONS, Resource
from parlour.games.venture.state import VentureState


def payment_value(cards: Iterable[Resource], set_values: dict[int, int]) -> int:
    """Returns the most the capital cards are worth, grouping symbol cards into sets.

    A set is two to four cards of unlike denominations with one symbol, worth
    ``set_values[size]`` whatever the face values; other cards count at face value.
    """
    total = 0
    by_symbol: dict[str, list[int]] = {}
    for card in cards:
        if card.kind != CAPITAL:
            continue
        if card.symbol:
            counts = by_symbol.setdefault(card.symbol, [0, 0, 0, 0])
            counts[SET_DENOMINATIONS.index(card.value)] += 1
        else:
            total += card.value
    table = (set_values[2], set_values[3], set_values[4])
    for counts in by_symbol.values():
        total += _best_symbol_value(tuple(counts), table)
    return total


@cache
def _best_symbol_value(counts: tuple[int, ...], table: tuple[int, int, int]) -> int:
    """Returns the best value of one symbol's cards (counts of 1, 3, 5, 8) as sets and singles."""
    best = sum(n * d for n, d in zip(counts, SET_DENOMINATIONS, strict=True))
    present = [i for i, n in enumerate(counts) if n]
    for mask in range(1, 1 << len(present)):
        chosen = [present[b] for b in range(len(present)) if mask >> b & 1]
        if len(chosen) < 2:
            continue
        rest = list(counts)
        for i in chosen:
            rest[i] -= 1
        best = max(best, table[len(chosen) - 2] + _best_symbol_value(tuple(rest), table))
    return best


def wealth(state: VentureState, seat: Seat) -> int:
    """Returns the most the seat's capital cards (hand and laid down) can pay."""
    cards = [state.card(r) for r in state.hands[seat]]
    cards += [state.card(r) for r in state.payment]
    return payment_value(cards, state.deck.set_values)


def laid_worth(state: VentureState) -> int:
    """Returns what the capital cards laid down so far are worth."""
    return payment_value((state.card(r) for r in state.payment), state.deck.set_values)


def cheapest_payment(state: VentureState, seat: Seat, budget: int = 20_000) -> list[str]:
    """Returns the capital cards to add that cover the debt and keep the most buying power.

    Only minimal covers matter (adding a card to a cover can only lose value), so a
    depth-first search over card names stops at the first cover on each branch;
    ``budget`` bounds the search on very large hands (the best cover found is kept).
    """
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
