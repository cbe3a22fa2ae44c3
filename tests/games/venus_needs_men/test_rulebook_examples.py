"""Every worked example and table of the Venus Needs Men! rulebook, played through the engine.

Each test is named by the rulebook section; its docstring quotes the example.  Four players unless said
otherwise: seat 0 Venus, 1 Mars, 2 Ganymede, 3 Titan, turn order Titan, Venus, Mars, Ganymede.  The one
example left out: 'if it lasts until "the beginning of your next turn"' (Two-Player Rules) names no card,
and no house Zap card lasts until then.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import cast

import pytest

from parlour.games.venus_needs_men.population import needed

from ..typed import VENUS as GAME
from .scenario import legal, load, load_enhanced, play, run, turn_sequence

PLANETS_5 = "venus,mars,ganymede,titan,pluto"


# ------------------------------------------------------------------ Overview
@pytest.mark.parametrize(("players", "score"), [(2, 51), (3, 34), (4, 26), (5, 21), (6, 17)])
def test_overview_population_needed_to_win(players: int, score: int) -> None:
    """'Number of players / Population needed to win: 2 51, 3 34, 4 26, 5 21, 6 17.'"""
    assert needed(GAME.new_state(players, 0)) == score


def test_overview_the_first_to_collect_the_population_needed_wins_immediately() -> None:
    """'The first player to collect a plurality of Earth's total population (101) wins the game
    immediately.' (four players: 26; Venus holds 25 and collects one more with its first ship)"""
    state = load(ships={"V1": "china", "V2": "china"}, active="venus", collected={"venus": 25})
    play(state, "collect V1")
    assert state.is_over() and state.winners() == [0]
    assert state.collected["venus"] == 26 and state.ships["V2"] == "china"


# ------------------------------------------------------------------ Parts of the Game and Setup
def test_parts_of_the_game_spaceship_sets() -> None:
    """'Each set has five spaceships, except Earth, which has four, and Ganymede, which has six.'"""
    ships = GAME.new_state(6, 0).ships
    counts = {letter: sum(1 for s in ships if s[0] == letter) for letter in "VEMGTP"}
    assert counts == {"V": 5, "E": 4, "M": 5, "G": 6, "T": 5, "P": 5}


def test_setup_population_27_in_china_21_in_india_16_in_europe() -> None:
    """'Put population chips on the eight land areas on Earth, as marked on each area — 27 units in China,
    21 in India, 16 in Europe, and so on.'"""
    population = GAME.new_state(4, 0).population
    assert (population["china"], population["india"], population["europe"]) == (27, 21, 16)
    assert len(population) == 8 and sum(population.values()) == 101


@pytest.mark.parametrize(
    ("version", "ships"),
    [
        ("basic", {"venus": 2, "earth": 0, "mars": 2, "ganymede": 3, "titan": 3, "pluto": 5}),
        ("enhanced", {"venus": 2, "earth": 0, "mars": 2, "ganymede": 2, "titan": 2, "pluto": 2}),
    ],
)
def test_setup_starting_spaceships(version: str, ships: dict[str, int]) -> None:
    """'Starting spaceships (Basic Game / Enhanced Game): Venus 2 2, Earth 0 0, Mars 2 2, Ganymede 3 2,
    Titan 3 2, Pluto 5 2', put on the home world."""
    state = GAME.new_state(6, 0, {"game": version})
    assert {p: len(state.fleet(p)) for p in state.planets} == ships
    assert all(state.ships[s] == p for p in state.planets for s in state.fleet(p))


def test_setup_five_players_put_one_zap_card_aside() -> None:
    """'Shuffle the 36 Zap cards and deal out an equal number to each player. If you have five players,
    there will be one left over — just put it aside, out of play. Draw the top three Zap cards from your
    deck to make your starting hand.'"""
    state = GAME.new_state(5, 0)
    assert [len(h) for h in state.hands] == [3] * 5 and [len(d) for d in state.decks] == [4] * 5
    assert len(cast(list[str], state.to_position()["aside"])) == 1


