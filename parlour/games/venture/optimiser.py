"""Exact optimiser for Venture's reorganisation: arrange cards into conglomerates.

A player's corporation cards are partitioned into stacks ("conglomerates").  A
stack is valid when its cards come from pairwise different industries and all
share at least one letter.  A stack of size ``k`` earns ``table[k]`` times the
number of letters common to all its cards (sizes missing from the table earn 0).

:func:`best_arrangement` solves the problem exactly with an aggregated integer
programme (``scipy.optimize.milp`` / HiGHS, zero gap):

* binary ``x[c, S, k]``: card ``c`` serves in a group of size ``k`` that
  declares the common letters ``S`` (``S`` a subset of ``c``'s letters);
* integer ``N[S, k]``: number of groups of type ``(S, k)``;
* every card is used at most once;
* for each ``(S, k)`` and industry, at most ``N[S, k]`` cards of that industry;
* for each ``(S, k)``, exactly ``k * N[S, k]`` cards in total;
* maximise ``sum N[S, k] * table[k] * |S|``.

A multiset in which every industry occurs at most ``N`` times and whose size is
``k * N`` splits into ``N`` groups of ``k`` distinct industries (sort by
industry, deal item ``j`` to group ``j mod N``), so the model is exact.  Only
letter sets that are intersections of card letter sets and are contained in
cards of at least ``k`` industries are generated, because an optimal
arrangement may always declare each group's exact common letters.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csc_array

from parlour.games.venture.conglomerates import common_letters
from parlour.games.venture.content import Corporation
from parlour.games.venture.options import PROFIT_TABLE
from parlour.games.venture.packing import CardKey, canonical, solve

__all__ = [
    "DEFAULT_TABLE",
    "Arrangement",
    "CorpLike",
    "OptimiserCard",
    "arrange",
    "arrangement_profit",
    "best_arrangement",
    "best_profit",
    "brute_force_profit",
    "clear_cache",
    "common_letters",
    "is_valid_stack",
    "stack_profit",
]


class CorpLike(Protocol):
    """A corporation card as seen by the optimiser."""

    @property
    def id(self) -> str:
        """Unique card identifier, e.g. ``"ST-ABC"``."""
        ...

    @property
    def industry(self) -> str:
        """The card's industry."""
        ...

    @property
    def letters(self) -> frozenset[str]:
        """The card's non-empty set of letters."""
        ...


DEFAULT_TABLE: Mapping[int, int] = PROFIT_TABLE
"""The rulebook's profit table (size: millions per common letter)."""

_BRUTE_FORCE_LIMIT = 16

# Hashable snapshot of a card: (id, industry, sorted letters).
_CardKey = CardKey


def is_valid_stack(stack: Sequence[CorpLike]) -> bool:
    """Return True if the stack is non-empty, industries differ and a letter is shared."""
    if not stack:
        return False
    if len({c.industry for c in stack}) != len(stack):
        return False
    return len(stack) == 1 or bool(common_letters(stack))


def stack_profit(stack: Sequence[CorpLike], table: Mapping[int, int] = DEFAULT_TABLE) -> int:
    """Return ``table[len(stack)] * |common letters|``; raise ValueError if invalid."""
    if not is_valid_stack(stack):
        raise ValueError(f"invalid stack: {[c.id for c in stack]}")
    return table.get(len(stack), 0) * len(common_letters(stack))


def arrangement_profit(stacks: Sequence[Sequence[CorpLike]], table: Mapping[int, int] = DEFAULT_TABLE) -> int:
    """Return the total profit of the stacks; raise ValueError if any stack is invalid."""
    return sum(stack_profit(s, table) for s in stacks)


@dataclass(frozen=True)
class Arrangement:
    """An arrangement of cards into stacks (card ids, bottom to top) and its profit."""

    stacks: tuple[tuple[str, ...], ...]
    profit: int


@dataclass(frozen=True, slots=True)
class OptimiserCard:
    """A corporation as the optimiser takes it: notation as id, industry, letters."""

    id: str
    industry: str
    letters: frozenset[str]


