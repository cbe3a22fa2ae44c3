"""Game options (defaults, overrides, refusals) and the player-count check."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from parlour.core.chance import Chance
from parlour.core.content import ContentSet, ContentSets
from parlour.core.errors import OptionError
from parlour.core.game import Game, OptionSpec
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState

VENTURE = load_game("venture")
HOUSE_DECK = VENTURE.available_content("deck")[0]
DEFAULTS = {
    "payment": "turn",
    "proxy_placement": "stack",
    "last_draw": "no",
    "max_turns": 400,
    "best_ties": "first",
    "deck": {"name": "house", "sha256": HOUSE_DECK.sha256},
}


def test_defaults() -> None:
    assert VENTURE.options() == DEFAULTS
    assert VENTURE.options({}) == DEFAULTS
    assert VENTURE.options(None) == DEFAULTS


def test_stored_options_without_a_later_option_take_its_stored_default() -> None:
    """A position or record made before an option existed keeps the rules it was made under."""
    assert VENTURE.options({}, stored=True) == {**DEFAULTS, "best_ties": "solver"}
    assert VENTURE.options({"best_ties": "first"}, stored=True) == DEFAULTS


def test_defaults_are_a_fresh_dict_each_time() -> None:
    values = VENTURE.options()
    values["payment"] = "each"
    assert VENTURE.options()["payment"] == "turn"


def test_overrides_are_parsed_and_the_rest_keep_their_defaults() -> None:
    mine = ContentSet.of("my-deck", HOUSE_DECK.data())
    game = VENTURE.with_content(ContentSets({"venture": [mine]}))
    values = game.options({"payment": "each", "max_turns": "12", "deck": "my-deck"})
    assert values == {**DEFAULTS, "payment": "each", "max_turns": 12, "deck": mine.reference()}
    assert mine.reference() == {"name": "my-deck", "sha256": HOUSE_DECK.sha256}


def test_choice_values_are_case_insensitive_and_integers_take_numbers() -> None:
    assert VENTURE.options({"payment": "EACH"})["payment"] == "each"
    assert VENTURE.options({"max_turns": 0})["max_turns"] == 0
    assert VENTURE.options({"max_turns": " 7 "})["max_turns"] == 7


def test_overrides_reach_the_state() -> None:
    state = VENTURE.new_state(2, 1, {"max_turns": "3", "last_draw": "yes"})
    assert state.to_position()["options"] == {**DEFAULTS, "max_turns": 3, "last_draw": "yes"}


def test_unknown_option_lists_the_known_ones() -> None:
    with pytest.raises(OptionError) as info:
        VENTURE.options({"colour": "red"})
    assert str(info.value) == (
        "venture has no option 'colour' "
        "(options: best_ties, deck, last_draw, max_turns, payment, proxy_placement)"
    )


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"payment": "weekly"}, "option payment must be one of turn, each, not 'weekly'"),
        ({"proxy_placement": ""}, "option proxy_placement must be one of stack, alone, not ''"),
        ({"max_turns": "many"}, "option max_turns must be an integer, not 'many'"),
        ({"max_turns": "2.5"}, "option max_turns must be an integer, not '2.5'"),
        ({"max_turns": None}, "option max_turns must be an integer, not None"),
        ({"max_turns": "-1"}, "option max_turns must be at least 0, not -1"),
    ],
)
def test_bad_values_are_refused_with_clear_text(given: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError) as info:
        VENTURE.options(given)
    assert str(info.value) == message


def test_new_state_refuses_bad_options() -> None:
    with pytest.raises(OptionError, match="last_draw"):
        VENTURE.new_state(3, 1, {"last_draw": "maybe"})


def test_non_integral_number_is_refused() -> None:
    with pytest.raises(OptionError, match="max_turns"):
        VENTURE.options({"max_turns": 2.5})


def test_option_spec_parse_kinds() -> None:
    listing = OptionSpec("worlds", "auto", "w", choices=("auto",), items=("venus", "mars"))
    assert listing.parse(" AUTO ") == "auto"
    assert listing.parse("Venus, mars,") == "venus,mars"
    for bad in ("earth", "venus,venus,mars", "", "../etc", 12):
        with pytest.raises(OptionError, match="must be auto or a comma-separated list of venus, mars"):
            listing.parse(bad)
    choice = OptionSpec("colour", "red", "c", choices=("red", "blue"))
    assert choice.parse("Blue") == "blue"
    number = OptionSpec("rounds", 3, "r", minimum=1)
    assert number.parse("4") == 4
    with pytest.raises(OptionError, match="at least 1, not 0"):
        number.parse("0")


def test_an_integer_option_takes_integer_like_values_and_refuses_the_rest() -> None:
    number = OptionSpec("rounds", 3, "r", minimum=1)
    assert [number.parse(v) for v in (np.int64(5), b"6", 7.0, " 8 ")] == [5, 6, 7, 8]
    for bad in (None, True, 7.5, [7], {"n": 7}, object(), "seven"):
        with pytest.raises(OptionError, match="rounds must be an integer"):
            number.parse(bad)


# ---------------------------------------------------------------- players
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_check_players_accepts_the_range(players: int) -> None:
    VENTURE.check_players(players)


@pytest.mark.parametrize("players", [-1, 0, 1, 7, 100])
def test_check_players_refuses_outside_the_range(players: int) -> None:
    with pytest.raises(OptionError) as info:
        VENTURE.check_players(players)
    assert str(info.value) == f"Venture takes 2 to 6 players, not {players}"


@pytest.mark.parametrize("players", [1, 7])
def test_new_state_refuses_a_bad_player_count(players: int) -> None:
    with pytest.raises(OptionError, match="takes 2 to 6 players"):
        VENTURE.new_state(players, 1)


# ---------------------------------------------------------------- a game without options
class Bare(Game):
    name = "bare"
    title = "Bare"
    min_players = 1
    max_players = 1

    def deal(self, players: int, seed: int, options: dict[str, Any], chance: Chance | None) -> GameState:
        raise AssertionError("these tests never start a Bare game")

    def read(self, data: object, options: dict[str, Any]) -> GameState:
        raise AssertionError("these tests never load a Bare position")


def test_game_without_options() -> None:
    bare = Bare()
    assert bare.options() == {}
    with pytest.raises(OptionError) as info:
        bare.options({"x": "1"})
    assert str(info.value) == "bare has no option 'x' (options: none)"
    bare.check_players(1)
    with pytest.raises(OptionError, match="Bare takes 1 to 1 players, not 2"):
        bare.check_players(2)


# ---------------------------------------------------------------- registry
def test_registry_loads_by_name_and_refuses_unknown_games() -> None:
    assert "venture" in game_names()
    assert load_game(" Venture ") is VENTURE
    with pytest.raises(OptionError) as info:
        load_game("chess")
    assert str(info.value) == "unknown game 'chess' (games: " + ", ".join(game_names()) + ")"
