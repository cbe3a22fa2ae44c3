"""Reorganisation (rulebook: '3) Reorganization', 'A word of caution'): the ``reorganise`` decision, one
move at a time, and ``reorganise best``, the optimiser's arrangement in one action (ruling A-19).

The fee is 1 million per corporation held; the moves then change the stacks one corporation at a
time, never back to an arrangement already held in this reorganisation (ruling A-16), until ``done``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from parlour.core.decisions import Seat
from parlour.games.venture.actions import Done, Move, VentureAction
from parlour.games.venture.arrangements import current, moves, parse, unseen_moves
from parlour.games.venture.conglomerates import fits, is_lawful, offending, summarise
from parlour.games.venture.content import Deck
from parlour.games.venture.options import PROFIT_TABLE
from parlour.games.venture.packing import (
    CardKey,
    Solution,
    Stacks,
    best_reached,
    first,
    first_reaching,
    solve,
)
from parlour.games.venture.scoring import holdings_profit
from parlour.games.venture.state import VentureState
from parlour.games.venture.takeovers import put
from parlour.games.venture.undo import TurnDecision, opens_reorganisation

if TYPE_CHECKING:
    from parlour.games.venture.optimiser import Arrangement

TABLE_ITEMS = tuple(sorted(PROFIT_TABLE.items()))
"""The profit table as the optimiser's cache keys take it."""


def move_cap(holdings: Sequence[Sequence[int]]) -> int:
    """Returns the moves a reorganisation allows: two per corporation held, enough to reach any
    arrangement by a way that repeats none (ruling A-16)."""
    held = 0
    for stack in holdings:  # a loop: a generator is slower compiled, and this runs at every move
        held += len(stack)
    return 2 * held


@mypyc_attr(native_class=False)  # subclasses the core's decision (a Python class)
@dataclass(eq=False, kw_only=True)
class Reorganisation(TurnDecision):
    """A reorganisation under way: one ``move`` at a time, then ``done`` once every stack is lawful."""

    kind = "reorganise"
    seen: list[str] = field(default_factory=list)
    """The arrangements passed through (``arrangements``' text), the start first, the holdings now last
    (ruling A-16: none is reached twice)."""

    def choices(self, state: VentureState, seat: Seat) -> list[VentureAction]:
        """Returns every single move of one corporation to an arrangement not yet seen in this
        reorganisation (ruling A-16), then done once all stacks are lawful; after 2 moves per
        corporation held, only moves that part a same-industry pair (ruling A-16, "at most")."""
        holdings = state.holdings[seat]
        corps = state.deck.corporations
        summaries = [summarise(corps, stack) for stack in holdings]
        lawful = all(
            is_lawful(summary, len(stack)) for summary, stack in zip(summaries, holdings, strict=True)
        )
        actions: list[VentureAction]
        if len(self.seen) - 1 < move_cap(holdings):
            actions = list(unseen_moves(state.deck, holdings, self.seen, summaries))
        elif lawful:
            actions = []  # past the cap, only moves that part a pair are offered: lawful stacks have none
        else:
            seen = set(self.seen)
            pairs = _pairs(state, holdings)
            found = moves(state.deck, holdings)
            found = (m for m in found if not lawful and _pairs(state, parse(state.deck, m[1]) or []) < pairs)
            actions = [move for move, after in found if after not in seen]
        if lawful:
            actions.append(Done.of())
        return actions

    def act(self, state: VentureState, seat: Seat, action: VentureAction) -> None:
        """Moves one corporation, or finishes the reorganisation."""
        if isinstance(action, Done):
            state.stack.pop()
            if state.logging:
                state.emit(
                    f"seat {seat} finishes reorganising: {holdings_text(state, seat)}, "
                    f"earning {holdings_profit(state, seat)} a scoring"
                )
            return
        assert isinstance(action, Move)
        corp = state.deck.corporation(action.corp)
        assert corp is not None
        holding = state.holdings[seat]
        source = next(s for s in holding if corp.id in s)
        source.remove(corp.id)
        if not source:
            holding.remove(source)
        put(state, seat, corp.id, action.onto)
        # Ruling A-16: the arrangement reached is never offered again in this reorganisation.
        self.seen.append(current(state, seat))
        if state.logging:
            where = f"on {action.onto}" if action.onto else "alone"
            state.emit(f"seat {seat} moves {action.corp} {where}")

    def may_cancel(self, state: VentureState) -> bool:
        """Returns whether the reorganisation's start is on the record (ruling A-17)."""
        return any(opens_reorganisation(s) for s in state.undo_log)

    def forget_arrangement(self) -> None:
        """Forgets the arrangement the last move reached (it is taken back)."""
        self.seen.pop()

    def refusal(self, state: VentureState, seat: Seat, action: object) -> str:
        """Returns why an action is refused while reorganising."""
        if isinstance(action, Done):
            return "a stack still holds two corporations of one industry"
        if isinstance(action, Move):
            return why_move(state, seat, action)
        return "you are reorganising: move CORP on CORP, move CORP alone, done, or cancel"


