"""An exact search for the best reorganisation of small hands, in pure Python (no scipy).

It finds the best profit of a hand and tells whether one arrangement alone earns it.  When one
does, that arrangement is the one the optimiser's MILP returns too (the MILP returns *an* optimal
arrangement of scoring stacks and leftover single cards, and there is only one), so under option
``best_ties=solver`` the MILP is asked only when several arrangements tie (which one HiGHS picks then
is its own affair) or the hand is too large for this search.  Under ``best_ties=first`` (ruling A-19)
:func:`first` names the first best arrangement in a fixed order instead, and :func:`first_reaching`
does so for a large hand once the MILP has given its best profit.

The search runs over the cards still to place: the first of them (in a fixed order, the card in
fewest stacks first) either stands alone or joins one of the scoring stacks (distinct industries,
a letter common to all, a size the table pays for) that lie within the cards left.  Each partition
is reached by exactly one path, so counting the best paths (up to two) counts the best
arrangements.  Only stacks that earn something count as stacks: the MILP forms no other.

:func:`first` and :func:`best_reached` run a branch-and-bound form of it (:func:`_brancher`): each
card's best share of a stack bounds what the cards left can earn, so branches that cannot beat the
best total found are cut.  Its answers are exact, the same as the memoised search's (tests); where
that search's budget decides whether a hand is too large, it still runs (:func:`_pack_least`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = [
    "SIZE_LIMIT",
    "CardKey",
    "Solution",
    "Stacks",
    "best_reached",
    "canonical",
    "first",
    "first_reaching",
    "solve",
    "stack_order",
]

CardKey = tuple[str, str, tuple[str, ...]]
"""A card as the optimiser snapshots it: (id, industry, sorted letters)."""
Stacks = tuple[tuple[str, ...], ...]
"""An arrangement: stacks of card ids, bottom to top, largest stacks first."""

SIZE_LIMIT = 14
"""The largest hand this search takes; larger ones go to the MILP (the search grows fast with size)."""
STEP_BUDGET = 12_000
"""The most positions the search visits before it leaves the hand to the MILP (a bound on its time)."""
REACH_BUDGET = 20_000
"""The most positions :func:`first_reaching` visits before it gives up (a bound on its time)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The best profit of a hand and, when no other arrangement earns as much, that arrangement."""

    profit: int
    stacks: Stacks | None
    """The only best arrangement in the optimiser's canonical form; None when several tie."""


class _OverBudget(Exception):
    """The search visited more positions than its budget."""


class _Budget:
    """Counts the positions a search visits, raising _OverBudget at the first one past its budget."""

    __slots__ = ("left",)

    def __init__(self, budget: int) -> None:
        self.left = budget

    def visit(self) -> None:
        """Counts one more position visited."""
        self.left -= 1
        if self.left < 0:
            raise _OverBudget


def stack_order(cards: list[CardKey]) -> tuple[str, ...]:
    """Return ids bottom to top: ascending value (it grows with the letters), then id; dearest on top."""
    return tuple(cid for _, cid in sorted((len(ls), cid) for cid, _, ls in cards))


def canonical(groups: list[list[CardKey]]) -> Stacks:
    """Return groups of cards as the optimiser's arrangement: each stack ordered, largest first."""
    return tuple(sorted((stack_order(g) for g in groups), key=lambda s: (-len(s), s)))


@functools.lru_cache(maxsize=4096)
def solve(cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...]) -> Solution | None:
    """Return the best profit and the only best arrangement (if one) of the cards; None when the
    hand is larger than :data:`SIZE_LIMIT` or the search runs over :data:`STEP_BUDGET`."""
    found = _search(cards, table_items, False)
    if found is None:
        return None
    profit, groups, unique = found
    return Solution(profit, _arrangement(cards, groups) if unique else None)


