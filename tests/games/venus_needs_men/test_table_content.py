"""The drawn table's unchanging facts (VenusState.table_content): public, JSON-ready, from the content."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from parlour.games.venus_needs_men.bots import GreedyBot
from parlour.games.venus_needs_men.state import VenusState

from ..typed import VENUS as GAME


def played(players: int, seed: int, game: str = "basic", steps: int = 120) -> VenusState:
    """Returns a game after some greedy moves."""
    state = GAME.new_state(players, seed, {"game": game, "length": "short"})
    bots = [GreedyBot(s) for s in range(players)]
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.deciders()[0]
        state.apply(bots[seat].choose(state, seat), seat)
    return state


def test_it_is_json_ready_and_the_same_for_every_seed_player_count_and_version() -> None:
    first = GAME.new_state(3, 1).table_content()
    assert json.loads(json.dumps(first)) == first
    for players, seed, game in [(2, 7, "basic"), (4, 3, "enhanced"), (5, 11, "basic"), (6, 2, "enhanced")]:
        assert played(players, seed, game, 60).table_content() == first


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_it_is_the_same_in_every_determinisation(seed: int) -> None:
    state = played(3, seed, "enhanced")
    content = state.table_content()
    rng = random.Random(seed)
    for seat in range(3):
        assert state.determinize(seat, rng).table_content() == content


def test_the_map_holds_every_area_of_the_map_data_placed_on_the_drawing() -> None:
    state = GAME.new_state(3, 1)
    drawn = state.table_content()["map"]
    board = state.board
    assert [a["id"] for a in drawn["areas"]] == [a.id for a in board.areas]
    for area in drawn["areas"]:
        real = board.area(area["id"])
        assert (area["kind"], area["x"], area["y"], area["neighbours"]) == (
            real.kind,
            real.x,
            real.y,
            list(real.neighbours),
        )
        assert 0 <= area["x"] <= drawn["size"] and 0 <= area["y"] <= drawn["size"]
    orbit = board.area(drawn["orbit"])
    for earth in board.earth_areas():
        area = board.area(earth)
        assert math.hypot(area.x - orbit.x, area.y - orbit.y) + 40 < drawn["ring"]  # inside Orbit's ring
    assert board.area(drawn["refuge"]).kind == "refuge"


def test_every_planet_has_a_name_letter_distinct_colour_and_its_home_area() -> None:
    state = GAME.new_state(6, 1)
    planets = state.table_content()["planets"]
    assert set(planets) == set(state.factions.planets)
    colours = [p["colour"] for p in planets.values()]
    assert len(set(colours)) == len(colours)
    for planet_id, planet in planets.items():
        assert planet["colour_name"] and planet["letter"] == state.planet(planet_id).letter
        assert planet["ships"] == state.planet(planet_id).ship_ids()
        assert state.board.area(planet["home"]).planet == planet_id


def test_every_zap_card_is_named_by_number_with_the_text_of_the_content_set() -> None:
    state = GAME.new_state(3, 1)
    zap = state.table_content()["zap"]
    assert sorted(map(int, zap)) == sorted(state.zap.cards)
    texts = state.card_texts()
    for number, card in zap.items():
        assert card["name"] == state.card(int(number)).name
        assert card["text"] in texts[card["name"]]


def test_every_technology_upgrade_and_special_card_an_observation_names_is_there() -> None:
    state = played(3, 5, "enhanced", 300)
    content = state.table_content()
    seen: Any = state.observation(0)["enhanced"]
    texts = state.card_texts()
    for slots in seen["technology"].values():
        for card_id in slots.values():
            assert content["technology"][card_id]["text"] in texts[content["technology"][card_id]["name"]]
    for card_id in seen["specials"].values():
        assert content["specials"][card_id]["name"] in texts
    for card_id in [*seen["face_up"], *(u for ups in seen["upgrades"].values() for u in ups)]:
        upgrade = content["upgrades"][card_id]
        assert upgrade["roll"] == state.tech.upgrades[card_id].roll and upgrade["name"] in texts
