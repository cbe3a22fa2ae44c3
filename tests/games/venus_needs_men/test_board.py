"""The house map (rulebook: 'Parts of the Game', 'Setup', 'Game Length'; A-03, A-05, A-08, A-14, A-20)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from parlour.core.content import read_json_file
from parlour.core.errors import ContentError, OptionError
from parlour.games.venus_needs_men.board import (
    HOME,
    KIND_COUNTS,
    LAND,
    LENGTHS,
    OCEAN,
    ORBIT,
    REFUGE,
    SPACE,
    load_board,
    parse_board,
)

BOARD = load_board()


def shipped() -> dict[str, Any]:
    """The shipped map file as parsed JSON (a fresh copy)."""
    text = resources.files("parlour.games.venus_needs_men").joinpath("data/map.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def entry(data: dict[str, Any], area_id: str) -> dict[str, Any]:
    """The area entry with this id."""
    found: dict[str, Any] = next(a for a in data["areas"] if a["id"] == area_id)
    return found


def link(data: dict[str, Any], a: str, b: str) -> None:
    """Adds a neighbour line both ways."""
    entry(data, a)["neighbours"].append(b)
    entry(data, b)["neighbours"].append(a)


def unlink(data: dict[str, Any], a: str, b: str) -> None:
    """Removes a neighbour line both ways."""
    entry(data, a)["neighbours"].remove(b)
    entry(data, b)["neighbours"].remove(a)


# The board's counts --------------------------------------------------------------------------------------


def test_the_board_has_the_rulebooks_thirty_areas() -> None:
    """'It is divided into 30 areas: 5 home worlds, 11 space areas ..., 13 Earth areas ..., Refuge.'"""
    assert len(BOARD.areas) == 30
    assert {kind: len(ids) for kind, ids in BOARD.kinds.items()} == KIND_COUNTS
    assert len(BOARD.space_areas()) == 11
    assert BOARD.orbit in BOARD.space_areas()
    assert len(BOARD.earth_areas()) == 13
    assert BOARD.refuge not in BOARD.earth_areas()
    assert len(BOARD.land_areas()) == 8


def test_ids_are_unique_lowercase_words() -> None:
    assert len(set(BOARD.ids)) == 30
    assert all(i.isalpha() and i.islower() for i in BOARD.ids)


def test_the_named_areas_are_there() -> None:
    homes = {BOARD.area(h).name for h in BOARD.kinds[HOME]}
    assert homes == {"Venus", "Mars", "Ganymede", "Titan", "Pluto"}
    lands = {BOARD.area(a).name for a in BOARD.land_areas()}
    assert {"China", "India", "Europe", "Africa", "North America", "Australia"} <= lands
    assert BOARD.area(BOARD.orbit).name == "Orbit"
    assert BOARD.area(BOARD.refuge).name == "Secret Underground Refuge"
    assert [BOARD.area(BOARD.home(p)).kind for p in ("venus", "mars", "ganymede", "titan", "pluto")] == [
        HOME
    ] * 5
    assert BOARD.home("earth") == BOARD.refuge


def test_every_area_is_marked_sourced_or_house() -> None:
    assert all(a.source.startswith(("sourced", "house")) for a in BOARD.areas)
    assert "house" in BOARD.area("russia").source and "house" in BOARD.area("atlantic").source


def test_coordinates_fit_the_drawing() -> None:
    assert all(0 <= a.x <= 1000 and 0 <= a.y <= 1000 for a in BOARD.areas)
    assert len({(a.x, a.y) for a in BOARD.areas if a.kind != ORBIT}) == 29


# Neighbour lines -----------------------------------------------------------------------------------------


def test_neighbour_lines_join_both_ways() -> None:
    for a in BOARD.areas:
        for n in a.neighbours:
            assert a.id in BOARD.neighbours(n), (a.id, n)
            assert BOARD.are_neighbours(n, a.id)


def test_home_worlds_touch_only_space_areas() -> None:
    for h in BOARD.kinds[HOME]:
        assert BOARD.neighbours(h)
        assert all(BOARD.area(n).kind in (SPACE, ORBIT) for n in BOARD.neighbours(h))


def test_the_refuge_has_no_neighbours() -> None:
    """'Secret Underground Refuge ... you can't move spaceships to it.'"""
    assert BOARD.neighbours(BOARD.refuge) == ()
    assert all(BOARD.refuge not in a.neighbours for a in BOARD.areas)


