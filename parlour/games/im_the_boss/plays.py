"""Rulebook "Playing Influence Cards": Travel, Recruitment triples, Boss cards, and Stop windows.

A Travel, Boss card or triple is held pending while the other seats, from the
player's left, may answer with a Stop (ruling A-20: a response window).  A Stop
cancels it; nothing answers a Stop.  When every seat declines, the play takes
effect.  Either way the negotiation (or the closing round) then resumes.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.decisions import Seat
from parlour.games.im_the_boss.actions import (
    BOSS_CARD,
    PASS,
    STOP_CARD,
    BossAction,
    BossCard,
    Pass,
    Play,
    Recruit,
    Travel,
)
from parlour.games.im_the_boss.content import ANY, BOSS, RECRUIT, STOP
from parlour.games.im_the_boss.negotiation import Pending
from parlour.games.im_the_boss.options import TRIPLE
from parlour.games.im_the_boss.phases import others_from_left
from parlour.games.im_the_boss.pieces import recruit_targets, spend_triple, take_placard
from parlour.games.im_the_boss.state import BossDecision, BossState
from parlour.games.im_the_boss.supply import Supply, auto_use, hand_names, prune, supply


@dataclass(eq=False, kw_only=True)
class Respond(BossDecision):
    """The Stop window: after a Travel, Boss card or triple, every other seat may answer with a Stop.

    It is an open window asking the other seats from the player's left (whether a seat holds a Stop
    is its secret, so all are asked). A Stop cancels the play at once; when every seat has passed,
    the window closes by itself and the play takes effect. Either way the window below resumes.
    """

    kind = "respond"
    phase = "the Stop window"
    passing = True
    concurrent: bool = True

    def legal(self, state: BossState, seat: Seat) -> list[BossAction]:
        """Returns ``stop`` (if held) and ``pass``."""
        return [STOP_CARD, PASS] if state.count(seat, STOP) else [PASS]

    def apply(self, state: BossState, seat: Seat, action: BossAction) -> None:
        """A pass leaves the window; a Stop cancels the pending play and closes it."""
        if isinstance(action, Pass):
            self.pass_seat(seat)
            return
        nego = state.negotiation()
        pending = nego.pending
        assert pending is not None
        nego.counted[seat] += 1
        stop = state.holding(seat, STOP)[0]
        state.hands[seat].remove(stop)
        state.discard += [*pending.cards, stop]
        nego.pending = None
        state.emit(f"Seat {seat} plays STOP: {pending.describe()} is cancelled.")
        state.stack.pop()
        state.under_stop().resume(state, keep_call=True)

    def auto(self, state: BossState) -> bool:
        """When every seat has passed, nobody stops the play: it takes effect and the window below resumes.

        A Boss card that stands always ends a call: the new Boss never called the deal.
        """
        if self.seats:
            return False
        nego = state.negotiation()
        pending = nego.pending
        assert pending is not None
        state.stack.pop()
        nego.pending = None
        state.emit(f"Nobody stops {pending.describe()}.")
        resolve(state, pending)
        state.under_stop().resume(state, keep_call=not isinstance(pending.play, BossCard))
        return True

    def order(self, state: BossState) -> tuple[list[Seat], str, bool]:
        """The other seats from the player's left."""
        pending = state.negotiation().pending
        assert pending is not None
        return (
            others_from_left(pending.by, state.players),
            f"other seats from seat {pending.by}'s left",
            False,
        )


def card_plays(
    state: BossState, seat: int, held: list[str] | None = None, known: Supply | None = None
) -> list[BossAction]:
    """Returns the Travel, Boss and Recruitment plays ``seat`` may make in the negotiation (``held`` and
    ``known``: ``supply.hand_names`` and ``supply.supply``, when the caller has them)."""
    held = hand_names(state, seat) if held is None else held
    known = supply(state) if known is None else known
    nego, laid = known.nego, known.laid
    found: list[BossAction] = []
    wild = f"travel:{ANY}" in held
    for colour in known.colours:
        if not wild and f"travel:{colour}" not in held:
            continue
        # Ruling A-12: only investors that could take part in this deal are targets.
        if state.owners[colour] is not None and colour not in nego.travelling:
            found.append(Travel.of(colour))
        clan = f"clan:{colour}"
        found += [Travel.of(colour, s) for s, names in enumerate(laid) if clan in names]
    if seat != nego.boss and BOSS in held:
        found.append(BOSS_CARD)
    recruits = held.count(RECRUIT)
    if recruits >= TRIPLE:
        found += [Recruit.of(c) for c in recruit_targets(state, seat, recruits)]
    return found


def play(state: BossState, seat: int, action: Play) -> None:
    """Takes the card(s) from the hand and opens the Stop window."""
    nego = state.negotiation()
    if not isinstance(action, Recruit):
        nego.interfered[seat] += 1  # a Travel or a Boss card, whatever comes of it
    if isinstance(action, Travel):
        own = state.holding(seat, f"travel:{action.colour}")
        # The coloured card is played when held: the grey one stays the more useful.
        card = own[0] if own else state.holding(seat, f"travel:{ANY}")[0]
        state.hands[seat].remove(card)
        cards = [card]
    elif isinstance(action, BossCard):
        cards = state.holding(seat, BOSS)[:1]
        state.hands[seat].remove(cards[0])
    else:
        cards = spend_triple(state, seat)
    nego.pending = Pending(action, seat, cards)
    said = ' and says "I\'m the Boss!"' if isinstance(action, BossCard) else ""
    state.emit(f"Seat {seat} plays a {nego.pending.what()}{said}.")
    state.stack.push(Respond(seats=others_from_left(seat, state.players)))


def resolve(state: BossState, pending: Pending) -> None:
    """Carries out a play nobody stopped."""
    nego = state.negotiation()
    played = pending.play
    if isinstance(played, Travel) and played.seat < 0:
        nego.travelling[played.colour] = pending.cards[0]
        state.emit(f"The {played.colour} placard goes travelling.")
    elif isinstance(played, Travel):
        clan = f"clan:{played.colour}"
        laid = nego.laid[played.seat]
        card = next(c for c in laid if state.name(c) == clan)
        laid.remove(card)
        state.discard += [card, *pending.cards]
        state.emit(f"Seat {played.seat}'s {played.colour} Clan card goes travelling (both discarded).")
    elif isinstance(played, BossCard):
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
        take_placard(state, pending.by, played.colour)
    prune(state)
    if isinstance(played, Recruit) and pending.by == nego.boss:
        auto_use(state, played.colour)
