"""Rulebook "Participating in Negotiations": laying Clan cards, offers, the Boss's terms, agreement.

The negotiation is an open window (docs/negotiation.md): every seat may act,
first come first served; the deterministic order is the Boss, then clockwise.
A seat that passes is not asked again until somebody acts.  When every seat has
passed ("quiet"), only the Boss is asked, and it may not pass: it calls, fails,
or (while it has actions left) shapes the terms again, which asks everyone anew
(ruling B-2: every such action uses one of the Boss's actions, so quiet spells
cannot repeat for ever).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parlour.core.decisions import Seat
from parlour.games.im_the_boss.actions import (
    AGREE,
    CALL,
    FAIL,
    PASS,
    REFUSE,
    Accept,
    Agree,
    BossAction,
    Call,
    Drop,
    Fail,
    Include,
    Lay,
    Offer,
    Pass,
    Play,
    Refuse,
    Tip,
    Use,
    Withdraw,
)
from parlour.games.im_the_boss.bargain_lists import boss_actions, hand_plays, investor_actions
from parlour.games.im_the_boss.closing import Closing, fail_deal
from parlour.games.im_the_boss.negotiation import Negotiation, Term
from parlour.games.im_the_boss.phases import clockwise, clockwise_order, others_from_left
from parlour.games.im_the_boss.plays import play
from parlour.games.im_the_boss.state import BossState, UnderStop
from parlour.games.im_the_boss.supply import (
    auto_use,
    can_supply,
    stands,
    strike_unagreed,
)


@dataclass(eq=False, kw_only=True)
class Bargain(UnderStop):
    """The bargaining: an open window asking every seat from the Boss clockwise (ruling B-2).

    A seat that passes leaves the window; any other action asks every seat again. When all have
    passed the window turns quiet by itself: only the Boss is asked, and it may not pass.
    """

    kind = "bargain"
    phase = "the negotiation"
    passing = True
    concurrent: bool = True
    quiet: bool
    """Whether every seat has passed: only the Boss is asked, and it may not pass (B-2)."""

    def legal(self, state: BossState, seat: Seat) -> list[BossAction]:
        """Returns what ``seat`` may do in the negotiation window."""
        nego = state.nego
        assert nego is not None
        closing: list[BossAction] = [CALL, FAIL] if stands(state) else [FAIL]
        if nego.counted[seat] >= state.options["negotiation_limit"]:  # spent (ruling B-2)
            if self.quiet:
                return closing
            # Out of actions: pass, answer the terms, or (the Boss) close or fail.
            answers: list[BossAction] = [AGREE, REFUSE] if nego.unagreed(seat) else []
            return [PASS, *closing] if seat == nego.boss else [PASS, *answers]
        # Ruling B-2: the quiet Boss keeps every action but pass (each one counts and asks everyone again).
        found: list[BossAction] = [] if self.quiet else [PASS]
        cards, known = hand_plays(state, nego, seat)
        found += cards
        if seat == nego.boss:
            found += boss_actions(state, known)
            found += closing
        else:
            found += investor_actions(state, seat, known)
        return found

    def apply(self, state: BossState, seat: Seat, action: BossAction) -> None:
        """Applies a negotiation action: a pass waits, a card opens its Stop window, the rest shape the
        terms and ask everyone again."""
        nego = state.negotiation()
        if isinstance(action, Pass):
            self.pass_seat(seat)
            return
        if isinstance(action, Fail):
            fail_deal(state)
            return
        if not isinstance(action, (Agree, Refuse)):
            nego.counted[seat] += 1
        if isinstance(action, Call):
            call(state, seat)
        elif isinstance(action, Play):
            play(state, seat, action)
        else:
            shape_terms(state, seat, action)
            self.resume(state, keep_call=True)

    def auto(self, state: BossState) -> bool:
        """When every seat has passed, only the Boss is asked (it may not pass: ruling B-2)."""
        if self.seats:
            return False
        self.quiet = True
        boss = state.negotiation().boss
        self.reopen([boss])
        state.emit(f"Everyone has passed: only the Boss, seat {boss}, is asked ({quiet_choices(state)}).")
        return True

    def resume(self, state: BossState, keep_call: bool) -> None:
        """Asks every seat again, from the Boss, after an action."""
        self.quiet = False
        nego = state.nego
        assert nego is not None
        self.reopen(clockwise_order(nego.boss, state.players))

    def order(self, state: BossState) -> tuple[list[Seat], str, bool]:
        """Seats from the Boss clockwise; only the Boss once everyone has passed."""
        boss = state.negotiation().boss
        if self.quiet:
            return [boss], f"only the Boss (seat {boss}) once everyone has passed", True
        return clockwise(boss, state.players), f"seats from the Boss (seat {boss}) clockwise", False


def open_negotiation(state: BossState, seat: int) -> None:
    """ "Let's make a deal": ``seat`` becomes the Boss of the deal where the marker stands."""
    top = state.top_card()
    assert state.marker is not None and top is not None
    space = state.space(state.marker)
    proceeds = space.dividends * top.value
    state.stack.pop()
    state.nego = Negotiation(state.marker, seat, seat, proceeds, [[] for _ in range(state.players)])
    state.nego.counted = [0] * state.players
    state.nego.refused = [0] * state.players
    state.nego.interfered = [0] * state.players
    state.stack.push(Bargain(seats=clockwise(seat, state.players), quiet=False))
    if state.logging:
        state.emit(
            f'Seat {seat}: "Let\'s make a deal!" Space {space.number} ({space.text()}), '
            f"proceeds {proceeds} million."
        )
    auto_use(state)


def bargaining(state: BossState) -> Bargain:
    """Returns the bargaining window (the bottom decision while a negotiation is on)."""
    window = state.stack[0]
    assert isinstance(window, Bargain)
    return window


def quiet(state: BossState) -> bool:
    """Returns whether every seat has passed: only the Boss is asked, and it may not pass (B-2)."""
    return bargaining(state).quiet


def spent(state: BossState, seat: int) -> bool:
    """Returns whether ``seat`` has used up its actions in this negotiation (ruling B-2)."""
    return bool(state.negotiation().counted[seat] >= state.options["negotiation_limit"])


def quiet_choices(state: BossState) -> str:
    """Returns what the quiet Boss may do, in words: "call, fail or bargain on", "fail"..."""
    choices = (["call"] if stands(state) else []) + ["fail"]
    if not spent(state, state.negotiation().boss):
        choices.append("bargain on")
    return ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else choices[0]


# ------------------------------------------------------------------ legal actions
def public_only_pass(state: BossState, seat: int) -> bool:
    """Returns whether everyone can tell, from public information alone, that ``seat`` may only pass now.

    Sound for every hand of the seat's size: a Stop window or the closing round asks for cards, so an empty
    hand can only pass; in the bargaining a seat that is not the Boss needs cards in hand, a placard at
    home or a laid Clan card of the deal, an offer to withdraw, or lines to answer. A hot-seat front end may
    skip handing the screen to such a seat: no secret is in the decision (docs/negotiation.md).
    """
    if seat not in state.deciders() or not state.passing_window():
        return False
    nego = state.negotiation()
    window = state.decision()
    if not isinstance(window, Bargain):
        return not state.hands[seat]
    if seat == nego.boss or window.quiet or nego.unagreed(seat):
        return False
    if spent(state, seat):
        return True
    if state.hands[seat] or any(s == seat for _, s in nego.offers):
        return False
    return not any(can_supply(state, seat, c) for c in state.space(nego.space).colours)


# ------------------------------------------------------------------ applying
def call(state: BossState, seat: int) -> None:
    """The Boss calls the deal: lines not agreed are struck (B-4) and the closing round begins."""
    nego = state.negotiation()
    nego.called = True
    if state.logging:
        struck = [f"{c} (seat {t.seat})" for c, t in sorted(nego.items.items()) if not t.agreed]
        struck += [f"the payment to seat {s}" for s, t in sorted(nego.tips.items()) if not t.agreed]
        if struck:
            state.emit(f"Lines not agreed are struck (ruling B-4): {', '.join(struck)}.")
    strike_unagreed(state)
    if state.logging:
        state.emit(
            f"Seat {seat}, the Boss, calls the deal on these terms: {describe_terms(nego)}. "
            '"Going once, going twice..."'
        )
    state.stack.push(Closing(seats=others_from_left(seat, state.players)))


def shape_terms(state: BossState, seat: int, action: BossAction) -> None:
    """Lays a Clan card, makes or withdraws an offer, shapes the terms or answers them."""
    shaper = SHAPERS.get(type(action))
    if shaper is None:
        raise AssertionError(f"{action} does not shape the terms")
    shaper(state, seat, action)


def lay(state: BossState, seat: int, action: Lay) -> None:
    """Lays a Clan card of the colour face up."""
    colour = action.colour
    card = state.holding(seat, f"clan:{colour}")[0]
    state.hands[seat].remove(card)
    state.negotiation().laid[seat].append(card)
    if state.logging:
        state.emit(f"Seat {seat} lays {article(colour)} {colour} Clan card.")


def offer(state: BossState, seat: int, action: Offer) -> None:
    """Offers (or re-prices) the seat's investor of the colour."""
    state.negotiation().offers[(action.colour, seat)] = action.number
    if state.logging:
        state.emit(f"Seat {seat} offers {action.colour} for {action.number} million.")