def test_space_and_earth_are_joined_only_by_orbits_rule() -> None:
    """A-03(a), A-20: Orbit's reach to every Earth area is a movement rule, not a neighbour line."""
    for a in BOARD.areas:
        if a.is_earth:
            assert all(BOARD.area(n).is_earth for n in a.neighbours), a.id
        if a.is_space:
            assert all(BOARD.area(n).kind in (HOME, SPACE, ORBIT) for n in a.neighbours), a.id
    assert BOARD.distance(BOARD.orbit, "china") is None
    assert 1 <= len(BOARD.neighbours(BOARD.orbit)) <= 4


def test_earth_follows_geography() -> None:
    assert BOARD.are_neighbours("china", "india")
    assert BOARD.are_neighbours("europe", "africa")
    assert BOARD.are_neighbours("namerica", "samerica")
    assert BOARD.are_neighbours("russia", "europe")
    assert BOARD.are_neighbours("atlantic", "namerica") and BOARD.are_neighbours("atlantic", "europe")
    assert not BOARD.are_neighbours("china", "samerica")
    assert all(BOARD.area(n).kind == OCEAN for n in BOARD.neighbours("australia") if n != "china")
    for land in BOARD.land_areas():
        assert any(BOARD.area(n).kind == OCEAN for n in BOARD.neighbours(land)), land
    earth = set(BOARD.earth_areas())
    reached = {"arctic"}
    frontier = ["arctic"]
    while frontier:
        for n in BOARD.neighbours(frontier.pop()):
            if n not in reached:
                reached.add(n)
                frontier.append(n)
    assert reached == earth


# Distances and seats -------------------------------------------------------------------------------------


def test_home_worlds_lie_some_moves_from_orbit_pluto_farthest() -> None:
    """Pluto is the home world farthest from Earth (Erb review); house distances 2, 2, 3, 4, 5."""
    moves = {
        p: BOARD.distance(BOARD.home(p), BOARD.orbit) or 0
        for p in ("venus", "mars", "ganymede", "titan", "pluto")
    }
    assert moves == {"venus": 2, "mars": 2, "ganymede": 3, "titan": 4, "pluto": 5}
    assert all(moves["pluto"] > d for p, d in moves.items() if p != "pluto")


def test_distance_is_symmetric_and_counts_lines() -> None:
    assert BOARD.distance("venus", "venus") == 0
    assert BOARD.distance("sunward", BOARD.orbit) == 1
    assert BOARD.distance("pluto", "mars") == BOARD.distance("mars", "pluto")
    assert BOARD.distance("china", "samerica") == BOARD.distance("samerica", "china") == 3
    assert BOARD.distance(BOARD.refuge, "china") is None
    with pytest.raises(KeyError, match="atlantis"):
        BOARD.distance("china", "atlantis")


def test_every_space_area_is_within_four_moves_of_orbit() -> None:
    far = {s: BOARD.distance(s, BOARD.orbit) for s in BOARD.space_areas()}
    assert sorted(d for d in far.values() if d is not None) == [0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4]


def test_turn_order_starts_with_pluto_and_runs_clockwise() -> None:
    """'Pluto takes the first turn'; A-05(a): Pluto, Titan, Ganymede, Mars, Venus, then Earth."""
    assert BOARD.turn_order == ("pluto", "titan", "ganymede", "mars", "venus", "earth")


# Teleport numbers ----------------------------------------------------------------------------------------


def test_the_ten_space_areas_other_than_orbit_carry_die_numbers() -> None:
    """A-08(a): a d10 roll (0 counts as 10) picks the area a Q-Ray teleport lands in, never Orbit."""
    landed = [BOARD.teleport(roll) for roll in range(1, 11)]
    assert sorted(landed) == sorted(BOARD.kinds[SPACE])
    assert BOARD.teleport(0) == BOARD.teleport(10)
    assert BOARD.area(BOARD.orbit).teleport is None
    assert [BOARD.distance(a, BOARD.orbit) for a in landed] == [1, 1, 1, 2, 2, 2, 3, 3, 4, 4]
    with pytest.raises(ValueError, match="0 to 10"):
        BOARD.teleport(11)


# Population ----------------------------------------------------------------------------------------------

