"""What the state keeps between actions instead of working it out again (issue 15) is always what working
it out from scratch gives: each planet's fleet, each seat's enemy ships, the seating's roster, each
planet's loadout (its cards in effect), every ship's owner. Checked after every action of random games
(Basic and Enhanced, busy playouts that take ships over, destroy them and research), and on clones,
determinisations and positions read back, and a clone played on leaves the original's lookups right."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.venus_needs_men import GAME, VenusState
from parlour.games.venus_needs_men.state import Roster
from parlour.games.venus_needs_men.turns import Act, Extra
from parlour.games.venus_needs_men.zapping import EndWindow, RollWindow

from ..playouts import weighted_playout
from .scenario import load_enhanced

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WEIGHTS = {
    "zap": 6.0,
    "extend": 4.0,
    "attack": 8.0,
    "control": 12.0,
    "collect": 6.0,
    "research": 8.0,
    "build": 3.0,
    "release": 2.0,
    "pass": 0.5,
    "done": 0.5,
}
"""How much the busy playout favours each verb (1 for the others): ships change hands and are lost."""
OPTIONS = {"max_turns": 60, "planets": "random"}


def fleets_from_scratch(state: VenusState) -> dict[str, list[str]]:
    """Returns each planet's fleet as the rulebook says: ships on the board it commands, in name order."""
    found: dict[str, list[str]] = {}
    for ship, where in sorted(state.ships.items()):
        if where is not None:
            planet = state.factions.by_letter(ship[0])
            assert planet is not None
            found.setdefault(state.controlled.get(ship) or planet.id, []).append(ship)
    return found


def check_lookups(state: VenusState, step: int = 0) -> None:
    """Asserts every kept lookup of ``state`` equals the one worked out from scratch."""
    fleets = fleets_from_scratch(state)
    for planet in state.factions.planets:
        assert state.fleet(planet) == fleets.get(planet, []), f"step {step}: {planet}'s fleet"
    for seat in range(state.players):
        enemies = sorted(
            ship
            for planet, fleet in fleets.items()
            if planet in state.seat_of and state.seat_of[planet] != seat
            for ship in fleet
        )
        assert list(state.fleets.enemies(seat)) == enemies, f"step {step}: seat {seat}'s enemies"
        sides = [p for p in state.planets if state.seat_of[p] == seat]
        assert state.sides(seat) == sides, f"step {step}: seat {seat}'s planets"
        assert state.seat_population(seat) == sum(state.collected[p] for p in sides)
    assert state.seat_populations() == [state.seat_population(s) for s in range(state.players)]
    assert state.roster == Roster.of(state), f"step {step}: the roster"
    for planet in state.planets:
        fresh = state.tech.loadout(planet, tuple(state.upgrades.get(planet, ())))
        assert state.loadout(planet) == fresh, f"step {step}: {planet}'s loadout"
        supply = sorted(
            s for s, where in state.ships.items() if where is None and s[0] == state.planet(planet).letter
        )
        assert state.supply(planet) == supply and state.has_supply(planet) == bool(supply)
    for ship in state.ships:
        letter = state.factions.by_letter(ship[0])
        assert letter is not None and state.owner(ship) == letter.id


def check_copies(state: VenusState, step: int) -> None:
    """The lookups of a clone, a determinisation and a position read back are right; so are the
    original's after the clone has been played on."""
    check_lookups(state, step)
    if step % 7:
        return
    rng = random.Random(step)
    copy = state.clone()
    for other in (copy, state.determinize(state.deciders()[0] if state.deciders() else 0, rng)):
        check_lookups(other, step)
    loaded = GAME.load_position(json.dumps(state.to_position()))
    assert isinstance(loaded, VenusState)
    check_lookups(loaded, step)
    for _ in range(12):
        if copy.is_over():
            break
        seat = copy.deciders()[0]
        copy.apply(rng.choice(copy.legal_actions(seat)), seat)
        check_lookups(copy, step)
    check_lookups(state, step)


@pytest.mark.slow
@pytest.mark.parametrize("version", ["basic", "enhanced"])
@SETTINGS
@given(st.integers(2, 6), st.integers(0, 5_000))
def test_kept_lookups_match_working_them_out_after_every_action(
    version: str, players: int, seed: int
) -> None:
    """After every action of a busy game, and on its copies: fleets, enemies, roster, loadouts, owners
    are what working them out from scratch gives."""
    weighted_playout(GAME, (players, seed), {**OPTIONS, "game": version}, WEIGHTS, check_copies)


def test_a_busy_enhanced_game_takes_ships_over_and_researches() -> None:
    """The busy playout does take ships over, release them, destroy them and put Upgrades into effect (so
    the property above checks every way the lookups change)."""
    seen: set[str] = set()

    def note(state: VenusState, step: int) -> None:
        check_lookups(state, step)
        if state.controlled:
            seen.add("controlled")
        if any(state.upgrades.values()):
            seen.add("upgrades")
        if any(where is None for where in state.ships.values()) and step > 50:
            seen.add("supply")

    for seed in range(3):
        weighted_playout(GAME, (4, seed), {**OPTIONS, "game": "enhanced", "planets": "auto"}, WEIGHTS, note)
    assert seen == {"controlled", "upgrades", "supply"}


def test_a_ship_taken_over_joins_its_new_commanders_fleet_and_leaves_on_release() -> None:
    """Mind Control moves a ship between fleets (and so between enemy lists) at once, and back on release."""
    state = load_enhanced(ships={"M1": "china", "V1": "china"}, active="mars")
    assert state.fleet("mars") == ["M1"] and "V1" in state.fleets.enemies(state.seat_of["mars"])
    state.control_ship("V1", "mars")
    assert state.fleet("mars") == ["M1", "V1"] and state.fleet("venus") == []
    assert "V1" not in state.fleets.enemies(state.seat_of["mars"])
    assert "V1" in state.fleets.enemies(state.seat_of["venus"])
    assert state.free_ship("V1") == "mars"
    assert state.fleet("venus") == ["V1"] and state.free_ship("V1") is None
    check_lookups(state)


def test_a_decision_copy_shares_no_list_with_the_original() -> None:
    """A decision's copy (every clone copies the stack) has the same payload and seats, and its own lists:
    changing the copy's dice, card plays or seats leaves the original as it was."""
    window = RollWindow(
        open=True,
        seats=[1, 2],
        attacker="V1",
        target="M1",
        dice=[3, 9],
        plays=[(12, "hit")],
        jam=0,
        need=8,
        bonus=0,
        qray=False,
        cards=False,
    )
    copy = window.copy()
    assert type(copy) is RollWindow and copy.to_json() == window.to_json()
    copy.dice.append(1)
    copy.plays.append((25, "hit"))
    copy.pass_seat(1)
    assert window.dice == [3, 9] and window.plays == [(12, "hit")] and window.seats == [1, 2]
    for kind in (Act(seats=[0]), Extra(seats=[2], action="move"), EndWindow(open=False)):
        other = kind.copy()
        assert other.to_json() == kind.to_json() and other.seats is not kind.seats