def _check_table(table: Mapping[int, int]) -> None:
    """Raise ValueError unless the table maps positive sizes to non-negative ints."""
    for k, v in table.items():
        if k < 1 or v < 0:
            raise ValueError(f"bad profit table entry {k!r}: {v!r}")


def _snapshot(corps: Sequence[CorpLike]) -> tuple[_CardKey, ...]:
    """Return hashable card snapshots sorted by id; raise ValueError on bad input."""
    keys = tuple(sorted((c.id, c.industry, tuple(sorted(c.letters))) for c in corps))
    for i, (cid, _, letters) in enumerate(keys):
        if not letters:
            raise ValueError(f"card {cid!r} has no letters")
        if i and keys[i - 1][0] == cid:
            raise ValueError(f"duplicate card id {cid!r}")
    return keys


def _closed_letter_sets(cards: Sequence[_CardKey]) -> list[frozenset[str]]:
    """Return all non-empty intersections of one or more card letter sets."""
    family: set[frozenset[str]] = {frozenset(ls) for _, _, ls in cards}
    frontier = set(family)
    while frontier:
        new: set[frozenset[str]] = set()
        for a in frontier:
            for b in family:
                s = a & b
                if s and s not in family:
                    new.add(s)
        family |= new
        frontier = new
    return sorted(family, key=lambda s: (len(s), sorted(s)))


def _solve(
    cards: tuple[_CardKey, ...], table_items: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[str, ...], ...], int]:
    """Solve the arrangement problem for snapshot cards; return (stacks, profit).

    The pure-Python search answers small hands whose best arrangement is the only one; the MILP
    the rest (its answer is then the same: the one best arrangement).
    """
    quick = solve(cards, table_items)
    if quick is not None and quick.stacks is not None:
        return quick.stacks, quick.profit
    return _solve_by_milp(cards, table_items)


def _solve_by_milp(
    cards: tuple[_CardKey, ...], table_items: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[str, ...], ...], int]:
    """Solve the arrangement problem for snapshot cards with the MILP; return (stacks, profit)."""
    industries = sorted({ind for _, ind, _ in cards})
    n_ind = len(industries)
    sizes = sorted(k for k, v in table_items if v > 0 and k <= min(n_ind, len(cards)))
    table = dict(table_items)
    letter_sets = [frozenset(ls) for _, _, ls in cards]
    ind_of = [industries.index(ind) for _, ind, _ in cards]

    # Candidate group types (S, k) with their candidate cards.
    pairs: list[tuple[frozenset[str], int, list[int]]] = []
    if sizes:
        for s in _closed_letter_sets(cards):
            members = [i for i, ls in enumerate(letter_sets) if s <= ls]
            n_avail = len({ind_of[i] for i in members})
            for k in sizes:
                if n_avail >= k:
                    pairs.append((s, k, members))

    chosen: list[list[int]] = []
    model_profit = 0
    if pairs:
        chosen, model_profit = _solve_milp(cards, ind_of, pairs, table)

    used = {i for g in chosen for i in g}
    groups = [[cards[i] for i in g] for g in chosen]
    groups += [[cards[i]] for i in range(len(cards)) if i not in used]
    stacks = canonical(groups)
    profit = sum(
        table.get(len(g), 0) * len(frozenset.intersection(*(frozenset(c[2]) for c in g))) for g in groups
    )
    if profit < model_profit:  # pragma: no cover - defensive
        raise RuntimeError("recovered arrangement scores below the MILP optimum")
    return stacks, profit


