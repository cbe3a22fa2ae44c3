"""Venture (Sid Sackson, 1970): the card game of corporations, conglomerates and proxy fights."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from parlour.core.agents import Agent
from parlour.core.game import Game
from parlour.games.venture.actions import VentureAction, format_action, parse_action
from parlour.games.venture.content import Deck, load_deck
from parlour.games.venture.options import OPTIONS
from parlour.games.venture.state import VentureState


class VentureGame(Game):
    """Venture for 2 to 6 players, every rule of the rulebook enforced."""

    name = "venture"
    title = "Venture"
    min_players = 2
    max_players = 6
    option_specs = OPTIONS

    def deck(self, options: Mapping[str, Any]) -> Deck:
        """Returns the deck chosen by the ``deck`` option."""
        path = options.get("deck", "house")
        return load_deck(None if path == "house" else str(path))

    def new_state(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> VentureState:
        """Returns the game after the deal."""
        from parlour.games.venture.deal import new_game

        self.check_players(players)
        values = self.options(options)
        return new_game(self.deck(values), players, seed, values)

    def state_from_position(self, data: Any) -> VentureState:
        """Returns the state a position describes (see docs/positions.md)."""
        from parlour.core.errors import PositionError
        from parlour.games.venture.position import from_position

        given = data.get("options", {}) if isinstance(data, dict) else {}
        if not isinstance(given, dict):
            raise PositionError("options", "must be an object")
        try:
            values = self.options(given)
        except Exception as err:
            raise PositionError("options", str(err)) from None
        return from_position(self.deck(values), data, values)

    def bots(self) -> dict[str, Callable[[int], Agent]]:
        """Returns Venture's own bots: ``greedy``."""
        from parlour.games.venture.bots import GreedyBot

        return {"greedy": GreedyBot}


GAME = VentureGame()

__all__ = ["GAME", "VentureAction", "VentureGame", "VentureState", "format_action", "parse_action"]
