"""Conglomerates (rulebook: 'Forming Conglomerates'): which stacks are valid and where a card fits."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.venture.content import Corporation


def common_letters(stack: Sequence[Corporation]) -> frozenset[str]:
    """Returns the letters common to every corporation of a stack."""
    letters = stack[0].letters
    for corp in stack[1:]:
        letters = letters & corp.letters
    return letters


def fits(corp: Corporation, stack: Sequence[Corporation]) -> bool:
    """Returns whether ``corp`` may be put on ``stack``: a new industry and a letter common to all."""
    if any(c.industry == corp.industry for c in stack):
        return False
    return bool(common_letters(stack) & corp.letters)


def is_valid(stack: Sequence[Corporation]) -> bool:
    """Returns whether a stack is a lawful conglomerate (or lone corporation)."""
    industries = {c.industry for c in stack}
    return len(industries) == len(stack) and bool(common_letters(stack))


def offending(stack: Sequence[Corporation]) -> list[int]:
    """Returns the positions of the upper card of each same-industry pair (rulebook: 'A word of caution')."""
    seen: set[str] = set()
    found = []
    for position, corp in enumerate(stack):
        if corp.industry in seen:
            found.append(position)
        seen.add(corp.industry)
    return found
