"""Paying (rulebook: 'Capital Cards', 'The Play'): what a handful of capital cards is worth, what a
player can pay, and the cards that pay a debt most cheaply."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache

from parlour.core.decisions import Seat
from parlour.games.venture.content import CAPITAL, SET_DENOMINATIONS, Deck, Resource
from parlour.games.venture.state import VentureState


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


def wealth(state: VentureState, seat: Seat) -> int:
    """Returns the most the seat's capital cards (hand and laid down) can pay."""
    return _counted_worth(state.deck, (*state.hands[seat], *state.payment))


def laid_worth(state: VentureState) -> int:
    """Returns what the capital cards laid down so far are worth."""
    return _counted_worth(state.deck, tuple(state.payment))


Ids = tuple[int, ...]
"""Resources cards by id."""
WORTH_MEMO_LIMIT = 65_536
"""The most worths a deck's memos (:func:`_memos`) remember each (a memo is emptied when full)."""


def _counted_worth(deck: Deck, cards: Ids) -> int:
    """Returns :func:`payment_value` of resources cards (ids), remembered by the ids (a hand's worth is
    asked at every turn and every card laid; counting its names each time cost more than the rest of
    the question)."""
    memos = _memos(deck)
    found = memos.by_ids.get(cards)
    if found is None:
        places = _capital_places(deck)
        counts = [0] * len(_capital_cards(deck))
        for r in cards:
            place = places[r]
            if place >= 0:
                counts[place] += 1
        memos.check(counts)
        if len(memos.by_ids) >= WORTH_MEMO_LIMIT:
            memos.by_ids.clear()
        found = memos.by_ids[cards] = memos.worth(memos.key(counts))
    return found


def cheapest_payment(state: VentureState, seat: Seat, budget: int = 20_000) -> list[str]:
    """Returns the capital cards to add that cover the debt and keep the most buying power.

    Only minimal covers matter (adding a card to a cover can only lose value), so a
    depth-first search over card names stops at the first cover on each branch;
    ``budget`` bounds the search on very large hands (the best cover found is kept).
    The answer depends only on the names of the cards in hand (in hand order) and laid down, the
    debt and the deck's set values, so it is remembered for them, and with it the answers after
    each of its cards is laid in turn (:func:`_remember`): a payment is planned once, when it opens.
    """
    key = _key(state, seat, budget)
    plan = _PLANS.get(key)
    if plan is None:
        found, nodes = _plan(*key)
        plan = key[1] if found is None else found
        _remember(key, plan, whole=found is not None and nodes < budget)
    return list(plan)


def _key(state: VentureState, seat: Seat, budget: int) -> PlanKey:
    """Returns what the seat's cheapest payment depends on (:data:`PlanKey`)."""
    cards = state.deck.resources
    hand = tuple(cards[r].name for r in state.hands[seat] if cards[r].kind == CAPITAL)
    laid = tuple(sorted(cards[r].name for r in state.payment if cards[r].kind == CAPITAL))
    return (state.deck, hand, laid, state.owed, budget)


Names = tuple[str, ...]
"""Card names."""
Counts = int
"""How many capital cards of each name (in the deck's :func:`_capital_cards` order), packed in one integer
(:meth:`_Memos.key`): cheaper to hash than a tuple, and updated by adding a name's unit."""
PlanKey = tuple[Deck, Names, Names, int, int]
"""What a plan depends on: the deck, the capital names in hand (in hand order) and laid down (sorted),
the debt and the search's budget."""
_PLANS: dict[PlanKey, Names] = {}
PLAN_MEMO_LIMIT = 65_536
"""The most plans remembered (the memo is emptied when full)."""


def _remember(key: PlanKey, plan: Names, whole: bool) -> None:
    """Remembers a plan and, when its search was ``whole`` (it found a cover within its budget), the plan
    after each of its cards is laid down in turn: the rest of it.

    Why the rest is the answer: laying the plan's first card ``p`` makes covering easier, so the search
    from there visits no sequence the first did not (within the budget still), its best worth is the
    same (a cover ``Q`` there makes ``p + Q`` a cover here, whose first covering prefix keeps at least
    as much), the rest of the plan reaches it, and a sequence reaching it earlier would make a prefix
    of ``p + Q`` reach it earlier than the plan here (tests: test_payment's plan-suffix property).
    """
    if len(_PLANS) >= PLAN_MEMO_LIMIT:
        _PLANS.clear()
    _PLANS[key] = plan
    deck, hand, laid, owed, budget = key
    for at, name in enumerate(plan if whole else ()):
        index = hand.index(name)
        hand = hand[:index] + hand[index + 1 :]
        laid = tuple(sorted((*laid, name)))
        _PLANS[(deck, hand, laid, owed, budget)] = plan[at + 1 :]


def _plan(deck: Deck, hand: Names, laid: Names, owed: int, budget: int) -> tuple[Names | None, int]:
    """Returns :func:`cheapest_payment`'s cards for a hand (capital names, in hand order), the names laid
    down and the debt (None when nothing covers it), and the positions searched (:class:`_PlanSearch`)."""
    search = _PlanSearch(deck, hand, laid, owed, budget)
    search.run(0)
    return (None if search.best_value < 0 else search.best), search.nodes