def accept(state: BossState, seat: int, action: Accept) -> None:
    """The Boss accepts an offer at its ask: an agreed line of the terms."""
    nego = state.negotiation()
    colour, supplier = action.colour, action.seat
    ask = nego.offers[(colour, supplier)]
    old = nego.items.get(colour)
    if old is not None and (old.seat, old.amount) != (supplier, ask):
        nego.withdrawn(old)  # (accepting the offer the proposal names, at its amount, agrees it)
    nego.items[colour] = Term(supplier, ask, True)
    if state.logging:
        state.emit(f"The Boss accepts seat {supplier}'s {colour} for {ask} million.")


def include(state: BossState, seat: int, action: Include) -> None:
    """The Boss proposes an amount to a seat for its investor: a line the seat has not agreed to yet."""
    nego = state.negotiation()
    nego.withdrawn(nego.items.get(action.colour))
    nego.items[action.colour] = Term(action.seat, action.number, False)
    if state.logging:
        state.emit(f"The Boss proposes {action.number} million to seat {action.seat} for {action.colour}.")


def use(state: BossState, seat: int, action: Use) -> None:
    """The Boss brings in its own investor of the colour."""
    nego = state.negotiation()
    nego.withdrawn(nego.items.get(action.colour))
    nego.items[action.colour] = Term(seat, 0, True)
    if state.logging:
        state.emit(f"The Boss brings in its own {action.colour}.")