@functools.lru_cache(maxsize=4096)
def first(cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...]) -> Solution | None:
    """Return the best profit and the first best arrangement of the cards (ruling A-19,
    ``best_ties=first``): written as its stacks' card names, each stack in alphabetical order and the
    stacks in alphabetical order, the least such list; None as :func:`solve` (too large a hand).

    Found by :func:`_brancher`'s search, which cuts branches :func:`_pack` visits, when :func:`_pack`
    could not run over its budget (it visits each set of the cards in stacks at most once); else by
    :func:`_pack`, whose budget then says whether the hand is too large."""
    if len(cards) > SIZE_LIMIT:
        return None
    brancher = _brancher(cards, table_items, _Budget(1 << len(cards)))
    if (1 << brancher.active.bit_count()) - 1 > STEP_BUDGET:
        found = _search(cards, table_items, True)
        if found is None:
            return None
        profit, groups, _ = found
        return Solution(profit, _arrangement(cards, groups))
    total = _bounded_best(brancher)
    return Solution((total + brancher.fixed) // 60, _arrangement(cards, _bounded_least(brancher, total)))


def _search(
    cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...], least: bool
) -> tuple[int, list[int], bool] | None:
    """Return :func:`_pack`'s answer for the cards (``least``: the first best arrangement), None past
    the size limit or the budget."""
    if len(cards) > SIZE_LIMIT:
        return None
    table = dict(table_items)
    masks = _letter_masks(cards)
    industries = sorted({ind for _, ind, _ in cards})
    ind_of = [industries.index(ind) for _, ind, _ in cards]
    alone = [table.get(1, 0) * m.bit_count() for m in masks]
    stacks = _scoring_stacks(ind_of, masks, table)
    try:
        return _pack_least(len(cards), stacks, alone) if least else _pack(len(cards), stacks, alone)
    except _OverBudget:
        return None


@functools.lru_cache(maxsize=1024)
def first_reaching(
    cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...], target: int
) -> Stacks | None:
    """Return the first arrangement of the cards (in :func:`first`'s order) that earns ``target``, the
    best profit (found by the MILP for a hand :func:`first` does not take); None if there is none or
    the search visits more than :data:`REACH_BUDGET` positions.

    A depth-first search: the first card left (by name) stands alone or joins one of its stacks, in
    that order; a branch is cut when even every card left earning its best share (its stack's profit
    over its size, the most of its stacks or alone) cannot reach the target."""
    reach, full, bound = _reacher(cards, table_items, _Budget(REACH_BUDGET))
    try:
        groups = reach(full, 60 * target, bound)
    except _OverBudget:
        return None
    return None if groups is None else _arrangement(cards, groups)


@functools.lru_cache(maxsize=1024)
def best_reached(cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...]) -> int | None:
    """Return the best profit of the cards, found by :func:`_brancher`'s search; None past
    :data:`BEST_BUDGET` positions (the MILP answers then, with the same profit: both are exact)."""
    try:
        brancher = _brancher(_by_uses(cards, table_items), table_items, _Budget(BEST_BUDGET))
        return (_bounded_best(brancher) + brancher.fixed) // 60
    except _OverBudget:
        return None


BEST_BUDGET = 10_000
"""The most positions :func:`best_reached` visits before it leaves the hand to the MILP (which takes
about 10 ms on a hand of 20; the search visits about 100 positions a millisecond)."""

Reach = Callable[[int, int, int], "list[int] | None"]
"""A search of the first stacks (bit masks) of a set of cards earning a need (times 60), given the
sum of the cards' shares."""


def _reacher(
    cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...], budget: _Budget
) -> tuple[Reach, int, int]:
    """Return :func:`first_reaching`'s search of the cards (its memo of failures kept between calls),
    the set of all cards and the sum of their shares (times 60)."""
    table = dict(table_items)
    masks = _letter_masks(cards)
    industries = sorted({ind for _, ind, _ in cards})
    ind_of = [industries.index(ind) for _, ind, _ in cards]
    # Profits times 60, so that every share (a profit over a size of 1 to 6) is a whole number.
    alone = [60 * table.get(1, 0) * m.bit_count() for m in masks]
    share = list(alone)
    # The stacks by their first card, in order (their cards, ascending, compared).
    by_card = _stack_options(ind_of, masks, table)
    for options in by_card:
        for members_list, _, value, _ in options:
            part = value // len(members_list)
            for i in members_list:
                if part > share[i]:
                    share[i] = part
    # Each stack's cards' shares, summed once (the shares are final now): (members, value, shares).
    stacks_of = [[(m, v, sum(share[i] for i in ms)) for ms, m, v, _ in options] for options in by_card]
    return _Reacher(alone, share, stacks_of, budget).reach, (1 << len(cards)) - 1, sum(share)


