"""Rulebook "Closing the Deal", "Can't make a Deal" and "End of the Game"."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.decisions import Seat
from parlour.games.im_the_boss.actions import PASS, BossAction, Pass, Play
from parlour.games.im_the_boss.phases import others_from_left
from parlour.games.im_the_boss.pieces import advance
from parlour.games.im_the_boss.plays import card_plays, play
from parlour.games.im_the_boss.state import BossState, DealRecord, UnderStop
from parlour.games.im_the_boss.supply import stands


@dataclass(eq=False, kw_only=True)
class Closing(UnderStop):
    """The closing round: the Boss called the deal, and each other seat from the Boss's left may still
    play a card or pass ("going once, going twice"; ruling A-14). The last pass closes the deal.

    A card played opens its Stop window above this one; when that closes, the round asks again from
    the Boss's left if the deal still stands (and no Boss card took it over), else it is off and the
    bargaining goes on.
    """

    kind = "closing"
    phase = "the closing round"
    passing = True

    def legal(self, state: BossState, seat: Seat) -> list[BossAction]:
        """Returns what a seat asked in the closing round may do: pass, or play a card (ruling A-14)."""
        return [PASS, *card_plays(state, seat)]

    def apply(self, state: BossState, seat: Seat, action: BossAction) -> None:
        """A pass moves the round on; a card opens its Stop window."""
        if isinstance(action, Pass):
            self.pass_seat(seat)
            return
        assert isinstance(action, Play)
        state.negotiation().counted[seat] += 1
        play(state, seat, action)

    def auto(self, state: BossState) -> bool:
        """When the last seat has passed, "the deal is closed!"."""
        if self.seats:
            return False
        close_deal(state)
        return True

    def resume(self, state: BossState, keep_call: bool) -> None:
        """Asks again from the Boss's left, or, when the deal no longer stands, goes back to bargaining."""
        nego = state.negotiation()
        if stands(state) and keep_call:
            self.reopen(others_from_left(nego.boss, state.players))
            return
        state.stack.pop()
        nego.called = False
        state.emit("The deal no longer stands: the negotiation goes on.")
        state.under_stop().resume(state, keep_call)

    def order(self, state: BossState) -> tuple[list[Seat], str, bool]:
        """The seats after the Boss still to pass."""
        return (
            others_from_left(state.negotiation().boss, state.players),
            "the seats after the Boss still to pass",
            False,
        )


def close_deal(state: BossState) -> None:
    """ "The deal is closed!": the bank pays the Boss, the Boss pays the terms, the deal card is placed."""
    nego = state.negotiation()
    boss, space = nego.boss, state.space(nego.space)
    # Investors used: a seat's placard if at home, else one of its laid Clan cards (discarded).
    used = []
    for colour, term in sorted(nego.items.items()):
        if state.owners[colour] != term.seat or colour in nego.travelling:
            laid = nego.laid[term.seat]
            card = next(c for c in laid if state.name(c) == f"clan:{colour}")
            laid.remove(card)
            state.discard.append(card)
            used.append(f"{colour}: seat {term.seat}'s Clan card (discarded)")
        else:
            used.append(f"{colour}: seat {term.seat}'s placard")
    state.money[boss] += nego.proceeds
    paid = {s: a for s, a in nego.payments().items() if s != boss and a > 0}
    for seat, amount in paid.items():
        state.money[boss] -= amount
        state.money[seat] += amount
    number = state.deal_cards.pop(0)
    state.covered[nego.space] = number
    record: DealRecord = {
        "card": number,
        "space": space.number,
        "boss": boss,
        "proceeds": nego.proceeds,
        "payments": {str(s): a for s, a in sorted(paid.items())},
    }
    state.deals.append(record)
    payments = ", ".join(f"seat {s} {a} million" for s, a in sorted(paid.items())) or "nobody"
    state.emit(
        f"The deal on space {space.number} is closed! Investors: {'; '.join(used)}. The bank pays seat "
        f"{boss} {nego.proceeds} million; the Boss pays {payments}. Deal card {number} covers the space."
    )
    _wrap_up(state)
    if _game_ends(state, boss, number):
        state.over = True
        state.emit("The game is over: most money wins.")
        return
    state.marker = advance(state, nego.space, 1)
    state.emit(f"The marker moves on to space {state.marker + 1}.")
    _next(state, nego.boss, nego.opener)


def fail_deal(state: BossState) -> None:
    """The Boss announces failure: Clan cards go home, the rest is discarded, the marker stays."""
    nego = state.negotiation()
    state.emit(
        f"Seat {nego.boss}, the Boss, announces that the negotiations have failed; the marker stays on "
        f"space {nego.space + 1}."
    )
    _wrap_up(state)
    _next(state, nego.boss, nego.opener)


def _wrap_up(state: BossState) -> None:
    """Returns unused laid Clan cards to their hands, discards the Travel cards, clears the table."""
    nego = state.negotiation()
    if state.logging and any(nego.laid):
        back = [
            f"seat {s} {' '.join(sorted(state.name(c)[-1] for c in x))}" for s, x in enumerate(nego.laid) if x
        ]
        state.emit(f"Unused Clan cards go back to their hands: {', '.join(back)}.")
    for seat, laid in enumerate(nego.laid):
        state.hands[seat] += laid
    state.discard += [nego.travelling[c] for c in sorted(nego.travelling)]
    state.nego = None
    while len(state.stack):
        state.stack.pop()


def _game_ends(state: BossState, boss: int, number: int) -> bool:
    """After deal cards with numbers on the back, the Boss rolls; the last deal card always ends it."""
    ends = state.content.deal_cards[number - 1].ends
    if ends:
        pips = state.chance.roll(state.content.die)
        state.deals[-1]["roll"] = pips  # the public record keeps the end roll (end_reason tells it)
        hit = pips in ends
        state.emit(
            f"Seat {boss} rolls {pips} against deal card {number} (it ends the game on "
            f"{', '.join(map(str, ends))}): " + ("the game ends." if hit else "play continues.")
        )
        if hit:
            return True
    return not state.deal_cards


def _next(state: BossState, boss: int, opener: int) -> None:
    """The player to the left of the final Boss moves next (option turn_order: of the opener)."""
    left_of = boss if state.options["turn_order"] == "boss" else opener
    who = "the final Boss" if left_of == boss else "the opener (turn_order=opener)"
    state.emit(f"Seat {(left_of + 1) % state.players}, left of {who}, moves next.")
    state.next_turn(left_of)
