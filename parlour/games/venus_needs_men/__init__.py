"""Venus Needs Men! (John Velonis, 2006): aliens race to abduct Earth's population."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from parlour.core.agents import Agent
from parlour.core.chance import Chance
from parlour.core.encoding import Encoding
from parlour.core.game import Game
from parlour.core.state import GameState
from parlour.games.venus_needs_men.actions import NOTATION, VenusAction, format_action, parse_action
from parlour.games.venus_needs_men.board import load_board
from parlour.games.venus_needs_men.bots import GreedyBot
from parlour.games.venus_needs_men.deal import new_game
from parlour.games.venus_needs_men.drawing import Piece, render_svg
from parlour.games.venus_needs_men.encoding import encoding
from parlour.games.venus_needs_men.factions import load_factions
from parlour.games.venus_needs_men.options import OPTIONS, QUICK_OPTIONS
from parlour.games.venus_needs_men.position import from_position
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.zapdeck import ZapDeck, zap_of

RULES_SUMMARY = """\
Refill to three Zap cards, then one action for all your ships (its first
step chooses it):
  build [AREA]        a new ship on your home world (Earth: a populated area)
  move SHIP AREA      each ship one area; 'done' ends the move
  attack SHIP TARGET  each ship once; two dice, any 8+ destroys (0 is 10)
  collect SHIP        one population unit from the ship's land area
  pass                do nothing
Enhanced game: Weapon dice against the target's Defense for its terrain,
Movement cards, 'research ID' (a face-up Upgrade: roll its number or more;
'cycle ID' first swaps one), 'control SHIP TARGET' (Mars), 'infect SHIP'
(Titan), 'purge SHIP' (Pluto), 'attack SHIP refuge' (from Orbit),
'collect SHIP infected' (an infected unit), 'release SHIP' (Mars, at a
turn's end, holding more ships than it has in an area).
After the action: 'extend N' discards Zap card N for one extra step (up to
three), 'end' finishes.  In a Zap window (a turn's start and end, when an
attack is declared, after its roll, before a ship is destroyed):
'zap N [TARGET]' or 'pass'; once a card has answered your action's attack,
'withdraw' takes it back before the roll (then choose again).
First to the population needed wins (shared if together); when nobody can
collect any more, the leaders share the win."""


class VenusGame(Game):
    """Venus Needs Men! for 2 to 6 players (two players: the team game)."""

    name = "venus-needs-men"
    title = "Venus Needs Men!"
    max_actions = 10_000  # learning environments truncate here (Game.max_actions)
    min_players = 2
    max_players = 6
    hot_modules = (  # compiled with mypyc by the build (Game.hot_modules)
        "asking",
        "board",
        "encoding",
        "enhanced",
        "estimate",
        "factions",
        "fleets",
        "population",
        "research",
        "state",
        "steps",
        "tech",
        "turn_lists",
        "turn_order",
        "zapdeck",
    )
    option_specs = OPTIONS
    rules_summary = RULES_SUMMARY
    quick_options = QUICK_OPTIONS
    playout_bot = "greedy"
    search_settings = "horizon=12"
    """A ship moves in one turn and collects in its seat's next, so four turns (the search's default) end
    the playouts before most choices show; twelve see the seat's next turns and the replies to them,
    judged by what the ships stand to collect (``estimate.progress``). Against three greedy bots (seat 0,
    4 players, 100 games, 65 iterations a move, about 200 ms) it won 49 (docs/search.md)."""
    text_colours: Mapping[str, str] = MappingProxyType(
        {
            "Venus": "pink3",
            "Earth": "dark_cyan",
            "Mars": "dark_orange3",
            "Ganymede": "sky_blue3",
            "Titan": "khaki3",
            "Pluto": "grey58",
        }
    )
    """Each planet's name near its ship colour (rulebook, 'Setup': purple, green, red, blue, yellow,
    black) in the Okabe-Ito colour-blind-safe palette (reddish purple, bluish green, vermillion, sky
    blue, yellow, grey for black on a dark screen); always beside the name, never instead of it."""

    def encoding(self, players: int, options: Mapping[str, Any]) -> Encoding:
        """Returns Venus Needs Men!'s action catalogue and observation encoder (docs/environments.md)."""
        return encoding(self.zap(options), players, options)

    def zap(self, options: Mapping[str, Any]) -> ZapDeck:
        """Returns the Zap deck of the set the ``zap`` option names (never a file: docs/positions.md)."""
        return zap_of(self.content_set("zap", options))

    def deal(self, players: int, seed: int, options: dict[str, Any], chance: Chance | None) -> VenusState:
        """Returns the game ready for the first turn."""
        return new_game(load_board(), load_factions(), self.zap(options), players, seed, options, chance)

    def read(self, data: object, options: dict[str, Any]) -> VenusState:
        """Returns the state a position describes."""
        return from_position(load_board(), load_factions(), self.zap(options), data, options)

    def board_svg(self, state: GameState | None = None) -> str:
        """Returns the map as SVG: areas, neighbour lines, population (left on land, collected on home
        worlds and in the Refuge), every ship by name (controlled and disabled ones marked) and a legend."""
        if state is None:
            return render_svg(load_board())
        assert isinstance(state, VenusState)
        ships: dict[str, list[Piece]] = {}
        for ship, where in sorted(state.ships.items()):
            if where is not None:
                piece = Piece(ship, state.owner(ship), state.controlled.get(ship, ""), ship in state.disabled)
                ships.setdefault(where, []).append(piece)
        population = dict(state.population)
        for planet, count in state.collected.items():
            population[state.board.refuge if planet == "earth" else state.board.home(planet)] = count
        return render_svg(
            state.board, ships, population, state.options["length"], state.infected, list(state.planets)
        )

    def bots(self) -> dict[str, Callable[[int], Agent]]:
        """Returns Venus Needs Men!'s own bots: ``greedy``."""
        return {"greedy": GreedyBot}


GAME = VenusGame()

__all__ = ["GAME", "NOTATION", "VenusAction", "VenusGame", "VenusState", "format_action", "parse_action"]