class _Reacher:
    """:func:`first_reaching`'s search of a hand (profits times 60), remembering its failures by set of cards.

    A class, not a closure: a recursive closure is a reference cycle, which only the garbage collector
    frees (with everything it remembered), and random playouts made one at every hand searched."""

    __slots__ = ("alone", "budget", "failed", "share", "stacks_of")

    def __init__(
        self, alone: list[int], share: list[int], stacks_of: list[list[tuple[int, int, int]]], budget: _Budget
    ) -> None:
        self.alone, self.share, self.stacks_of, self.budget = alone, share, stacks_of, budget
        self.failed: dict[int, int] = {}

    def reach(self, mask: int, need: int, bound: int) -> list[int] | None:
        """The first stacks (bit masks) of the cards in ``mask`` earning ``need``; ``bound``: their shares."""
        if not mask:
            return [] if need <= 0 else None
        failed = self.failed
        if bound < need or failed.get(mask, need + 1) <= need:
            return None
        self.budget.visit()
        low = mask & -mask
        card = low.bit_length() - 1
        found = self.reach(mask ^ low, need - self.alone[card], bound - self.share[card])
        if found is not None:
            return found
        for members, value, shares in self.stacks_of[card]:
            if members & mask == members:
                found = self.reach(mask ^ members, need - value, bound - shares)
                if found is not None:
                    return [members, *found]
        failed[mask] = min(need, failed.get(mask, need))
        return None


def _arrangement(cards: tuple[CardKey, ...], groups: list[int]) -> Stacks:
    """Return the canonical arrangement of the cards: the groups (bit masks) and the rest alone."""
    used = 0
    for g in groups:
        used |= g
    parts = [[cards[i] for i in range(len(cards)) if g >> i & 1] for g in groups]
    parts += [[cards[i]] for i in range(len(cards)) if not used >> i & 1]
    return canonical(parts)


def _letter_masks(cards: tuple[CardKey, ...]) -> list[int]:
    """Return each card's letters as a bit mask (bits given to letters as first met)."""
    bits: dict[str, int] = {}
    masks = []
    for _, _, letters in cards:
        mask = 0
        for letter in letters:
            mask |= bits.setdefault(letter, 1 << len(bits))
        masks.append(mask)
    return masks


def _scoring_stacks(ind_of: list[int], masks: list[int], table: Mapping[int, int]) -> list[tuple[int, int]]:
    """Return every stack of two or more cards that earns: (its cards as a bit mask, its profit)."""
    top = max((k for k, v in table.items() if v > 0), default=0)
    worth = [table.get(k, 0) if k >= 2 else 0 for k in range(top + 1)]
    order = sorted(range(len(masks)), key=lambda i: ind_of[i])
    grower = _ScoringStacks(worth, top, order, masks, ind_of)
    if top >= 2:
        for position, card in enumerate(order):
            grower.grow(position + 1, 1 << card, masks[card], 1, 1 << ind_of[card])
    return grower.found


