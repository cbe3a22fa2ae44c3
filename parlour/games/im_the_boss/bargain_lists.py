"""The negotiation's legal actions as lists (rulebook "Participating in Negotiations"): what a seat may
lay and play, an investor's offers and answers, the Boss's ways to shape the terms. Plain functions over
the table (compiled with mypyc: ``BossGame.hot_modules``); ``bargain.Bargain`` asks them.
"""

from __future__ import annotations

from functools import cache, lru_cache

from parlour.games.im_the_boss.actions import (
    AGREE,
    CALL,
    FAIL,
    PASS,
    REFUSE,
    Accept,
    BossAction,
    Drop,
    Include,
    Lay,
    Offer,
    Tip,
    Use,
    Withdraw,
)
from parlour.games.im_the_boss.negotiation import Negotiation
from parlour.games.im_the_boss.phases import clockwise_order
from parlour.games.im_the_boss.plays import card_plays
from parlour.games.im_the_boss.state import BossState
from parlour.games.im_the_boss.supply import Line, Supply, hand_names, stands, supply


def bargain_legal(state: BossState, seat: int, quiet: bool) -> list[BossAction]:
    """Returns what ``seat`` may do in the negotiation window (``bargain.Bargain``; ``quiet``: every seat
    has passed, so only the Boss is asked and it may not pass: ruling B-2)."""
    nego = state.nego
    assert nego is not None
    closing: list[BossAction] = [CALL, FAIL] if stands(state) else [FAIL]
    if nego.counted[seat] >= state.options["negotiation_limit"]:  # spent (ruling B-2)
        if quiet:
            return closing
        # Out of actions: pass, answer the terms, or (the Boss) close or fail.
        if seat == nego.boss:
            return [PASS, *closing]
        return [PASS, AGREE, REFUSE] if nego.unagreed(seat) else [PASS]
    # Ruling B-2: the quiet Boss keeps every action but pass (each one counts and asks everyone again).
    found: list[BossAction] = [] if quiet else [PASS]
    cards, known = hand_plays(state, nego, seat)
    found.extend(cards)
    if seat == nego.boss:
        found.extend(boss_actions(state, known))
        found.extend(closing)
    else:
        found.extend(investor_actions(state, seat, known))
    return found


def hand_plays(state: BossState, nego: Negotiation, seat: int) -> tuple[tuple[BossAction, ...], Supply]:
    """Returns the Clan cards ``seat`` may lay and the cards it may play (``plays.card_plays``), with who
    supplies what (``supply.supply``): worked out once for each hand, Boss, laid cards, travellers and
    placards in the negotiation (``Negotiation.memo``, keyed by all of them: ``hand_key``)."""
    key = hand_key(state, nego, seat)
    found: tuple[tuple[BossAction, ...], Supply] | None = nego.memo.get(key)
    if found is None:
        held = hand_names(state, seat)
        known = supply(state)
        lays = [Lay.of(c) for c in known.colours if f"clan:{c}" in held]
        found = nego.memo[key] = (tuple(lays + card_plays(state, seat, held, known)), known)
    return found


def hand_key(state: BossState, nego: Negotiation, seat: int) -> tuple[object, ...]:
    """Returns one flat tuple of everything ``hand_plays`` reads: the seat, the Boss, the space, the
    seat's hand, each seat's laid cards (each pile after a -1), the travelling placards (their colours,
    after a -2) and every placard's owner (in the fixed colour order). Flat: cheaper to build and hash
    than a tuple of tuples, and as exact (card ids are never negative; colours are text)."""
    parts: list[object] = [seat, nego.boss, nego.space]
    parts += state.hands[seat]
    for pile in nego.laid:
        parts.append(-1)
        parts += pile
    parts.append(-2)
    parts += nego.travelling
    parts += state.owners.values()
    return tuple(parts)


def investor_actions(state: BossState, seat: int, known: Supply | None = None) -> list[BossAction]:
    """Returns a non-Boss seat's offers, withdrawals and answers to the terms (``known``: who supplies
    what, ``supply.supply``, when the caller has it)."""
    known = supply(state) if known is None else known
    nego, table = known.nego, known.table
    offers, proceeds = nego.offers, nego.proceeds
    found: list[BossAction] = []
    for colour, seats in table.items():
        if seat in seats:
            found += amounts(offer_amounts(colour, 0, proceeds), 0, offers.get((colour, seat), -1))
    if offers:
        found += [Withdraw.of(c) for c, s in sorted(offers) if s == seat]
    if nego.unagreed(seat):
        found += [AGREE, REFUSE]
    return found


