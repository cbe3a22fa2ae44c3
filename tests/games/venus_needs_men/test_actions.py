"""The actions, one test per rule (rulebook: 'Actions', 'Zap Cards' on extensions; A-02, A-03, A-06, A-07,
A-15, A-16, A-18).

Unless a test says otherwise, the positions are four-player games (seat 0 Venus, 1 Mars, 2 Ganymede,
3 Titan; turn order Titan, Venus, Mars, Ganymede) in which nobody holds a Zap card, so no Zap window
opens and no extension is offered.
"""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalActionError
from parlour.games.venus_needs_men import VenusState
from parlour.testing.kit import snapshot

from .scenario import (
    BOARD,
    check,
    kinds,
    legal,
    load,
    play,
    population_total,
    ships_at,
    top,
    turn_program,
    verbs,
)

EARTH_AREAS = set(BOARD.earth_areas())
HOME_WORLDS = {"venus", "mars", "ganymede", "titan", "pluto"}
SPACE = {a.id for a in BOARD.areas if a.kind == "space"}
EARTH_GAME = "venus,earth,mars"
"""Three players: seat 0 Venus, seat 1 Earth, seat 2 Mars; turn order Mars, Venus, Earth."""


def moves(state: VenusState, ship: str) -> set[str]:
    """Returns the areas a ship may move to now."""
    return {a.split()[2] for a in legal(state) if a.startswith(f"move {ship} ")}


def targets(state: VenusState, ship: str) -> set[str]:
    """Returns the ships a ship may attack now."""
    return {a.split()[2] for a in legal(state) if a.startswith(f"attack {ship} ")}


# ------------------------------------------------------------------ the one action


def test_the_first_step_chooses_one_action_for_all_ships() -> None:
    """'You can never combine actions': after one ship moves, the others may only move (or be done)."""
    state = load(ships={"V1": "orbit", "V2": "china", "M1": "china"}, active="venus")
    assert verbs(state) == {"pass", "build", "move", "attack", "collect"}
    play(state, "move V1 india")
    assert top(state) == ("moving", None)
    assert verbs(state) == {"done", "move"}
    assert moves(state, "V1") == set() and "orbit" in moves(state, "V2")


def test_passing_is_a_move_in_which_no_ship_moves() -> None:
    """A-15: 'pass' at the action's start does nothing; the action counts as a move; the next side plays."""
    state = load(ships={"V1": "orbit"}, active="venus")
    before = dict(state.ships)
    play(state, "pass")
    assert state.ships == before
    assert state.active == "mars" and top(state) == ("act", None)


# ------------------------------------------------------------------ movement


def table_moves(area: str) -> set[str]:
    """The movement table, read off the map: space area or planet → neighbouring space areas (Orbit
    included); Orbit → also any Earth area; Earth area → any other Earth area or Orbit."""
    kind = BOARD.area(area).kind
    space = {n for n in BOARD.neighbours(area) if BOARD.area(n).kind in ("space", "orbit")}
    if kind == "orbit":
        return space | EARTH_AREAS
    if kind in ("land", "ocean"):
        return (EARTH_AREAS - {area}) | {"orbit"}
    return space


@pytest.mark.parametrize("area", [a.id for a in BOARD.areas if a.kind != "refuge"])
def test_the_movement_table_from_every_area(area: str) -> None:
    """From every area a ship moves as the movement table says, never to a home world or the Refuge."""
    state = load(ships={"V1": area}, active="venus")
    found = moves(state, "V1")
    assert found == table_moves(area)
    assert not found & HOME_WORLDS and "refuge" not in found and area not in found


def test_a_ship_in_space_moves_to_a_neighbouring_space_area() -> None:
    """'Space area or planet → Neighboring space area': Lunar Space reaches Orbit, Sunward Space, the Belt."""
    state = load(ships={"V1": "lunar"}, active="venus")
    assert moves(state, "V1") == {"orbit", "sunward", "belt"}


def test_a_ship_leaves_its_home_world_for_a_neighbouring_space_area() -> None:
    """A ship on its home world moves to the space areas next to it (Venus: Sunward Space, Comet Lanes)."""
    state = load(active="venus")
    assert moves(state, "V1") == {"sunward", "comet"} == moves(state, "V2")


