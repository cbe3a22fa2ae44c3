"""The board drawn as SVG: areas by kind, dashed neighbour lines, population and ships."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any

import pytest

from parlour.core.errors import OptionError
from parlour.games.venus_needs_men.board import load_board, parse_board
from parlour.games.venus_needs_men.drawing import PLANET_COLOURS, Piece, render_svg

from ..typed import VENUS as GAME

BOARD = load_board()
NS = "{http://www.w3.org/2000/svg}"
SHIPS = {
    "orbit": [Piece("M1", "mars"), Piece("M2", "mars"), Piece("V1", "venus", "mars")],
    "china": [Piece("T1", "titan"), Piece("T2", "titan"), Piece("T3", "titan")],
    "pluto": [Piece(f"P{i}", "pluto", disabled=i == 5) for i in range(1, 6)],
    "kuiper": [Piece(f"G{i}", "ganymede") for i in range(1, 5)],
}


def parse(svg: str) -> ET.Element:
    """The SVG parsed as XML (fails on malformed output)."""
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    """Every text element's content."""
    return [t.text or "" for t in root.iter(f"{NS}text")]


def by_area(root: ET.Element, area_id: str) -> list[ET.Element]:
    """The shapes drawn for an area."""
    return [e for e in root.iter() if e.get("data-area") == area_id and e.tag != f"{NS}g"]


