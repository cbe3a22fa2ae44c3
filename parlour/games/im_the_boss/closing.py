"""Rulebook "Closing the Deal", "Can't make a Deal" and "End of the Game"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.im_the_boss import plays
from parlour.games.im_the_boss.actions import Action
from parlour.games.im_the_boss.turn import advance, next_turn

if TYPE_CHECKING:
    from parlour.games.im_the_boss.state import BossState

PASS = Action("pass")


def closing_actions(state: BossState, seat: int) -> list[Action]:
    """Returns what a seat asked in the closing round may do: pass, or play a card (ruling A-14)."""
    return [PASS, *plays.card_plays(state, seat)]


def closing_apply(state: BossState, seat: int, action: Action) -> None:
    """A pass moves the round on (the last one closes the deal); a card opens its Stop window."""
    nego = state.nego
    assert nego is not None
    if action.verb == "pass":
        window = state.stack.top
        window.pass_seat(seat)
        if window.is_settled:
            close_deal(state)
        return
    nego.counted[seat] += 1
    plays.play(state, seat, action)


def close_deal(state: BossState) -> None:
    """ "The deal is closed!": the bank pays the Boss, the Boss pays the terms, the deal card is placed."""
    nego = state.nego
    assert nego is not None
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
    state.deals.append(
        {
            "card": number,
            "space": space.number,
            "boss": boss,
            "proceeds": nego.proceeds,
            "payments": {str(s): a for s, a in sorted(paid.items())},
        }
    )
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
    nego = state.nego
    assert nego is not None
    state.emit(
        f"Seat {nego.boss}, the Boss, announces that the negotiations have failed; the marker stays on "
        f"space {nego.space + 1}."
    )
    _wrap_up(state)
    _next(state, nego.boss, nego.opener)


def _wrap_up(state: BossState) -> None:
    """Returns unused laid Clan cards to their hands, discards the Travel cards, clears the table."""
    nego = state.nego
    assert nego is not None
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
    next_turn(state, left_of)