# ------------------------------------------------------------------ Zap Cards (extensions)
def test_zap_cards_alluring_extension_collects_one_extra_unit_not_two() -> None:
    """'For example, if you have the Alluring Special (Venus), you still only collect one extra population
    for each Zap card you discard, not two.' (Enhanced: V1 in China collects two, the extension one)"""
    state = load_enhanced(ships={"V1": "china"}, active="venus", hands={0: [10]})
    run(state, "collect V1", "done")
    assert state.collected["venus"] == 2 and state.population["china"] == 25
    run(state, "extend 10", "collect V1")
    assert state.collected["venus"] == 3 and state.population["china"] == 24


# ------------------------------------------------------------------ Technology & Special Cards
def test_technology_and_special_cards_robotic_target_is_only_disabled() -> None:
    """'For example, ordinarily when another player makes a successful attack roll, the target is
    destroyed. However, if the target player has the Robotic Special card (Pluto), the target is only
    disabled instead of being destroyed.' (Enhanced, five players: Mars hits V1, then P1, with a 9)"""
    ships = {"M1": "china", "M2": "china", "V1": "china", "P1": "china"}
    state = load_enhanced(5, planets=PLANETS_5, ships=ships, active="mars", forced=[9, 1, 9, 1])
    run(state, "attack M1 V1")
    assert state.ships["V1"] is None
    run(state, "attack M2 P1")
    assert state.ships["P1"] == "china" and state.disabled == ["P1"]


# ------------------------------------------------------------------ Two-Player Rules
def test_two_player_rules_wally_and_al_play_titan_mars_ganymede_venus() -> None:
    """'For example, if Wally is playing Mars and Venus, and Al is playing Ganymede and Titan, they should
    play in the order Titan – Mars – Ganymede – Venus.' (Al is seat 0, Wally seat 1)"""
    state = GAME.new_state(2, 0, {"planets": "titan,mars,ganymede,venus"})
    assert state.sides(0) == ["titan", "ganymede"] and state.sides(1) == ["mars", "venus"]
    order = turn_sequence(state, 8)
    assert order == ["titan", "mars", "ganymede", "venus"] * 2
    assert all(state.seat_of[a] != state.seat_of[b] for a, b in pairwise(order))


def test_two_player_rules_a_zap_card_choosing_a_player_chooses_one_of_its_planets() -> None:
    """'Likewise, if a Zap card says to choose a player, choose one of that player's planets for it to
    affect.' (Al's Ion Storm names Wally's Venus: Venus skips its next turn, Mars does not)"""
    ships = {"T1": "orbit", "G1": "orbit", "M1": "orbit", "V1": "china"}
    state = load(2, ships=ships, active="titan", window="start", hands={0: [8]})
    assert [a for a in legal(state, 0) if a.startswith("zap 8")] == ["zap 8 mars", "zap 8 venus"]
    play(state, "0: zap 8 venus")
    assert turn_sequence(state, 5) == ["titan", "mars", "ganymede", "titan", "mars"]


# ------------------------------------------------------------------ Game Length
LENGTH_TABLE = {
    "china": (20, 27, 34, 40),
    "india": (16, 21, 26, 31),
    "europe": (12, 16, 20, 24),
    "africa": (7, 9, 11, 13),
    "namerica": (6, 8, 10, 12),
}


@pytest.mark.parametrize(("column", "length"), list(enumerate(["short", "normal", "long", "epic"])))
@pytest.mark.parametrize("players", range(2, 7))
def test_game_length_population_and_the_score_needed(column: int, length: str, players: int) -> None:
    """'To avoid ties, the total should not be evenly divisible by the number of players. The score
    needed to win should be the total population divided by the number of players, rounded up. For
    example: China 20 27 34 40, India 16 21 26 31, Europe 12 16 20 24, Africa 7 9 11 13, North America
    6 8 10 12' (Short, Normal, Long, Epic)."""
    state = GAME.new_state(players, 0, {"length": length})
    assert {area: state.population[area] for area in LENGTH_TABLE} == {
        area: row[column] for area, row in LENGTH_TABLE.items()
    }
    total = sum(state.population.values())
    assert total % players != 0
    assert needed(state) == math.ceil(total / players)
