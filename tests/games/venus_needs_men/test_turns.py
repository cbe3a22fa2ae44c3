"""Setup and turns (rulebook: 'Setup', 'Turns', 'Two-Player Rules', 'Game Length'; A-05, A-11, A-14, A-17)."""

from __future__ import annotations

import itertools

import pytest

from parlour.core.errors import OptionError
from parlour.games.venus_needs_men.options import OPTIONS

from ..typed import VENUS as GAME
from .scenario import (
    CARDS,
    check,
    kinds,
    load,
    pass_turn,
    play,
    top,
    turn_sequence,
    zap_places,
)

START_BASIC = {"venus": 2, "earth": 0, "mars": 2, "ganymede": 3, "titan": 3, "pluto": 5}
POOLS = {"venus": 5, "earth": 4, "mars": 5, "ganymede": 6, "titan": 5, "pluto": 5}
ALL_SIX = "venus,earth,mars,ganymede,titan,pluto"


# ------------------------------------------------------------------ setup


def test_each_home_world_starts_with_its_basic_ships() -> None:
    """Basic: Venus 2, Earth 0, Mars 2, Ganymede 3, Titan 3, Pluto 5 ships at home, the rest in supply."""
    state = GAME.new_state(6, 3, {"planets": ALL_SIX})
    for planet, count in START_BASIC.items():
        home = state.board.home(planet)
        assert len(state.fleet(planet)) == count
        assert all(state.ships[s] == home for s in state.fleet(planet))
        assert len(state.fleet(planet)) + len(state.supply(planet)) == POOLS[planet]
    check(state)


def test_land_areas_start_with_the_normal_population() -> None:
    """'27 units in China, 21 in India, 16 in Europe, and so on': 101 in all, nobody has collected any."""
    state = GAME.new_state(4, 0)
    assert state.population["china"] == 27 and state.population["india"] == 21
    assert state.population["europe"] == 16 and sum(state.population.values()) == 101
    assert set(state.collected.values()) == {0}
    assert not state.earth_open


@pytest.mark.parametrize(
    ("players", "share", "aside"), [(2, 18, 0), (3, 12, 0), (4, 9, 0), (5, 7, 1), (6, 6, 0)]
)
def test_the_zap_cards_are_dealt_equally(players: int, share: int, aside: int) -> None:
    """36 Zap cards dealt equally to each player's own deck; with five players one is put aside."""
    for seed in range(3):
        state = GAME.new_state(players, seed)
        assert [len(state.hands[s]) + len(state.decks[s]) for s in range(players)] == [share] * players
        assert len(state.aside) == aside
        assert state.discards == [[] for _ in range(players)]
        assert zap_places(state) == CARDS


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_starting_hand_is_the_top_three_cards(players: int) -> None:
    """'Draw the top three Zap cards from your deck to make your starting hand'."""
    state = GAME.new_state(players, 7)
    assert [len(h) for h in state.hands] == [3] * players


def test_the_deal_is_random() -> None:
    """'Shuffle the 36 Zap cards': different seeds give different starting hands."""
    assert len({tuple(GAME.new_state(4, seed).hands[0]) for seed in range(10)}) > 5


@pytest.mark.parametrize(("players", "needed"), [(2, 51), (3, 34), (4, 26), (5, 21), (6, 17)])
def test_population_needed_by_player_count(players: int, needed: int) -> None:
    """The rulebook's table: 2 → 51, 3 → 34, 4 → 26, 5 → 21, 6 → 17 (101 divided by players, rounded up)."""
    state = GAME.new_state(players, 0)
    assert state.observation(0)["needed"] == needed