def test_no_ship_enters_a_home_world_not_even_its_own() -> None:
    """A-02: the Kuiper Belt touches Pluto and Titan, but a Titan ship there cannot move onto either."""
    state = load(ships={"T1": "kuiper"}, active="titan")
    assert moves(state, "T1") == {"deep", "rings", "oort"}
    with pytest.raises(IllegalActionError):
        state.apply_notation("move T1 titan")


def test_orbit_reaches_every_earth_area_and_its_space_neighbours() -> None:
    """'Orbit → Any Earth area' (and A-03: Orbit is a space area, so also its neighbouring space areas)."""
    state = load(ships={"V1": "orbit"}, active="venus")
    assert moves(state, "V1") == EARTH_AREAS | {"lagrange", "lunar", "sunward"}
    assert len(EARTH_AREAS) == 13


def test_an_earth_area_reaches_every_other_earth_area_and_orbit() -> None:
    """'Earth area → Any other Earth area; Orbit': China reaches even South America, but no space area."""
    state = load(ships={"V1": "china"}, active="venus")
    found = moves(state, "V1")
    assert found == (EARTH_AREAS - {"china"}) | {"orbit"}
    assert "samerica" in found and not found & SPACE


def test_nobody_moves_to_the_refuge() -> None:
    """'No spaceships can move to the Secret Underground Refuge', not even Earth's."""
    state = load(3, planets=EARTH_GAME, ships={"E1": "china", "E2": "orbit"}, active="earth", earth_open=True)
    assert "refuge" not in moves(state, "E1") | moves(state, "E2")
    with pytest.raises(IllegalActionError):
        state.apply_notation("move E1 refuge")


def test_each_ship_moves_one_area_once() -> None:
    """'Each of your spaceships can move one area': every ship may step once; 'done' ends the move."""
    state = load(ships={"V1": "sunward", "V2": "comet", "V3": "venus"}, active="venus")
    play(state, "move V1 orbit", "move V2 deep")
    assert moves(state, "V1") == set() and moves(state, "V2") == set()
    assert moves(state, "V3") == {"sunward", "comet"}
    play(state, "done")
    assert state.ships["V3"] == "venus" and state.ships["V1"] == "orbit" and state.ships["V2"] == "deep"
    assert state.active == "mars"


def test_an_action_ends_by_itself_when_no_ship_can_take_another_step() -> None:
    """Once both Venus ships have moved their one area, the move action is over without a 'done'."""
    state = load(ships={"V1": "venus", "V2": "venus"}, active="venus")
    play(state, "move V1 sunward", "move V2 sunward")
    assert top(state)[0] != "moving", kinds(state)


def test_ships_of_any_players_may_share_an_area() -> None:
    """'You may move to an area even if another player already has a spaceship there.'"""
    state = load(ships={"V1": "orbit", "M1": "china", "G1": "china", "T1": "china"}, active="venus")
    play(state, "move V1 china")
    assert ships_at(state, "china") == ["G1", "M1", "T1", "V1"]


# ------------------------------------------------------------------ attack range

# 16 enemy ships (Mars, Ganymede, Titan), one in each of these areas.
ENEMIES = [f"M{i}" for i in range(1, 6)] + [f"G{i}" for i in range(1, 7)] + [f"T{i}" for i in range(1, 6)]
SPREAD = ["orbit", *BOARD.earth_areas(), "lagrange", "lunar"]


def table_range(area: str) -> set[str]:
    """The attack table: space area or planet → same area; Orbit → any Earth area, Orbit; Earth area →
    same area, neighbouring Earth areas, Orbit."""
    kind = BOARD.area(area).kind
    if kind == "orbit":
        return EARTH_AREAS | {"orbit"}
    if kind in ("land", "ocean"):
        return {area, "orbit"} | {n for n in BOARD.neighbours(area) if n in EARTH_AREAS}
    return {area}


@pytest.mark.parametrize("area", ["orbit", "china", "atlantic", "indian", "samerica", "lunar", "lagrange"])
def test_the_attack_range_table(area: str) -> None:
    """A ship may attack exactly the enemy ships in the areas the attack table gives for where it is."""
    placed = dict(zip(ENEMIES, SPREAD, strict=True))
    state = load(ships={"V1": area, **placed}, active="venus")
    expected = {ship for ship, where in placed.items() if where in table_range(area)}
    assert targets(state, "V1") == expected and expected


