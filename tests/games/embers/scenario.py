"""Embers scenarios: a deal chosen card by card (through the real setup, by a forced shuffle) and moves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from parlour.core.chance import Chance, Forced
from parlour.core.state import Event
from parlour.games.embers import EmbersGameState
from parlour.games.embers.content import house_content

from ..typed import EMBERS as GAME

DECK = house_content().deck


def deal(*hands: list[str], draw: Sequence[str] = (), **options: Any) -> EmbersGameState:
    """Returns a new game whose hands are ``hands`` (seat 0 first) and whose draw pile starts ``draw``
    (the rest of the deck after it, in the deck's order); the shuffle of rule 2.1 is forced to it."""
    chosen = [card for hand in hands for card in hand] + list(draw)
    rest = Counter(DECK)
    rest.subtract(chosen)
    assert all(n >= 0 for n in rest.values()), f"more cards than the deck holds: {chosen}"
    order = list(chosen)
    for card in DECK:
        if rest[card] > 0:
            order.append(card)
            rest[card] -= 1
    state = GAME.new_state(len(hands), 0, options, chance=Chance(0, forced=[Forced("order", order)]))
    assert not state.chance.forced
    return state


def play(state: EmbersGameState, *moves: str) -> list[Event]:
    """Applies moves written ``"seat: action"``; returns the events of the last one."""
    events: list[Event] = []
    for move in moves:
        seat, text = move.split(":", 1)
        events = state.apply_notation(text.strip(), int(seat))
    return events


def texts(events: list[Event]) -> list[str]:
    """Returns what the table is told."""
    return [event.text for event in events]
