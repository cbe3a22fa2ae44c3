"""I'm the Boss! (Sid Sackson): bring investors together, negotiate, and close deals for money."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from parlour.core.agents import Agent
from parlour.core.chance import Chance
from parlour.core.encoding import Encoding
from parlour.core.game import Game
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.games.im_the_boss.actions import BossAction, format_action, parse_action
from parlour.games.im_the_boss.bots import GreedyBot
from parlour.games.im_the_boss.content import Content, content_of
from parlour.games.im_the_boss.deal import new_game
from parlour.games.im_the_boss.drawing import board_svg
from parlour.games.im_the_boss.encoding import encoding
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.options import HOUSE_CONTENT, OPTIONS, QUICK_OPTIONS
from parlour.games.im_the_boss.palette import text_colours as clan_colours
from parlour.games.im_the_boss.position import from_position
from parlour.games.im_the_boss.state import BossState

RULES_SUMMARY = """\
First the player right of the first player places the marker: 'marker N'.
A turn: 'deal' (try the deal where the marker stands) or 'roll' (move the
marker, skipping covered spaces), then 'deal' or 'draw' (three cards; over
12: 'discard CARD' or 'recruit C').  In a negotiation anyone may act; 'pass'
waits until somebody acts again.  C is a clan's letter (R M O G B Y), S a
seat's number, N millions.
  lay C             lay a Clan card of colour C face up
  offer C N         offer your C investor for N million; 'withdraw C'
  travel C          Travel card on the C placard
  travel C @S       Travel card on seat S's laid C Clan card
  recruit C         Recruitment triple: take the C placard (spares first)
  boss              Boss card: you become the Boss
  stop              in a Stop window: cancel the Travel, Boss card or triple
Boss only: 'accept C @S' (an offer at its ask), 'include C @S N' (propose),
'use C' (your own investor), 'drop C', 'tip @S N' (pay a seat for nothing),
'call' once the agreed terms cover the space, 'fail'.  When everyone has
passed, only the Boss is asked: it calls, fails or bargains on.
Others: 'agree' / 'refuse' the lines of the terms that name you.
After 'call', each other seat may still play cards or pass; then the bank
pays dividends × the deal value to the Boss, who pays the terms.
From deal card 10 the Boss rolls against its back; most money wins."""


class BossGame(Game):
    """I'm the Boss! for 3 to 6 players, every rule of the rulebook enforced."""

    name = "im-the-boss"
    title = "I'm the Boss!"
    max_actions = 20_000  # learning environments truncate here (Game.max_actions)
    min_players = 3
    max_players = 6
    # Compiled with mypyc by the build (Game.hot_modules):
    hot_modules = ("bargain_lists", "negotiation", "supply", "terms")
    option_specs = OPTIONS
    rules_summary = RULES_SUMMARY
    quick_options = QUICK_OPTIONS
    playout_bot = "greedy"
    text_colours = clan_colours(content_of(HOUSE_CONTENT.load()))
    """The clans (letter, colour name, surname) in Okabe-Ito colours, always beside the word."""

    def board_svg(self, state: GameState | None = None) -> str:
        """Returns the board as SVG: the spaces, covered deals, the marker, the open deal, the placards."""
        table = self.new_state(self.min_players, 0) if state is None else state
        assert isinstance(table, BossGameState)
        return board_svg(table, pieces=state is not None)

    def encoding(self, players: int, options: Mapping[str, JSONValue]) -> Encoding:
        """Returns I'm the Boss!'s action catalogue and observation encoder (docs/environments.md)."""
        return encoding(self.content(options), players, options, self.max_players)

    def content(self, options: Mapping[str, JSONValue]) -> Content:
        """Returns the components of the content set the ``content`` option names (never a file)."""
        return content_of(self.content_set("content", options))

    def deal(
        self, players: int, seed: int, options: dict[str, JSONValue], chance: Chance | None
    ) -> BossGameState:
        """Returns the game after setup (the marker still to be placed)."""
        return new_game(self.content(options), players, seed, options, chance)

    def read(self, data: object, options: dict[str, JSONValue]) -> BossGameState:
        """Returns the state a position describes (see docs/positions.md)."""
        return from_position(BossGameState, self.content(options), data, options)

    def bots(self) -> dict[str, Callable[[int], Agent]]:
        """Returns I'm the Boss!'s own bots: ``greedy``."""
        return {"greedy": GreedyBot}


GAME = BossGame()

__all__ = ["GAME", "BossAction", "BossGame", "BossGameState", "BossState", "format_action", "parse_action"]
