"""The greedy negotiator: prices by need, buys the cheapest cover, interferes with the leader.

The bot reads only what its seat may know: its own hand, the table, and the
public record of deals (from which everyone's money follows). It keeps no memory between
choices (the server makes a bot for each move): how many of its proposals as the Boss ended
unagreed, and how often it has interfered, it reads from the negotiation's public counts
(``Negotiation.refused`` and ``Negotiation.interfered``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from functools import partial

from parlour.core.state import GameState
from parlour.games.im_the_boss.actions import (
    BOSS_CARD,
    CALL,
    DEAL,
    DRAW,
    FAIL,
    PASS,
    ROLL,
    STOP_CARD,
    Accept,
    Agree,
    BossAction,
    BossCard,
    Discard,
    Drop,
    Include,
    Lay,
    Marker,
    Offer,
    Recruit,
    Refuse,
    Travel,
    Use,
)
from parlour.games.im_the_boss.bargain import quiet
from parlour.games.im_the_boss.closing import Closing
from parlour.games.im_the_boss.content import ANY, BOSS, STOP, Space
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.negotiation import Negotiation
from parlour.games.im_the_boss.pieces import recruit_targets
from parlour.games.im_the_boss.plays import Respond
from parlour.games.im_the_boss.supply import (
    covers,
    hand_names,
    laid_names,
    stands,
    suppliers_from,
)
from parlour.games.im_the_boss.turn import Arrive, Limit, PlaceMarker, Turn

CARD_WORTH = {"recruit": 1, "travel": 2, "clan": 3, "travel:any": 4, STOP: 5, BOSS: 5}
"""How much the bot values keeping each kind of card (the lowest is discarded first)."""
INF = 10**9
Sources = Callable[[str], list[int]]
"""Returns the seats that can supply a colour in the negotiation (``supply.suppliers``)."""


def public_money(state: BossGameState) -> list[int]:
    """Returns everyone's money as the public record of deals shows it."""
    money = [0] * state.players
    for deal in state.deals:
        paid = {int(s): a for s, a in deal["payments"].items()}
        money[deal["boss"]] += deal["proceeds"] - sum(paid.values())
        for seat, amount in paid.items():
            money[seat] += amount
    return money


def own_colours(state: BossGameState, seat: int, space: Space) -> set[str]:
    """Returns the colours of ``space`` the seat can bring itself (placard at home or a Clan card)."""
    nego = state.nego
    if nego is None:
        return _own_colours(state, seat, space, None)
    laid = laid_names(state)
    return _own_colours(state, seat, space, lambda c: suppliers_from(state, laid, c))


def _own_colours(state: BossGameState, seat: int, space: Space, sources: Sources | None) -> set[str]:
    """Returns :func:`own_colours`, reading who can supply each colour in the negotiation from
    ``sources`` (``suppliers``; None: no negotiation)."""
    owners = state.owners
    hand = set(hand_names(state, seat))
    if sources is None:
        return {c for c in space.colours if owners[c] == seat or f"clan:{c}" in hand}
    # In a negotiation the seat can supply a colour (``can_supply``: its placard at home or a laid Clan
    # card) exactly when it is among the colour's suppliers.
    return {c for c in space.colours if f"clan:{c}" in hand or seat in sources(c)}


