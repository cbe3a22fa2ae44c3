"""The setup and the deal (rulebook: 'The Setup and the Deal')."""

from __future__ import annotations

from parlour.core.chance import Chance
from parlour.games.venture import rules
from parlour.games.venture.content import PROFIT, Deck
from parlour.games.venture.drawing import refill_center
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.options import HAND_SIZE, TWO_PLAYER_ASIDE
from parlour.games.venture.state import Options


def new_game(
    deck: Deck, players: int, seed: int, options: Options, chance: Chance | None = None
) -> VentureGameState:
    """Returns a game after the deal (chance from ``seed``, or ``chance`` when given)."""
    state = VentureGameState(deck, players, options, Chance(seed) if chance is None else chance)
    corp_name = lambda c: deck.corporations[c].name  # noqa: E731
    card_name = lambda r: deck.resources[r].name  # noqa: E731
    # Shuffle the corporations; two players set 14 aside unseen.
    corps = state.chance.shuffle(range(len(deck.corporations)), corp_name)
    if players == 2:
        state.aside, corps = corps[:TWO_PLAYER_ASIDE], corps[TWO_PLAYER_ASIDE:]
    state.stock = corps
    refill_center(state)
    # Deal seven resources cards to each player.
    state.draw = state.chance.shuffle(range(len(deck.resources)), card_name)
    for seat in range(players):
        state.hands[seat] = state.draw[:HAND_SIZE]
        del state.draw[:HAND_SIZE]
    # A Profit card in a hand is replaced, then reshuffled into the deck (ruling A-15).
    returned = []
    for hand in state.hands:
        while any(deck.resources[r].kind == PROFIT for r in hand):
            profit = next(r for r in hand if deck.resources[r].kind == PROFIT)
            hand.remove(profit)
            returned.append(profit)
            hand.append(state.draw.pop(0))
    if returned:
        state.draw = state.chance.shuffle(state.draw + returned, card_name)
    # Ruling A-13: the dealer is chosen at random; the player to the dealer's left begins.
    dealer = state.chance.roll(players, low=0)
    state.current = (dealer + 1) % players
    rules.begin_turn(state)
    return state