HOUSE_ROWS = {"australia": (6, 7, 9, 10), "russia": (5, 7, 9, 10), "samerica": (5, 6, 8, 9)}
"""The house rows extending the rulebook's 'Game Length' table (its own five rows, China to North
America: test_rulebook_examples.py)."""


@pytest.mark.parametrize("column", range(4))
def test_population_per_length(column: int) -> None:
    """The house rows of the 'Game Length' table; eight land areas in all."""
    population = BOARD.population(LENGTHS[column])
    assert {area: population[area] for area in HOUSE_ROWS} == {
        a: row[column] for a, row in HOUSE_ROWS.items()
    }
    assert len(population) == len(HOUSE_ROWS) + 5


def test_setup_population() -> None:
    """'27 units in China, 21 in India, 16 in Europe, and so on'; the total is 101."""
    normal = BOARD.population()
    assert (normal["china"], normal["india"], normal["europe"]) == (27, 21, 16)
    assert BOARD.total("normal") == 101


def test_totals_are_divisible_by_no_player_count() -> None:
    """A-14: 'the total should not be evenly divisible by the number of players'."""
    totals = {length: BOARD.total(length) for length in LENGTHS}
    assert totals == {"short": 77, "normal": 101, "long": 127, "epic": 149}
    assert all(t % d for t in totals.values() for d in range(2, 7))


NEEDED = {
    "short": (39, 26, 20, 16, 13),
    "normal": (51, 34, 26, 21, 17),
    "long": (64, 43, 32, 26, 22),
    "epic": (75, 50, 38, 30, 25),
}


@pytest.mark.parametrize("length", LENGTHS)
def test_population_needed_to_win(length: str) -> None:
    """'The score needed to win should be the total population divided by the number of players ...'."""
    assert tuple(BOARD.needed(length, n) for n in range(2, 7)) == NEEDED[length]


def test_the_rulebooks_table_of_scores() -> None:
    """Overview: 2 players 51, 3 34, 4 26, 5 21, 6 17."""
    assert [BOARD.needed("normal", n) for n in (2, 3, 4, 5, 6)] == [51, 34, 26, 21, 17]


def test_unknown_length_or_player_count_is_refused() -> None:
    with pytest.raises(OptionError, match="medium"):
        BOARD.population("medium")
    with pytest.raises(OptionError, match="2 to 6"):
        BOARD.needed("normal", 7)


def test_only_land_areas_hold_population() -> None:
    assert all(not a.population for a in BOARD.areas if a.kind != LAND)
    assert all(a.population for a in BOARD.areas if a.kind == LAND)


# Loading ---------------------------------------------------------------------------------------------------


def test_load_board_is_cached_and_parses_the_shipped_file() -> None:
    assert load_board() is BOARD
    assert parse_board(shipped()) == BOARD
    assert BOARD.name


def test_unknown_area_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="atlantis"):
        BOARD.area("atlantis")
    assert not BOARD.has("atlantis") and BOARD.has("china")


def test_the_shipped_file_round_trips_through_a_path(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(shipped()), encoding="utf-8")
    assert parse_board(read_json_file(path, "map file")) == BOARD


def test_orbit_may_neighbour_every_earth_area_in_another_map(tmp_path: Path) -> None:
    """A-20(b) is a reading a map file may take: Orbit joined to every Earth area by lines."""
    data = shipped()
    for earth in BOARD.earth_areas():
        link(data, "orbit", earth)
    board = parse_board(data)
    assert board.distance("orbit", "china") == 1
    assert board.distance("venus", "china") == 3


def drop_area(data: dict[str, Any], area_id: str) -> None:
    """Removes an area and every line to it."""
    data["areas"] = [a for a in data["areas"] if a["id"] != area_id]
    for a in data["areas"]:
        if area_id in a["neighbours"]:
            a["neighbours"].remove(area_id)


