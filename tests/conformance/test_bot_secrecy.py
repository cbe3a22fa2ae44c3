"""A bot's choice depends only on what its seat may know (issue 14): for every game and every bot of
the game (the search bot aside), the choice is the same in each re-deal of what the seat cannot see."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

from parlour.bots.registry import GENERIC, make_bot
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState
from parlour.testing import kit

CASES = [(name, bot) for name in game_names() for bot in sorted({*GENERIC, *load_game(name).bots()})]


@pytest.mark.parametrize(("name", "bot"), CASES)
def test_a_bots_choice_is_the_same_in_each_determinisation_of_what_it_cannot_see(name: str, bot: str) -> None:
    """At each table size, along random games and the bot's own games, several re-deals per state."""
    game = load_game(name)
    for players in range(game.min_players, game.max_players + 1):
        kit.check_bot_sees_only_its_seat_along(game, bot, players, [players], 9, game.quick_options)


class PeekingBot:
    """Chooses by the whole position, other seats' hands and the face-down piles included (a leak)."""

    name = "peeking"

    def choose(self, state: GameState, seat: int) -> Any:
        """Returns a legal action picked by a hash of everything in the position."""
        legal = state.legal_actions(seat)
        return legal[zlib.crc32(kit.snapshot(state).encode()) % len(legal)]


@pytest.mark.parametrize("name", game_names())
def test_the_check_catches_a_bot_that_reads_what_its_seat_cannot_see(name: str) -> None:
    """The check has teeth: a bot choosing by the whole position fails it in some states of each game."""
    game = load_game(name)
    rng = random.Random(0)
    caught = 0
    for state in kit.states_along(game, game.min_players + 1, 0, 5, game.quick_options):
        if not state.is_over():
            try:
                kit.check_bot_sees_only_its_seat(state, PeekingBot, rng)
            except AssertionError:
                caught += 1
    assert caught > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", game_names())
def test_the_search_bots_choice_is_the_same_in_each_determinisation(name: str) -> None:
    """The search bot (a fixed number of iterations, so its choice is a function of its seed and what
    it is shown) samples its own determinisations: they too must depend only on the seat's information."""
    game = load_game(name)
    rng = random.Random(1)
    for state in kit.states_along(game, game.min_players + 1, 1, 31, game.quick_options):
        if not state.is_over():
            kit.check_bot_sees_only_its_seat(state, lambda: make_bot(game, "ismcts:15it", 0), rng, tries=2)
