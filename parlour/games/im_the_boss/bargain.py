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

from dataclasses import dataclass

from parlour.core.decisions import Seat
from parlour.games.im_the_boss.actions import (
    Agree,
    BossAction,
    Call,
    Fail,
    Pass,
    Play,
    Refuse,
)
from parlour.games.im_the_boss.bargain_lists import bargain_legal
from parlour.games.im_the_boss.closing import Closing, fail_deal
from parlour.games.im_the_boss.negotiation import Negotiation
from parlour.games.im_the_boss.phases import clockwise, clockwise_order, others_from_left
from parlour.games.im_the_boss.plays import play
from parlour.games.im_the_boss.state import BossState, UnderStop
from parlour.games.im_the_boss.supply import (
    auto_use,
    can_supply,
    stands,
    strike_unagreed,
)
from parlour.games.im_the_boss.terms import shape_terms


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
        """Returns what ``seat`` may do in the negotiation window (``bargain_lists.bargain_legal``)."""
        return bargain_legal(state, seat, self.quiet)

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