def set_pop(area_id: str, length: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change setting one population value."""

    def change(data: dict[str, Any]) -> None:
        entry(data, area_id)["population"][length] = value

    return change


def cut_pluto(data: dict[str, Any]) -> None:
    """Removes Pluto's two neighbour lines."""
    unlink(data, "pluto", "kuiper")
    unlink(data, "pluto", "oort")


BROKEN: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "one-way line": (
        lambda d: entry(d, "russia")["neighbours"].remove("china"),
        "'russia' does not list 'china'",
    ),
    "unknown neighbour": (
        lambda d: entry(d, "china")["neighbours"].append("atlantis"),
        "unknown area 'atlantis'",
    ),
    "duplicate id": (lambda d: entry(d, "comet").update(id="china"), "'china' is already areas[11]'s id"),
    "ten space areas": (lambda d: drop_area(d, "comet"), "has 10 space areas, this file 9"),
    "no refuge": (lambda d: drop_area(d, "refuge"), "has 1 refuge areas, this file 0"),
    "home on earth": (lambda d: link(d, "venus", "china"), "a home world touches only space areas"),
    "refuge reachable": (lambda d: link(d, "refuge", "china"), "the Refuge has no neighbours"),
    "space on earth": (lambda d: link(d, "lunar", "china"), "a space area touches no Earth area"),
    "home to home": (lambda d: link(d, "venus", "mars"), "home world touches only space areas"),
    "negative population": (set_pop("australia", "normal", -1), "whole number from 0"),
    "normal not 101": (set_pop("australia", "normal", 8), "Earth's total is 101, this file's 102"),
    "short even": (set_pop("australia", "short", 7), "the total 78 is divisible by 2"),
    "short five": (set_pop("australia", "short", 14), "the total 85 is divisible by 5"),
    "epic three": (set_pop("russia", "epic", 11), "the total 150 is divisible by 2"),
    "long three": (set_pop("samerica", "long", 9), "the total 128 is divisible by 2"),
    "rulebook population": (
        set_pop("china", "normal", 26),
        "china.population.normal: the rulebook prints 27",
    ),
    "missing length": (lambda d: entry(d, "russia")["population"].pop("epic"), "population for each length"),
    "ocean population": (lambda d: entry(d, "arctic").update(population={"normal": 1}), "only land areas"),
    "teleport twice": (lambda d: entry(d, "lunar").update(teleport=1), "number 1 is also 'lagrange'"),
    "teleport eleven": (lambda d: entry(d, "lunar").update(teleport=11), "from 1 to 10, not 11"),
    "orbit teleport": (lambda d: entry(d, "orbit").update(teleport=5), "other than Orbit"),
    "pluto adrift": (cut_pluto, "pluto cannot be reached from Orbit"),
    "not clockwise": (
        lambda d: d.update(turn_order=["pluto", "ganymede", "titan", "mars", "venus", "earth"]),
        "lie clockwise as pluto, titan, ganymede",
    ),
    "not pluto first": (
        lambda d: d.update(turn_order=["titan", "ganymede", "mars", "venus", "earth", "pluto"]),
        "Pluto takes the first turn",
    ),
    "seat missing": (lambda d: d.update(turn_order=["pluto", "titan"]), "must list venus, mars"),
    "unknown planet": (lambda d: entry(d, "venus").update(planet="jupiter"), "not 'jupiter'"),
    "no x": (lambda d: entry(d, "china").pop("x"), "areas[16] (china).x: must be a whole number"),
    "off the drawing": (lambda d: entry(d, "china").update(y=1200), "(china).y"),
    "bad kind": (lambda d: entry(d, "china").update(kind="continent"), "not 'continent'"),
    "bad id": (lambda d: entry(d, "china").update(id="China"), "must be a lowercase word"),
    "format": (lambda d: d.update(format="something/2"), "map file, format"),
    "areas not a list": (lambda d: d.update(areas={}), "areas: must be a list"),
}


@pytest.mark.parametrize("problem", BROKEN)
def test_broken_map_files_are_refused(problem: str, tmp_path: Path) -> None:
    change, message = BROKEN[problem]
    data = copy.deepcopy(shipped())
    change(data)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ContentError, match=r"^map file") as err:
        parse_board(read_json_file(path, "map file"))
    assert message in str(err.value)


def test_files_that_are_not_maps_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ContentError, match="map file is not valid JSON"):
        parse_board(read_json_file(path, "map file"))
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(ContentError, match="must be a JSON object"):
        parse_board(read_json_file(path, "map file"))
    with pytest.raises(ContentError, match="cannot read map file"):
        parse_board(read_json_file(tmp_path / "missing.json", "map file"))


def test_every_kind_is_checked() -> None:
    assert set(KIND_COUNTS) == {HOME, SPACE, ORBIT, LAND, OCEAN, REFUGE}
