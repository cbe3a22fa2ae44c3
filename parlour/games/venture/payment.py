"""Paying (rulebook: 'Capital Cards', 'The Play'): what a handful of capital cards is worth."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from parlour.games.venture.content import CAPITAL, SET_DENOMINATIONS, Resource


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
