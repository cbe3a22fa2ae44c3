"""The Enhanced game, one test per rule (rulebook: 'Setup', 'Attack Action', 'Research Action', 'Technology &
Special Cards', 'Revised Card Text'; issue 4 'Enhanced game specials'; rulings A-01, A-04, A-08, A-09, A-10,
A-12, A-13, A-20, A-22, A-23 and 'House content of the Enhanced game').

Positions (``load_enhanced``) are Enhanced games in which nobody holds a Zap card unless a test says so, so
no Zap window opens and no extension is offered. Seats and turn order:

* four players: seat 0 Venus, 1 Mars, 2 Ganymede, 3 Titan; turn order Titan, Venus, Mars, Ganymede;
* ``P5``: seat 0 Venus, 1 Mars, 2 Ganymede, 3 Titan, 4 Pluto; turn order Pluto, Venus, Mars, Ganymede, Titan;
* ``EARTH_GAME`` (``earth_game``): seat 0 Venus, 1 Earth, 2 Mars; turn order Mars, Venus, Earth;
* ``ALL_SIX``: seats 0–5 Venus, Earth, Mars, Ganymede, Titan, Pluto; turn order Pluto, Venus, Earth, Mars,
  Ganymede, Titan.

House cards used here (docs/rulings/venus-needs-men.md): Defense space/land/ocean — Baryonite Armor (Venus)
8/7/9, Civil Defense (Earth) 7/7/8, Chameleon Screen (Mars) 9/8/9, Biometallic Hull (Ganymede) 8/7/9;
Weapons — Anti-Aircraft Guns (Earth) 1 die, Magneto-Blasters (Mars) 2, Long-Range Missiles (Ganymede) 2,
Plasma Cannon (Titan) 2 dice +1, Disintegration Ray (Pluto) 3. Teleport numbers (A-08): 1 Lagrange Point,
2 Lunar Space, 3 Sunward Space, 4 Jovian Space, 5 Asteroid Belt, 6 Comet Lanes, 7 Deep Space, 8 Rings of
Saturn, 9 Oort Cloud, 10 Kuiper Belt. Deflector Shields (10, 23, 33) are the Zap cards held for extensions:
they are playable only when the holder's own ship is about to be destroyed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.core.errors import IllegalActionError
from parlour.games.venus_needs_men import VenusState
from parlour.games.venus_needs_men import enhanced as tech
from parlour.testing import kit

from ..typed import VENUS as GAME
from .scenario import (
    BOARD,
    UPGRADE_CARDS,
    everyone_passes,
    force_dice,
    kinds,
    legal,
    load,
    load_enhanced,
    passes_until,
    play,
    run,
    ships_at,
    upgrade_places,
    verbs,
)

P5 = "venus,mars,ganymede,titan,pluto"
EARTH_GAME = "venus,earth,mars"
ALL_SIX = "venus,earth,mars,ganymede,titan,pluto"
EARTH_AREAS = set(BOARD.earth_areas())
DEFLECTORS = [10, 23]
"""Zap cards to discard for extensions (never playable in the start or end window)."""


def earth_game(**kwargs: Any) -> VenusState:
    """Returns an Enhanced three-player game of Venus, Earth and Mars (``load_enhanced``'s arguments)."""
    return load_enhanced(3, planets=EARTH_GAME, **kwargs)


def moves(state: VenusState, ship: str) -> set[str]:
    """Returns the areas a ship may move to now."""
    return {a.split()[2] for a in legal(state) if a.startswith(f"move {ship} ")}


def targets(state: VenusState, ship: str) -> set[str]:
    """Returns the targets a ship may attack now (ships, or ``refuge``)."""
    return {a.split()[2] for a in legal(state) if a.startswith(f"attack {ship} ")}


def researchable(state: VenusState) -> set[str]:
    """Returns the Upgrades the active side may research now."""
    return {a.split()[1] for a in legal(state) if a.startswith("research ")}


# ------------------------------------------------------------------ setup


def test_enhanced_starting_ships_are_two_each_and_earth_none() -> None:
    """Setup (Enhanced column): every alien starts with two ships on its home world, Earth with none."""
    state = GAME.new_state(6, 3, {"game": "enhanced"})
    for planet in ("venus", "mars", "ganymede", "titan", "pluto"):
        assert len(ships_at(state, planet)) == 2, planet
        assert len(state.supply(planet)) == len(state.planet(planet).ship_ids()) - 2
    assert state.fleet("earth") == [] and len(state.supply("earth")) == 4
    assert sum(1 for where in state.ships.values() if where is not None) == 10


def test_three_upgrades_start_face_up_beside_the_deck() -> None:
    """Setup: the 16 Upgrade cards are shuffled, three face up, 13 in the deck; nobody holds one."""
    state = GAME.new_state(4, 5, {"game": "enhanced"})
    assert len(state.face_up) == 3 and len(state.upgrade_deck) == 13
    assert state.upgrade_discard == [] and state.upgrades == {} and state.pending_upgrades == {}
    assert upgrade_places(state) == UPGRADE_CARDS and len(UPGRADE_CARDS) == 16
    basic = GAME.new_state(4, 5, {"game": "basic"})
    assert basic.face_up == [] and "research" not in verbs(basic)


# ------------------------------------------------------------------ weapons against defense


@pytest.mark.parametrize(
    ("area", "dice", "hit"),
    [
        ("orbit", (7, 7), False),
        ("orbit", (8, 1), True),
        ("lunar", (1, 7), False),
        ("lunar", (1, 8), True),
        ("venus", (7, 7), False),
        ("venus", (8, 2), True),
        ("china", (6, 6), False),
        ("china", (7, 1), True),
        ("atlantic", (8, 8), False),
        ("atlantic", (9, 1), True),
    ],
)
def test_weapon_dice_against_the_targets_defense_for_its_terrain(
    area: str, dice: tuple[int, int], hit: bool
) -> None:
    """Mars's two dice against Baryonite Armor: 8 in space (Orbit, planets: A-04), 7 on land, 9 at sea."""
    state = load_enhanced(ships={"M1": area, "V1": area}, active="mars", forced=dice)
    run(state, "attack M1 V1")
    assert (state.ships["V1"] is None) is hit
    assert state.chance.forced == []


@pytest.mark.parametrize(
    ("planets", "active", "attacker", "where", "dice"),
    [
        (EARTH_GAME, "earth", "E1", "china", (7, 9)),
        (P5, "pluto", "P1", "orbit", (1, 1, 8, 9)),
    ],
)
def test_each_weapon_card_rolls_its_own_number_of_dice(
    planets: str, active: str, attacker: str, where: str, dice: tuple[int, ...]
) -> None:
    """Anti-Aircraft Guns roll one die, the Disintegration Ray three; the die after them stays unrolled."""
    state = load_enhanced(
        len(planets.split(",")),
        planets=planets,
        ships={attacker: where, "V1": where},
        active=active,
        forced=dice,
    )
    run(state, f"attack {attacker} V1")
    assert state.ships["V1"] is None
    assert [f.value for f in state.chance.forced] == [9]


@pytest.mark.parametrize(("dice", "hit"), [((7, 1), True), ((1, 7), True), ((6, 6), False)])
def test_the_plasma_cannon_adds_one_to_each_die(dice: tuple[int, int], hit: bool) -> None:
    """Titan's Plasma Cannon (+1) against Chameleon Screen on land (8): a 7 hits, two 6s miss."""
    state = load_enhanced(ships={"T1": "china", "M1": "china"}, active="titan", forced=dice)
    run(state, "attack T1 M1")
    assert (state.ships["M1"] is None) is hit


def test_a_ship_uses_its_best_weapon() -> None:
    """A-12(iv): a ship uses the weapon (Technology or Upgrade) most likely to reach the Defense."""
    # Earth with Gatling Lasers rolls two dice, not its Guns' one; Pluto with the Energy Amplifier (2 dice
    # +2) uses it against Mars in space (9), where its three plain dice are less likely to hit.
    state = earth_game(
        ships={"E1": "orbit", "V1": "orbit"},
        upgrades={"earth": ["gatling"]},
        active="earth",
        earth_open=True,
        forced=[1, 8],
    )
    assert targets(state, "E1") == {"V1"}
    run(state, "attack E1 V1")
    assert state.ships["V1"] is None and state.chance.forced == []
    state = load_enhanced(
        5,
        planets=P5,
        ships={"P1": "orbit", "M1": "orbit"},
        upgrades={"pluto": ["amplifier"]},
        active="pluto",
        forced=[7, 1, 1],
    )
    run(state, "attack P1 M1")
    assert state.ships["M1"] is None
    assert [f.value for f in state.chance.forced] == [1]


def test_a_better_defense_upgrade_protects() -> None:
    """A-12(iv): Earth with Yttrium Alloys has Defense 8 in space (Civil Defense 7): Mars's 7 misses."""
    state = earth_game(
        ships={"M1": "orbit", "E1": "orbit", "E2": "orbit"},
        upgrades={"earth": ["yttrium"]},
        active="mars",
        forced=[7, 7],
    )
    run(state, "attack M1 E1")
    assert state.ships["E1"] == "orbit"


def test_long_range_missiles_reach_a_neighbouring_space_area() -> None:
    """Ganymede's Missiles reach neighbouring space areas (not Lunar Space from Lagrange); Plasma does not."""
    ships = {"G1": "lagrange", "V1": "orbit", "M1": "jovian", "T1": "lunar", "T2": "lagrange"}
    state = load_enhanced(ships=ships, active="ganymede", forced=[9, 1])
    assert targets(state, "G1") == {"V1", "M1", "T2"}
    run(state, "attack G1 M1")
    assert state.ships["M1"] is None
    state = load_enhanced(ships={"T1": "lagrange", "V1": "orbit", "G1": "jovian"}, active="titan")
    assert targets(state, "T1") == set()


def test_long_range_missiles_reach_from_orbit_to_its_neighbouring_space_areas() -> None:
    """A-03 + the Missiles' text: Orbit is a space area, so a Ganymede ship there hits Lagrange Point too."""
    state = load_enhanced(ships={"G1": "orbit", "V1": "lagrange", "M1": "china"}, active="ganymede")
    assert targets(state, "G1") == {"V1", "M1"}


# ------------------------------------------------------------------ movement cards


@pytest.mark.parametrize(
    ("players", "planets", "ship", "path"),
    [
        (4, None, "T1", ["kuiper", "deep"]),
        (5, P5, "P1", ["oort", "deep"]),
        (4, None, "V1", ["sunward"]),
        (4, None, "M1", ["lunar"]),
        (4, None, "G1", ["jovian"]),
    ],
)
def test_movement_cards_titan_and_pluto_move_two_areas_others_one(
    players: int, planets: str | None, ship: str, path: list[str]
) -> None:
    """Warp Drive and Antimatter Drive move a ship up to two areas; every other Movement card one."""
    planet = {"T": "titan", "P": "pluto", "V": "venus", "M": "mars", "G": "ganymede"}[ship[0]]
    other = f"{ship[0]}2"  # stays home, so the move action goes on after the ship's last step
    state = load_enhanced(players, planets=planets, ships={ship: planet, other: planet}, active=planet)
    for area in path:
        assert area in moves(state, ship)
        run(state, f"move {ship} {area}")
    assert moves(state, ship) == set() and moves(state, other)
    run(state, "done")
    assert state.ships[ship] == path[-1] and state.active != planet


def test_a_two_area_move_may_stop_after_one() -> None:
    """'Each ship moves up to two areas': a Titan ship may stop after one step."""
    state = load_enhanced(ships={"T1": "orbit", "T2": "titan"}, active="titan")
    run(state, "move T1 china", "move T2 rings", "move T2 jovian", "done")
    assert state.ships["T1"] == "china" and state.ships["T2"] == "jovian"
    assert state.active == "venus"


# ------------------------------------------------------------------ the Q-Ray


def qray(dice: list[int], upgrades: tuple[str, ...] = ()) -> VenusState:
    """Venus's V1 fires the Q-Ray at Mars's M1 in Orbit with these dice; returns the state after."""
    state = load_enhanced(
        ships={"V1": "orbit", "M1": "orbit"},
        upgrades={"venus": list(upgrades)} if upgrades else None,
        active="venus",
        forced=dice,
    )
    run(state, "attack V1 M1")
    return state


def test_qray_one_destroys_both_ships() -> None:
    """Q-Ray 1: 'Target and attacking spaceship are both destroyed'."""
    state = qray([1])
    assert state.ships["V1"] is None and state.ships["M1"] is None


def test_qray_two_teleports_both_ships_by_their_own_dice() -> None:
    """Q-Ray 2: both teleport, each to the space area its own teleport die names on the map (A-08, A-09)."""
    state = qray([2, 4, 9])
    assert (
        {state.ships["V1"], state.ships["M1"]} == {BOARD.teleport(4), BOARD.teleport(9)} == {"jovian", "oort"}
    )
    assert state.chance.forced == []


@pytest.mark.parametrize("roll", [3, 4, 5])
def test_qray_three_to_five_has_no_effect(roll: int) -> None:
    """Q-Ray 3–5: no effect, and without an upgrade a 4 or 5 is not rolled again (the next die is unused)."""
    state = qray([roll, 9])
    assert state.ships["V1"] == "orbit" and state.ships["M1"] == "orbit"
    assert [f.value for f in state.chance.forced] == [9]


@pytest.mark.parametrize(
    ("upgrade", "dice", "v1", "m1"),
    [
        ("autofire", [4, 5, 9], "orbit", None),
        ("autofire", [5, 1], None, None),
        ("amplifier", [4, 6, 2], "orbit", "lunar"),
        ("amplifier", [5, 4, 3], "orbit", "orbit"),
    ],
)
def test_qray_four_or_five_is_rolled_again_with_auto_fire_control_or_energy_amplifier(
    upgrade: str, dice: list[int], v1: str | None, m1: str | None
) -> None:
    """The Q-Ray's footnote: with either upgrade every 4 or 5 is rolled again (A-09) until another result."""
    state = qray(dice, (upgrade,))
    assert state.ships["V1"] == v1 and state.ships["M1"] == m1
    assert state.chance.forced == []


def test_qray_three_is_not_rolled_again_with_an_upgrade() -> None:
    """'A roll of 3 still has no effect', even with Auto Fire Control."""
    state = qray([3, 9], ("autofire",))
    assert state.ships["M1"] == "orbit"
    assert [f.value for f in state.chance.forced] == [9]


@pytest.mark.parametrize(("roll", "teleport"), [(6, 7), (7, 10)])
def test_qray_six_or_seven_teleports_the_target(roll: int, teleport: int) -> None:
    """Q-Ray 6–7: the target alone teleports, to the area the teleport die names."""
    state = qray([roll, teleport])
    assert state.ships["V1"] == "orbit" and state.ships["M1"] == BOARD.teleport(teleport)


@pytest.mark.parametrize("roll", [8, 9, 10])
def test_qray_eight_or_more_destroys_the_target(roll: int) -> None:
    """Q-Ray 8+: the target is destroyed, whatever its Defense (Chameleon Screen is 9 in space, A-09)."""
    state = qray([roll])
    assert state.ships["V1"] == "orbit" and state.ships["M1"] is None


def _close_windows(state: Any) -> None:
    """Passes every Zap window on top until another decision is on top."""
    while not state.is_over() and state.stack.top.kind == "zap":
        everyone_passes(state)


def test_a_q_ray_teleport_does_not_bring_back_a_destroyed_attacker() -> None:
    """A Q-Ray attacker destroyed by Sabotage before its roll of 2 resolves stays destroyed."""
    state = load(
        options={"game": "enhanced"}, ships={"V1": "lunar", "M1": "lunar"}, hands={1: [9]}, active="venus"
    )
    force_dice(state, 2, 3, 4)
    play(state, "attack V1 M1", "1: zap 9 V1")
    _close_windows(state)
    assert state.ships["V1"] is None


def test_a_qray_owner_with_gatling_lasers_chooses_per_ship() -> None:
    """Gatling Lasers' text: a Q-Ray owner chooses per ship, 'attack V1 M1 gatling' rolling two dice."""
    # The Gatling's two dice (1, 9) hit Mars in space (9); the Q-Ray on a 1 destroys both ships.
    ships = {"V1": "orbit", "V2": "orbit", "M1": "orbit", "M2": "orbit"}
    state = load_enhanced(ships=ships, upgrades={"venus": ["gatling"]}, active="venus", forced=[1, 9, 1])
    assert {"attack V1 M1", "attack V1 M1 gatling"} <= set(legal(state))
    run(state, "attack V1 M1 gatling")
    assert state.ships["M1"] is None and state.ships["V1"] == "orbit"
    run(state, "attack V2 M2")
    assert state.ships["M2"] is None and state.ships["V2"] is None
    plain = load_enhanced(ships=ships, active="venus")
    assert not any(a.endswith("gatling") for a in legal(plain))


def test_only_a_qray_owner_names_a_weapon() -> None:
    """Other players never choose: Earth with Gatling Lasers is offered 'attack E1 V1' only."""
    state = earth_game(
        ships={"E1": "orbit", "V1": "orbit"},
        upgrades={"earth": ["gatling"]},
        active="earth",
    )
    assert [a for a in legal(state) if a.startswith("attack")] == ["attack E1 V1"]


# ------------------------------------------------------------------ Mind Control


def test_mind_control_takes_a_ship_in_the_same_area_over() -> None:
    """A-10(i): 'control M1 V1' takes V1 over (no roll); only ships in M1's own area may be taken."""
    state = load_enhanced(ships={"M1": "china", "V1": "china", "V2": "orbit"}, active="mars")
    assert targets(state, "M1") == {"V1", "V2"}
    assert [a for a in legal(state) if a.startswith("control")] == ["control M1 V1"]
    run(state, "control M1 V1")
    assert state.controlled == {"V1": "mars"} and state.ships["V1"] == "china"
    assert state.fleet("mars") == ["M1", "V1"] and state.fleet("venus") == ["V2"]
    assert state.chance.forced == []


def test_each_mars_ship_controls_one_ship_at_a_time() -> None:
    """Mind Control: 'Each of your spaceships may only control one other': one Mars ship, one taken ship."""
    ships = {"M1": "china", "V1": "china", "V2": "china", "G1": "china"}
    state = load_enhanced(ships=ships, controlled={"V1": "mars"}, active="mars")
    assert not any(a.startswith("control") for a in legal(state))
    state = load_enhanced(ships={**ships, "M2": "china"}, controlled={"V1": "mars"}, active="mars")
    run(state, "control M1 V2")
    assert not any(a.startswith("control") for a in legal(state))


def test_a_taken_ship_does_not_act_in_the_same_action() -> None:
    """A-10: a ship taken over cannot act in the turn it is taken: V1 is not offered for the attack."""
    state = load_enhanced(ships={"M1": "china", "M2": "china", "V1": "china", "V2": "orbit"}, active="mars")
    run(state, "control M1 V1")
    assert {a.split()[1] for a in legal(state) if a.startswith("attack")} == {"M2"}


@pytest.mark.parametrize("route", ["extension", "surprise-attack"])
def test_a_taken_ship_does_not_act_later_in_the_same_turn(route: str) -> None:
    """A-10: neither an extension's extra attack nor a Surprise Attack in the end window may use V1."""
    state = load_enhanced(
        ships={"M1": "china", "V1": "china", "V2": "orbit"},
        active="mars",
        hands={1: [10] if route == "extension" else [5]},
    )
    run(state, "control M1 V1", "done")
    if route == "extension":
        run(state, "extend 10")
    else:
        run(state, "end", "1: zap 5")
    assert not any(a.startswith("attack V1") for a in legal(state, 1))


def test_a_controlled_ship_serves_mars_on_its_later_turns_with_its_own_cards() -> None:
    """Mind Control: on Mars's turn V1 moves, attacks with its own Q-Ray, or collects one unit for Mars."""
    ships = {"M1": "china", "V1": "china", "V2": "orbit", "G1": "china"}
    state = load_enhanced(ships=ships, controlled={"V1": "mars"}, active="mars", forced=[6, 1])
    assert "orbit" in moves(state, "V1") and targets(state, "V1") == {"G1", "V2"}
    run(state, "attack V1 G1")
    assert state.ships["G1"] == BOARD.teleport(1) == "lagrange"
    state = load_enhanced(ships=ships, controlled={"V1": "mars"}, active="mars")
    run(state, "collect V1")
    assert state.collected["mars"] == 1 and state.collected["venus"] == 0
    assert state.population["china"] == 26


def test_a_controlled_ship_moves_by_its_own_movement_card() -> None:
    """A controlled Titan ship keeps its Warp Drive: on Mars's turn it moves two areas."""
    state = load_enhanced(ships={"M1": "kuiper", "T1": "kuiper"}, controlled={"T1": "mars"}, active="mars")
    run(state, "move T1 deep", "move T1 comet")
    assert state.ships["T1"] == "comet" and moves(state, "T1") == set()


def test_a_controlled_ship_never_uses_its_owners_special() -> None:
    """A-10(iv): a controlled robot hit is destroyed, not disabled; no Amphibious or Parasites for Mars."""
    state = load_enhanced(
        5,
        planets=P5,
        ships={"M1": "china", "P1": "china", "V1": "china"},
        controlled={"P1": "mars"},
        active="venus",
        forced=[9],
    )
    run(state, "attack V1 P1")
    assert state.ships["P1"] is None and state.disabled == []
    ships = {"M1": "atlantic", "G1": "atlantic", "M2": "china", "T1": "china"}
    state = load_enhanced(ships=ships, controlled={"G1": "mars", "T1": "mars"}, active="mars")
    assert {a for a in legal(state) if a.startswith(("collect", "infect"))} == {"collect M2", "collect T1"}


def test_the_original_owner_may_attack_its_controlled_ship() -> None:
    """A-10(ii): Venus's V2 may attack its own V1 while Mars controls it; a destroyed ship is free again."""
    ships = {"M1": "china", "V1": "china", "V2": "china"}
    state = load_enhanced(ships=ships, controlled={"V1": "mars"}, active="venus", forced=[8])
    assert state.fleet("venus") == ["V2"] and targets(state, "V2") == {"M1", "V1"}
    run(state, "attack V2 V1")
    assert state.ships["V1"] is None and state.controlled == {}


def test_controlled_ships_beyond_mars_own_in_an_area_are_released_at_the_end_of_a_turn() -> None:
    """Mind Control: at a turn's end controlled ships beyond Mars's own in an area go free; where Mars
    has no ship of its own left, all of them go without a choice."""
    ships = {"M1": "china", "V1": "china", "G1": "china"}
    state = load_enhanced(ships=ships, controlled={"V1": "mars"}, active="mars")
    run(state, "move M1 india")
    assert state.controlled == {"V1": "mars"}
    run(state, "done")
    assert state.controlled == {} and state.fleet("venus") == ["V1"] and state.active == "ganymede"
    state = load_enhanced(ships=ships, controlled={"V1": "mars"}, active="mars")
    run(state, "move M1 india", "move V1 india", "done")
    assert state.controlled == {"V1": "mars"}


@pytest.mark.parametrize("kept", ["V1", "G1"])
def test_mars_chooses_which_controlled_ships_to_release(kept: str) -> None:
    """Mind Control: "you must release controlled spaceships of your choice": one Mars ship holding two
    at Venus's turn end, so Mars (seat 1) is asked 'release V1' or 'release G1', then Mars's turn begins."""
    ships = {"M1": "china", "V1": "china", "G1": "china"}
    state = load_enhanced(ships=ships, controlled={"V1": "mars", "G1": "mars"}, active="venus")
    run(state, "pass")
    assert kinds(state)[-1] == "release" and state.deciders() == (1,)
    assert legal(state) == ["release G1", "release V1"]
    assert state.decision_summary().startswith("Mars")
    released = "G1" if kept == "V1" else "V1"
    events = state.apply_notation(f"release {released}")
    assert state.controlled == {kept: "mars"} and state.active == "mars"
    assert any(f"{released} is released" in e.text and "Mars's choice" in e.text for e in events)


def test_a_pending_release_survives_a_position_round_trip() -> None:
    """The release decision is written and read back (positions, ruling B-10); a forged one is refused."""
    ships = {"M1": "china", "V1": "china", "G1": "china"}
    state = load_enhanced(ships=ships, controlled={"V1": "mars", "G1": "mars"}, active="venus")
    run(state, "pass")
    data: dict[str, Any] = state.to_position()
    again = GAME.state_from_position(data)
    assert [str(a) for a in again.legal_actions(1)] == ["release G1", "release V1"]
    data["decisions"][-1]["seats"] = [0]
    with pytest.raises(Exception, match="Mind Control"):
        GAME.state_from_position(data)


def test_a_controlled_ship_stays_controlled_until_the_end_of_the_turn() -> None:
    """Release happens at the end of the turn: V1 stays Mars's while Venus's attack goes on."""
    ships = {"M1": "china", "V1": "china", "V2": "china", "V3": "china"}
    state = load_enhanced(ships=ships, controlled={"V1": "mars"}, active="venus", forced=[9])
    run(state, "attack V2 M1")
    assert state.ships["M1"] is None and state.controlled == {"V1": "mars"}
    assert "V1" in targets(state, "V3")
    run(state, "done")
    assert state.controlled == {} and state.active == "mars"


# ------------------------------------------------------------------ Alluring and Amphibious


def test_alluring_collects_two_units_and_one_when_extending() -> None:
    """Alluring: each Venus ship collects two units; an extension adds one, not two."""
    state = load_enhanced(ships={"V1": "china", "V2": "india"}, active="venus", hands={0: [10]})
    run(state, "collect V1", "collect V2", "done")
    assert state.collected["venus"] == 4
    assert state.population["china"] == 25 and state.population["india"] == 19
    run(state, "extend 10", "collect V1")
    assert state.collected["venus"] == 5 and state.population["china"] == 24


def test_alluring_takes_what_is_there() -> None:
    """A ship in an area holding one unit collects that one."""
    state = load_enhanced(ships={"V1": "samerica"}, population={"samerica": 1}, active="venus")
    run(state, "collect V1")
    assert state.collected["venus"] == 1 and state.population["samerica"] == 0


def test_amphibious_builds_two_ships() -> None:
    """Amphibious: a build action builds two ships on Ganymede."""
    state = load_enhanced(ships={}, active="ganymede")
    run(state, "build")
    assert ships_at(state, "ganymede") == ["G1", "G2"]


def test_amphibious_collects_from_a_neighbouring_area() -> None:
    """Amphibious (A-20): a ship in the Atlantic collects from Europe, Africa, North or South America."""
    state = load_enhanced(ships={"G1": "atlantic"}, active="ganymede")
    assert {a for a in legal(state) if a.startswith("collect")} == {
        f"collect G1 {a}" for a in ("europe", "africa", "namerica", "samerica")
    }
    run(state, "collect G1 europe")
    assert state.collected["ganymede"] == 1 and state.population["europe"] == 15
    other = load_enhanced(ships={"V1": "atlantic"}, active="venus")
    assert "collect" not in verbs(other)


# ------------------------------------------------------------------ Robotic (Pluto)


def test_robotic_a_hit_pluto_ship_is_disabled_not_destroyed() -> None:
    """Robotic: a successful attack only disables a Pluto robot; it stays on the board (A-22)."""
    state = load_enhanced(5, planets=P5, ships={"M1": "china", "P1": "china"}, active="mars", forced=[9, 1])
    run(state, "attack M1 P1")
    assert state.ships["P1"] == "china" and state.disabled == ["P1"]


def test_robotic_a_qray_destroyed_result_only_disables() -> None:
    """A-09: a Q-Ray 1 destroys the attacker but only disables the Pluto target."""
    state = load_enhanced(5, planets=P5, ships={"V1": "orbit", "P1": "orbit"}, active="venus", forced=[1])
    run(state, "attack V1 P1")
    assert state.ships["V1"] is None and state.ships["P1"] == "orbit" and state.disabled == ["P1"]


def test_a_disabled_robot_cannot_act() -> None:
    """A-22: P1, disabled by a Surprise Attack as Pluto's turn starts, cannot move, attack or collect."""
    state = load_enhanced(
        5, planets=P5, ships={"V1": "china", "P1": "china", "P2": "orbit"}, active="titan", hands={0: [5]}
    )
    run(state, "pass")
    while state.active != "pluto":
        run(state, "0: pass")  # Titan's end window.
    force_dice(state, 9)
    run(state, "0: zap 5", "0: attack V1 P1")
    assert state.disabled == ["P1"]
    passes_until(state, "act")
    assert not any(" P1 " in f" {a} " for a in legal(state))
    assert targets(state, "P2") == {"V1"}


def test_a_disabled_robot_is_repaired_at_the_start_of_plutos_turn() -> None:
    """A-22: the robot stays disabled through others' turns and is repaired when Pluto's next turn starts."""
    state = load_enhanced(5, planets=P5, ships={"P1": "china"}, disabled=["P1"], active="ganymede")
    run(state, "pass")
    assert state.active == "titan" and state.disabled == ["P1"]
    run(state, "pass")
    assert state.active == "pluto" and state.disabled == []
    assert "india" in moves(state, "P1")


def test_a_disabled_robot_hit_again_is_destroyed() -> None:
    """A-22: a disabled ship that would be destroyed is destroyed."""
    state = load_enhanced(
        5, planets=P5, ships={"M1": "china", "P1": "china"}, disabled=["P1"], active="mars", forced=[9, 1]
    )
    run(state, "attack M1 P1")
    assert state.ships["P1"] is None and state.disabled == []


# ------------------------------------------------------------------ Parasites (Titan)


def test_parasites_infect_a_healthy_unit() -> None:
    """A-23: 'infect T1' turns a healthy unit yellow where T1 stands; infecting does not open Earth."""
    ships = {"T1": "china", "T2": "india", "T3": "atlantic"}
    state = load_enhanced(6, planets=ALL_SIX, ships=ships, active="titan")
    assert {"infect T1", "infect T2"} <= set(legal(state)) and "infect T3" not in legal(state)
    run(state, "infect T1")
    assert state.population["china"] == 26 and state.infected["china"] == 1
    assert state.collected["titan"] == 0 and not state.earth_open


def test_titan_collects_one_infected_unit_per_area_at_the_end_of_its_turn() -> None:
    """A-23: at the end of Titan's turns one infected unit comes home from every land area holding any."""
    state = load_enhanced(ships={"T1": "orbit"}, infected={"india": 2, "africa": 1}, active="titan")
    run(state, "pass")
    assert state.infected["india"] == 1 and state.infected["africa"] == 0
    assert state.collected["titan"] == 2 and state.active == "venus"
    state = load_enhanced(ships={"T1": "orbit"}, infected={"india": 2}, active="venus")
    run(state, "pass")
    assert state.infected["india"] == 2 and state.collected["titan"] == 0


def test_others_may_collect_infected_units() -> None:
    """A-23: anyone may collect infected units; with no choice to make (option infected=healthy, or one
    kind left) a healthy unit goes first (India: one healthy, two yellow)."""
    state = load_enhanced(
        ships={"M1": "india"},
        population={"india": 1},
        infected={"india": 2},
        active="mars",
        hands={1: [10]},
        options={"infected": "healthy"},
    )
    assert not any(a.endswith("infected") for a in legal(state))
    run(state, "collect M1", "done")
    assert state.population["india"] == 0 and state.infected["india"] == 2
    run(state, "extend 10", "collect M1")
    assert state.infected["india"] == 1 and state.collected["mars"] == 2


@pytest.mark.parametrize("word", ["", " infected"])
def test_the_collector_chooses_a_healthy_or_an_infected_unit(word: str) -> None:
    """A-23: "Infected population ... may be collected by other players": where both kinds are, the
    collector chooses ('collect M1' a healthy unit, 'collect M1 infected' an infected one)."""
    state = load_enhanced(
        ships={"M1": "india"}, population={"india": 1}, infected={"india": 2}, active="mars"
    )
    assert {"collect M1", "collect M1 infected"} <= set(legal(state))
    events = state.apply_notation(f"collect M1{word}")
    sick = bool(word)
    assert state.infected["india"] == (1 if sick else 2) and state.population["india"] == (1 if sick else 0)
    assert state.collected["mars"] == 1
    assert any(("infected population unit" in e.text) == sick and "M1 collects" in e.text for e in events)


def test_alluring_takes_the_chosen_kind_first_then_the_other() -> None:
    """A-23 with Alluring: 'collect V1 infected' takes the infected unit, then a healthy one."""
    state = load_enhanced(
        ships={"V1": "india"}, population={"india": 3}, infected={"india": 1}, active="venus"
    )
    run(state, "collect V1 infected")
    assert state.infected["india"] == 0 and state.population["india"] == 2 and state.collected["venus"] == 2


def test_pluto_purges_infected_units_and_opens_earths_collection() -> None:
    """A-23: a Pluto ship destroys one infected unit in its area, which opens Earth's collection (A-06)."""
    state = load_enhanced(
        6, planets=ALL_SIX, ships={"P1": "india", "P2": "china"}, infected={"india": 2}, active="pluto"
    )
    assert "purge P1" in legal(state) and "purge P2" not in legal(state)
    assert not state.earth_open
    run(state, "purge P1")
    assert state.infected["india"] == 1 and state.earth_open
    assert sum(state.collected.values()) == 0


# ------------------------------------------------------------------ Earth (Underground Resistance)


@pytest.mark.parametrize(("dice", "acquired"), [((2, 7), True), ((7, 2), True), ((6, 6), False)])
def test_earth_researches_with_two_dice(dice: tuple[int, int], acquired: bool) -> None:
    """Underground Resistance: Earth rolls two dice for Auto Fire Control (7+) and uses the higher."""
    state = earth_game(active="earth", face_up=["autofire", "gatling", "quality"], forced=dice)
    run(state, "research autofire")
    assert state.upgrades.get("earth", []) == (["autofire"] if acquired else [])
    assert state.chance.forced == []


def test_earth_scavenges_an_alien_wreck_on_earth() -> None:
    """Underground Resistance: an alien wreck in an Earth area gives Earth a free research roll at once."""
    state = earth_game(
        ships={"M1": "china", "M2": "china", "V1": "china", "V2": "china"},
        active="mars",
        face_up=["gatling", "autofire", "quality"],
        forced=[9, 1, 1, 5],
    )
    run(state, "attack M1 V1")
    assert state.ships["V1"] is None
    assert kinds(state)[-1] == "scavenge" and state.deciders() == (1,)
    assert set(legal(state, 1)) == {"pass", "research autofire", "research gatling", "research quality"}
    run(state, "1: research gatling")
    assert state.pending_upgrades == {"earth": ["gatling"]} and "gatling" not in state.face_up
    assert state.deciders() == (2,) and targets(state, "M2") == {"V2"}


def test_no_scavenging_after_a_wreck_in_space() -> None:
    """Scavenging needs an Earth area: a Venus ship destroyed in Orbit gives Earth nothing."""
    state = earth_game(ships={"M1": "orbit", "V1": "orbit"}, active="mars", forced=[9, 1])
    run(state, "attack M1 V1")
    assert state.ships["V1"] is None and "scavenge" not in kinds(state)


@pytest.mark.parametrize(("dice", "raided"), [((10, 1), True), ((9, 9), False)])
def test_an_alien_in_orbit_may_raid_the_refuge(dice: tuple[int, int], raided: bool) -> None:
    """Underground Resistance: a ship in Orbit attacks the Refuge (Defense 10); a hit takes one unit home."""
    state = earth_game(ships={"M1": "orbit"}, collected={"earth": 3}, active="mars", forced=dice)
    assert "refuge" in targets(state, "M1")
    run(state, "attack M1 refuge")
    assert state.collected == (
        {"mars": 1, "venus": 0, "earth": 2} if raided else {"mars": 0, "venus": 0, "earth": 3}
    )


def test_the_refuge_is_raided_only_from_orbit_and_only_when_it_holds_population() -> None:
    """No raid from an Earth area, nor on an empty Refuge."""
    state = earth_game(ships={"M1": "china"}, collected={"earth": 3}, active="mars")
    assert "refuge" not in targets(state, "M1")
    state = earth_game(ships={"M1": "orbit"}, active="mars")
    assert "refuge" not in targets(state, "M1")


def test_a_raid_on_an_emptied_refuge_takes_nothing() -> None:
    """Two raids on a Refuge holding one unit move one unit, never leave it below zero."""
    state = load(
        6,
        options={"game": "enhanced"},
        ships={"M1": "orbit", "M2": "orbit"},
        collected={"earth": 1},
        earth_open=True,
        hands={2: [5]},
        active="mars",
    )
    force_dice(state, 10, 10, 10, 10)
    play(state, "attack M1 refuge", "2: zap 5", "attack M2 refuge")
    _close_windows(state)
    assert state.collected["earth"] == 0 and state.collected["mars"] == 1


# ------------------------------------------------------------------ research


@pytest.mark.parametrize(("roll", "acquired"), [(5, True), (10, True), (4, False), (1, False)])
def test_research_succeeds_on_the_cards_number_or_more(roll: int, acquired: bool) -> None:
    """Research: a roll of the card's number or more acquires it (Gatling needs 5); the row is refilled."""
    state = load_enhanced(
        active="venus", face_up=["gatling", "quality", "assembly"], upgrade_deck=["phased"], forced=[roll]
    )
    run(state, "research gatling")
    assert state.active == "mars"
    if acquired:
        assert state.upgrades == {"venus": ["gatling"]}
        assert state.face_up == ["quality", "assembly", "phased"] and state.upgrade_deck == []
    else:
        assert state.upgrades == {} and state.face_up == ["gatling", "quality", "assembly"]
    assert upgrade_places(state) == UPGRADE_CARDS


def test_an_upgrade_takes_effect_only_at_the_end_of_the_turn() -> None:
    """An Upgrade won in Mars's turn (Earth's scavenged Yttrium) takes effect only when that turn ends."""
    # Mars's second attack (a 7) still faces Civil Defense (7 in space); Yttrium would make it 8.
    state = earth_game(
        ships={"M1": "china", "M2": "orbit", "V1": "china", "E1": "orbit", "E2": "orbit"},
        active="mars",
        face_up=["yttrium", "autofire", "quality"],
        forced=[9, 1, 5, 1, 7, 1],
    )
    run(state, "attack M1 V1", "1: research yttrium")
    assert state.pending_upgrades == {"earth": ["yttrium"]} and state.upgrades == {}
    assert tech.defense(state, "E2") == 7
    run(state, "attack M2 E1")
    assert state.ships["E1"] is None
    run(state, "done")
    assert state.active == "venus" and state.upgrades == {"earth": ["yttrium"]}
    assert state.pending_upgrades == {} and tech.defense(state, "E2") == 8


def test_an_extra_research_roll_counts_an_upgrade_won_this_turn_as_held() -> None:
    """A-12(ii): after acquiring Gatling Lasers, the extension may not try the second Gatling card."""
    state = load_enhanced(
        active="venus",
        face_up=["gatling", "quality", "assembly"],
        upgrade_deck=["gatling"],
        hands={0: [10]},
        forced=[5],
    )
    run(state, "research gatling", "extend 10")
    assert state.face_up == ["quality", "assembly", "gatling"]
    assert set(legal(state)) == {"research quality", "research assembly"}


def test_no_duplicate_or_obsoleted_upgrade_may_be_tried() -> None:
    """Research may not try an Upgrade that duplicates or is obsoleted by a card the planet has (A-13)."""
    # Earth with Adamantium: not Yttrium (obsoleted) nor Adaptive Shield (duplicate). Mars: not Gatling
    # (obsoleted by Magneto-Blasters), Yttrium (by Chameleon Screen), Adamantium (duplicates it). Venus: not
    # a second copy of a card it holds.
    state = earth_game(
        upgrades={"earth": ["adamantium"]},
        face_up=["yttrium", "adaptive", "gatling"],
        active="earth",
    )
    assert researchable(state) == {"gatling"}
    with pytest.raises(IllegalActionError):
        state.apply_notation("research yttrium")
    state = load_enhanced(face_up=["gatling", "yttrium", "adamantium"], active="mars")
    assert researchable(state) == set()
    state = load_enhanced(
        upgrades={"venus": ["gatling"]}, face_up=["gatling", "yttrium", "quality"], active="venus"
    )
    assert researchable(state) == {"quality"}


def test_an_obsoleted_upgrade_is_discarded_when_the_new_one_takes_effect() -> None:
    """Auto Fire Control discards Earth's obsolete Gatling Lasers at turn end; Venus (Q-Ray) keeps both."""
    state = earth_game(
        upgrades={"earth": ["gatling"]},
        face_up=["autofire", "yttrium", "quality"],
        active="earth",
        forced=[7, 1],
    )
    run(state, "research autofire")
    assert state.upgrades == {"earth": ["autofire"]} and state.upgrade_discard.count("gatling") == 1
    assert upgrade_places(state) == UPGRADE_CARDS
    state = load_enhanced(
        upgrades={"venus": ["gatling"]},
        face_up=["autofire", "gatling", "quality"],
        active="venus",
        forced=[7],
    )
    run(state, "research autofire")
    assert state.upgrades == {"venus": ["gatling", "autofire"]}


def test_cycle_swaps_a_face_up_upgrade_once_a_turn_without_committing() -> None:
    """A-12: 'cycle ID' replaces a face-up Upgrade once a turn, and the action is still to be chosen."""
    state = load_enhanced(
        ships={"V1": "orbit"},
        face_up=["yttrium", "gatling", "quality"],
        upgrade_deck=["assembly", "phased"],
        active="venus",
    )
    assert {"cycle yttrium", "cycle gatling", "cycle quality"} <= set(legal(state))
    run(state, "cycle yttrium")
    assert state.face_up == ["gatling", "quality", "assembly"] and state.upgrade_deck == ["phased"]
    assert "yttrium" in state.upgrade_discard and state.action == ""
    assert not any(a.startswith("cycle") for a in legal(state))
    assert {"build", "move", "research"} <= verbs(state)
    run(state, "move V1 china", "done")
    assert state.ships["V1"] == "china" and state.active == "mars"
    assert any(a.startswith("cycle") for a in legal(state))


def test_an_empty_upgrade_deck_is_reshuffled_from_its_discards() -> None:
    """A-12(iii): with the deck empty, the card replacing an acquired one comes from the shuffled discards."""
    state = load_enhanced(
        active="venus",
        face_up=["gatling", "quality", "assembly"],
        upgrade_deck=[],
        upgrade_discard=["phased", "impervite"],
        forced=[5],
    )
    assert len(state.upgrade_discard) == 13
    run(state, "research gatling")
    assert state.upgrades == {"venus": ["gatling"]} and len(state.face_up) == 3
    assert state.upgrade_discard == [] and len(state.upgrade_deck) == 12
    assert upgrade_places(state) == UPGRADE_CARDS


# ------------------------------------------------------------------ extension_cards


def extended_attack(
    option: str, ship: str, target: str, hands: dict[int, list[int]], forced: list[int]
) -> VenusState:
    """Five planets; ``ship`` (the active planet's, in China) attacks M1 in India, then, extended by a
    Deflector Shield, attacks ``target`` beside it in China, under ``extension_cards`` = ``option``."""
    planet = {"P": "pluto", "T": "titan"}[ship[0]]
    ships = {ship: "china", target: "china", "M1": "india"}
    state = load_enhanced(
        5,
        planets=P5,
        options={"extension_cards": option},
        ships=ships,
        active=planet,
        hands=hands,
        forced=forced,
    )
    run(state, f"attack {ship} M1", "done", "extend 10", f"attack {ship} {target}")
    return state


@pytest.mark.parametrize(("option", "hit", "left"), [("rulebook", False, [9]), ("errata", True, [])])
def test_an_extended_attack_uses_the_cards_only_under_errata(option: str, hit: bool, left: list[int]) -> None:
    """A-01: an extra attack is Basic under 'rulebook' (2 dice, 8+); 'errata': Pluto's 3 dice vs Defense."""
    # 7 and 6 miss a Basic attack (no Defense card); Venus's land Defense is 7.
    state = extended_attack(option, "P1", "V1", hands={4: DEFLECTORS}, forced=[1, 1, 1, 7, 6, 9])
    assert (state.ships["V1"] is None) is hit
    assert [f.value for f in state.chance.forced] == left


@pytest.mark.parametrize(("option", "disabled"), [("rulebook", False), ("errata", True)])
def test_an_extended_attack_is_saved_by_robotic_only_under_errata(option: str, disabled: bool) -> None:
    """A-01: under 'rulebook' Robotic does not save the target of an extra attack; under 'errata' it does."""
    state = extended_attack(option, "T1", "P1", hands={3: DEFLECTORS}, forced=[1, 1, 9, 1])
    assert (state.ships["P1"] == "china") is disabled and (state.disabled == ["P1"]) is disabled


@pytest.mark.parametrize(("option", "m1"), [("rulebook", "china"), ("errata", "comet")])
def test_an_extended_qray_attack_is_basic_under_the_rulebook(option: str, m1: str) -> None:
    """A-01: a 6 is a miss in a Basic attack (rulebook) but teleports the target with the Q-Ray (errata)."""
    state = load_enhanced(
        options={"extension_cards": option},
        ships={"V1": "china", "M1": "china", "M2": "china"},
        active="venus",
        hands={0: DEFLECTORS},
        forced=[3, 6, 6] if option == "errata" else [3, 6, 1],
    )
    run(state, "attack V1 M2", "done", "extend 10", "attack V1 M1")
    assert state.ships["M1"] == m1 and state.chance.forced == []


@pytest.mark.parametrize("option", ["rulebook", "errata"])
def test_an_extended_build_is_one_ship_at_home(option: str) -> None:
    """A-01: an extra build is one ship at home (no Amphibious, Assembly or Quality Control) either way."""
    state = load_enhanced(
        options={"extension_cards": option},
        ships={},
        upgrades={"ganymede": ["quality", "assembly"]},
        active="ganymede",
        hands={2: DEFLECTORS},
    )
    run(state, "build jovian")
    assert ships_at(state, "jovian") == ["G1", "G2", "G3"]
    run(state, "extend 10")
    assert legal(state) == ["build"]
    run(state, "build")
    assert ships_at(state, "ganymede") == ["G4"]


@pytest.mark.parametrize("option", ["rulebook", "errata"])
def test_alluring_gives_one_unit_per_extension_under_either_option(option: str) -> None:
    """A-01: Alluring does not apply to an extra population step, even under 'errata'."""
    state = load_enhanced(
        options={"extension_cards": option}, ships={"V1": "china"}, active="venus", hands={0: DEFLECTORS}
    )
    run(state, "collect V1", "done", "extend 10", "collect V1")
    assert state.collected["venus"] == 3


@pytest.mark.parametrize(
    ("option", "sources"), [("rulebook", {"collect G1"}), ("errata", {"collect G1", "collect G1 africa"})]
)
def test_amphibious_collection_applies_to_an_extension_only_under_errata(
    option: str, sources: set[str]
) -> None:
    """A-01: Amphibious's collection (not its build) is a card that applies to extensions under 'errata'."""
    state = load_enhanced(
        options={"extension_cards": option},
        ships={"G1": "europe"},
        population={"russia": 0},
        active="ganymede",
        hands={2: DEFLECTORS},
    )
    run(state, "collect G1", "done", "extend 10")
    assert set(legal(state)) == sources


# ------------------------------------------------------------------ build Upgrades


def test_automated_assembly_builds_one_more_ship() -> None:
    """Automated Assembly: a build action builds one more (Venus two, Ganymede with Amphibious three)."""
    state = load_enhanced(ships={}, upgrades={"venus": ["assembly"]}, active="venus")
    run(state, "build")
    assert ships_at(state, "venus") == ["V1", "V2"]
    state = load_enhanced(ships={}, upgrades={"ganymede": ["assembly"]}, active="ganymede")
    run(state, "build")
    assert ships_at(state, "ganymede") == ["G1", "G2", "G3"]


def test_quality_control_may_launch_next_to_the_home_world() -> None:
    """Quality Control: new ships may go to a space area next to the home world (Sunward, Comet Lanes)."""
    state = load_enhanced(upgrades={"venus": ["quality"]}, active="venus")
    assert {a for a in legal(state) if a.startswith("build")} == {
        "build venus",
        "build sunward",
        "build comet",
    }
    run(state, "build sunward")
    assert ships_at(state, "sunward") == ["V3"]
    plain = load_enhanced(active="venus")
    assert [a for a in legal(plain) if a.startswith("build")] == ["build"]


# ------------------------------------------------------------------ random playouts


def check_enhanced(state: object, step: int) -> None:
    """Every Upgrade card in exactly one place; every controlled or disabled ship on the board."""
    assert isinstance(state, VenusState)
    assert upgrade_places(state) == UPGRADE_CARDS, f"step {step}: an Upgrade card is lost or doubled"
    for ship in (*state.controlled, *state.disabled):
        assert state.ships[ship] is not None, f"step {step}: {ship} is controlled or disabled off the board"
    assert len(set(state.disabled)) == len(state.disabled)
    assert all(state.owner(s) == "pluto" for s in state.disabled)
    assert all(p == "mars" and state.owner(s) != "mars" for s, p in state.controlled.items())


WEIGHTS = {
    "control": 10.0,
    "research": 6.0,
    "cycle": 2.0,
    "attack": 6.0,
    "extend": 3.0,
    "zap": 3.0,
    "pass": 0.5,
}


def busy_enhanced_playout(players: int, seed: int, options: dict[str, object]) -> VenusState:
    """Plays a game that favours take-overs, research and attacks, checking every step."""
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    step = 0
    while not state.is_over():
        seat = rng.choice(state.deciders())
        choices = state.legal_actions(seat)
        state.apply(rng.choices(choices, [WEIGHTS.get(str(a).split()[0], 1.0) for a in choices])[0], seat)
        step += 1
        check_enhanced(state, step)
    return state


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 5_000), st.sampled_from(["rulebook", "errata"]))
def test_random_enhanced_playouts_keep_upgrades_and_ships_in_place(
    players: int, seed: int, cards: str
) -> None:
    """Random Enhanced games keep every Upgrade card in one place and controlled/disabled ships on board."""
    options = {"game": "enhanced", "max_turns": 60, "extension_cards": cards}
    end = kit.playout(GAME, players, seed, options, check_enhanced)
    assert end.is_over()
    busy = busy_enhanced_playout(players, seed, options)
    assert busy.is_over() and busy.invariant_errors() == []


