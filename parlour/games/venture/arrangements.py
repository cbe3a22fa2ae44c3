"""Reorganisations (rulebook: '3) Reorganization'): arrangements as text and the moves between them.

An *arrangement* is a seat's stacks as one canonical text: each stack's
corporations bottom first, separated by spaces, the stacks sorted and
separated by `` / `` (``OI-BCD ST-DF / RR-CD``), so two holdings that differ
only in the order of their stacks read the same.  A reorganisation records
every arrangement it has passed through (decision data ``seen``) and offers no
move back to one of them (ruling A-16), so it always ends.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING

from parlour.games.venture.actions import Move
from parlour.games.venture.conglomerates import StackSummary, summarise

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


def unseen_moves(
    deck: Deck,
    stacks: Sequence[Sequence[int]],
    seen: Collection[str],
    summaries: Sequence[StackSummary] | None = None,
) -> list[Move]:
    """Returns the moves of :func:`moves`, in its order, that lead to no arrangement in ``seen`` (given the
    stacks' summaries, when the caller has them).

    The hot path of random playouts: an arrangement is first compared by its key (:func:`key`), which a
    move changes by three numbers (the stack it leaves, that stack without it, and the corporation at its
    new place); only a key that matches one seen is checked against the arrangements seen with that key
    (as sets of stacks: :func:`_reaches`), and no arrangement's text is built.
    """
    places = _place_keys(deck)
    fits = _fit_masks(deck)
    table = move_actions(deck)
    keys, forms = seen_forms(deck, seen)
    tuples = [tuple(s) for s in stacks]
    stack_keys = [_stack_key(places, s) for s in tuples]
    total = 0
    for stack_key in stack_keys:
        total ^= stack_key
    summary_list = [summarise(deck.corporations, s) for s in stacks] if summaries is None else list(summaries)
    alone = places[0]
    found: list[Move] = []
    for index, stack in enumerate(tuples):
        others = total ^ stack_keys[index]
        size = len(stack)
        below = 0  # the key of the corporations below the one moving (their places unchanged)
        for position, cid in enumerate(stack):
            above = 0  # ... and of those above it, each one place lower once it has left
            for higher in range(position + 1, size):
                above ^= places[higher - 1][stack[higher]]
            base = others ^ below ^ above
            if size > 1:
                after = base ^ alone[cid]
                if after not in keys or not _reaches(forms.get(after), tuples, index, position, -1):
                    found.append(table[cid][-1])
            bit, mask = fits[cid]
            for other, (industries, common, top) in enumerate(summary_list):
                if other != index and not industries & bit and common & mask:
                    after = base ^ places[len(tuples[other])][cid]
                    if after not in keys or not _reaches(forms.get(after), tuples, index, position, other):
                        found.append(table[cid][top])
            below ^= places[position][cid]
    return found


def _reaches(
    candidates: list[Form] | None, tuples: list[tuple[int, ...]], index: int, position: int, other: int
) -> bool:
    """Returns whether moving the corporation at ``position`` of stack ``index`` onto stack ``other`` (-1:
    alone) reaches one of ``candidates``, the seen arrangements whose key is the move's (keys may
    collide): the stacks after the move are exactly a candidate's (they are distinct, so the same number
    of stacks, each among the candidate's, is the same set; no form is built, sorted or hashed)."""
    if candidates is None:
        return False
    stack = tuples[index]
    cid, rest = stack[position], stack[:position] + stack[position + 1 :]
    grown = (*tuples[other], cid) if other >= 0 else (cid,)
    count = len(tuples) - (1 if other >= 0 else 0) + (1 if rest else 0)
    for form in candidates:
        if len(form) != count or grown not in form or (rest and rest not in form):
            continue
        same = True
        for i, kept in enumerate(tuples):
            if i != index and i != other and kept not in form:
                same = False
                break
        if same:
            return True
    return False


def key(deck: Deck, stacks: Sequence[Sequence[int]]) -> int:
    """Returns an arrangement's key: the exclusive or of a number for each corporation at its place in
    its stack (:func:`_place_keys`), so the same for the same stacks in any order; two arrangements may
    share a key, one arrangement has one key."""
    places = _place_keys(deck)
    found = 0
    for stack in stacks:
        found ^= _stack_key(places, stack)
    return found


def _stack_key(places: list[list[int]], stack: Sequence[int]) -> int:
    """Returns a stack's part of an arrangement's key."""
    found = 0
    for place, cid in enumerate(stack):
        found ^= places[place][cid]
    return found


@cache
def _place_keys(deck: Deck) -> list[list[int]]:
    """Returns a fixed random 60-bit number for each place in a stack (0 the bottom) and corporation:
    the parts of arrangement keys (small enough for machine integers in the compiled modules)."""
    rng = random.Random(f"arrangement keys of {deck.name}")
    count = len(deck.corporations)
    return [[rng.getrandbits(60) for _ in range(count)] for _ in range(count)]