def holdings_lawful(state: VentureState, seat: Seat) -> bool:
    """Returns whether every stack of the seat is a lawful conglomerate (or lone corporation)."""
    corps = state.deck.corporations
    return all(is_lawful(summarise(corps, stack), len(stack)) for stack in state.holdings[seat])


def _pairs(state: VentureState, stacks: Sequence[Sequence[int]]) -> int:
    """Returns how many same-industry pairs the stacks hold (ruling A-6)."""
    corps = state.deck.corporations
    return sum(len(offending([corps[c] for c in stack])) for stack in stacks)


def why_move(state: VentureState, seat: Seat, action: Move) -> str:
    """Returns why a reorganisation move is refused."""
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    if not any(corp.id in s for s in state.holdings[seat]):
        return f"you do not hold {corp.name}"
    if action.onto is not None:
        onto = state.deck.corporation(action.onto)
        assert onto is not None
        target = next((s for s in state.holdings[seat] if s[-1] == onto.id), None)
        if target is None:
            return f"{onto.name} is not the top of one of your stacks"
        if not fits(corp, summarise(state.deck.corporations, target)):
            return f"{corp.name} does not fit on {onto.name}: a new industry and a letter common to all"
    return "that arrangement was already held in this reorganisation (ruling A-16); undo steps back"


# ---------------------------------------------------------------- starting one
def reorganise(state: VentureState, seat: Seat) -> None:
    """Starts a reorganisation: 1 million per corporation held (rulebook: '3) Reorganization')."""
    cost = state.corporations_held(seat)
    state.owed += cost
    state.transacted = True
    state.stack.push(Reorganisation(seats=[seat], seen=[current(state, seat)]))
    state.emit(f"seat {seat} reorganises for {cost} (owes {state.owed})")


def best_stacks(state: VentureState, seat: Seat) -> list[list[int]]:
    """Returns the optimiser's best arrangement of the seat's corporations (ids, bottom first)."""
    by_name = {state.corp(c).name: c for s in state.holdings[seat] for c in s}
    return [[by_name[name] for name in stack] for stack in best_names(state, seat)]


def best_names(state: VentureState, seat: Seat) -> Stacks:
    """Returns the best arrangement of the seat's corporations (names, bottom first); of several, the
    one option ``best_ties`` says (ruling A-19)."""
    if state.options.get("best_ties") == "first":
        found = _first(state, seat)
        if found is not None and found.stacks is not None:
            return found.stacks
        # Ruling A-19: a hand too large for the search: the first arrangement that earns the best
        # profit (the MILP's, unless the pure-Python search finds it: the same, both being exact), or
        # the MILP's own arrangement when that search runs over its budget.
        hand = _hand(state, seat)
        profit = best_reached(hand, TABLE_ITEMS)
        stacks = None if profit is None else first_reaching(hand, TABLE_ITEMS, profit)
        if stacks is not None:
            return stacks
        solved = _optimiser_arrangement(state, seat)
        return first_reaching(hand, TABLE_ITEMS, solved.profit) or solved.stacks
    quick = _quick(state, seat)
    if quick is not None and quick.stacks is not None:
        return quick.stacks  # the only best arrangement: the optimiser's too
    return _optimiser_arrangement(state, seat).stacks


