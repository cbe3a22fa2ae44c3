"""Venture (Sid Sackson, 1970): the card game of corporations, conglomerates and proxy fights."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from parlour.core.agents import Agent
from parlour.core.chance import Chance
from parlour.core.encoding import Encoding
from parlour.core.errors import OptionError
from parlour.core.game import Game, Options
from parlour.core.state import GameState
from parlour.games.venture.actions import VentureAction, format_action, parse_action
from parlour.games.venture.content import Deck, deck_of
from parlour.games.venture.encoding import encoding
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.options import OPTIONS
from parlour.games.venture.state import VentureState

RULES_SUMMARY = """\
Buy corporations; group them into conglomerates, which score at every
Profit card drawn and at the end. A turn: any number of transactions,
then pay their total (no change given), then draw two cards.
  take CORP            buy a center corporation (4 + 4 per letter million)
  proxy x1/2 CORP      take an opponent's top or lone corporation for ½, 1
                       (x1) or 1½ (x3/2) times its value
  place on TOP|alone   a conglomerate: different industries, a letter common
                       to all, at most six
  reorganise           1 million per corporation held; then move CORP on TOP,
                       move CORP alone, ..., done (or cancel: fee back)
  reorganise best      the fee, then the best arrangement at once (see hint)
  end, pay CARD, done  capital at face value; 2, 3 or 4 unlike 1/3/5/8 of one
                       symbol make a set worth 16, 32 or 64; pay 14 12 3s lays
                       several cards in one line
  undo                 take back the last step until you pay (not a proxy
                       fight or a draw; 10 a turn)
  discard CARD         when you make no transaction
Scoring: 3/4/5/6-card conglomerates earn 1/3/8/20 million times the number
of letters common to all their cards. The game ends when the stock is empty
and the last center corporation is taken: final scoring, highest total wins."""


class VentureGame(Game):
    """Venture for 2 to 6 players, every rule of the rulebook enforced."""

    name = "venture"
    title = "Venture"
    max_actions = 20_000  # learning environments truncate here (Game.max_actions)
    min_players = 2
    max_players = 6
    hot_modules = (  # compiled with mypyc by the build (Game.hot_modules)
        "arrangements",
        "bots",
        "catalogue",
        "conglomerates",
        "content",
        "deal",
        "drawing",
        "encoding",
        "estimate",
        "options",
        "packing",
        "payment",
        "people",
        "position",
        "record",
        "reorganisation",
        "rules",
        "scoring",
        "table",
        "takeovers",
        "undo",
        "views",
    )
    option_specs = OPTIONS
    rules_summary = RULES_SUMMARY
    playout_bot = "quick"
    search_settings = "horizon=12"
    """Four turns (the search's default) end a playout after one round, before most transactions have
    paid or cost anything; twelve see three rounds. Against three greedy bots (seat 0, 100 games) ismcts
    won 40.5% and 46% at 70 iterations and horizon 12 (what 200 ms holds), 26.5% to 40.5% at horizon 4
    (docs/search.md)."""

    def deck(self, options: Mapping[str, object]) -> Deck:
        """Returns the deck of the content set the ``deck`` option names (never a file: docs/positions.md)."""
        return deck_of(self.content_set("deck", options))

    @property
    def text_colours(self) -> Mapping[str, str]:  # type: ignore[override]
        """Industry codes and names of the house deck and their colour-blind-safe colours."""
        from parlour.games.venture.people import text_colours

        return text_colours(self.deck(self.options()))

    def warm_up(self) -> None:
        """Loads the optimiser (and scipy), which ``reorganise best`` otherwise loads at its first use."""
        import parlour.games.venture.optimiser  # noqa: F401

    def board_svg(self, state: GameState | None = None) -> str:
        """Returns the table as SVG from the public view: center, stock, every player's stacks, counts."""
        from parlour.games.venture.board import board_svg

        if state is None:
            state = self.new_state(4, 0)
        if not isinstance(state, VentureState):
            raise OptionError("board_svg needs a Venture state")
        return board_svg(state)

    def encoding(self, players: int, options: Mapping[str, object]) -> Encoding:
        """Returns Venture's action catalogue and observation encoder (docs/environments.md)."""
        return encoding(self.deck(options), players, self.max_players)

    def deal(self, players: int, seed: int, options: Options, chance: Chance | None) -> VentureGameState:
        """Returns the game after the deal."""
        from parlour.games.venture.deal import new_game

        return new_game(self.deck(options), players, seed, options, chance)

    def read(self, data: object, options: Options) -> VentureGameState:
        """Returns the state a position describes (see docs/positions.md)."""
        from parlour.games.venture.position import from_position

        return from_position(self.deck(options), data, options)

    def bots(self) -> dict[str, Callable[[int], Agent]]:
        """Returns Venture's own bots: ``greedy``, and ``quick`` (greedy that never reorganises by choice)."""
        from parlour.games.venture.bots import GreedyBot, QuickBot

        return {"greedy": GreedyBot, "quick": QuickBot}


GAME = VentureGame()

__all__ = ["GAME", "VentureAction", "VentureGame", "VentureState", "format_action", "parse_action"]
