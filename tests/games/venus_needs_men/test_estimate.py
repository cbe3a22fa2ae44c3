"""Venus Needs Men!'s estimate for search (parlour.games.venus_needs_men.estimate): population, and ships
placed to collect more."""

from __future__ import annotations

import pytest

from parlour.bots.registry import make_bot
from parlour.games.venus_needs_men.estimate import AWAY, COLLECTING, NEAR, progress
from parlour.games.venus_needs_men.population import needed

from ..typed import VENUS as GAME
from ..typed import choose
from .scenario import load, play


def gains(before: list[float], after: list[float]) -> list[float]:
    """Returns each seat's change, rounded off float noise."""
    return [round(b - a, 9) for a, b in zip(before, after, strict=True)]


def test_the_estimate_of_the_game_state_is_progress() -> None:
    """The state the game makes answers ``estimate()`` with :func:`progress`, not the bare scores."""
    state = load(ships={"V1": "china", "M1": "orbit"}, collected={"ganymede": 3})
    assert state.estimate() == progress(state) == [COLLECTING, NEAR, 3.0, 0.0]
    assert state.scores() == [0.0, 0.0, 3.0, 0.0]


def test_landing_on_a_populated_area_raises_the_seat_s_estimate() -> None:
    """Venus moves V1 from Orbit to China: only seat 0 gains, from a ship near to a ship collecting."""
    state = load(ships={"V1": "orbit", "M1": "comet"}, active="venus")
    before = state.estimate()
    play(state, "move V1 china")
    assert state.ships["V1"] == "china"
    assert gains(before, state.estimate()) == [round(COLLECTING - NEAR, 9), 0.0, 0.0, 0.0]


def test_collecting_turns_a_ship_s_promise_into_population() -> None:
    """A collection adds a whole unit to the score and keeps the ship's worth while units are left."""
    state = load(ships={"V1": "china"}, active="venus")
    before = state.estimate()
    play(state, "collect V1")
    assert state.scores()[0] == 1.0
    assert gains(before, state.estimate()) == [1.0, 0.0, 0.0, 0.0]


def test_ships_count_as_collecting_only_up_to_the_units_left() -> None:
    """Two ships on an area with one unit: one collects, the other is only near; none left: both near."""
    one = load(ships={"V1": "africa", "V2": "africa"}, population={"africa": 1})
    none = load(ships={"V1": "africa", "V2": "africa"}, population={"africa": 0})
    assert one.estimate()[0] == pytest.approx(COLLECTING + NEAR)
    assert none.estimate()[0] == pytest.approx(2 * NEAR)


def test_ships_further_out_are_worth_less() -> None:
    """Collecting beats Orbit and the oceans, which beat space and home worlds, which beat the supply."""
    places = {"china": COLLECTING, "orbit": NEAR, "atlantic": NEAR, "comet": AWAY, "venus": AWAY}
    for area, worth in places.items():
        assert load(ships={"V1": area}).estimate()[0] == pytest.approx(worth), area
    assert load(ships={}).estimate() == [0.0, 0.0, 0.0, 0.0]
    assert COLLECTING > NEAR > AWAY > 0


def test_earth_s_ships_collect_only_once_earth_is_open() -> None:
    """Earth's ship on a populated area is only near until an alien opens Earth's collection (A-06)."""
    closed = load(6, ships={"E1": "china"})
    opened = load(6, ships={"E1": "china"}, earth_open=True)
    seat = closed.seat_of["earth"]
    assert closed.estimate()[seat] == pytest.approx(NEAR)
    assert opened.estimate()[seat] == pytest.approx(COLLECTING)


def test_a_finished_game_s_estimate_is_its_scores() -> None:
    """The winning collection ends the game: the estimate is the scores, ships no longer count."""
    target = needed(load())
    state = load(ships={"V1": "china", "M1": "india"}, collected={"venus": target - 1}, active="venus")
    play(state, "collect V1")
    assert state.is_over()
    assert state.estimate() == state.scores()


def test_estimates_lie_between_the_scores_and_half_a_unit_a_ship_through_greedy_games() -> None:
    """Through whole greedy games, every seat's estimate is at least its score and at most half a unit
    a ship on the board more (team games included)."""
    for players in (2, 4, 6):
        state = GAME.new_state(players, players)
        bots = [make_bot(GAME, "greedy", s) for s in range(players)]
        while not state.is_over():
            scores, estimate = state.scores(), state.estimate()
            for seat in range(players):
                ships = sum(len(state.fleet(p)) for p in state.sides(seat))
                assert scores[seat] <= estimate[seat] <= scores[seat] + COLLECTING * ships + 1e-9
            seat = state.deciders()[0]
            state.apply_legal(choose(bots[seat], state, seat), seat)
        assert state.estimate() == state.scores()