# ------------------------------------------------------------------ why research is refused


def test_researching_a_duplicate_says_what_it_duplicates() -> None:
    """ "You may not attempt to acquire an upgrade which duplicates or is obsoleted by a card you already
    have": 'research yttrium' for Venus is refused because it duplicates Baryonite Armor, and says so."""
    state = load_enhanced(active="venus", face_up=["yttrium", "gatling", "adaptive"])
    assert "research yttrium" not in legal(state)
    why = state.why_illegal(state.parse_action("research yttrium"), 0)
    assert why == "Yttrium Alloys duplicates Venus's Baryonite Armor"
    with pytest.raises(IllegalActionError, match="duplicates Venus's Baryonite Armor"):
        state.apply_notation("research yttrium", 0)


def test_research_refusals_name_the_reason() -> None:
    """Obsoleted, already held, not face up, unknown: each refusal says which."""
    state = load_enhanced(
        active="mars", face_up=["gatling", "adaptive", "quality"], upgrades={"mars": ["quality"]}
    )

    def why(text: str) -> str:
        return state.why_illegal(state.parse_action(text), 1)

    assert why("research gatling") == "Gatling Lasers is obsoleted by Mars's Magneto-Blasters"
    assert why("research quality") == "Mars already has Quality Control"
    assert why("research yttrium").startswith("Yttrium Alloys is not face up (face up: adaptive")
    assert why("research warp").startswith("there is no Upgrade 'warp'")
