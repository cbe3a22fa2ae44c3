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

from functools import cache
from typing import TYPE_CHECKING

from parlour.core.decisions import RawDecision
from parlour.games.im_the_boss import plays
from parlour.games.im_the_boss.actions import Action, act
from parlour.games.im_the_boss.negotiation import Negotiation, Term
from parlour.games.im_the_boss.phases import BARGAIN, CLOSING, clockwise, others_from_left
from parlour.games.im_the_boss.supply import auto_use, can_supply, stands, strike_unagreed, suppliers

if TYPE_CHECKING:
    from parlour.games.im_the_boss.state import BossState

PASS, CALL, FAIL = act("pass"), act("call"), act("fail")
AGREE, REFUSE = act("agree"), act("refuse")


def open_negotiation(state: BossState, seat: int) -> None:
    """ "Let's make a deal": ``seat`` becomes the Boss of the deal where the marker stands."""
    assert state.marker is not None and state.top_card() is not None
    space = state.space(state.marker)
    proceeds = space.dividends * state.top_card().value  # type: ignore[union-attr]
    state.stack.pop()
    state.nego = Negotiation(state.marker, seat, seat, proceeds, [[] for _ in range(state.players)])
    state.nego.counted = [0] * state.players
    state.stack.push(RawDecision(BARGAIN, clockwise(seat, state.players), {"quiet": False}, concurrent=True))
    state.emit(
        f'Seat {seat}: "Let\'s make a deal!" Space {space.number} ({space.text()}), '
        f"proceeds {proceeds} million."
    )
    auto_use(state)


def nego_of(state: BossState) -> Negotiation:
    """Returns the negotiation in progress."""
    assert state.nego is not None
    return state.nego


def quiet(state: BossState) -> bool:
    """Returns whether every seat has passed: only the Boss is asked, and it may not pass (B-2)."""
    return bool(state.stack[0].data.get("quiet"))


def spent(state: BossState, seat: int) -> bool:
    """Returns whether ``seat`` has used up its actions in this negotiation (ruling B-2)."""
    return bool(nego_of(state).counted[seat] >= state.options["negotiation_limit"])


def quiet_choices(state: BossState) -> str:
    """Returns what the quiet Boss may do, in words: "call, fail or bargain on", "fail"..."""
    choices = (["call"] if stands(state) else []) + ["fail"]
    if not spent(state, nego_of(state).boss):
        choices.append("bargain on")
    return ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else choices[0]


def reopen(state: BossState) -> None:
    """Asks every seat again, from the Boss, after an action."""
    window = state.stack[0]
    window.data["quiet"] = False
    window.reopen(clockwise(nego_of(state).boss, state.players))


# ------------------------------------------------------------------ legal actions
def actions(state: BossState, seat: int) -> list[Action]:
    """Returns what ``seat`` may do in the negotiation window."""
    nego = nego_of(state)
    closing = [CALL, FAIL] if stands(state) else [FAIL]
    if quiet(state) and spent(state, seat):
        return closing
    if spent(state, seat):
        # Out of actions: pass, answer the terms, or (the Boss) close or fail.
        answers = [AGREE, REFUSE] if nego.unagreed(seat) else []
        return [PASS, *closing] if seat == nego.boss else [PASS, *answers]
    # Ruling B-2: the quiet Boss keeps every action but pass (each one counts and asks everyone again).
    found: list[Action] = [] if quiet(state) else [PASS]
    found += [act("lay", colour=c) for c in state.space(nego.space).colours if state.count(seat, f"clan:{c}")]
    found += plays.card_plays(state, seat)
    if seat == nego.boss:
        found += boss_actions(state)
        found += [CALL, FAIL] if stands(state) else [FAIL]
    else:
        found += investor_actions(state, seat)
    return found


