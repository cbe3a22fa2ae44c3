"""Reorganisations (rulebook: '3) Reorganization'): arrangements as text and the moves between them.

An *arrangement* is a seat's stacks as one canonical text: each stack's
corporations bottom first, separated by spaces, the stacks sorted and
separated by `` / `` (``OI-BCD ST-DF / RR-CD``), so two holdings that differ
only in the order of their stacks read the same.  A reorganisation records
every arrangement it has passed through (decision data ``seen``) and offers no
move back to one of them (ruling A-16), so it always ends.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING

from parlour.games.venture.actions import Move
from parlour.games.venture.conglomerates import summarise

if TYPE_CHECKING:
    from parlour.games.venture.content import Deck
    from parlour.games.venture.state import VentureState

SEEN = "seen"
"""The reorganise decision's data field: the arrangements passed through, the start first."""
STACK_BREAK = " / "


def stack_text(deck: Deck, stack: Sequence[int]) -> str:
    """Returns a stack as text: its corporations bottom first."""
    return " ".join(deck.corporations[c].name for c in stack)


def arrangement(deck: Deck, stacks: Sequence[Sequence[int]]) -> str:
    """Returns the canonical text of an arrangement of stacks."""
    return STACK_BREAK.join(sorted(stack_text(deck, s) for s in stacks))


def parse(deck: Deck, text: str) -> list[list[int]] | None:
    """Returns the stacks an arrangement's text names (None if a name is not a corporation)."""
    stacks = []
    for part in text.split(STACK_BREAK):
        stack = []
        for name in part.split():
            corp = deck.corporation(name)
            if corp is None:
                return None
            stack.append(corp.id)
        if not stack:
            return None
        stacks.append(stack)
    return stacks


def moves(deck: Deck, stacks: Sequence[Sequence[int]]) -> Iterator[tuple[Move, str]]:
    """Yields every single move of one corporation and the arrangement it leads to.

    A corporation leaves any place in its stack for the top of another stack it fits, or to stand
    alone (if it is not alone already).  This loop is hot in random playouts: fits() is inlined.
    """
    corps = deck.corporations
    names = [c.name for c in corps]
    table = move_actions(deck)
    texts = [stack_text(deck, s) for s in stacks]
    summaries = [summarise(corps, s) for s in stacks]
    for index, stack in enumerate(stacks):
        for position, cid in enumerate(stack):
            corp = corps[cid]
            rest = [*stack[:position], *stack[position + 1 :]]
            others = texts[:index] + texts[index + 1 :]
            source = [" ".join(names[c] for c in rest)] if rest else []
            if rest:
                yield table[cid][-1], _join([*others, *source, corp.name])
            bit, mask = corp.industry_bit, corp.mask
            for other, (industries, common, top) in enumerate(summaries):
                if other != index and not industries & bit and common & mask:
                    grown = [t for i, t in enumerate(texts) if i not in (index, other)]
                    grown.append(texts[other] + " " + corp.name)
                    yield table[cid][top], _join([*grown, *source])


@cache
def move_actions(deck: Deck) -> list[dict[int, Move]]:
    """Returns every Move of the deck, made once: ``[corp][target]`` and ``[corp][-1]`` for alone."""
    names = [c.name for c in deck.corporations]
    return [{**{t: Move(n, names[t]) for t in range(len(names))}, -1: Move(n, None)} for n in names]


def _join(texts: list[str]) -> str:
    """Returns the canonical text of an arrangement given its stacks' texts."""
    return STACK_BREAK.join(sorted(texts))


def current(state: VentureState, seat: int) -> str:
    """Returns the canonical text of a seat's holdings now."""
    return arrangement(state.deck, state.holdings[seat])


__all__ = ["SEEN", "arrangement", "current", "move_actions", "moves", "parse", "stack_text"]
