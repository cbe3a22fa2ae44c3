"""Rules chapter 5, the fire: an answered ember stands or is doused, and a fire that blazes is taken."""

from __future__ import annotations

from parlour.games.embers.content import DOUSE
from parlour.games.embers.state import EmbersState


def settle_play(state: EmbersState) -> None:
    """Rule 5.1: an ember under an odd number of douse cards is doused, else it stands; the douse cards
    go to the discard pile either way. Rule 5.2: a standing ember that brings the fire to the blaze
    takes it."""
    ember, player = state.play, state.active
    assert ember is not None, "settle_play needs an ember in play"
    state.discard.extend([DOUSE] * len(state.dousers))
    doused = len(state.dousers) % 2 == 1
    state.play, state.dousers = None, []
    if doused:
        state.discard.append(ember)
        state.emit(f"seat {player}'s {ember} is doused")
        return
    state.fire.append(ember)
    total = state.fire_total()
    state.emit(f"seat {player}'s {ember} stands: the fire totals {total}")
    if total >= state.content.blaze:
        take_fire(state, player)


def take_fire(state: EmbersState, seat: int) -> None:
    """Rule 5.2: every card of the fire goes to the seat's score pile; the fire is empty again."""
    state.emit(f"seat {seat} takes the fire: {len(state.fire)} cards")
    state.taken[seat].extend(state.fire)
    state.fire = []