def _solve_milp(
    cards: tuple[_CardKey, ...],
    ind_of: list[int],
    pairs: list[tuple[frozenset[str], int, list[int]]],
    table: Mapping[int, int],
) -> tuple[list[list[int]], int]:
    """Build and solve the aggregated MILP (``scipy.optimize.milp``, HiGHS); return (scoring groups as
    card indices, value)."""
    model, x_card, x_pair = _model(cards, ind_of, pairs, table)
    found = _milp_by_scipy(model)
    if found is None:  # pragma: no cover - defensive
        raise RuntimeError("MILP solver failed")
    sol = [round(v) for v in found]
    n_x = len(x_card)

    picked: list[list[int]] = [[] for _ in pairs]
    for j in range(n_x):
        if sol[j]:
            picked[x_pair[j]].append(x_card[j])
    groups: list[list[int]] = []
    for p, (_, k, _) in enumerate(pairs):
        n_groups = sol[n_x + p]
        if n_groups == 0:
            continue
        # Sorted by industry, dealt round-robin: each group gets k distinct industries.
        items = sorted(picked[p], key=lambda c: (ind_of[c], cards[c][0]))
        dealt: list[list[int]] = [[] for _ in range(n_groups)]
        for j, c in enumerate(items):
            dealt[j % n_groups].append(c)
        for g in dealt:
            if len(g) != k or len({ind_of[c] for c in g}) != k:  # pragma: no cover
                raise RuntimeError("MILP solution could not be split into groups")
        groups.extend(dealt)
    profit = sum(table[k] * len(s) * sol[n_x + p] for p, (s, k, _) in enumerate(pairs))
    return groups, profit


@dataclass(frozen=True, slots=True)
class _Model:
    """An integer programme: minimise ``cost`` subject to ``row_lower <= A x <= row_upper`` and
    ``0 <= x <= upper``, every variable an integer, ``A`` column-wise (``starts``, ``index``,
    ``value``: each column's rows in ascending order)."""

    cost: list[float]
    upper: list[float]
    row_lower: list[float]
    row_upper: list[float]
    starts: list[int]
    index: list[int]
    value: list[float]


def _model(
    cards: tuple[_CardKey, ...],
    ind_of: list[int],
    pairs: list[tuple[frozenset[str], int, list[int]]],
    table: Mapping[int, int],
) -> tuple[_Model, list[int], list[int]]:
    """Return the aggregated MILP of the candidate groups, and each x variable's card and pair.

    Variables: x for every (pair, member card), then N for every pair.  Rows: each card at most once;
    per (pair, industry) count <= N; per pair count == k * N.  Columns list their rows in ascending
    order, as scipy's column-wise matrix does."""
    n_cards = len(cards)
    x_card: list[int] = []
    x_pair: list[int] = []
    for p, (_, _, members) in enumerate(pairs):
        x_card.extend(members)
        x_pair.extend([p] * len(members))
    n_x = len(x_card)
    # Rows of (pair, industry), numbered after the card rows as first met.
    industry_row: dict[tuple[int, int], int] = {}
    pair_rows: list[list[int]] = [[] for _ in pairs]
    x_industry_row: list[int] = []
    for c, p in zip(x_card, x_pair, strict=True):
        key = (p, ind_of[c])
        r = industry_row.get(key)
        if r is None:
            r = industry_row[key] = n_cards + len(industry_row)
            pair_rows[p].append(r)
        x_industry_row.append(r)
    first_pair_row = n_cards + len(industry_row)
    starts = [0]
    index: list[int] = []
    value: list[float] = []
    for c, r, p in zip(x_card, x_industry_row, x_pair, strict=True):
        index.extend((c, r, first_pair_row + p))
        value.extend((1.0, 1.0, 1.0))
        starts.append(len(index))
    cost = [0.0] * n_x
    upper = [1.0] * n_x
    for p, (s, k, members) in enumerate(pairs):
        index.extend(pair_rows[p])
        value.extend([-1.0] * len(pair_rows[p]))
        index.append(first_pair_row + p)
        value.append(-float(k))
        starts.append(len(index))
        cost.append(-float(table[k] * len(s)))
        upper.append(float(_most_groups(members, k, ind_of)))
    n_rows = first_pair_row + len(pairs)
    row_lower = [-math.inf] * first_pair_row + [0.0] * len(pairs)
    row_upper = [1.0] * n_cards + [0.0] * (n_rows - n_cards)
    return _Model(cost, upper, row_lower, row_upper, starts, index, value), x_card, x_pair