def test_the_svg_is_well_formed_and_self_contained() -> None:
    svg = render_svg(BOARD, SHIPS)
    root = parse(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 1000 1130"  # the map, then the legend below it
    assert svg.count("http") == 1  # the namespace only: no external resources
    assert "href" not in svg and "url(" not in svg and "<image" not in svg


def test_every_area_is_drawn_and_named() -> None:
    root = parse(render_svg(BOARD))
    labels = texts(root)
    for a in BOARD.areas:
        assert a.name in labels, a.name
        assert by_area(root, a.id), a.id


def test_home_worlds_wear_their_planets_colours() -> None:
    root = parse(render_svg(BOARD))
    expected = {
        "venus": "#8e44ad",
        "mars": "#d0312d",
        "ganymede": "#2f6fd6",
        "titan": "#f1c40f",
        "pluto": "#111111",
    }
    for planet, colour in expected.items():
        (shape,) = by_area(root, BOARD.home(planet))
        assert shape.get("fill") == colour == PLANET_COLOURS[planet]
    assert PLANET_COLOURS["earth"].startswith("#2")  # green


def test_kinds_have_their_own_shapes() -> None:
    root = parse(render_svg(BOARD))
    (refuge,) = by_area(root, BOARD.refuge)
    assert refuge.tag == f"{NS}rect"
    fills = {
        BOARD.area(a).kind: by_area(root, a)[0].get("fill") for a in ("china", "arctic", "belt", "venus")
    }
    assert len(set(fills.values())) == 4
    assert by_area(root, "arctic")[0].tag == f"{NS}ellipse"


def test_neighbour_lines_are_dashed_one_per_pair() -> None:
    root = parse(render_svg(BOARD))
    lines = list(root.iter(f"{NS}line"))
    pairs = sum(len(a.neighbours) for a in BOARD.areas) // 2
    assert len(lines) == pairs
    assert all(line.get("stroke-dasharray") for line in lines)


def test_population_numbers_default_to_the_boards_values() -> None:
    labels = texts(parse(render_svg(BOARD)))
    assert {"27", "21", "16", "9", "8"} <= set(labels)
    epic = texts(parse(render_svg(BOARD, length="epic")))
    assert {"40", "31", "24", "13", "12"} <= set(epic)
    with pytest.raises(OptionError):
        render_svg(BOARD, length="medium")


def test_population_can_be_given() -> None:
    root = parse(render_svg(BOARD, population={"china": 19, "venus": 12, "refuge": 4}))
    labels = texts(root)
    assert "19" in labels and "27" not in labels
    assert labels.count("0") == 7  # the other land areas are empty
    assert "pop 12" in labels and "pop 4" in labels


def ships_drawn(root: ET.Element) -> dict[str, ET.Element]:
    """The ship chips drawn, by ship name."""
    return {g.get("data-ship", ""): g for g in root.iter(f"{NS}g") if g.get("class") == "ship"}


def test_every_ship_is_drawn_by_name_at_its_area() -> None:
    """Each ship is a chip in its owner's colour, named, at its area; controlled ones have a dashed
    outline in the controller's colour and a star; disabled ones are faded."""
    drawn = ships_drawn(parse(render_svg(BOARD, SHIPS)))
    assert set(drawn) == {p.name for pieces in SHIPS.values() for p in pieces}
    for area, pieces in SHIPS.items():
        for piece in pieces:
            g = drawn[piece.name]
            assert g.get("data-area") == area and g.get("data-planet") == piece.planet
            rect, label = g.find(f"{NS}rect"), g.find(f"{NS}text")
            assert rect is not None and label is not None
            assert rect.get("fill") == PLANET_COLOURS[piece.planet]
            assert label.text == piece.name + ("*" if piece.controller else "")
    assert drawn["V1"].get("data-controller") == "mars"
    v1 = drawn["V1"].find(f"{NS}rect")
    assert v1 is not None and v1.get("stroke") == PLANET_COLOURS["mars"] and v1.get("stroke-dasharray")
    assert drawn["P5"].get("data-disabled") == "true" and drawn["P4"].get("data-disabled") is None


def test_the_legend_explains_colours_and_marks() -> None:
    """The legend names each planet of the game beside its colour and says what the marks mean."""
    root = parse(render_svg(BOARD, SHIPS, planets=["venus", "mars"]))
    legend = next(g for g in root.iter(f"{NS}g") if g.get("class") == "legend")
    labels = texts(legend)
    assert "Venus" in labels and "Mars" in labels and "Titan" not in labels
    assert any("Mind Control" in t for t in labels) and any("disabled" in t for t in labels)


def test_unknown_areas_and_negative_population_are_refused() -> None:
    with pytest.raises(KeyError, match="atlantis"):
        render_svg(BOARD, {"atlantis": [Piece("M1", "mars")]})
    with pytest.raises(ValueError, match="-2"):
        render_svg(BOARD, population={"china": -2})


def test_output_is_deterministic() -> None:
    one = render_svg(BOARD, {"orbit": [Piece("M2", "mars"), Piece("M1", "mars")], "china": SHIPS["china"]})
    two = render_svg(BOARD, {"china": SHIPS["china"], "orbit": [Piece("M1", "mars"), Piece("M2", "mars")]})
    assert one == two


@pytest.mark.parametrize("options", [{}, {"game": "enhanced", "planets": "venus,earth,mars,titan,pluto"}])
def test_the_board_of_a_game_names_every_ship_and_its_population(options: dict[str, str]) -> None:
    """board_svg(state) along a random game: well-formed XML naming every ship on the board at its
    area, each home world's (and the Refuge's) collected population, each land area's population."""
    import random

    players = 5 if options else 4
    state = GAME.new_state(players, 3, options)
    rng = random.Random(3)
    for step in range(400):
        if state.is_over():
            break
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        if step % 50:
            continue
        root = parse(GAME.board_svg(state))
        drawn = ships_drawn(root)
        on_board = {s: w for s, w in state.ships.items() if w is not None}
        assert {s: g.get("data-area") for s, g in drawn.items()} == on_board
        assert {s for s, g in drawn.items() if g.get("data-controller")} == set(state.controlled)
        labels = texts(root)
        for planet, count in state.collected.items():
            assert f"pop {count}" in labels, planet
        for area, count in state.population.items():
            assert str(count) in labels, area


def test_text_is_escaped() -> None:
    text = resources.files("parlour.games.venus_needs_men").joinpath("data/map.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    data["name"] = "Tom & Jerry's <map>"
    next(a for a in data["areas"] if a["id"] == "china")["name"] = 'China & "Tibet" <east>'
    board = parse_board(data)
    svg = render_svg(board, {"china": [Piece("U1", "<ufo>")]})
    root = parse(svg)
    assert 'China & "Tibet" <east>' in texts(root)
    title = root.find(f"{NS}title")
    assert title is not None and title.text == "Venus Needs Men! Tom & Jerry's <map>"
    assert [g.get("data-planet") for g in root.iter(f"{NS}g") if g.get("class") == "ship"] == ["<ufo>"]
