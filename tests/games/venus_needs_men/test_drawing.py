"""The board drawn as SVG: areas by kind, dashed neighbour lines, population and ships."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any

import pytest

from parlour.core.errors import OptionError
from parlour.games.venus_needs_men.board import load_board, parse_board
from parlour.games.venus_needs_men.drawing import PLANET_COLOURS, render_svg

BOARD = load_board()
NS = "{http://www.w3.org/2000/svg}"
SHIPS = {
    "orbit": {"mars": 2, "venus": 1},
    "china": {"titan": 3},
    "pluto": {"pluto": 5},
    "kuiper": {"ganymede": 4},
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
    assert root.get("viewBox") == "0 0 1000 1000"
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


def test_ships_are_markers_with_counts() -> None:
    root = parse(render_svg(BOARD, SHIPS))
    markers = [g for g in root.iter(f"{NS}g") if g.get("class") == "ships"]
    found = {(g.get("data-area"), g.get("data-planet"), g.get("data-count")) for g in markers}
    assert found == {
        ("orbit", "mars", "2"),
        ("orbit", "venus", "1"),
        ("china", "titan", "3"),
        ("pluto", "pluto", "5"),
        ("kuiper", "ganymede", "4"),
    }
    for g in markers:
        circle = g.find(f"{NS}circle")
        count = g.find(f"{NS}text")
        assert circle is not None and count is not None
        assert circle.get("fill") == PLANET_COLOURS[g.get("data-planet", "")]
        assert count.text == g.get("data-count")


def test_empty_fleets_draw_nothing_and_bad_ones_are_refused() -> None:
    root = parse(render_svg(BOARD, {"china": {"mars": 0}}))
    assert not [g for g in root.iter(f"{NS}g") if g.get("class") == "ships"]
    with pytest.raises(KeyError, match="atlantis"):
        render_svg(BOARD, {"atlantis": {"mars": 1}})
    with pytest.raises(ValueError, match="-1"):
        render_svg(BOARD, {"china": {"mars": -1}})
    with pytest.raises(ValueError, match="-2"):
        render_svg(BOARD, population={"china": -2})


def test_output_is_deterministic() -> None:
    one = render_svg(BOARD, {"orbit": {"mars": 2, "venus": 1}, "china": {"titan": 3}})
    two = render_svg(BOARD, {"china": {"titan": 3}, "orbit": {"venus": 1, "mars": 2}})
    assert one == two == render_svg(BOARD, {"orbit": {"mars": 2, "venus": 1}, "china": {"titan": 3}})


def test_text_is_escaped() -> None:
    text = resources.files("parlour.games.venus_needs_men").joinpath("data/map.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    data["name"] = "Tom & Jerry's <map>"
    next(a for a in data["areas"] if a["id"] == "china")["name"] = 'China & "Tibet" <east>'
    board = parse_board(data)
    svg = render_svg(board, {"china": {"<ufo>": 2}})
    root = parse(svg)
    assert 'China & "Tibet" <east>' in texts(root)
    title = root.find(f"{NS}title")
    assert title is not None and title.text == "Venus Needs Men! Tom & Jerry's <map>"
    assert [g.get("data-planet") for g in root.iter(f"{NS}g") if g.get("class") == "ships"] == ["<ufo>"]
