"""Conglomerates (rulebook: 'Forming Conglomerates'): which stacks are lawful and where a card fits.

A stack is summarised as bit masks (its industries, the letters common to all its
cards) so that legal-move generation tests a fit with two integer operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from parlour.games.venture.content import Corporation

ALL_LETTERS = 0b111111


StackSummary = tuple[int, int, int]
"""A stack as bit masks: (the industries in it, the letters common to all, its top card id)."""


def summarise(corps: Sequence[Corporation], stack: Sequence[int]) -> StackSummary:
    """Returns the summary of a stack of corporation ids (bottom first)."""
    industries, common = 0, ALL_LETTERS
    for cid in stack:
        corp = corps[cid]
        industries |= corp.industry_bit
        common &= corp.mask
    return (industries, common, stack[-1])


def fits(corp: Corporation, summary: StackSummary) -> bool:
    """Returns whether ``corp`` may go on the stack: a new industry and a letter common to all."""
    industries, common, _ = summary
    return not industries & corp.industry_bit and bool(common & corp.mask)


def is_lawful(summary: StackSummary, size: int) -> bool:
    """Returns whether a stack of ``size`` cards is a lawful conglomerate (or lone corporation)."""
    return summary[0].bit_count() == size and bool(summary[1])


class Lettered(Protocol):
    """Anything with letters: a corporation card, or the optimiser's view of one."""

    @property
    def letters(self) -> frozenset[str]:
        """The letters printed on the card."""
        ...


def common_letters(stack: Sequence[Lettered]) -> frozenset[str]:
    """Returns the letters common to every card of a stack (none for an empty stack)."""
    if not stack:
        return frozenset()
    letters = stack[0].letters
    for corp in stack[1:]:
        letters = letters & corp.letters
    return frozenset(letters)


def offending(stack: Sequence[Corporation]) -> list[int]:
    """Returns the positions of the upper card of each same-industry pair ('A word of caution')."""
    seen: set[str] = set()
    found = []
    for position, corp in enumerate(stack):
        if corp.industry in seen:
            found.append(position)
        seen.add(corp.industry)
    return found