class _ScoringStacks:
    """:func:`_scoring_stacks`' growing of stacks (a class, not a recursive closure: :class:`_Reacher`)."""

    __slots__ = ("found", "ind_of", "masks", "order", "top", "worth")

    def __init__(
        self, worth: list[int], top: int, order: list[int], masks: list[int], ind_of: list[int]
    ) -> None:
        self.worth, self.top, self.order, self.masks, self.ind_of = worth, top, order, masks, ind_of
        self.found: list[tuple[int, int]] = []

    def grow(self, start: int, members: int, common: int, size: int, industries: int) -> None:
        """Records the stack ``members`` if it earns, then every stack grown from it by later cards."""
        worth, order, masks, ind_of = self.worth, self.order, self.masks, self.ind_of
        if worth[size]:
            self.found.append((members, worth[size] * common.bit_count()))
        if size == self.top:
            return
        for position in range(start, len(order)):
            card = order[position]
            shared = common & masks[card]
            if shared and not industries >> ind_of[card] & 1:
                self.grow(position + 1, members | 1 << card, shared, size + 1, industries | 1 << ind_of[card])


def _pack(n: int, stacks: list[tuple[int, int]], alone: list[int]) -> tuple[int, list[int], bool]:
    """Return the best total over partitions into scoring stacks and single cards, the stacks of a
    best one (bit masks) and whether it is the only best one; raise _OverBudget past the budget."""
    order, _, by_first, ranked_alone, fixed = _ranking(n, stacks, alone)
    search = _Pack(by_first, ranked_alone)
    memo = search.memo
    total, count, _ = search.best((1 << len(order)) - 1)
    groups = []
    mask = (1 << len(order)) - 1
    while mask:
        pick = memo[mask][2]
        if pick:
            groups.append(_renumber_back(pick, order))
            mask ^= pick
        else:
            mask ^= mask & -mask
    return total + fixed, groups, count == 1


class _Pack:
    """:func:`_pack`'s memoised search (a class, not a recursive closure: see :class:`_Reacher`)."""

    __slots__ = ("budget", "by_first", "memo", "ranked_alone")

    def __init__(self, by_first: list[list[tuple[int, int]]], ranked_alone: list[int]) -> None:
        self.by_first, self.ranked_alone = by_first, ranked_alone
        self.memo: dict[int, tuple[int, int, int]] = {0: (0, 1, 0)}
        self.budget = _Budget(STEP_BUDGET)

    def best(self, mask: int) -> tuple[int, int, int]:
        """(best total, number of best partitions up to 2, the stack the first card joins or 0)."""
        found = self.memo.get(mask)
        if found is not None:
            return found
        self.budget.visit()
        low = mask & -mask
        first = low.bit_length() - 1
        total, count, _ = self.best(mask ^ low)
        total += self.ranked_alone[first]
        pick = 0
        for members, value in self.by_first[first]:
            if members & mask == members:
                sub, ways, _ = self.best(mask ^ members)
                sub += value
                if sub > total:
                    total, count, pick = sub, ways, members
                elif sub == total:
                    count = min(2, count + ways)
        self.memo[mask] = found = (total, count, pick)
        return found


def _ranking(
    n: int, stacks: list[tuple[int, int]], alone: list[int]
) -> tuple[list[int], list[int], list[list[tuple[int, int]]], list[int], int]:
    """Return :func:`_pack`'s numbering of the cards in stacks: the cards by rank, each card's bit by
    rank, the stacks (bits by rank) by their first card, what each card earns alone by rank, and what
    the cards in no stack earn."""
    active = 0
    uses = [0] * n
    for members, _ in stacks:
        active |= members
        for i in range(n):
            uses[i] += members >> i & 1
    fixed = sum(alone[i] for i in range(n) if not active >> i & 1)
    # The card in fewest stacks goes first: it branches least.  Cards are renumbered in that order
    # (bit r is the card of rank r), so the first card left is the lowest bit of what is left.
    order = sorted((i for i in range(n) if active >> i & 1), key=lambda i: (uses[i], i))
    rank_bit = [0] * n
    for rank, card in enumerate(order):
        rank_bit[card] = 1 << rank
    by_first: list[list[tuple[int, int]]] = [[] for _ in order]
    for members, value in stacks:
        ranked = _ranked(members, rank_bit)
        by_first[(ranked & -ranked).bit_length() - 1].append((ranked, value))
    return order, rank_bit, by_first, [alone[card] for card in order], fixed


