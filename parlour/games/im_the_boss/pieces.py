"""Moving the pieces: the marker round the board, cards between deck, hands and discard, placards."""

from __future__ import annotations

from parlour.games.im_the_boss.content import RECRUIT
from parlour.games.im_the_boss.options import TRIPLE
from parlour.games.im_the_boss.state import BossState


def free_spaces(state: BossState) -> list[int]:
    """Returns the indexes of the spaces no deal card covers."""
    return [i for i, n in enumerate(state.covered) if n is None]


def advance(state: BossState, start: int, steps: int) -> int:
    """Returns the space ``steps`` free spaces clockwise from ``start`` (covered ones skipped)."""
    spaces = len(state.covered)
    where = start
    for _ in range(steps):
        where = (where + 1) % spaces
        while state.covered[where] is not None:
            where = (where + 1) % spaces
    return where


def draw_cards(state: BossState, seat: int, count: int) -> list[int]:
    """Moves up to ``count`` cards from the deck to a hand, reshuffling when the deck runs out (A-04)."""
    drawn = []
    for _ in range(count):
        if not state.draw:
            reshuffle(state)
        if not state.draw:
            break
        drawn.append(state.draw.pop(0))
        if not state.draw:
            reshuffle(state)
    state.hands[seat] += drawn
    return drawn


def reshuffle(state: BossState) -> None:
    """Shuffles the discard pile into a new deck (ruling A-04: the moment the deck is exhausted)."""
    if state.discard:
        state.draw = state.chance.shuffle(state.discard, state.name)
        state.discard = []
        state.emit("The deck is exhausted: the discard pile is shuffled into a new deck.")


def recruit_targets(state: BossState, seat: int, recruits: int = -1) -> str:
    """Returns the placards a triple by ``seat`` may take: spares first, else other players' ones
    (``recruits``: the seat's Recruitment cards, when the caller has counted them)."""
    if (state.count(seat, RECRUIT) if recruits < 0 else recruits) < TRIPLE:
        return ""
    spares = state.spares()
    if spares:
        return spares
    return "".join(c for c, s in state.owners.items() if s is not None and s != seat)


def spend_triple(state: BossState, seat: int) -> list[int]:
    """Removes three Recruitment cards from a hand and returns them."""
    cards = state.holding(seat, RECRUIT)[:TRIPLE]
    for card in cards:
        state.hands[seat].remove(card)
    return cards


def take_placard(state: BossState, seat: int, colour: str) -> None:
    """Makes the ``colour`` placard ``seat``'s own."""
    before = state.owners[colour]
    state.owners[colour] = seat
    source = "beside the board" if before is None else f"seat {before}"
    state.emit(f"Seat {seat} recruits the {colour} placard from {source}.")
