"""Properties that hold after every action of random games (hypothesis chooses players and seeds).

Two kinds of playout with ``GAME.quick_options``: the kit's uniform random one, and a busy one that
favours Zap plays, extensions, attacks and collections, so that cards are played, ships are destroyed
and population moves (uniformly random seats mostly pass windows and wander in space).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.venus_needs_men import GAME, VenusState
from parlour.testing import kit

from ..playouts import weighted_playout
from .scenario import CARDS, zap_places

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = st.integers(2, 6)
SEEDS = st.integers(0, 5_000)
WEIGHTS = {"zap": 8.0, "extend": 6.0, "collect": 12.0, "attack": 6.0, "build": 2.0, "pass": 0.5, "done": 0.5}
"""How much the busy playout favours each verb (1 for the others)."""
EVERY = 5
"""The costly checks (views, determinisations, positions) run every this many steps."""

Check = Callable[[VenusState, int], None]


def busy_playout(players: int, seed: int, each: Check) -> VenusState:
    """Plays a game whose seats favour cards, extensions, attacks and collections, checking ``each``."""
    end: VenusState = weighted_playout(GAME, (players, seed), GAME.quick_options, WEIGHTS, each)
    return end


def both_playouts(players: int, seed: int, each: Check) -> list[VenusState]:
    """Runs the kit's random playout and the busy one on the same seed; returns the final states."""

    def checked(state: object, step: int) -> None:
        assert isinstance(state, VenusState)
        each(state, step)

    random_end = kit.playout(GAME, players, seed, GAME.quick_options, checked)
    assert isinstance(random_end, VenusState)
    return [random_end, busy_playout(players, seed, each)]


# ------------------------------------------------------------------ the checks


def zap_cards_are_conserved(state: VenusState, step: int) -> None:
    """Every Zap card is in exactly one place; hands hold at most three; played cards stay discarded."""
    assert zap_places(state) == CARDS, f"step {step}: a Zap card is lost or doubled"
    assert all(len(h) <= 3 for h in state.hands), f"step {step}: a hand holds more than three"
    assert state.invariant_errors() == [], f"step {step}: {state.invariant_errors()}"


def population_is_never_created(state: VenusState, step: int) -> None:
    """Land plus collected population is always Earth's total (Basic destroys none); none negative."""
    total = state.board.total(state.options["length"])
    assert sum(state.population.values()) + sum(state.collected.values()) == total, f"step {step}"
    assert min(state.population.values()) >= 0 and min(state.collected.values()) >= 0


def ships_stay_where_ships_may_be(state: VenusState, step: int) -> None:
    """No ship is in the Refuge, and a ship on a home world is that world's own (A-02)."""
    for ship, where in state.ships.items():
        if where is None:
            continue
        area = state.board.area(where)
        assert area.kind != "refuge", f"step {step}: {ship} in the Refuge"
        if area.kind == "home":
            assert area.planet == state.owner(ship), f"step {step}: {ship} entered {where}"


def views_carry_only_the_seats_own_hand(state: VenusState, step: int) -> None:
    """A seat's view shows its own hand and nothing of others' hands or any deck beyond their sizes."""
    if step % EVERY:
        return
    for seat in range(state.players):
        view = state.observation(seat)
        assert view["hand"] == sorted(state.hands[seat])
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        assert view["deck_sizes"] == [len(d) for d in state.decks]
        json.dumps(view)
    assert state.public_observation()["hand"] is None


def views_agree_across_determinisations(state: VenusState, step: int) -> None:
    """A seat's view is the same in every re-deal of what it cannot see (others' hands, decks, aside)."""
    if step % EVERY:
        return
    rng = random.Random(step)
    for seat in range(state.players):
        other = state.determinize(seat, rng)
        assert other.hands[seat] == state.hands[seat]
        assert zap_places(other) == CARDS
        assert other.observation(seat) == state.observation(seat), f"step {step}: seat {seat}'s view leaks"
        assert other.public_observation() == state.public_observation()


def positions_round_trip(state: VenusState, step: int) -> None:
    """Writing and reading the position gives the same position and the same legal actions."""
    if step % EVERY:
        return
    loaded = GAME.load_position(json.dumps(state.to_position()))
    assert kit.snapshot(loaded) == kit.snapshot(state), f"step {step}: position did not round-trip"
    for seat in state.deciders():
        assert loaded.legal_actions(seat) == state.legal_actions(seat)


# ------------------------------------------------------------------ the properties


@pytest.mark.parametrize(
    "check",
    [
        zap_cards_are_conserved,
        ships_stay_where_ships_may_be,
        views_carry_only_the_seats_own_hand,
        views_agree_across_determinisations,
        positions_round_trip,
    ],
    ids=lambda check: check.__name__,
)
@SETTINGS
@given(PLAYERS, SEEDS)
def test_every_action_keeps(check: Check, players: int, seed: int) -> None:
    """In any random game, after every action: Zap cards are never created, lost or doubled and no hand
    exceeds three; no ship stands in the Refuge or on another planet's home world; each seat's view holds
    its own hand only (the public view none) and no determinisation changes what the seat sees; positions
    load back to the same state and legal actions."""
    both_playouts(players, seed, check)


@SETTINGS
@given(PLAYERS, SEEDS)
def test_population_is_never_created(players: int, seed: int) -> None:
    """Population only moves from land areas to home worlds: the total stays Earth's population."""
    ends = both_playouts(players, seed, population_is_never_created)
    assert all(end.is_over() for end in ends)


@SETTINGS
@given(PLAYERS, SEEDS)
def test_games_end_with_winners_who_lead(players: int, seed: int) -> None:
    """Every game ends; its winners have reached the target or lead at the turn limit."""
    for end in both_playouts(players, seed, lambda state, step: None):
        scores = end.scores()
        needed: Any = end.observation(0)["needed"]
        winners = end.winners()
        assert winners and end.deciders() == ()
        assert all(scores[w] >= needed for w in winners) or all(scores[w] == max(scores) for w in winners)


def test_the_busy_playout_exercises_the_rules() -> None:
    """The busy playouts do play cards, extend, destroy ships and collect (so the properties above bite)."""
    seen: set[str] = set()
    on_board: set[str] = set()

    def note(state: VenusState, step: int) -> None:
        now = {s for s, where in state.ships.items() if where is not None}
        if step > 1 and on_board - now:
            seen.add("destroyed")
        on_board.clear()
        on_board.update(now)
        if any(state.discards):
            seen.add("discards")
        if any(state.collected.values()):
            seen.add("collected")
        if state.extended:
            seen.add("extended")

    for seed in range(4):
        on_board.clear()
        busy_playout(4, seed, note)
    assert seen == {"discards", "collected", "extended", "destroyed"}