class _PlanSearch:
    """The depth-first search of :func:`cheapest_payment` over counts of each capital name, held as
    :class:`_Memos` keys (a class, not a closure: compiled, its counters are fields rather than cells)."""

    def __init__(self, deck: Deck, hand: Names, laid: Names, owed: int, budget: int) -> None:
        index = _capital_index(deck)
        cards = _capital_cards(deck)
        self.memos = memos = _memos(deck)
        self.names = [card.name for card in cards]
        # The names in search order: dearest first, then by name.
        self.order = [index[n] for n in sorted(set(hand), key=lambda n: (-cards[index[n]].value, n))]
        self.have = [0] * len(cards)
        paid = [0] * len(cards)
        for name in hand:
            self.have[index[name]] += 1
        for name in laid:
            paid[index[name]] += 1
        # Cards only move from hand to laid, so no count outgrows its name's cards held and laid.
        memos.check([h + p for h, p in zip(self.have, paid, strict=True)])
        self.have_key, self.paid_key = memos.key(self.have), memos.key(paid)
        self.owed, self.budget = owed, budget
        self.best_value = -1
        self.best: Names = ()
        self.nodes = 0
        self.chosen: list[str] = []

    def run(self, start: int) -> None:
        """Searches the covers that add names from ``order[start:]``, keeping the one worth most."""
        self.nodes += 1
        memos = self.memos
        if memos.worth(self.paid_key) >= self.owed:
            value = memos.worth(self.have_key)
            if value > self.best_value:
                self.best_value, self.best = value, tuple(self.chosen)
            return
        have, order = self.have, self.order
        for at in range(start, len(order)):
            card = order[at]
            if have[card] and self.nodes < self.budget:
                unit = memos.units[card]
                have[card] -= 1
                self.have_key -= unit
                self.paid_key += unit
                self.chosen.append(self.names[card])
                self.run(at)
                self.chosen.pop()
                self.paid_key -= unit
                self.have_key += unit
                have[card] += 1


class _Memos:
    """A deck's remembered worths: of capital cards as counts of each name (packed in one integer, a
    :data:`Counts` key: ``sum(count * units[place])``, places in :func:`_capital_cards` order), and of
    cards by id."""

    def __init__(self, deck: Deck) -> None:
        self.cards = _capital_cards(deck)
        self.set_values = deck.set_values
        # Every name's count gets the bits that hold the most cards of any one name the deck has (cards
        # held and laid are distinct cards of the deck, so no count is larger: :meth:`check`).
        most = max(Counter(card.name for card in deck.resources if card.kind == CAPITAL).values(), default=0)
        self.bits = most.bit_length()
        self.most = most
        self.units = [1 << (self.bits * i) for i in range(len(self.cards))]
        self.by_counts: dict[Counts, int] = {}
        self.by_ids: dict[Ids, int] = {}

    def check(self, counts: list[int]) -> None:
        """Refuses counts of a name larger than the deck holds (a card counted twice): they would spill
        into the next name's bits of a key."""
        if counts and max(counts) > self.most:
            name = self.cards[counts.index(max(counts))].name
            raise ValueError(
                f"{max(counts)} {name} cards counted, more than the deck's {self.most} of any name"
            )

    def key(self, counts: list[int]) -> Counts:
        """Returns the key of capital cards given as counts of each name (checked: :meth:`check`)."""
        return sum(n * unit for n, unit in zip(counts, self.units, strict=True))

    def worth(self, key: Counts) -> int:
        """Returns :func:`payment_value` of capital cards given as a key (:meth:`key`)."""
        found = self.by_counts.get(key)
        if found is None:
            mask = (1 << self.bits) - 1
            held = [card for i, card in enumerate(self.cards) for _ in range(key >> (self.bits * i) & mask)]
            if len(self.by_counts) >= WORTH_MEMO_LIMIT:
                self.by_counts.clear()
            found = self.by_counts[key] = payment_value(held, self.set_values)
        return found


@cache
def _memos(deck: Deck) -> _Memos:
    """Returns the deck's memos of worths."""
    return _Memos(deck)


@cache
def _capital_places(deck: Deck) -> list[int]:
    """Returns each resources card's place in :func:`_capital_cards` by id (-1 for other cards)."""
    index = _capital_index(deck)
    return [index[card.name] if card.kind == CAPITAL else -1 for card in deck.resources]


@cache
def _capital_cards(deck: Deck) -> list[Resource]:
    """Returns a capital card of each name of the deck (cards of one name are alike), in deck order."""
    found: dict[str, Resource] = {}
    for card in deck.resources:
        if card.kind == CAPITAL:
            found.setdefault(card.name, card)
    return list(found.values())


@cache
def _capital_index(deck: Deck) -> dict[str, int]:
    """Returns each capital name's place in :func:`_capital_cards`."""
    return {card.name: i for i, card in enumerate(_capital_cards(deck))}