def test_a_ship_in_space_attacks_only_its_own_area() -> None:
    """From a space area a ship reaches the ships there, not those in neighbouring areas or Orbit."""
    state = load(
        ships={"V1": "lunar", "M1": "lunar", "M2": "orbit", "M3": "sunward", "G1": "belt"}, active="venus"
    )
    assert targets(state, "V1") == {"M1"}


def test_orbit_attacks_orbit_and_any_earth_area_but_not_space() -> None:
    """'Orbit → Any Earth area; Orbit; Same area': far Earth areas yes, neighbouring space areas no."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit", "M2": "samerica", "M3": "indian", "G1": "lunar"}, active="venus"
    )
    assert targets(state, "V1") == {"M1", "M2", "M3"}


def test_an_earth_area_attacks_its_neighbours_and_orbit_only() -> None:
    """'Earth area → Same area; Neighboring Earth area; Orbit': China reaches India, not Europe or space."""
    state = load(
        ships={
            "V1": "china",
            "M1": "china",
            "M2": "india",
            "M3": "orbit",
            "G1": "europe",
            "G2": "lagrange",
            "G3": "wpacific",
        },
        active="venus",
    )
    assert targets(state, "V1") == {"M1", "M2", "M3", "G3"}


def test_a_ship_on_its_home_world_attacks_nobody_outside() -> None:
    """A ship on a planet attacks only in the same area: enemies in the neighbouring space areas are safe."""
    state = load(ships={"V1": "venus", "M1": "sunward", "M2": "comet"}, active="venus")
    assert targets(state, "V1") == set() and "attack" not in verbs(state)


def test_only_enemy_ships_are_targets() -> None:
    """A player never attacks its own ships, nor (team game, A-17) its partner's."""
    state = load(
        2, ships={"T1": "orbit", "T2": "orbit", "G1": "orbit", "M1": "orbit", "V1": "china"}, active="titan"
    )
    assert targets(state, "T1") == {"M1", "V1"}


# ------------------------------------------------------------------ attacking


@pytest.mark.parametrize(
    ("dice", "hit"),
    [
        ((8, 1), True),
        ((1, 8), True),
        ((10, 10), True),
        ((9, 7), True),
        ((7, 7), False),
        ((1, 1), False),
        ((7, 2), False),
    ],
)
def test_any_die_of_eight_or_more_destroys_the_target(dice: tuple[int, int], hit: bool) -> None:
    """Basic: 'roll two dice for each attack. If either die is an 8 or higher, the target is destroyed'."""
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="venus", forced=dice)
    play(state, "attack V1 M1")
    assert (state.ships["M1"] is None) is hit
    assert state.ships["V1"] == "orbit"
    assert state.chance.forced == []


def test_a_destroyed_ship_returns_to_its_owners_supply() -> None:
    """A destroyed ship leaves the board and can be built again ('until some of them are destroyed')."""
    state = load(
        ships={"V1": "orbit", **{f"M{i}": "orbit" for i in range(1, 6)}}, active="venus", forced=[9, 9]
    )
    assert state.supply("mars") == []
    play(state, "attack V1 M3")
    assert state.supply("mars") == ["M3"]
    assert state.active == "mars" and "build" in legal(state)
    play(state, "build")
    assert state.ships["M3"] == "mars"