def _pack_least(n: int, stacks: list[tuple[int, int]], alone: list[int]) -> tuple[int, list[int], bool]:
    """Return :func:`_pack`'s best total and the stacks of the first best partition in :func:`_least`'s
    order (the search visits the same sets as :func:`_pack`'s, so it runs over the budget alike, but
    keeps only totals); its third answer (whether the best is the only one) is not worked out: False."""
    order, rank_bit, by_first, ranked_alone, fixed = _ranking(n, stacks, alone)
    search = _PackLeast(by_first, ranked_alone)
    total = search.best((1 << len(order)) - 1)
    return total + fixed, _least(order, stacks, rank_bit, ranked_alone, search.best), False


class _PackLeast:
    """:func:`_pack_least`'s memoised search (a class, not a recursive closure: see :class:`_Reacher`)."""

    __slots__ = ("budget", "by_first", "memo", "ranked_alone")

    def __init__(self, by_first: list[list[tuple[int, int]]], ranked_alone: list[int]) -> None:
        self.by_first, self.ranked_alone = by_first, ranked_alone
        self.memo: dict[int, int] = {0: 0}
        self.budget = _Budget(STEP_BUDGET)

    def best(self, mask: int) -> int:
        """The best total of the cards in ``mask`` (bits by rank)."""
        found = self.memo.get(mask)
        if found is not None:
            return found
        self.budget.visit()
        low = mask & -mask
        first = low.bit_length() - 1
        total = self.best(mask ^ low) + self.ranked_alone[first]
        for members, value in self.by_first[first]:
            if members & mask == members:
                sub = self.best(mask ^ members) + value
                if sub > total:
                    total = sub
        self.memo[mask] = total
        return total


def _cards_of(members: int) -> tuple[int, ...]:
    """Return the cards of a set (bits by card), in ascending order."""
    cards = []
    while members:
        low = members & -members
        cards.append(low.bit_length() - 1)
        members ^= low
    return tuple(cards)


def _ranked(members: int, rank_bit: list[int]) -> int:
    """Return a set of cards (bits by card) as bits by rank; a card without a rank has bit 0."""
    ranked = 0
    while members:
        low = members & -members
        ranked |= rank_bit[low.bit_length() - 1]
        members ^= low
    return ranked


def _renumber_back(ranked: int, order: list[int]) -> int:
    """Return a set of cards as bits by rank in ``order`` as bits by card."""
    return sum(1 << card for rank, card in enumerate(order) if ranked >> rank & 1)


def _least(
    order: list[int],
    stacks: list[tuple[int, int]],
    rank_bit: list[int],
    ranked_alone: list[int],
    best: Callable[[int], int],
) -> list[int]:
    """Return the stacks (bit masks by card) of the first best partition: card by card in the cards'
    order (the cards come sorted by name), the least stack for the first card not yet placed among
    those a best partition of the cards left may give it (alone first, then stacks as sorted card
    numbers), so the sorted list of sorted stacks is the least of the best partitions'.

    ``best`` is the search's memoised best total of any set of cards (bits by rank)."""
    by_card: dict[int, list[tuple[tuple[int, ...], int, int, int]]] = {card: [] for card in order}
    for members, value in stacks:
        cards = _cards_of(members)
        ranked = _ranked(members, rank_bit)
        by_card[cards[0]].append((cards, ranked, value, members))
    for options in by_card.values():
        options.sort()
    groups: list[int] = []
    mask = (1 << len(order)) - 1
    for card in sorted(order):
        bit = rank_bit[card]
        if not mask & bit:
            continue
        target = best(mask)
        rank = bit.bit_length() - 1
        if best(mask ^ bit) + ranked_alone[rank] == target:
            mask ^= bit
            continue
        for _, ranked, value, members in by_card[card]:
            if ranked & mask == ranked and best(mask ^ ranked) + value == target:
                groups.append(members)
                mask ^= ranked
                break
    return groups


# ---------------------------------------------------------------- branch and bound
Option = tuple[tuple[int, ...], int, int, int]
"""A scoring stack as :func:`_brancher` keeps it: (its cards, ascending; its cards as bits; its profit
times 60; the sum of its cards' shares)."""


