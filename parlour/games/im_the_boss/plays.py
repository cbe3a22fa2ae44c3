"""Rulebook "Playing Influence Cards": Travel, Recruitment triples, Boss cards, and Stop windows.

A Travel, Boss card or triple is held pending while the other seats, from the
player's left, may answer with a Stop (ruling A-20: a response window).  A Stop
cancels it; nothing answers a Stop.  When every seat declines, the play takes
effect.  Either way the negotiation (or the closing round) then resumes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.decisions import RawDecision
from parlour.games.im_the_boss.actions import Action, act
from parlour.games.im_the_boss.content import ANY, BOSS, STOP
from parlour.games.im_the_boss.negotiation import Pending
from parlour.games.im_the_boss.phases import CLOSING, RESPOND, others_from_left
from parlour.games.im_the_boss.supply import auto_use, prune, stands
from parlour.games.im_the_boss.turn import recruit_targets, spend_triple, take_placard

if TYPE_CHECKING:
    from parlour.games.im_the_boss.state import BossState

BOSS_CARD, STOP_CARD, PASS = act("boss"), act("stop"), act("pass")


def card_plays(state: BossState, seat: int) -> list[Action]:
    """Returns the Travel, Boss and Recruitment plays ``seat`` may make in the negotiation."""
    nego = state.nego
    assert nego is not None
    found = []
    wild = state.count(seat, f"travel:{ANY}") > 0
    cards = state.content.cards
    for colour in state.space(nego.space).colours:
        if not wild and not state.count(seat, f"travel:{colour}"):
            continue
        # Ruling A-12: only investors that could take part in this deal are targets.
        if state.owners[colour] is not None and colour not in nego.travelling:
            found.append(act("travel", colour=colour))
        clan = f"clan:{colour}"
        found += [
            act("travel", colour=colour, seat=s)
            for s in range(state.players)
            if any(cards[c] == clan for c in nego.laid[s])
        ]
    if seat != nego.boss and state.count(seat, BOSS):
        found.append(BOSS_CARD)
    found += [act("recruit", colour=c) for c in recruit_targets(state, seat)]
    return found


def play(state: BossState, seat: int, action: Action) -> None:
    """Takes the card(s) from the hand and opens the Stop window."""
    nego = state.nego
    assert nego is not None
    if action.verb == "travel":
        own = state.holding(seat, f"travel:{action.colour}")
        # The coloured card is played when held: the grey one stays the more useful.
        card = own[0] if own else state.holding(seat, f"travel:{ANY}")[0]
        state.hands[seat].remove(card)
        cards = [card]
    elif action.verb == "boss":
        cards = state.holding(seat, BOSS)[:1]
        state.hands[seat].remove(cards[0])
    else:
        cards = spend_triple(state, seat)
    nego.pending = Pending(action.verb, seat, action.colour, action.seat, cards)
    said = ' and says "I\'m the Boss!"' if action.verb == "boss" else ""
    state.emit(f"Seat {seat} plays a {nego.pending.what()}{said}.")
    state.stack.push(RawDecision(RESPOND, others_from_left(seat, state.players), concurrent=True))


def respond_actions(state: BossState, seat: int) -> list[Action]:
    """Returns ``stop`` (if held) and ``pass``."""
    return [STOP_CARD, PASS] if state.count(seat, STOP) else [PASS]


def respond(state: BossState, seat: int, action: Action) -> None:
    """A Stop cancels the pending play; when every seat passes it takes effect."""
    nego = state.nego
    assert nego is not None and nego.pending is not None
    pending = nego.pending
    if action.verb == "stop":
        nego.counted[seat] += 1
        stop = state.holding(seat, STOP)[0]
        state.hands[seat].remove(stop)
        state.discard += [*pending.cards, stop]
        nego.pending = None
        state.emit(f"Seat {seat} plays STOP: {pending.describe()} is cancelled.")
        state.stack.pop()
        resume(state)
        return
    window = state.stack.top
    window.pass_seat(seat)
    if window.is_settled:
        state.stack.pop()
        nego.pending = None
        state.emit(f"Nobody stops {pending.describe()}.")
        resolve(state, pending)
        resume(state, keep_call=pending.verb != "boss")


def resolve(state: BossState, pending: Pending) -> None:
    """Carries out a play nobody stopped."""
    nego = state.nego
    assert nego is not None
    if pending.verb == "travel" and pending.seat < 0:
        nego.travelling[pending.colour] = pending.cards[0]
        state.emit(f"The {pending.colour} placard goes travelling.")
    elif pending.verb == "travel":
        clan = f"clan:{pending.colour}"
        laid = nego.laid[pending.seat]
        card = next(c for c in laid if state.name(c) == clan)
        laid.remove(card)
        state.discard += [card, *pending.cards]
        state.emit(f"Seat {pending.seat}'s {pending.colour} Clan card goes travelling (both discarded).")
    elif pending.verb == "boss":
        state.discard += pending.cards
        nego.boss = pending.by
        nego.items.clear()
        nego.tips.clear()
        for key in [k for k in nego.offers if k[1] == pending.by]:
            del nego.offers[key]
        state.emit(f"Seat {pending.by} is the Boss now; the terms start afresh.")
        auto_use(state)
    else:
        state.discard += pending.cards
        take_placard(state, pending.by, pending.colour)
    prune(state)
    if pending.verb == "recruit" and pending.by == nego.boss:
        auto_use(state, pending.colour)


def resume(state: BossState, keep_call: bool = True) -> None:
    """Returns to the closing round (restarted from the Boss's left) or to the bargaining.

    A Boss card that stands always ends the call: the new Boss never called the deal.
    """
    from parlour.games.im_the_boss.bargain import reopen

    nego = state.nego
    assert nego is not None
    top = state.stack.top
    if top.kind == CLOSING:
        if stands(state) and keep_call:
            top.reopen(others_from_left(nego.boss, state.players))
            return
        state.stack.pop()
        nego.called = False
        state.emit("The deal no longer stands: the negotiation goes on.")
    reopen(state)