def test_the_target_is_declared_before_the_roll() -> None:
    """The declared target alone is at stake: the dice are rolled after 'attack SHIP TARGET' names it."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit", "M2": "orbit", "G1": "orbit"}, active="venus", forced=[9, 2]
    )
    play(state, "attack V1 M2")
    assert state.ships["M2"] is None
    assert state.ships["M1"] == "orbit" and state.ships["G1"] == "orbit"


def test_each_ship_attacks_once() -> None:
    """'Each of your spaceships can attack one enemy spaceship': a ship that attacked is not offered again."""
    state = load(
        ships={"V1": "orbit", "V2": "orbit", "M1": "orbit", "M2": "orbit"}, active="venus", forced=[1, 1]
    )
    play(state, "attack V1 M1")
    assert top(state) == ("attacking", None)
    assert targets(state, "V1") == set() and targets(state, "V2") == {"M1", "M2"}


def test_several_ships_may_attack_one_target() -> None:
    """'You can use different spaceships to attack the same target more than once.'"""
    state = load(
        ships={"V1": "orbit", "V2": "china", "V3": "lunar", "M1": "orbit"},
        active="venus",
        forced=[2, 3, 9, 1],
    )
    play(state, "attack V1 M1")
    assert state.ships["M1"] == "orbit"
    play(state, "attack V2 M1")
    assert state.ships["M1"] is None


def test_each_result_is_seen_before_the_next_target_is_chosen() -> None:
    """'You can wait and see how one attack goes': after a kill the next ship must pick another target."""
    state = load(
        ships={"V1": "orbit", "V2": "orbit", "M1": "orbit", "M2": "orbit"}, active="venus", forced=[10, 1]
    )
    play(state, "attack V1 M1")
    assert state.ships["M1"] is None
    assert targets(state, "V2") == {"M2"}


def test_an_attack_ends_when_no_ship_can_attack() -> None:
    """When every ship has attacked (or has no target left) the action is over without a 'done'."""
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="venus", forced=[9, 9])
    play(state, "attack V1 M1")
    assert state.active == "mars"  # nothing but 'done' was left: the action ended by itself


# ------------------------------------------------------------------ building


def test_a_build_puts_one_new_ship_on_the_home_world() -> None:
    """'Put a new spaceship of your color on your home world.'"""
    state = load(active="venus")
    play(state, "build")
    assert ships_at(state, "venus") == ["V1", "V2", "V3"]
    assert state.active == "mars"


@pytest.mark.parametrize(
    ("planets", "builder", "count"),
    [
        ("venus,mars,ganymede,titan", "titan", 2),
        ("venus,mars,ganymede,titan,pluto", "pluto", 3),
        ("venus,mars,ganymede,titan", "ganymede", 1),
        ("venus,mars,ganymede,titan", "mars", 1),
    ],
)
def test_titan_builds_two_and_pluto_three_in_the_basic_game(planets: str, builder: str, count: int) -> None:
    """'In the Basic Game, if you are Titan, you can build two spaceships ... Pluto ... three.'"""
    players = len(planets.split(","))
    letter = builder[0].upper()
    state = load(players, planets=planets, ships={f"{letter}1": "orbit"}, active=builder)
    play(state, "build")
    assert len(ships_at(state, builder)) == count
    assert len(state.fleet(builder)) == 1 + count


def test_a_multiple_build_stops_when_the_supply_runs_out() -> None:
    """Titan with one ship left in supply builds one."""
    state = load(ships={f"T{i}": "orbit" for i in range(1, 5)}, active="titan")
    play(state, "build")
    assert ships_at(state, "titan") == ["T5"] and state.supply("titan") == []


def test_no_build_with_an_empty_supply() -> None:
    """'If all of your spaceships are already on the board, you can't build any more.'"""
    state = load(5, planets="venus,mars,ganymede,titan,pluto", active="pluto")
    assert len(state.fleet("pluto")) == 5
    assert "build" not in verbs(state)
    with pytest.raises(IllegalActionError):
        state.apply_notation("build")


def test_earth_builds_in_any_populated_area_only() -> None:
    """Earth builds 'in any populated area except the Secret Underground Refuge' (A-07: population now)."""
    state = load(3, planets=EARTH_GAME, ships={}, active="earth", population={"russia": 0})
    builds = {a.split()[1] for a in legal(state) if a.startswith("build")}
    assert builds == set(BOARD.land_areas()) - {"russia"}
    assert "build" not in legal(state)
    for refused in ("build russia", "build atlantic", "build refuge", "build orbit"):
        with pytest.raises(IllegalActionError):
            state.apply_notation(refused)
    play(state, "build samerica")
    assert state.ships["E1"] == "samerica" and len(state.fleet("earth")) == 1


def test_aliens_build_only_on_their_home_world() -> None:
    """An alien build names no area: the new ship is always on its home world."""
    state = load(active="venus")
    assert [a for a in legal(state) if a.startswith("build")] == ["build"]
    with pytest.raises(IllegalActionError):
        state.apply_notation("build china")


# ------------------------------------------------------------------ collecting


def test_each_ship_collects_one_unit_to_its_home_world() -> None:
    """'Each of your spaceships can collect one population unit from the area it is in' for its home world."""
    state = load(ships={"V1": "china", "V2": "china", "V3": "india"}, active="venus")
    play(state, "collect V1", "collect V2")
    assert state.population["china"] == 25 and state.collected["venus"] == 2
    assert "collect V1" not in legal(state) and "collect V3" in legal(state)
    play(state, "collect V3")
    assert state.population["india"] == 20 and state.collected["venus"] == 3
    assert population_total(state) == 101
    check(state)


