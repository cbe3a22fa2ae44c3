"""Embers, Parlour's reference game: play embers to a fire from a hidden hand; the others may douse them."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.chance import Chance
from parlour.core.encoding import Encoding
from parlour.core.game import Game
from parlour.games.embers.content import house_content
from parlour.games.embers.deal import new_game
from parlour.games.embers.encoding import encoding
from parlour.games.embers.game_state import EmbersGameState
from parlour.games.embers.options import OPTIONS
from parlour.games.embers.position import read_position
from parlour.games.embers.state import EmbersState

RULES_SUMMARY = """\
Your turn: you draw up to five cards, then 'play N' (an ember, 1-8,
to the fire) or 'discard' (a douse card; the turn ends).  After an
ember, every other seat in turn, from the player's left, may 'douse'
it (with a douse card) or 'pass'; a douse asks the others again: a
douse answers the card before it.  An odd number of douses puts the
ember out; else it joins the fire, and the ember that brings the fire
to 15 takes it: a point a card.  The game ends when every card has
been played; most points wins.  Rules: docs/games/embers.md."""


class EmbersGame(Game):
    """Embers for 2 to 5 players (docs/games/embers.md), every rule enforced."""

    name = "embers"
    title = "Embers"
    min_players = 2
    max_players = 5
    option_specs = OPTIONS
    rules_summary = RULES_SUMMARY
    max_actions = 5_000  # a game is at most 30 cards, each answered at most 6 douses × 4 seats

    def deal(
        self, players: int, seed: int, options: dict[str, object], chance: Chance | None
    ) -> EmbersGameState:
        """Returns the game after the deal (rule 2), seat 0 to play."""
        return new_game(house_content(), players, seed, options, chance)

    def read(self, data: object, options: dict[str, object]) -> EmbersGameState:
        """Returns the state a position describes (docs/positions.md, "Embers")."""
        players = range(self.min_players, self.max_players + 1)
        return read_position(house_content(), data, options, players)

    def encoding(self, players: int, options: Mapping[str, object]) -> Encoding:
        """Returns Embers' action catalogue and observation encoder."""
        return encoding(house_content(), players)


GAME = EmbersGame()

__all__ = ["GAME", "EmbersGame", "EmbersGameState", "EmbersState"]