class _Brancher:
    """A hand ready for :func:`_brancher`'s search, in profits times 60, and the search (:meth:`best`,
    remembering what it learns of each set of cards; a method, not a recursive closure: see
    :class:`_Reacher`)."""

    __slots__ = ("above", "active", "alone", "budget", "by_first", "exact", "fixed", "share")

    def __init__(
        self,
        active: int,
        alone: list[int],
        share: list[int],
        by_first: list[list[Option]],
        fixed: int,
        budget: _Budget,
    ) -> None:
        self.active = active
        """The cards in some scoring stack (bits by card)."""
        self.alone = alone
        """What each card earns alone."""
        self.share = share
        """Each card's best share: its stacks' profit over their size (rounded up), the most of its
        stacks, or what it earns alone if more."""
        self.by_first = by_first
        """The scoring stacks by their first card, in order (the cards, ascending, compared)."""
        self.fixed = fixed
        """What the cards in no scoring stack earn (alone)."""
        self.budget = budget
        self.exact: dict[int, int] = {0: 0}
        self.above: dict[int, int] = {}

    def best(self, mask: int, bound: int, floor: int) -> int:
        """The best total of the cards in ``mask`` if above ``floor``, else a bound not above it."""
        if bound <= floor:
            return bound
        found = self.exact.get(mask)
        if found is not None:
            return found
        found = self.above.get(mask)
        if found is not None and found <= floor:
            return found
        self.budget.visit()
        low = mask & -mask
        first = low.bit_length() - 1
        # The first card's stacks (a good total early cuts more), then the card alone.
        total, beat = -1, floor
        for _, members, value, shares in self.by_first[first]:
            if members & mask == members:
                sub = self.best(mask ^ members, bound - shares, beat - value) + value
                if sub > total:
                    total = sub
                    if sub > beat:
                        beat = sub
        lone = self.alone[first]
        sub = self.best(mask ^ low, bound - self.share[first], beat - lone) + lone
        if sub > total:
            total = sub
        # Exact when it beats the floor (each branch that did not is bounded by it), else a bound.
        if total > floor:
            self.exact[mask] = total
        else:
            self.above[mask] = total
        return total


def _stack_options(ind_of: list[int], masks: list[int], table: Mapping[int, int]) -> list[list[Option]]:
    """Return :func:`_scoring_stacks`' stacks by their first card, each with its cards and profit
    (times 60) and no shares yet; the cards are taken in their order, so each stack's come ascending."""
    top = max((k for k, v in table.items() if v > 0), default=0)
    worth = [60 * table.get(k, 0) if k >= 2 else 0 for k in range(top + 1)]
    grower = _StackOptions(worth, top, masks, ind_of)
    if top >= 2:
        for card in range(len(masks)):
            grower.grow(card + 1, (card,), 1 << card, masks[card], 1 << ind_of[card])
    return grower.found


class _StackOptions:
    """:func:`_stack_options`' growing of stacks (a class, not a recursive closure: see :class:`_Reacher`)."""

    __slots__ = ("found", "ind_of", "masks", "top", "worth")

    def __init__(self, worth: list[int], top: int, masks: list[int], ind_of: list[int]) -> None:
        self.worth, self.top, self.masks, self.ind_of = worth, top, masks, ind_of
        self.found: list[list[Option]] = [[] for _ in masks]

    def grow(self, start: int, members: tuple[int, ...], bits: int, common: int, industries: int) -> None:
        """Records the stack ``members`` if it earns, then every stack grown from it by later cards."""
        worth, masks, ind_of = self.worth, self.masks, self.ind_of
        size = len(members)
        if worth[size]:
            self.found[members[0]].append((members, bits, worth[size] * common.bit_count(), 0))
        if size == self.top:
            return
        for card in range(start, len(masks)):
            shared = common & masks[card]
            if shared and not industries >> ind_of[card] & 1:
                self.grow(
                    card + 1, (*members, card), bits | 1 << card, shared, industries | 1 << ind_of[card]
                )


