"""Rulebook "Participating in Negotiations": how each action shapes the terms (laying a Clan card, an
offer or its withdrawal, the Boss's lines and payments, a seat's answer). Plain functions over the table,
compiled with mypyc (``BossGame.hot_modules``); ``bargain.Bargain`` applies them.
"""

from __future__ import annotations

from parlour.games.im_the_boss.actions import (
    Accept,
    Agree,
    BossAction,
    Drop,
    Include,
    Lay,
    Offer,
    Refuse,
    Tip,
    Use,
    Withdraw,
)
from parlour.games.im_the_boss.negotiation import Negotiation, Term
from parlour.games.im_the_boss.state import BossState


def shape_terms(state: BossState, seat: int, action: BossAction) -> None:
    """Lays a Clan card, makes or withdraws an offer, shapes the terms or answers them."""
    nego = state.nego
    assert nego is not None
    # The Boss's actions first: they are most of a negotiation's.
    if isinstance(action, Include):
        include(state, nego, action)
    elif isinstance(action, Tip):
        tip(state, nego, action.seat, action.number)
    elif isinstance(action, Offer):
        offer(state, nego, seat, action)
    elif isinstance(action, Accept):
        accept(state, nego, action)
    elif isinstance(action, Drop):
        drop(state, nego, action)
    elif isinstance(action, Use):
        use(state, nego, seat, action)
    elif isinstance(action, Lay):
        lay(state, nego, seat, action)
    elif isinstance(action, Withdraw):
        withdraw(state, nego, seat, action.colour)
    elif isinstance(action, Agree):
        agree(state, nego, seat)
    elif isinstance(action, Refuse):
        refuse(state, nego, seat)
    else:
        raise AssertionError(f"{action} does not shape the terms")


def lay(state: BossState, nego: Negotiation, seat: int, action: Lay) -> None:
    """Lays a Clan card of the colour face up."""
    colour = action.colour
    card = state.holding(seat, f"clan:{colour}")[0]
    state.hands[seat].remove(card)
    nego.laid[seat].append(card)
    if state.logging:
        state.emit(f"Seat {seat} lays {article(colour)} {colour} Clan card.")


def offer(state: BossState, nego: Negotiation, seat: int, action: Offer) -> None:
    """Offers (or re-prices) the seat's investor of the colour."""
    nego.offers[(action.colour, seat)] = action.number
    if state.logging:
        state.emit(f"Seat {seat} offers {action.colour} for {action.number} million.")


def accept(state: BossState, nego: Negotiation, action: Accept) -> None:
    """The Boss accepts an offer at its ask: an agreed line of the terms."""
    colour, supplier = action.colour, action.seat
    ask = nego.offers[(colour, supplier)]
    old = nego.items.get(colour)
    if old is not None and (old.seat != supplier or old.amount != ask):
        nego.withdrawn(old)  # (accepting the offer the proposal names, at its amount, agrees it)
    nego.items[colour] = Term(supplier, ask, True)
    if state.logging:
        state.emit(f"The Boss accepts seat {supplier}'s {colour} for {ask} million.")


def include(state: BossState, nego: Negotiation, action: Include) -> None:
    """The Boss proposes an amount to a seat for its investor: a line the seat has not agreed to yet."""
    colour = action.colour
    nego.withdrawn(nego.items.get(colour))
    nego.items[colour] = Term(action.seat, action.number, False)
    if state.logging:
        state.emit(f"The Boss proposes {action.number} million to seat {action.seat} for {colour}.")


def use(state: BossState, nego: Negotiation, seat: int, action: Use) -> None:
    """The Boss brings in its own investor of the colour."""
    nego.withdrawn(nego.items.get(action.colour))
    nego.items[action.colour] = Term(seat, 0, True)
    if state.logging:
        state.emit(f"The Boss brings in its own {action.colour}.")


def drop(state: BossState, nego: Negotiation, action: Drop) -> None:
    """The Boss takes the investor of the colour out of the terms."""
    nego.withdrawn(nego.items.pop(action.colour))
    if state.logging:
        state.emit(f"The Boss drops {action.colour} from the terms.")


def withdraw(state: BossState, nego: Negotiation, seat: int, colour: str) -> None:
    """Withdraws an offer; a line of the terms resting on it goes too (ruling A-09)."""
    del nego.offers[(colour, seat)]
    term = nego.items.get(colour)
    if term is not None and term.seat == seat:
        nego.withdrawn(term)
        del nego.items[colour]
    if state.logging:
        state.emit(f"Seat {seat} withdraws its {colour} offer.")


def tip(state: BossState, nego: Negotiation, payee: int, number: int) -> None:
    """The Boss proposes a payment to a seat for no investor (0 removes it; ruling A-08)."""
    nego.withdrawn(nego.tips.get(payee))
    if number == 0:
        del nego.tips[payee]
        if state.logging:
            state.emit(f"The Boss withdraws the payment to seat {payee}.")
    else:
        nego.tips[payee] = Term(payee, number, False)
        if state.logging:
            state.emit(f"The Boss proposes {number} million to seat {payee} (no investor).")


def agree(state: BossState, nego: Negotiation, seat: int) -> None:
    """The seat agrees to every line of the terms that names it."""
    for term in [*nego.items.values(), *nego.tips.values()]:
        if term.seat == seat:
            term.agreed = True
    if state.logging:
        state.emit(f"Seat {seat} agrees to the terms ({nego.payments().get(seat, 0)} million).")


def refuse(state: BossState, nego: Negotiation, seat: int) -> None:
    """The seat refuses: the lines naming it that it had not agreed to are struck."""
    struck = [c for c, t in sorted(nego.items.items()) if t.seat == seat and not t.agreed]
    for colour in struck:
        nego.withdrawn(nego.items.pop(colour))
    if seat in nego.tips and not nego.tips[seat].agreed:
        nego.withdrawn(nego.tips.pop(seat))
        struck.append("its payment for no investor")
    if state.logging:
        state.emit(f"Seat {seat} refuses the terms offered to it: {' and '.join(struck)} struck.")


def article(colour: str) -> str:
    """Returns "an" before a letter whose name begins with a vowel sound (an R, an M, an O), else "a"."""
    return "an" if colour in "AEFHILMNORSX" else "a"