def public_only_pass(state: BossState, seat: int) -> bool:
    """Returns whether everyone can tell, from public information alone, that ``seat`` may only pass now.

    Sound for every hand of the seat's size: a Stop window or the closing round asks for cards, so an empty
    hand can only pass; in the bargaining a seat that is not the Boss needs cards in hand, a placard at
    home or a laid Clan card of the deal, an offer to withdraw, or lines to answer. A hot-seat front end may
    skip handing the screen to such a seat: no secret is in the decision (docs/negotiation.md).
    """
    if seat not in state.deciders() or not state.passing_window():
        return False
    nego = nego_of(state)
    kind = state.stack.top.kind
    if kind != BARGAIN:
        return not state.hands[seat]
    if seat == nego.boss or quiet(state) or nego.unagreed(seat):
        return False
    if spent(state, seat):
        return True
    if state.hands[seat] or any(s == seat for _, s in nego.offers):
        return False
    return not any(can_supply(state, seat, c) for c in state.space(nego.space).colours)


def investor_actions(state: BossState, seat: int) -> list[Action]:
    """Returns a non-Boss seat's offers, withdrawals and answers to the terms."""
    nego = nego_of(state)
    found: list[Action] = []
    for colour in state.space(nego.space).colours:
        if can_supply(state, seat, colour):
            ask = nego.offers.get((colour, seat), -1)
            found += amounts("offer", colour, -1, 0, nego.proceeds, ask)
    found += [act("withdraw", colour=c) for c, s in sorted(nego.offers) if s == seat]
    if nego.unagreed(seat):
        found += [AGREE, REFUSE]
    return found


def boss_actions(state: BossState) -> list[Action]:
    """Returns the Boss's ways to shape the terms: accept, include, use, drop, tip."""
    nego = nego_of(state)
    found: list[Action] = []
    for (colour, seat), ask in sorted(nego.offers.items()):
        term = nego.items.get(colour)
        if (term is None or (term.seat, term.amount, term.agreed) != (seat, ask, True)) and nego.committed(
            without_colour=colour
        ) + ask <= nego.proceeds:
            found.append(act("accept", colour=colour, seat=seat))
    for colour in state.space(nego.space).colours:
        term = nego.items.get(colour)
        room = nego.proceeds - nego.committed(without_colour=colour)
        for seat in suppliers(state, colour):
            if seat == nego.boss:
                if term is None or term.seat != seat:
                    found.append(act("use", colour=colour))
                continue
            current = term.amount if term is not None and term.seat == seat else -1
            found += amounts("include", colour, seat, 0, room, current)
    found += [act("drop", colour=c) for c in sorted(nego.items)]
    for seat in others_from_left(nego.boss, state.players):
        tip = nego.tips.get(seat)
        room = nego.proceeds - nego.committed(without_tip=seat)
        low = 0 if tip is not None else 1
        current = tip.amount if tip is not None else -1
        found += amounts("tip", "", seat, low, room, current)
    return found


def amounts(verb: str, colour: str, seat: int, low: int, high: int, skip: int) -> tuple[Action, ...]:
    """Returns the actions ``verb colour @seat N`` for N from low to high, leaving out N = skip."""
    every = _amounts(verb, colour, seat, low, high)
    if low <= skip <= high:
        return every[: skip - low] + every[skip - low + 1 :]
    return every


@cache
def _amounts(verb: str, colour: str, seat: int, low: int, high: int) -> tuple[Action, ...]:
    """Returns (once, then shared) the actions ``verb colour @seat N`` for N from low to high."""
    return tuple(act(verb, colour=colour, seat=seat, number=n) for n in range(low, high + 1))


# ------------------------------------------------------------------ applying
def apply(state: BossState, seat: int, action: Action) -> None:
    """Applies a legal negotiation action."""
    nego = nego_of(state)
    verb = action.verb
    if verb == "pass":
        _pass(state, seat)
        return
    if verb == "fail":
        from parlour.games.im_the_boss.closing import fail_deal

        fail_deal(state)
        return
    if verb not in ("agree", "refuse"):
        nego.counted[seat] += 1
    if verb == "call":
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
        state.stack.push(RawDecision(CLOSING, others_from_left(seat, state.players)))
        return
    if verb in ("travel", "boss", "recruit"):
        plays.play(state, seat, action)
        return
    TERMS[verb](state, seat, action)
    reopen(state)


def _pass(state: BossState, seat: int) -> None:
    """The seat waits; when every seat has waited, only the Boss is asked (it may not pass: ruling B-2)."""
    window = state.stack.top
    window.pass_seat(seat)
    if window.is_settled:
        window.data["quiet"] = True
        boss = nego_of(state).boss
        window.reopen([boss])
        state.emit(f"Everyone has passed: only the Boss, seat {boss}, is asked ({quiet_choices(state)}).")