@pytest.mark.parametrize(("length", "total"), [("short", 77), ("normal", 101), ("long", 127), ("epic", 149)])
def test_population_needed_follows_the_game_length(length: str, total: int) -> None:
    """Needed = the length's total population divided by the number of players, rounded up."""
    for players in (2, 3, 4, 5, 6):
        state = GAME.new_state(players, 0, {"length": length})
        assert sum(state.population.values()) == total
        assert state.observation(0)["needed"] == -(-total // players)


# ------------------------------------------------------------------ who starts


@pytest.mark.parametrize(
    ("planets", "order"),
    [
        ("venus,mars,ganymede,titan,pluto", ["pluto", "venus", "mars", "ganymede", "titan"]),
        (ALL_SIX, ["pluto", "venus", "earth", "mars", "ganymede", "titan"]),
        ("pluto,venus,mars", ["pluto", "venus", "mars"]),
        ("venus,mars,ganymede,titan", ["titan", "venus", "mars", "ganymede"]),
        ("venus,mars,ganymede", ["ganymede", "venus", "mars"]),
        ("earth,venus,mars", ["mars", "earth", "venus"]),
        ("mars,titan,venus", ["titan", "venus", "mars"]),
        ("earth,venus", None),
    ],
)
def test_pluto_or_the_first_clockwise_from_pluto_starts(planets: str, order: list[str] | None) -> None:
    """Pluto starts, else the first home world clockwise from Pluto (A-05); play goes on clockwise."""
    players = len(planets.split(","))
    if order is None:
        with pytest.raises(OptionError):
            GAME.new_state(players, 0, {"planets": planets})
        return
    state = GAME.new_state(players, 0, {"planets": planets})
    assert state.planets == order
    assert state.active == order[0] and state.turn == 1
    seats = [state.seat_of[p] for p in order]
    assert seats == [(seats[0] + i) % players for i in range(players)]
    assert turn_sequence(state, players + 1) == [*order, order[0]]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_home_worlds_are_different_and_earth_stays_out_of_the_team_game(players: int) -> None:
    """Option planets=random: different home worlds, one a seat (two each without Earth in the team game)."""
    chosen = set()
    for seed in range(8):
        state = GAME.new_state(players, seed, {"planets": "random"})
        wanted = 4 if players == 2 else players
        assert len(set(state.planets)) == wanted == len(state.planets)
        assert sorted(state.seat_of.values()) == sorted(s % players for s in range(wanted))
        assert players > 2 or "earth" not in state.planets
        chosen.add(tuple(state.planets))
    assert len(chosen) > 1


def test_a_turn_is_a_program_on_the_stack() -> None:
    """A turn is, bottom first: finish, the end Zap window, extend, act, and the start Zap window on top."""
    state = load(active="venus", window="start", hands={0: [6]})
    assert kinds(state) == ["finish", "zap", "extend", "act", "zap"]
    assert top(state) == ("zap", "start")
    assert state.stack[1].data["moment"] == "end"


# ------------------------------------------------------------------ the team game


def test_the_team_game_default_plays_the_rulebook_example() -> None:
    """Two players: seat 0 Titan+Ganymede, seat 1 Mars+Venus, in the order Titan–Mars–Ganymede–Venus."""
    state = GAME.new_state(2, 0)
    assert state.planets == ["titan", "mars", "ganymede", "venus"]
    assert state.seat_of == {"titan": 0, "mars": 1, "ganymede": 0, "venus": 1}
    assert state.sides(0) == ["titan", "ganymede"] and state.sides(1) == ["mars", "venus"]
    assert turn_sequence(state, 8) == ["titan", "mars", "ganymede", "venus"] * 2


@pytest.mark.parametrize(
    ("planets", "order"),
    [
        ("pluto,titan,mars,venus", ["pluto", "titan", "mars", "venus"]),
        ("venus,mars,ganymede,titan", ["titan", "ganymede", "mars", "venus"]),
        ("titan,venus,ganymede,mars", ["titan", "mars", "ganymede", "venus"]),
    ],
)
def test_the_team_game_alternates_seats(planets: str, order: list[str]) -> None:
    """Pluto (or the first after it) starts and the seats alternate, so no player has two turns in a row."""
    state = GAME.new_state(2, 0, {"planets": planets})
    assert state.planets == order
    seats = [state.seat_of[p] for p in turn_sequence(state, 8)]
    assert all(a != b for a, b in itertools.pairwise(seats))
    assert [state.seat_of[p] for p in order].count(0) == 2


def test_the_team_game_has_one_deck_and_one_hand_per_player() -> None:
    """'Each player has one deck of 18 Zap cards' and one hand of three (A-17)."""
    state = GAME.new_state(2, 4)
    assert len(state.hands) == 2 and [len(h) for h in state.hands] == [3, 3]
    assert [len(d) for d in state.decks] == [15, 15]


@pytest.mark.parametrize("planets", ["titan,earth,mars,venus", "titan,mars,venus", "titan,titan,mars,venus"])
def test_the_team_game_needs_four_home_worlds_without_earth(planets: str) -> None:
    """The team game is two different planets each, other than Earth."""
    with pytest.raises(OptionError):
        GAME.new_state(2, 0, {"planets": planets})


def test_a_team_wins_with_its_two_home_worlds_together() -> None:
    """'A team wins if the total population on both of its home worlds combined is 51 or more'."""
    state = load(
        2,
        ships={"T1": "china"},
        population={"china": 27 - 1},
        collected={"titan": 20, "ganymede": 30},
        active="titan",
        hands={0: []},
    )
    assert state.scores() == [50.0, 0.0]
    play(state, "collect T1")
    assert state.is_over() and state.winners() == [0]
    assert state.scores() == [51.0, 0.0]


# ------------------------------------------------------------------ refilling


def test_the_hand_is_refilled_to_three_at_the_start_of_the_turn() -> None:
    """'At the beginning of your turn, if you have fewer than three Zap cards, draw ... until three'."""
    state = load(active="titan", hands={0: [10], 1: [23]}, decks={0: [11, 12, 13, 24], 1: [26, 36]})
    play(state, "pass")
    assert state.active == "venus" and top(state) == ("act", None)
    assert state.hands[0] == [10, 11, 12] and state.decks[0] == [13, 24]
    assert state.hands[1] == [23] and state.decks[1] == [26, 36]
    check(state)


def test_a_full_hand_draws_nothing() -> None:
    """A player holding three Zap cards at the start of its turn draws none."""
    state = load(active="titan", hands={0: [10, 11, 12]}, decks={0: [13, 24]})
    play(state, "pass")
    assert state.hands[0] == [10, 11, 12] and state.decks[0] == [13, 24]


def test_an_empty_deck_draws_no_more() -> None:
    """'If you run out of cards, you don't get to draw any more'."""
    state = load(active="titan", hands={0: []}, decks={0: [11]})
    play(state, "pass")
    assert state.active == "venus"
    assert state.hands[0] == [11] and state.decks[0] == []


def test_the_team_game_refills_at_each_of_the_players_planets_turns() -> None:
    """Team game: the shared hand is refilled at the start of each turn of either of the player's planets."""
    state = load(2, active="titan", hands={0: [], 1: [10]}, decks={0: [], 1: [11, 12, 13, 23, 24]})
    pass_turn(state)
    assert state.active == "mars" and state.hands[1] == [10, 11, 12]
    state.hands[1].remove(12)
    state.discards[1].append(12)
    pass_turn(state)
    assert state.active == "ganymede"
    pass_turn(state)
    assert state.active == "venus" and state.hands[1] == [10, 11, 13]


# ------------------------------------------------------------------ skips, extra turns, the limit


def test_a_side_with_a_skip_misses_its_next_turn_only() -> None:
    """A skip owed (Ion Storm) passes over the side's next turn once; no refill, not counted as a turn."""
    state = load(active="venus", skips={"mars": 1}, hands={1: []}, decks={1: [10, 11, 12]})
    play(state, "pass")
    assert state.active == "ganymede" and state.turn == 2
    assert state.skips["mars"] == 0 and state.hands[1] == []
    assert turn_sequence(state, 4) == ["ganymede", "titan", "venus", "mars"]


def test_several_skips_are_served_in_turn_order() -> None:
    """Two sides owing a skip are both passed over; a side owing two skips misses two of its turns."""
    state = load(active="titan", skips={"venus": 2, "mars": 1})
    assert turn_sequence(state, 6) == ["titan", "ganymede", "titan", "mars", "ganymede", "titan"]
    assert state.skips == {"venus": 0, "mars": 0}


def test_an_extra_turn_is_taken_at_once_and_counts_as_a_turn() -> None:
    """Time Dilation: another turn at once, counted (turn number, refill); the regular turn stays (A-11)."""
    state = load(active="venus", hands={0: [3]}, decks={0: [10, 11, 12, 13]})
    play(state, "pass")
    assert top(state) == ("extend", None)
    play(state, "end")
    assert top(state) == ("zap", "end")
    play(state, "0: zap 3")
    assert state.active == "venus" and state.turn == 2
    assert state.hands[0] == [10, 11, 12] and state.discards[0] == [3]
    assert top(state) == ("act", None)
    assert turn_sequence(state, 5) == ["venus", "mars", "ganymede", "titan", "venus"]


def test_an_owed_extra_turn_follows_the_turn() -> None:
    """An extra turn owed to the active side is taken right after its turn, then play goes on clockwise."""
    state = load(active="titan", extra_turns={"titan": 1})
    assert turn_sequence(state, 4) == ["titan", "titan", "venus", "mars"]
    assert state.extra_turns["titan"] == 0


def test_the_turn_limit_ends_the_game_and_the_leader_wins() -> None:
    """Option max_turns: after that many turns the game ends and the most population wins (ruling B-7)."""
    state = load(
        options={"max_turns": 5},
        turn=5,
        active="titan",
        collected={"venus": 3, "mars": 7, "ganymede": 2},
        population={"china": 27 - 12},
    )
    play(state, "pass")
    assert state.is_over() and state.winners() == [1]
    assert state.deciders() == () and len(state.stack) == 0
    assert state.ranking() == [2, 1, 3, 4]


def test_a_tie_at_the_turn_limit_is_shared() -> None:
    """Leaders tied at the turn limit share the win."""
    state = load(
        options={"max_turns": 5},
        turn=5,
        active="titan",
        collected={"venus": 4, "titan": 4},
        population={"china": 27 - 8},
    )
    play(state, "pass")
    assert state.winners() == [0, 3]
    assert state.ranking() == [1, 3, 3, 1]


def test_the_turn_limit_counts_every_turn_played() -> None:
    """With max_turns N exactly N turns are played (extra turns included)."""
    state = GAME.new_state(4, 2, {"max_turns": 6})
    sides = turn_sequence(state, 6)
    assert len(sides) == 6 and state.is_over() and state.turns_played() == 6
    assert state.winners() == [s for s in range(4) if state.scores()[s] == max(state.scores())]


def test_without_a_limit_turns_go_on() -> None:
    """max_turns 0 means no limit."""
    state = GAME.new_state(3, 2, {"max_turns": 0})
    turn_sequence(state, 30)
    assert not state.is_over() and state.turn == 31


def test_the_turn_limit_option_names_its_ruling() -> None:
    """`parlour options venus-needs-men` points max_turns at ruling B-7."""
    spec = next(o for o in OPTIONS if o.name == "max_turns")
    assert "B-7" in spec.doc