def test_only_a_populated_land_area_can_be_collected_from() -> None:
    """No collecting in an ocean, in space, or in an emptied land area."""
    state = load(
        ships={"V1": "atlantic", "V2": "orbit", "V3": "russia", "V4": "europe"},
        active="venus",
        population={"russia": 0},
    )
    assert [a for a in legal(state) if a.startswith("collect")] == ["collect V4"]


def test_earth_collects_to_the_refuge() -> None:
    """The Earth player sends collected population 'to the Secret Underground Refuge'."""
    state = load(3, planets=EARTH_GAME, ships={"E1": "india"}, active="earth", earth_open=True)
    play(state, "collect E1")
    assert state.collected["earth"] == 1 and state.population["india"] == 20
    assert state.scores() == [0.0, 1.0, 0.0]


def test_earth_may_not_collect_before_an_alien_has() -> None:
    """'The Earth player may not collect population until an alien spaceship has ...': no collect at first."""
    state = load(3, planets=EARTH_GAME, ships={"E1": "india"}, active="earth")
    assert "collect" not in verbs(state)
    with pytest.raises(IllegalActionError):
        state.apply_notation("collect E1")


def test_an_alien_collecting_opens_earths_collection() -> None:
    """An alien ship collecting population opens Earth's collection, which stays open (A-06)."""
    state = load(3, planets=EARTH_GAME, ships={"V1": "china", "E1": "india"}, active="venus")
    play(state, "collect V1")
    assert state.earth_open and state.active == "earth"
    assert "collect E1" in legal(state)


@pytest.mark.parametrize("dice", [(9, 9), (1, 2)])
def test_an_alien_attack_on_an_earth_ship_opens_earths_collection(dice: tuple[int, int]) -> None:
    """An alien attacking an Earth ship opens Earth's collection, hit or miss (A-06: a miss counts)."""
    state = load(
        3,
        planets=EARTH_GAME,
        ships={"V1": "orbit", "E1": "india", "E2": "india"},
        active="venus",
        forced=dice,
    )
    play(state, "attack V1 E1")
    assert state.earth_open and state.active == "earth"
    assert "collect E2" in legal(state)


def test_other_things_do_not_open_earths_collection() -> None:
    """Earth's own attack, an alien attack on another alien, and moves do not open Earth's collection."""
    state = load(
        3,
        planets=EARTH_GAME,
        ships={"V1": "orbit", "M1": "orbit", "E1": "orbit"},
        active="mars",
        forced=[1, 1, 1, 1],
    )
    play(state, "attack M1 V1")
    assert not state.earth_open
    play(state, "move V1 china")
    assert state.active == "earth"
    play(state, "attack E1 M1")
    assert not state.earth_open


# ------------------------------------------------------------------ extensions


def test_a_build_is_extended_by_one_ship_per_card() -> None:
    """'Build one extra spaceship': Titan's extra build is one ship, not two; the card is discarded."""
    state = load(ships={}, active="titan", hands={3: [10, 11, 12]})
    play(state, "build")
    assert len(state.fleet("titan")) == 2 and top(state) == ("extend", None)
    assert legal(state) == ["end", "extend 10", "extend 11", "extend 12"]
    play(state, "extend 11")
    assert top(state) == ("extra", None) and legal(state) == ["build"]
    play(state, "build")
    assert len(state.fleet("titan")) == 3
    assert state.hands[3] == [10, 12] and state.discards[3] == [11]
    check(state)


def test_a_move_is_extended_by_one_step_of_one_ship() -> None:
    """'Move one of your spaceships one extra area': the same ship may move again (A-16)."""
    state = load(ships={"V1": "sunward", "V2": "venus"}, active="venus", hands={0: [10, 11]})
    play(state, "move V1 orbit", "done", "extend 10")
    assert top(state) == ("extra", None)
    assert "move V1 china" in legal(state) and "move V2 comet" in legal(state)
    play(state, "move V1 china")
    assert state.ships["V1"] == "china" and top(state) == ("extend", None)
    play(state, "extend 11", "move V1 india")
    assert state.ships["V1"] == "india" and state.ships["V2"] == "venus"
    assert state.active == "mars"