def _by_uses(cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...]) -> tuple[CardKey, ...]:
    """Return the cards in the order :func:`_pack` ranks them, the card in fewest stacks first (the
    search of a large hand's best total branches least so)."""
    masks = _letter_masks(cards)
    industries = sorted({ind for _, ind, _ in cards})
    ind_of = [industries.index(ind) for _, ind, _ in cards]
    uses = [0] * len(cards)
    for options in _stack_options(ind_of, masks, dict(table_items)):
        for members, *_ in options:
            for card in members:
                uses[card] += 1
    return tuple(cards[i] for i in sorted(range(len(cards)), key=lambda i: (uses[i], i)))


def _brancher(
    cards: tuple[CardKey, ...], table_items: tuple[tuple[int, int], ...], budget: _Budget
) -> _Brancher:
    """Return the cards' branch-and-bound search of the best total: the first card left (by name) stands
    alone or joins one of its stacks, a branch cut when its cards' shares cannot beat the floor; exact
    totals and bounds are remembered by set of cards."""
    table = dict(table_items)
    masks = _letter_masks(cards)
    industries = sorted({ind for _, ind, _ in cards})
    ind_of = [industries.index(ind) for _, ind, _ in cards]
    by_first = _stack_options(ind_of, masks, table)
    alone = [60 * table.get(1, 0) * m.bit_count() for m in masks]
    # Step 1: each card's best share (rounded up: a bound) and the cards in some stack.
    share = list(alone)
    active = 0
    for options in by_first:
        for members, bits, value, _ in options:
            active |= bits
            part = -(-value // len(members))
            for card in members:
                if part > share[card]:
                    share[card] = part
    # Step 2: each stack's shares.
    for options in by_first:
        options[:] = [(m, b, v, sum(share[c] for c in m)) for m, b, v, _ in options]
    fixed = sum(alone[i] for i in range(len(cards)) if not active >> i & 1)
    return _Brancher(active, alone, share, by_first, fixed, budget)


def _bounded_best(brancher: _Brancher) -> int:
    """Return the best total of the brancher's cards in stacks (times 60, the fixed cards left out).

    The search starts from what the dearest stacks earn, each taken when its cards are still free (a
    total reached, so the best beats what is one less: the search's answer is exact)."""
    active = brancher.active
    bound = sum(brancher.share[c] for c in range(active.bit_length()) if active >> c & 1)
    used = reached = 0
    for _, members, value, _ in sorted((o for options in brancher.by_first for o in options), key=_dearest):
        if not members & used:
            used |= members
            reached += value
    alone = brancher.alone
    free = active & ~used
    reached += sum(alone[c] for c in range(free.bit_length()) if free >> c & 1)
    return brancher.best(active, bound, reached - 1)


def _dearest(option: Option) -> int:
    """Return the sort key that puts the dearest stacks first."""
    return -option[2]


def _bounded_least(brancher: _Brancher, total: int) -> list[int]:
    """Return :func:`_least`'s stacks (bit masks by card) of the first best partition of the cards in
    stacks, given their best total (times 60): card by card by name, alone or the first of its stacks
    that leaves the cards left able to earn what is left to earn."""
    best, share, alone, by_first = brancher.best, brancher.share, brancher.alone, brancher.by_first
    groups: list[int] = []
    mask = brancher.active
    bound = sum(share[c] for c in range(mask.bit_length()) if mask >> c & 1)
    need = total
    while mask:
        bit = mask & -mask
        card = bit.bit_length() - 1
        left = need - alone[card]
        if best(mask ^ bit, bound - share[card], left - 1) >= left:
            mask, bound, need = mask ^ bit, bound - share[card], left
            continue
        for _, members, value, shares in by_first[card]:
            if (
                members & mask == members
                and best(mask ^ members, bound - shares, need - value - 1) >= need - value
            ):
                groups.append(members)
                mask, bound, need = mask ^ members, bound - shares, need - value
                break
    return groups
