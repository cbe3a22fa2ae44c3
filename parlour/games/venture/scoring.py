"""The scoring of profits (rulebook: 'The Scoring of Profits', 'End-of-Game ... Scoring')."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.games.venture.conglomerates import common_letters, offending, summarise
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
    corps = state.deck.corporations
    total = 0
    for stack in state.holdings[seat]:
        industries, common, _ = summarise(corps, stack)
        if industries.bit_count() == len(stack):  # no two of one industry: stack_profit from the masks
            total += PROFIT_TABLE.get(len(stack), 0) * common.bit_count()
        else:
            total += stack_profit([corps[c] for c in stack])
    return total


def score_round(state: VentureState, reason: str) -> None:
    """Adds every seat's holdings profit to its running total and reports it."""
    earned = [holdings_profit(state, s) for s in range(state.players)]
    for seat, amount in enumerate(earned):
        state.profits[seat] += amount
    if state.logging:
        listing = "; ".join(_seat_scoring(state, s, a) for s, a in enumerate(earned))
        totals = ", ".join(str(p) for p in state.profits)
        state.emit(f"{reason}: {listing} (totals {totals})")


def earning_stacks(state: VentureState, seat: int) -> list[tuple[list[Corporation], int]]:
    """Returns the seat's stacks that earn at a scoring, each with its profit."""
    found = []
    deck = state.deck.corporations
    for stack in state.holdings[seat]:
        corps = [deck[c] for c in stack]
        profit = stack_profit(corps)
        if profit:
            found.append((corps, profit))
    return found


def stack_label(corps: Sequence[Corporation]) -> str:
    """Returns a stack as text for the table: its cards bottom to top, size and common letters."""
    common = "".join(sorted(common_letters(corps)))
    names = " ".join(c.name for c in corps)
    return f"[{names}] ({len(corps)} corporations, common {common})"


def _seat_scoring(state: VentureState, seat: int, amount: int) -> str:
    """Returns what one seat earned at a scoring, stack by stack."""
    stacks = earning_stacks(state, seat)
    if not stacks:
        return f"seat {seat} +0"
    detail = ", ".join(f"{stack_label(corps)} {profit}" for corps, profit in stacks)
    return f"seat {seat} +{amount} from {detail}"
