"""The scoring of profits (rulebook: 'The Scoring of Profits', 'End-of-Game ... Scoring')."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.games.venture.conglomerates import common_letters, offending
from parlour.games.venture.content import Corporation
from parlour.games.venture.options import PROFIT_TABLE

if TYPE_CHECKING:
    from parlour.games.venture.state import VentureState


def stack_profit(stack: Sequence[Corporation]) -> int:
    """Returns a conglomerate's profit: the size's amount times the letters common to all.

    Ruling A-6(e): a stack holding two corporations of one industry scores as if
    each offending (upper) card stood alone.
    """
    bad = set(offending(stack))
    if bad:
        stack = [c for i, c in enumerate(stack) if i not in bad]
    amount = PROFIT_TABLE.get(len(stack), 0)
    return amount * len(common_letters(stack)) if amount else 0


def holdings_profit(state: VentureState, seat: int) -> int:
    """Returns what a seat's holdings earn in one scoring."""
    return sum(stack_profit([state.corp(c) for c in s]) for s in state.holdings[seat])


def score_round(state: VentureState, reason: str) -> None:
    """Adds every seat's holdings profit to its running total and reports it."""
    earned = [holdings_profit(state, s) for s in range(state.players)]
    for seat, amount in enumerate(earned):
        state.profits[seat] += amount
    if state.logging:
        listing = ", ".join(f"seat {s} +{a}" for s, a in enumerate(earned))
        state.emit(f"{reason}: {listing} (totals {state.profits})")