def cover_costs(
    state: BossGameState, seat: int, space: Space, proceeds: int, sources: Sources | None = None
) -> dict[str, int]:
    """Returns what the bot, as Boss, expects to pay for each colour of the space: nothing for its own,
    the lowest ask where there is one, a fair price where another seat could supply it, else INF.
    ``sources`` (in a negotiation) returns who can supply a colour (default: ``suppliers``)."""
    fair = fair_price(space, proceeds)
    nego = state.nego
    cost: dict[str, int] = {}
    if nego is None:
        own = _own_colours(state, seat, space, None)
        owners = state.owners
        for colour in space.colours:
            holder = owners[colour]
            cost[colour] = 0 if colour in own else fair if holder is not None and holder != seat else INF
        return cost
    if sources is None:
        laid = laid_names(state)
        sources = partial(suppliers_from, state, laid)
    table = {c: sources(c) for c in space.colours}  # each colour's suppliers, asked once
    own = _own_colours(state, seat, space, table.__getitem__)
    asks: dict[str, int] = {}
    for (colour, _), amount in nego.offers.items():
        if amount < asks.get(colour, INF + 1):
            asks[colour] = amount
    for colour in space.colours:
        if colour in own:
            cost[colour] = 0
        elif colour in asks:
            cost[colour] = asks[colour]
        else:
            others = any(s != seat for s in table[colour])
            cost[colour] = fair if others else INF
    return cost


def struck(nego: Negotiation, boss: int) -> int:
    """Returns how many of the Boss's proposals ended unagreed in the negotiation: refused, or withdrawn
    by the Boss (``Negotiation.refused``, kept exactly by the rules). A seat made the Boss by a Boss
    card starts from its own count (0 unless it was the Boss before in this negotiation)."""
    return nego.refused[boss]


def ventured(nego: Negotiation, seat: int) -> int:
    """Returns how many times ``seat`` has interfered in the negotiation: the Travel and Boss cards it
    played, stopped or not (``Negotiation.interfered``, kept exactly by the rules)."""
    return nego.interfered[seat]