def best_profit(state: VentureState, seat: Seat) -> int:
    """Returns what the seat's best arrangement earns a scoring."""
    if state.options.get("best_ties") != "first":
        quick = _quick(state, seat)
        return quick.profit if quick is not None else _optimiser_arrangement(state, seat).profit
    found = _first(state, seat)
    if found is not None:
        return found.profit
    # A hand too large for the search: the best profit, found without the MILP when the bounded search
    # (packing.best_reached) stays within its budget (exact, so the MILP's profit too).
    profit = best_reached(_hand(state, seat), TABLE_ITEMS)
    return profit if profit is not None else _optimiser_arrangement(state, seat).profit


def _quick(state: VentureState, seat: Seat) -> Solution | None:
    """Returns the pure-Python search's answer for the seat's corporations (None for large hands)."""
    return solve(_hand(state, seat), TABLE_ITEMS)


def _first(state: VentureState, seat: Seat) -> Solution | None:
    """Returns the search's first best arrangement of the seat's corporations (None for large hands;
    ruling A-19, ``best_ties=first``), remembered by the corporations' ids (``reorganise best`` asks twice,
    and the search's own cache hashes the cards' names and letters)."""
    ids = []
    for stack in state.holdings[seat]:
        ids.extend(stack)
    ids.sort()
    held = tuple(ids)
    memo = _first_memo(state.deck)
    if held in memo:
        return memo[held]
    found = first(_hand(state, seat), TABLE_ITEMS)
    if len(memo) >= FIRST_MEMO_LIMIT:
        memo.clear()
    memo[held] = found
    return found


FIRST_MEMO_LIMIT = 4096
"""The most hands whose first best arrangement :func:`_first` remembers (emptied when full)."""


@cache
def _first_memo(deck: Deck) -> dict[tuple[int, ...], Solution | None]:
    """Returns the deck's memo of first best arrangements by the corporations' ids, sorted."""
    return {}


def _hand(state: VentureState, seat: Seat) -> tuple[CardKey, ...]:
    """Returns the optimiser's snapshot of the seat's corporations, sorted by name."""
    keys = card_keys(state.deck)
    return tuple(sorted(keys[c] for s in state.holdings[seat] for c in s))


def _optimiser_arrangement(state: VentureState, seat: Seat) -> Arrangement:
    """Returns the optimiser's arrangement of the seat's corporations (the MILP for ties, large hands)."""
    # Imported when first needed: the optimiser brings scipy (slow to load, large in memory).
    from parlour.games.venture.optimiser import arrange

    return arrange(state.corp(c) for s in state.holdings[seat] for c in s)


@cache
def card_keys(deck: Deck) -> list[CardKey]:
    """Returns the optimiser's snapshot of every corporation of the deck, by id."""
    return [(c.name, c.industry, tuple(sorted(c.letters))) for c in deck.corporations]


def reorganise_best(state: VentureState, seat: Seat) -> None:
    """Reorganises straight to the best arrangement in one action, fee included (ruling A-19)."""
    cost = state.corporations_held(seat)
    state.owed += cost
    state.transacted = True
    before = holdings_profit(state, seat)
    # Ruling A-19: holdings that already earn the most (and are lawful) stay as they are.
    if not holdings_lawful(state, seat) or best_profit(state, seat) > before:
        state.holdings[seat] = best_stacks(state, seat)
    if state.logging:
        after = holdings_profit(state, seat)
        state.emit(
            f"seat {seat} reorganises for {cost} to its best arrangement, "
            f"{holdings_text(state, seat)}: it earns {after} a scoring instead of {before} "
            f"(owes {state.owed})"
        )


def holdings_text(state: VentureState, seat: Seat) -> str:
    """Returns a seat's stacks as text, each bottom to top in brackets."""
    return " ".join("[" + " ".join(state.corp(c).name for c in s) + "]" for s in state.holdings[seat])