def test_an_attack_is_extended_by_one_more_attack() -> None:
    """'Attack once more with one of your spaceships': the ship that attacked may attack again."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit", "M2": "china"},
        active="venus",
        hands={0: [10]},
        forced=[1, 1, 9, 1],
    )
    play(state, "attack V1 M1")
    assert state.ships["M1"] == "orbit"
    play(state, "extend 10")
    assert legal(state) == ["attack V1 M1", "attack V1 M2"]
    play(state, "attack V1 M1")
    assert state.ships["M1"] is None


def test_a_collection_is_extended_by_one_more_unit() -> None:
    """'Collect ... one extra population': the same ship may collect another unit where it is."""
    state = load(ships={"V1": "china", "V2": "atlantic"}, active="venus", hands={0: [10, 11, 12]})
    play(state, "collect V1", "extend 10")
    assert legal(state) == ["collect V1"]
    play(state, "collect V1", "extend 11", "collect V1", "extend 12", "collect V1")
    assert state.collected["venus"] == 4 and state.population["china"] == 23


def test_doing_nothing_may_be_extended() -> None:
    """A-15/A-16: a pass is a move in which no ship moved, and its extension gives move steps."""
    state = load(ships={"V1": "sunward"}, active="venus", hands={0: [10]})
    play(state, "pass")
    assert legal(state) == ["end", "extend 10"]
    play(state, "extend 10", "move V1 orbit")
    assert state.ships["V1"] == "orbit"


def test_at_most_three_extensions() -> None:
    """'Discard up to three Zap cards': after the third extension no further one is offered."""
    state = load(ships={"V1": "china"}, active="venus", hands={0: [10, 11, 12]})
    play(state, "collect V1")
    for card in (10, 11, 12):
        play(state, f"extend {card}", "collect V1")
    assert state.collected["venus"] == 4 and state.active == "mars"
    third = load(
        ships={"V1": "china"},
        active="venus",
        hands={0: [10, 11]},
        action="collect",
        extended=2,
        decisions=turn_program(0)[:3],
    )
    assert legal(third) == ["end", "extend 10", "extend 11"]
    play(third, "extend 10", "collect V1")
    assert third.active == "mars" and third.hands[0] == [11]


def test_no_extension_without_a_possible_extra_step() -> None:
    """A-16: no discard when the extra step is impossible (supply empty, area emptied, no target)."""
    state = load(ships={f"T{i}": "orbit" for i in range(1, 4)}, active="titan", hands={3: [10]})
    play(state, "build")
    assert state.supply("titan") == [] and state.active == "venus"
    state = load(ships={"V1": "russia"}, active="venus", hands={0: [10]}, population={"russia": 1})
    play(state, "collect V1")
    assert state.active == "mars" and state.hands[0] == [10]
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="venus", hands={0: [10]}, forced=[9, 9])
    play(state, "attack V1 M1")
    assert state.active == "mars" and state.hands[0] == [10]


def test_no_extension_without_zap_cards() -> None:
    """Extending costs a Zap card from the hand: with none, the turn goes on."""
    state = load(ships={"V1": "china"}, active="venus")
    play(state, "collect V1")
    assert state.active == "mars"


def test_an_extension_discards_without_playing_the_card() -> None:
    """An extension card goes to the discard pile without its effect (Sabotage 9 destroys nothing)."""
    state = load(ships={"V1": "china", "M1": "china"}, active="venus", hands={0: [9]})
    play(state, "collect V1", "extend 9", "collect V1")
    assert state.ships["M1"] == "china" and state.discards[0] == [9] and state.hands[0] == []


# ------------------------------------------------------------------ winning


def test_reaching_the_target_wins_at_once() -> None:
    """'The first player to collect ... wins the game immediately': the other ships' steps never come."""
    state = load(ships={"V1": "china", "V2": "china", "V3": "china"}, active="venus", collected={"venus": 25})
    play(state, "collect V1")
    assert state.is_over() and state.winners() == [0]
    assert state.deciders() == () and len(state.stack) == 0
    assert state.collected["venus"] == 26 and state.scores()[0] == 26.0
    with pytest.raises(IllegalActionError):
        state.apply_notation("collect V2", 0)