def _lay(state: BossState, seat: int, action: Action) -> None:
    """Lays a Clan card face up in front of the seat."""
    card = state.holding(seat, f"clan:{action.colour}")[0]
    state.hands[seat].remove(card)
    nego_of(state).laid[seat].append(card)
    state.emit(f"Seat {seat} lays {article(action.colour)} {action.colour} Clan card.")


def _offer(state: BossState, seat: int, action: Action) -> None:
    """Offers (or re-prices) the seat's investor of a colour."""
    nego_of(state).offers[(action.colour, seat)] = action.number
    state.emit(f"Seat {seat} offers {action.colour} for {action.number} million.")


def _withdraw(state: BossState, seat: int, action: Action) -> None:
    """Withdraws an offer; a line of the terms resting on it goes too (ruling A-09)."""
    nego = nego_of(state)
    del nego.offers[(action.colour, seat)]
    term = nego.items.get(action.colour)
    if term is not None and term.seat == seat:
        del nego.items[action.colour]
    state.emit(f"Seat {seat} withdraws its {action.colour} offer.")


def _accept(state: BossState, seat: int, action: Action) -> None:
    """The Boss accepts an offer at its ask: an agreed line of the terms."""
    nego = nego_of(state)
    ask = nego.offers[(action.colour, action.seat)]
    nego.items[action.colour] = Term(action.seat, ask, True)
    state.emit(f"The Boss accepts seat {action.seat}'s {action.colour} for {ask} million.")


def _include(state: BossState, seat: int, action: Action) -> None:
    """The Boss proposes a line: this seat's investor for this amount (the seat must agree)."""
    nego_of(state).items[action.colour] = Term(action.seat, action.number, False)
    state.emit(f"The Boss proposes {action.number} million to seat {action.seat} for {action.colour}.")


def _use(state: BossState, seat: int, action: Action) -> None:
    """The Boss brings in its own investor (agreed automatically)."""
    nego_of(state).items[action.colour] = Term(seat, 0, True)
    state.emit(f"The Boss brings in its own {action.colour}.")


def _drop(state: BossState, seat: int, action: Action) -> None:
    """The Boss takes an investor out of the terms."""
    del nego_of(state).items[action.colour]
    state.emit(f"The Boss drops {action.colour} from the terms.")


def _tip(state: BossState, seat: int, action: Action) -> None:
    """The Boss proposes a payment to a seat for no investor (0 removes it; ruling A-08)."""
    nego = nego_of(state)
    if action.number == 0:
        del nego.tips[action.seat]
        state.emit(f"The Boss withdraws the payment to seat {action.seat}.")
    else:
        nego.tips[action.seat] = Term(action.seat, action.number, False)
        state.emit(f"The Boss proposes {action.number} million to seat {action.seat} (no investor).")


def _agree(state: BossState, seat: int, action: Action) -> None:
    """The seat agrees to every line of the terms that names it."""
    nego = nego_of(state)
    for term in [*nego.items.values(), *nego.tips.values()]:
        if term.seat == seat:
            term.agreed = True
    state.emit(f"Seat {seat} agrees to the terms ({nego.payments().get(seat, 0)} million).")


def _refuse(state: BossState, seat: int, action: Action) -> None:
    """The seat refuses: the lines naming it that it had not agreed to are struck."""
    nego = nego_of(state)
    struck = [c for c, t in sorted(nego.items.items()) if t.seat == seat and not t.agreed]
    for colour in struck:
        del nego.items[colour]
    if seat in nego.tips and not nego.tips[seat].agreed:
        del nego.tips[seat]
        struck.append("its payment for no investor")
    state.emit(f"Seat {seat} refuses the terms offered to it: {' and '.join(struck)} struck.")


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


TERMS = {
    "lay": _lay,
    "offer": _offer,
    "withdraw": _withdraw,
    "accept": _accept,
    "include": _include,
    "use": _use,
    "drop": _drop,
    "tip": _tip,
    "agree": _agree,
    "refuse": _refuse,
}
