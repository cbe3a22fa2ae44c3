"""Rules chapter 2, setup: shuffle the deck with the state's chance, deal the hands, seat 0 begins."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack
from parlour.games.embers.content import Content
from parlour.games.embers.state import EmbersState, Table
from parlour.games.embers.turn import Turn


def new_game(
    content: Content, players: int, seed: int, options: Mapping[str, object], chance: Chance | None = None
) -> EmbersState:
    """Rule 2.1: shuffle, deal each player a hand face down, the rest is the draw pile; rule 2.2: seat 0
    begins with an empty fire."""
    chance = chance if chance is not None else Chance(seed)
    deck = chance.shuffle(content.deck)
    size = content.hand
    hands = [deck[seat * size : (seat + 1) * size] for seat in range(players)]
    table = Table(hands=hands, draw=deck[players * size :], taken=[[] for _ in range(players)])
    state = EmbersState(content, players, options, chance, table, DecisionStack([Turn(seats=[0])]))
    for seat in range(players):
        state.sort_hand(seat)
    state.settle()
    return state