def test_an_extension_can_win() -> None:
    """The extra unit of an extension that reaches the target wins at once."""
    state = load(ships={"V1": "china"}, active="venus", collected={"venus": 24}, hands={0: [10, 11]})
    play(state, "collect V1", "extend 10")
    assert not state.is_over()
    play(state, "collect V1")
    assert state.is_over() and state.winners() == [0] and state.ranking()[0] == 1


def test_the_win_is_decided_by_the_population_needed() -> None:
    """Three players need 34 (101 / 3 rounded up): 33 is not enough, 34 is."""
    state = load(3, ships={"V1": "china"}, active="venus", collected={"venus": 32})
    play(state, "collect V1")
    assert not state.is_over()
    play(state)
    state = load(3, ships={"V1": "china"}, active="venus", collected={"venus": 33})
    play(state, "collect V1")
    assert state.is_over() and state.winners() == [0]


@pytest.mark.parametrize("card", [1, 2])
def test_a_card_giving_everyone_population_can_give_a_shared_victory(card: int) -> None:
    """Natural Disaster / Alien Plague: players who reach the target together share the victory."""
    state = load(
        ships={"V1": "orbit"},
        active="venus",
        window="start",
        collected={"venus": 25, "mars": 25, "ganymede": 10},
        hands={0: [card]},
    )
    play(state, f"0: zap {card} china" if card == 1 else f"0: zap {card}")
    assert state.is_over()
    assert state.winners() == [0, 1]
    assert state.ranking() == [1, 1, 3, 4]
    assert state.collected == {"titan": 1, "venus": 26, "mars": 26, "ganymede": 11}
    assert population_total(state) == 101


def test_a_card_giving_everyone_population_may_give_one_winner() -> None:
    """When only one player reaches the target through Natural Disaster, that player alone wins."""
    state = load(
        ships={"V1": "orbit"},
        active="venus",
        window="start",
        collected={"venus": 20, "mars": 25},
        hands={0: [14]},
    )
    play(state, "0: zap 14 india")
    assert state.winners() == [1]


EMPTY_EARTH = {a: 0 for a in BOARD.land_areas()}


def test_the_game_ends_when_nobody_can_collect_any_more() -> None:
    """B-7: the last unit on Earth collected, nobody could ever reach 26: the game ends at once and the
    leaders (Venus and Mars, 11 each) share the win; it says why."""
    state = load(
        ships={"M1": "india", "M2": "india"},
        active="mars",
        population={**EMPTY_EARTH, "india": 1},
        collected={"venus": 11, "mars": 10, "ganymede": 5, "titan": 3},
    )
    events = state.apply_notation("collect M1")
    assert state.is_over() and state.winners() == [0, 1] and state.deciders() == ()
    assert "Nobody can collect any more population" in state.end_reason()
    assert "Venus and Mars" in state.end_reason()
    assert any("nobody can collect any more population" in e.text for e in events)


def test_the_game_goes_on_while_infected_units_are_left() -> None:
    """B-7: an infected unit still on Earth can be collected, so the game goes on."""
    from .scenario import load_enhanced

    state = load_enhanced(
        ships={"M1": "india"},
        active="mars",
        population={**EMPTY_EARTH, "india": 1},
        infected={"china": 1},
        collected={"venus": 11, "mars": 10},
    )
    state.apply_notation("collect M1")
    assert not state.is_over() and state.end_reason() == ""


def test_refused_actions_change_nothing() -> None:
    """An illegal action is refused with a reason and the state is unchanged."""
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="venus")
    before = snapshot(state)
    for text in ("move V1 mars", "attack V1 V1", "collect V1", "build orbit", "move M1 china", "done"):
        with pytest.raises(IllegalActionError):
            state.apply_notation(text, 0)
        assert snapshot(state) == before
    assert kinds(state) == ["finish", "zap", "extend", "act"]


def test_winners_who_reach_the_target_on_different_counts_share_first_place() -> None:
    """A shared victory ranks every winner first, whatever each collected (ranking, ratings, analysis)."""
    state = load(
        ships={"V1": "orbit"},
        active="venus",
        window="start",
        collected={"venus": 25, "mars": 26, "ganymede": 10},
        hands={0: [2]},
    )
    play(state, "0: zap 2")
    assert state.is_over()
    assert state.winners() == [0, 1]
    assert state.collected["venus"] != state.collected["mars"]
    assert state.ranking()[:2] == [1, 1]
