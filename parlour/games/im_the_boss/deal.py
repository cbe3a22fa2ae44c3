"""Rulebook "Setup": placards, the five-card hands, the deal cards, the first player and the marker."""

from __future__ import annotations

from parlour.core.chance import Chance
from parlour.core.payloads import JSONValue
from parlour.games.im_the_boss.content import Content
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.options import HAND_SIZE, SHORT_GAME_REMOVED
from parlour.games.im_the_boss.pieces import draw_cards
from parlour.games.im_the_boss.turn import PlaceMarker


def new_game(
    content: Content, players: int, seed: int, options: dict[str, JSONValue], chance: Chance | None = None
) -> BossGameState:
    """Returns the game after setup, waiting for the marker (chance from ``seed``, or ``chance``)."""
    state = BossGameState(content, players, options, Chance(seed) if chance is None else chance)
    # Placards at random: two each with 3 players, else one each (spares lie beside the board).
    per_seat = 2 if players == 3 else 1
    colours = state.chance.shuffle(list(content.colours))
    for i, colour in enumerate(colours[: players * per_seat]):
        state.owners[colour] = i % players
    state.draw = state.chance.shuffle(list(range(len(content.cards))), state.name)
    for seat in range(players):
        draw_cards(state, seat, HAND_SIZE)
    removed = SHORT_GAME_REMOVED if options["length"] == "short" else ()
    state.deal_cards = [c.number for c in content.deal_cards if c.number not in removed]
    # A random first player; the player to that player's right places the marker.
    state.first = state.current = state.chance.roll(players, 0)
    state.stack.push(PlaceMarker(seats=[(state.first - 1) % players]))
    return state
