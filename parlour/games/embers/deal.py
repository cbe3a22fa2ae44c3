"""Rules chapter 2, setup: shuffle the deck with the state's chance, deal the hands, seat 0 begins."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.chance import Chance
from parlour.games.embers.content import Content
from parlour.games.embers.game_state import EmbersGameState
from parlour.games.embers.turn import Turn


def new_game(
    content: Content, players: int, seed: int, options: Mapping[str, object], chance: Chance | None = None
) -> EmbersGameState:
    """Rule 2.1: shuffle, deal each player a hand face down, the rest is the draw pile; rule 2.2: seat 0
    begins with an empty fire."""
    state = EmbersGameState(content, players, options, chance if chance is not None else Chance(seed))
    deck = state.chance.shuffle(content.deck)
    size = content.hand
    state.hands = [deck[seat * size : (seat + 1) * size] for seat in range(players)]
    state.draw = deck[players * size :]
    for seat in range(players):
        state.sort_hand(seat)
    state.stack.push(Turn(seats=[0]))
    state.settle()
    return state