def boss_actions(state: BossState, known: Supply | None = None) -> list[BossAction]:
    """Returns the Boss's ways to shape the terms: accept, include, use, drop, tip (``known``: who
    supplies what, ``supply.supply``, when the caller has it)."""
    known = supply(state) if known is None else known
    nego = known.nego
    items, tips, boss = nego.items, nego.tips, nego.boss
    free = nego.proceeds - nego.committed()  # each line's room below is what the other lines leave
    found: list[BossAction] = accepts(nego, free) if nego.offers else []
    for colour, suppliers in boss_lines(known, boss):
        term = items.get(colour)
        high = free if term is None else free + term.amount  # the line's room
        for seat, use, every in suppliers:
            if use is not None:
                if term is None or term.seat != seat:
                    found.append(use)
                continue
            upto = every[: high + 1] if 0 <= high < len(every) else include_amounts(colour, seat, 0, high)
            found += upto if term is None or term.seat != seat else amounts(upto, 0, term.amount)
    if items:
        found += drops(tuple(items))
    found += tip_actions(boss, state.players, free, tuple([(s, t.amount) for s, t in tips.items()]))
    return found


def boss_lines(known: Supply, boss: int) -> tuple[Line, ...]:
    """Returns the Boss's actions on each colour's line (``supply.Line``), worked out once for the table
    and the Boss (kept in ``known``)."""
    if known.lines_boss != boss:
        proceeds = known.nego.proceeds
        known.lines = tuple(
            (
                colour,
                tuple(
                    (seat, Use.of(colour), ())
                    if seat == boss
                    else (seat, None, include_amounts(colour, seat, 0, proceeds))
                    for seat in seats
                ),
            )
            for colour, seats in known.table.items()
        )
        known.lines_boss = boss
    return known.lines


def accepts(nego: Negotiation, free: int) -> list[BossAction]:
    """Returns the offers the Boss may accept at their ask (the terms' other lines leave room for it),
    but an offer the terms already hold, agreed, at its ask."""
    items = nego.items
    found: list[BossAction] = []
    for (colour, seat), ask in sorted(nego.offers.items()):
        term = items.get(colour)
        if term is None:
            room = free
        elif term.seat == seat and term.amount == ask and term.agreed:
            continue  # accepting would change nothing
        else:
            room = free + term.amount
        if ask <= room:
            found.append(Accept.of(colour, seat))
    return found


@cache
def drops(colours: tuple[str, ...]) -> tuple[BossAction, ...]:
    """Returns (once, then shared) ``drop C`` for each colour in the terms, in colour order."""
    return tuple(Drop.of(c) for c in sorted(colours))


@lru_cache(maxsize=4096)  # bounded: the tips on the table can take many values
def tip_actions(
    boss: int, players: int, free: int, tipped: tuple[tuple[int, int], ...]
) -> tuple[BossAction, ...]:
    """Returns (once, then shared) the Boss's payments for no investor, to each other seat clockwise:
    ``tip @S N`` up to what the terms leave free (plus the seat's own tip, which it replaces; N = 0
    withdraws it, and its own amount is left out). ``tipped``: each tipped seat and its amount."""
    found: tuple[BossAction, ...] = ()
    given = dict(tipped)
    for seat in clockwise_order(boss, players)[1:]:
        tip = given.get(seat)
        if tip is None:
            found += tip_amounts(seat, 1, free)
        else:
            found += amounts(tip_amounts(seat, 0, free + tip), 0, tip)
    return found


def amounts(every: tuple[BossAction, ...], low: int, skip: int) -> tuple[BossAction, ...]:
    """Returns the actions naming N millions from ``low`` up (``every``), leaving out N = skip."""
    if low <= skip < low + len(every):
        return every[: skip - low] + every[skip - low + 1 :]
    return every


@cache
def offer_amounts(colour: str, low: int, high: int) -> tuple[BossAction, ...]:
    """Returns (once, then shared) ``offer C N`` for N from low to high."""
    return tuple(Offer.of(colour, n) for n in range(low, high + 1))


@cache
def include_amounts(colour: str, seat: int, low: int, high: int) -> tuple[BossAction, ...]:
    """Returns (once, then shared) ``include C @S N`` for N from low to high."""
    return tuple(Include.of(colour, seat, n) for n in range(low, high + 1))


@cache
def tip_amounts(seat: int, low: int, high: int) -> tuple[BossAction, ...]:
    """Returns (once, then shared) ``tip @S N`` for N from low to high."""
    return tuple(Tip.of(seat, n) for n in range(low, high + 1))