def _most_groups(members: list[int], k: int, ind_of: list[int]) -> int:
    """Return the most groups of ``k`` the members could fill: sum_i min(count_i, N) >= k * N."""
    per_ind: dict[int, int] = {}
    for c in members:
        per_ind[ind_of[c]] = per_ind.get(ind_of[c], 0) + 1
    most = len(members) // k
    while most and sum(min(v, most) for v in per_ind.values()) < k * most:
        most -= 1
    return most


def _milp_by_scipy(model: _Model) -> list[float] | None:
    """Solve the model with ``scipy.optimize.milp``; None if it fails."""
    n_vars, n_rows = len(model.cost), len(model.row_upper)
    matrix = csc_array((model.value, model.index, model.starts), shape=(n_rows, n_vars))
    res = milp(
        np.array(model.cost),
        constraints=LinearConstraint(matrix, np.array(model.row_lower), np.array(model.row_upper)),
        integrality=np.ones(n_vars),
        bounds=Bounds(np.zeros(n_vars), np.array(model.upper)),
        # Presolve costs more than it saves on these small models (about 3x slower).
        options={"mip_rel_gap": 0.0, "presolve": False},
    )
    if not res.success or res.x is None:  # pragma: no cover - defensive
        return None
    return [float(v) for v in res.x]


@functools.lru_cache(maxsize=4096)
def _solve_cached(
    cards: tuple[_CardKey, ...], table_items: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[str, ...], ...], int]:
    """Memoised :func:`_solve`."""
    return _solve(cards, table_items)


def clear_cache() -> None:
    """Forget all memoised solutions (used by benchmarks)."""
    _solve_cached.cache_clear()
    solve.cache_clear()


def best_arrangement(corps: Sequence[CorpLike], table: Mapping[int, int] = DEFAULT_TABLE) -> Arrangement:
    """Return a profit-maximising partition of all cards into valid stacks."""
    _check_table(table)
    cards = _snapshot(corps)
    stacks, profit = _solve_cached(cards, tuple(sorted(table.items())))
    return Arrangement(stacks=stacks, profit=profit)


def arrange(corps: Iterable[Corporation]) -> Arrangement:
    """Returns the best arrangement of a player's corporation cards (stacks of their names)."""
    return best_arrangement([OptimiserCard(c.name, c.industry, c.letters) for c in corps])


def best_profit(corps: Sequence[CorpLike], table: Mapping[int, int] = DEFAULT_TABLE) -> int:
    """Return the maximum total profit over all arrangements of the cards."""
    return best_arrangement(corps, table).profit


def brute_force_profit(corps: Sequence[CorpLike], table: Mapping[int, int] = DEFAULT_TABLE) -> int:
    """Return the maximum profit by exhaustive search over set partitions (small inputs)."""
    _check_table(table)
    cards = _snapshot(corps)
    n = len(cards)
    if n > _BRUTE_FORCE_LIMIT:
        raise ValueError(f"brute force is limited to {_BRUTE_FORCE_LIMIT} cards, got {n}")
    full = (1 << n) - 1
    # Profit of every subset that forms a valid stack (None when invalid).
    worth: list[int | None] = [None] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        rest = mask ^ low
        i = low.bit_length() - 1
        if rest == 0:
            worth[mask] = table.get(1, 0) * len(cards[i][2])
            continue
        if worth[rest] is None:
            continue
        members = [cards[b] for b in range(n) if mask >> b & 1]
        if len({c[1] for c in members}) != len(members):
            continue
        common = frozenset.intersection(*(frozenset(c[2]) for c in members))
        if common:
            worth[mask] = table.get(len(members), 0) * len(common)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        rest = mask ^ low
        top = 0
        sub = rest
        while True:
            w = worth[sub | low]
            if w is not None:
                top = max(top, w + best[rest ^ sub])
            if sub == 0:
                break
            sub = (sub - 1) & rest
        best[mask] = top
    return best[full]