Form = tuple[tuple[int, ...], ...]
"""An arrangement as its stacks (corporation ids, bottom first), sorted: the same for the stacks in any
order (a tuple of tuples of integers, which the garbage collector stops tracking, unlike a frozenset: the
memo of forms holds up to :data:`FORM_MEMO_LIMIT` of them, which every full collection walked)."""
FORM_MEMO_LIMIT = 100_000
"""The most arrangement texts whose keys and forms are remembered (the memo is emptied when full)."""


def seen_forms(deck: Deck, seen: Collection[str]) -> tuple[frozenset[int], dict[int, list[Form]]]:
    """Returns the keys of the arrangements (as text) seen and their forms by key (several when keys
    collide); a text naming no arrangement has no form and key -1."""
    memo = _form_memo(deck)
    keys = []
    forms: dict[int, list[Form]] = {}
    for text in seen:
        found = memo.get(text)
        if found is None:
            found = remember(deck, text, parse(deck, text))
        code, form = found
        keys.append(code)
        if form is not None:
            listed = forms.get(code)
            if listed is None:
                forms[code] = [form]
            else:
                listed.append(form)
    return frozenset(keys), forms


def remember(deck: Deck, text: str, stacks: Sequence[Sequence[int]] | None) -> tuple[int, Form | None]:
    """Remembers the key and form of an arrangement's text (its stacks, None if it names none)."""
    memo = _form_memo(deck)
    if len(memo) >= FORM_MEMO_LIMIT:
        memo.clear()
    found = memo[text] = (-1, None) if stacks is None else (key(deck, stacks), form(stacks))
    return found


def form(stacks: Sequence[Sequence[int]]) -> Form:
    """Returns an arrangement's form: its stacks as tuples, sorted."""
    return tuple(sorted(map(tuple, stacks)))


@cache
def _form_memo(deck: Deck) -> dict[str, tuple[int, Form | None]]:
    """Returns the deck's memo of arrangement keys and forms by text."""
    return {}


@cache
def _fit_masks(deck: Deck) -> list[tuple[int, int]]:
    """Returns each corporation's industry bit and letter mask, by id."""
    return [(c.industry_bit, c.mask) for c in deck.corporations]


@cache
def move_actions(deck: Deck) -> list[dict[int, Move]]:
    """Returns every Move of the deck by corporation ids (the shared ``Move.of``, found by id in the
    hot loops): ``[corp][target]`` and ``[corp][-1]`` for alone."""
    names = [c.name for c in deck.corporations]
    return [{**{t: Move.of(n, names[t]) for t in range(len(names))}, -1: Move.of(n, None)} for n in names]


def _join(texts: list[str]) -> str:
    """Returns the canonical text of an arrangement given its stacks' texts."""
    return STACK_BREAK.join(sorted(texts))


TEXT_MEMO_LIMIT = 100_000
"""The most holdings (stacks in their order) whose arrangement text is remembered (emptied when full)."""


@cache
def _text_memo(deck: Deck) -> dict[tuple[tuple[int, ...], ...], str]:
    """Returns the deck's memo of arrangement texts by holdings (stacks in the order held)."""
    return {}


def current(state: VentureState, seat: int) -> str:
    """Returns the canonical text of a seat's holdings now (its key and form remembered: a reorganisation
    records it among those seen).  Random reorganisations pass through the same holdings again and
    again, so the text is remembered by the holdings as they stand (stacks in their order)."""
    deck = state.deck
    ordered = tuple(map(tuple, state.holdings[seat]))
    texts = _text_memo(deck)
    text = texts.get(ordered)
    if text is None:
        if len(texts) >= TEXT_MEMO_LIMIT:
            texts.clear()
        # The stacks' texts are remembered too: a move changes two stacks, the others recur.
        stack_texts = _stack_text_memo(deck)
        if len(stack_texts) >= TEXT_MEMO_LIMIT:
            stack_texts.clear()
        parts = []
        for stack in ordered:
            part = stack_texts.get(stack)
            if part is None:
                part = stack_texts[stack] = stack_text(deck, stack)
            parts.append(part)
        text = texts[ordered] = _join(parts)
    forms = _form_memo(deck)
    if text not in forms:
        if len(forms) >= FORM_MEMO_LIMIT:
            forms.clear()
        forms[text] = (key(deck, ordered), form(ordered))  # remember(): key and form
    return text


@cache
def _stack_text_memo(deck: Deck) -> dict[tuple[int, ...], str]:
    """Returns the deck's memo of stack texts by stack (ids, bottom first)."""
    return {}


__all__ = [
    "SEEN",
    "arrangement",
    "current",
    "key",
    "move_actions",
    "moves",
    "parse",
    "remember",
    "seen_forms",
    "stack_text",
    "unseen_moves",
]
