"""Drawing (rulebook: 'The Play', 'The Scoring of Profits'): two cards a turn, Profit cards, refills."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.decisions import Seat
from parlour.games.venture.content import PROFIT
from parlour.games.venture.options import CENTER_SIZE, DRAW_PER_TURN
from parlour.games.venture.scoring import score_round

if TYPE_CHECKING:
    from parlour.games.venture.state import VentureState


def reshuffle(state: VentureState) -> None:
    """Turns the shuffled discard pile into a new drawing deck."""
    state.draw = state.chance.shuffle(state.discard, lambda r: state.card(r).name)
    state.discard = []
    state.emit(f"the discard pile is shuffled into a new drawing deck of {len(state.draw)}")


def draw_cards(state: VentureState, seat: Seat, count: int = DRAW_PER_TURN) -> None:
    """Draws cards into a hand; each Profit card drawn scores at once and is replaced."""
    drawn = []
    exposed: list[int] = []
    for _ in range(count):
        while True:
            if not state.draw and state.discard:
                reshuffle(state)
            # Ruling A-11: with nothing left to draw, the player draws what exists.
            if not state.draw:
                break
            card = state.draw.pop(0)
            resource = state.deck.resources[card]
            if resource.kind != PROFIT:
                state.hands[seat].append(card)
                drawn.append(resource.name)
                break
            # Ruling A-10: the exposed Profit card stays out while its replacement is drawn.
            exposed.append(card)
            state.emit(f"seat {seat} draws a Profit card")
            state.profit_rounds += 1
            score_round(state, "profit scoring")
    # Ruling A-10: exposed Profit cards reach the discard pile after the turn's draw.
    state.discard.extend(exposed)
    if state.logging:
        state.emit(f"seat {seat} draws {len(drawn)} cards", seat, " ".join(drawn))


def refill_center(state: VentureState) -> None:
    """Replaces the corporations taken from the center with cards from the stock."""
    added = []
    while len(state.center) < CENTER_SIZE and state.stock:
        added.append(state.stock.pop(0))
        state.center.append(added[-1])
    if added and state.logging:
        names = ", ".join(state.corp(c).name for c in added)
        state.emit(
            f"the center is refilled from the stock with {names} ({len(state.stock)} left in the stock)"
        )