def fair_price(space: Space, proceeds: int) -> int:
    """Returns a fair share of the proceeds for one investor."""
    return max(1, proceeds // (space.investors_needed() + 1))


def cheapest_cover(
    state: BossGameState, seat: int, space: Space, proceeds: int, sources: Sources | None = None
) -> tuple[int, list[str]]:
    """Returns the expected cost and the colours of the cheapest cover of the space (``sources``: as for
    :func:`cover_costs`)."""
    cost = cover_costs(state, seat, space, proceeds, sources)
    chosen = list(space.required)
    for group in space.groups:
        chosen += sorted(group.colours, key=lambda c: (cost[c], c))[: group.count]
    return sum(cost[c] for c in chosen), chosen


class GreedyBot:
    """A real negotiator: see the module docstring; seeded only to break ties."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        # What one choice reads again and again, worked out once per call of ``choose`` (the state does
        # not change while the bot thinks): who can supply each colour, and the names of the bot's cards.
        self._sources: dict[str, list[int]] = {}
        self._laid: list[frozenset[str]] | None = None
        self._hand: frozenset[str] | None = None

    def choose(self, state: GameState, seat: int) -> BossAction:
        """Returns the bot's action for ``seat``."""
        assert isinstance(state, BossGameState)
        self._sources, self._laid, self._hand = {}, None, None
        legal = state.legal_actions(seat)
        # The wishes are few and the first legal one is taken: look each up in the list (equality, as a
        # set would) rather than hashing every legal action.
        for action in self._wishes(state, seat):
            if action in legal:
                return action
        return PASS if PASS in legal else legal[0]

    def _suppliers(self, state: BossGameState, colour: str) -> list[int]:
        """Returns ``suppliers(state, colour)``, worked out once per choice (never change the list)."""
        found = self._sources.get(colour)
        if found is None:
            laid = self._laid
            if laid is None:
                laid = self._laid = laid_names(state)
            nego = state.negotiation()
            home = -1 if colour in nego.travelling else state.owners[colour]
            clan = f"clan:{colour}"
            # As ``suppliers_from``: the placard's holder while it is at home, and every seat with a Clan
            # card of the colour laid.
            found = self._sources[colour] = [s for s, names in enumerate(laid) if s == home or clan in names]
        return found

    def _holds(self, state: BossGameState, seat: int, name: str) -> bool:
        """Returns whether the bot's seat holds a card called ``name`` (read once per choice)."""
        hand = self._hand
        if hand is None:
            hand = self._hand = frozenset(hand_names(state, seat))
        return name in hand

    def _wishes(self, state: BossGameState, seat: int) -> Iterable[BossAction]:
        """Yields the actions the bot would like, best first (the first legal one is taken)."""
        decision = state.decision()
        if isinstance(decision, PlaceMarker):
            return [self._marker(state, seat)]
        if isinstance(decision, Turn | Arrive):
            return self._turn(state, seat, rolled=isinstance(decision, Arrive))
        if isinstance(decision, Limit):
            return self._limit(state, seat)
        if isinstance(decision, Respond):
            return [STOP_CARD] if self._should_stop(state, seat) else [PASS]
        if isinstance(decision, Closing):
            return self._interfere(state, seat, closing=True)
        nego = state.nego
        assert nego is not None
        if seat == nego.boss:
            return self._as_boss(state, seat)
        return [
            *self._answer(state, seat),
            *self._interfere(state, seat, closing=False),
            *self._offers(state, seat),
        ]

    # ------------------------------------------------------------ turns
    def _marker(self, state: BossGameState, seat: int) -> BossAction:
        """Places the marker where the first player's placards help it least (its hand is secret)."""
        first = state.first
        free = [i for i, n in enumerate(state.covered) if n is None]
        placards = set(state.placards(first))
        best = min(free, key=lambda i: (len(placards & set(state.space(i).colours)), i))
        return Marker(best + 1)

    def _profit(self, state: BossGameState, seat: int) -> tuple[int, int]:
        """Returns the expected profit of trying the deal at the marker, and its proceeds."""
        top = state.top_card()
        assert state.marker is not None and top is not None
        space = state.space(state.marker)
        proceeds = space.dividends * top.value
        cost, _ = cheapest_cover(state, seat, space, proceeds)
        return proceeds - cost, proceeds

    def _turn(self, state: BossGameState, seat: int, rolled: bool) -> list[BossAction]:
        """Tries the deal when it pays well enough; otherwise rolls, then draws."""
        profit, proceeds = self._profit(state, seat)
        if profit >= proceeds // 2 and len(state.hands[seat]) >= 3:
            return [DEAL]
        return [DRAW, DEAL] if rolled else [ROLL]

    def _limit(self, state: BossGameState, seat: int) -> list[BossAction]:
        """Plays a triple for a placard it lacks, else discards its least useful card."""
        targets = [c for c in recruit_targets(state, seat) if state.owners[c] != seat]
        if targets:
            return [Recruit(self._most_wanted(state, targets))]
        names = sorted(
            {state.name(c) for c in state.hands[seat]}, key=lambda n: (self._worth(state, seat, n), n)
        )
        return [Discard(names[0])]

    @staticmethod
    def _worth(state: BossGameState, seat: int, name: str) -> int:
        """Returns how much keeping a card is worth to the bot."""
        if name in CARD_WORTH:
            return CARD_WORTH[name]
        kind, colour = name.split(":")
        if kind == "clan":
            return CARD_WORTH["clan"] + (state.owners[colour] != seat)
        return CARD_WORTH["travel"]

    @staticmethod
    def _most_wanted(state: BossGameState, colours: Iterable[str]) -> str:
        """Returns the colour printed on the most free spaces."""
        free = [state.space(i) for i, n in enumerate(state.covered) if n is None]
        return max(sorted(colours), key=lambda c: sum(c in s.colours for s in free))

    # ------------------------------------------------------------ as the Boss
    def _as_boss(self, state: BossGameState, seat: int) -> list[BossAction]:
        """Buys the cheapest cover: own investors first, then the lowest asks, then proposals."""
        nego = state.nego
        assert nego is not None
        space = state.space(nego.space)
        if stands(state):
            extra = self._unneeded(state, space)
            return [Drop(extra[0])] if extra else [CALL]
        cost, targets = cheapest_cover(state, seat, space, nego.proceeds, partial(self._suppliers, state))
        wishes: list[BossAction] = []
        if cost >= INF:
            wishes += self._recruit_for(state, seat, space)
            return [*wishes, PASS, FAIL]
        for colour in targets:
            wishes += self._secure(state, seat, colour, space)
            if wishes:
                return [*wishes, PASS, FAIL]
        return [PASS, FAIL]

    @staticmethod
    def _unneeded(state: BossGameState, space: Space) -> list[str]:
        """Returns the paid agreed lines the space does not need (the dearest dropped first)."""
        nego = state.nego
        assert nego is not None
        agreed = {c: t.amount for c, t in nego.items.items() if t.agreed}
        keep = set(space.required)
        for group in space.groups:
            keep |= set(
                sorted((c for c in group.colours if c in agreed), key=lambda c: (agreed[c], c))[: group.count]
            )
        return sorted((c for c in agreed if c not in keep and agreed[c] > 0), key=lambda c: -agreed[c])

    def _secure(self, state: BossGameState, seat: int, colour: str, space: Space) -> list[BossAction]:
        """Returns the actions that bring one colour into the terms (empty if it is in already)."""
        nego = state.nego
        assert nego is not None
        term = nego.items.get(colour)
        if term is not None and (term.agreed or term.seat == seat):
            return []
        if seat in self._suppliers(state, colour):
            return [Use(colour)]
        if self._holds(state, seat, f"clan:{colour}"):
            return [Lay(colour)]
        room = nego.proceeds - nego.committed(without_colour=colour) - 1
        offers = sorted((a, s) for (c, s), a in nego.offers.items() if c == colour)
        if offers and offers[0][0] <= min(room, term.amount if term is not None else room):
            return [Accept(colour, offers[0][1])]
        if term is not None and not quiet(state):
            return []  # waiting for the answer to a proposal
        others = [s for s in self._suppliers(state, colour) if s != seat]
        if not others:
            return []
        tries = struck(nego, seat)
        price = min(room, fair_price(space, nego.proceeds) + 2 * tries)
        supplier = others[0]
        if term is not None:
            # Everyone passed and the proposal is unanswered: silence is a no. Ask another supplier,
            # or the same one for more; silence counts as a second refusal, so the bot soon gives up.
            tries += 1
            supplier = next((s for s in others if s != term.seat), term.seat)
            if supplier == term.seat:
                price = max(price, term.amount + 1)
        if price < 0 or price > room or tries > 4:
            return [FAIL]
        return [Include(colour, supplier, price)]

    def _recruit_for(self, state: BossGameState, seat: int, space: Space) -> list[BossAction]:
        """Plays a triple on a placard the deal needs and nobody can supply."""
        missing = [c for c in space.colours if not self._suppliers(state, c)]
        return [Recruit(c) for c in missing if c in recruit_targets(state, seat)]

    # ------------------------------------------------------------ as an investor
    def _reservation(self, state: BossGameState, seat: int, colour: str) -> int:
        """Returns the least the bot accepts: 1 with competition, two thirds of its ask as sole source."""
        nego = state.nego
        assert nego is not None
        rivals = [s for s in self._suppliers(state, colour) if s not in (seat, nego.boss)]
        return 1 if rivals else max(1, self._ask(state, seat, colour) * 2 // 3)

    def _ask(self, state: BossGameState, seat: int, colour: str) -> int:
        """Returns the ask: high when the Boss has no alternative, lowered when undercut."""
        nego = state.nego
        assert nego is not None
        space = state.space(nego.space)
        rival_asks = [a for (c, s), a in nego.offers.items() if c == colour and s != seat]
        if rival_asks:
            return max(1, min(rival_asks) - 1)
        if [s for s in self._suppliers(state, colour) if s not in (seat, nego.boss)]:
            return fair_price(space, nego.proceeds)
        # Sole source: does the Boss have another way to fill this colour's group?
        group = next((g for g in space.groups if colour in g.colours), None)
        if group is not None:
            others = [c for c in group.colours if c != colour and self._suppliers(state, c)]
            if len(others) >= group.count:
                return fair_price(space, nego.proceeds)
        return max(1, nego.proceeds * 3 // 10)

    def _answer(self, state: BossGameState, seat: int) -> list[BossAction]:
        """Agrees to lines that pay at least the reservation; refuses the others."""
        nego = state.nego
        assert nego is not None
        if not nego.unagreed(seat):
            return []
        low = [
            c
            for c, t in nego.items.items()
            if t.seat == seat and t.amount < self._reservation(state, seat, c)
        ]
        return [Refuse()] if low else [Agree()]

    def _offers(self, state: BossGameState, seat: int) -> list[BossAction]:
        """Lays and offers investors the deal still needs, re-pricing when undercut."""
        nego = state.nego
        assert nego is not None
        space = state.space(nego.space)
        wishes: list[BossAction] = []
        for colour in space.colours:
            term = nego.items.get(colour)
            if term is not None and term.seat != seat and term.agreed:
                continue
            if seat not in self._suppliers(state, colour):
                if self._holds(state, seat, f"clan:{colour}") and not self._suppliers(state, colour):
                    wishes.append(Lay(colour))
                continue
            ask = self._ask(state, seat, colour)
            if nego.offers.get((colour, seat)) != ask and (term is None or term.seat != seat):
                wishes.append(Offer(colour, ask))
        return wishes

    # ------------------------------------------------------------ interference
    def _interfere(self, state: BossGameState, seat: int, closing: bool) -> list[BossAction]:
        """Travel against a leading Boss's sole source; a Boss card on a rich deal it can complete."""
        nego = state.nego
        assert nego is not None
        wishes: list[BossAction] = []
        space = state.space(nego.space)
        if ventured(nego, seat):
            return [PASS] if closing else []  # one interference a negotiation, read from the table
        if self._holds(state, seat, BOSS) and nego.proceeds >= 12:
            cost, _ = cheapest_cover(state, seat, space, nego.proceeds, partial(self._suppliers, state))
            if cost <= nego.proceeds // 2:
                wishes.append(BOSS_CARD)
        money = public_money(state)
        paid = nego.payments().get(seat, 0)
        leads = money[nego.boss] >= max(money) and money[nego.boss] > money[seat]
        if leads and paid == 0 and (closing or len(nego.items) > 0):
            wishes += self._travel(state, seat, space)
        return [*wishes, PASS] if closing else wishes

    def _travel(self, state: BossGameState, seat: int, space: Space) -> list[BossAction]:
        """Returns Travel plays on the needed colours that only one seat can supply."""
        nego = state.nego
        assert nego is not None
        wishes: list[BossAction] = []
        for colour in space.colours:
            sources = self._suppliers(state, colour)
            if len(sources) != 1 or sources[0] == seat:
                continue
            if not (
                self._holds(state, seat, f"travel:{colour}") or self._holds(state, seat, f"travel:{ANY}")
            ):
                continue
            needed = not covers(space, set(space.colours) - {colour})
            if needed:
                holder = sources[0]
                home = state.owners[colour] == holder and colour not in nego.travelling
                wishes.append(Travel(colour, -1 if home else holder))
        return wishes

    def _should_stop(self, state: BossGameState, seat: int) -> bool:
        """Stops plays that hurt the bot's own deal, its paid lines or its placards."""
        nego = state.nego
        assert nego is not None and nego.pending is not None
        pending = nego.pending
        if not self._holds(state, seat, STOP) or pending.by == seat:
            return False
        if isinstance(pending.play, BossCard):
            return seat == nego.boss
        if isinstance(pending.play, Recruit):
            term = nego.items.get(pending.colour)
            relied = seat == nego.boss and term is not None and term.seat == state.owners[pending.colour]
            return state.owners[pending.colour] == seat or relied
        term = nego.items.get(pending.colour)
        mine = term is not None and term.seat == seat and term.amount > 0
        return seat == nego.boss or mine