def drop(state: BossState, seat: int, action: Drop) -> None:
    """The Boss takes the investor of the colour out of the terms."""
    nego = state.negotiation()
    nego.withdrawn(nego.items.pop(action.colour))
    if state.logging:
        state.emit(f"The Boss drops {action.colour} from the terms.")


def withdraw(state: BossState, seat: int, colour: str) -> None:
    """Withdraws an offer; a line of the terms resting on it goes too (ruling A-09)."""
    nego = state.negotiation()
    del nego.offers[(colour, seat)]
    term = nego.items.get(colour)
    if term is not None and term.seat == seat:
        nego.withdrawn(term)
        del nego.items[colour]
    if state.logging:
        state.emit(f"Seat {seat} withdraws its {colour} offer.")


def tip(state: BossState, payee: int, number: int) -> None:
    """The Boss proposes a payment to a seat for no investor (0 removes it; ruling A-08)."""
    nego = state.negotiation()
    nego.withdrawn(nego.tips.get(payee))
    if number == 0:
        del nego.tips[payee]
        if state.logging:
            state.emit(f"The Boss withdraws the payment to seat {payee}.")
    else:
        nego.tips[payee] = Term(payee, number, False)
        if state.logging:
            state.emit(f"The Boss proposes {number} million to seat {payee} (no investor).")


def agree(state: BossState, seat: int) -> None:
    """The seat agrees to every line of the terms that names it."""
    nego = state.negotiation()
    for term in [*nego.items.values(), *nego.tips.values()]:
        if term.seat == seat:
            term.agreed = True
    state.emit(f"Seat {seat} agrees to the terms ({nego.payments().get(seat, 0)} million).")


def refuse(state: BossState, seat: int) -> None:
    """The seat refuses: the lines naming it that it had not agreed to are struck."""
    nego = state.negotiation()
    struck = [c for c, t in sorted(nego.items.items()) if t.seat == seat and not t.agreed]
    for colour in struck:
        nego.withdrawn(nego.items.pop(colour))
    if seat in nego.tips and not nego.tips[seat].agreed:
        nego.withdrawn(nego.tips.pop(seat))
        struck.append("its payment for no investor")
    state.emit(f"Seat {seat} refuses the terms offered to it: {' and '.join(struck)} struck.")


SHAPERS: dict[type[BossAction], Callable[[BossState, int, Any], None]] = {
    Lay: lay,
    Offer: offer,
    Withdraw: lambda state, seat, action: withdraw(state, seat, action.colour),
    Accept: accept,
    Include: include,
    Use: use,
    Drop: drop,
    Tip: lambda state, seat, action: tip(state, action.seat, action.number),
    Agree: lambda state, seat, action: agree(state, seat),
    Refuse: lambda state, seat, action: refuse(state, seat),
}
"""How each action that shapes the terms does so, by its class."""


def article(colour: str) -> str:
    """Returns "an" before a letter whose name begins with a vowel sound (an R, an M, an O), else "a"."""
    return "an" if colour in "AEFHILMNORSX" else "a"


def describe_terms(nego: Negotiation) -> str:
    """Returns the terms in words: each investor line, each payment for no investor, what the Boss keeps."""
    lines = [
        f"{c} from seat {t.seat}"
        + (" (the Boss's own)" if t.seat == nego.boss else f" for {t.amount} million")
        for c, t in sorted(nego.items.items())
    ]
    lines += [f"{t.amount} million to seat {s} for no investor" for s, t in sorted(nego.tips.items())]
    kept = nego.proceeds - nego.committed()
    return (", ".join(lines) or "no lines") + f"; the Boss keeps {kept} million"
