"""Malformed Venus Needs Men! positions (issue 10, part 4): a one-line PositionError naming the field.

Each case was seen crashing the engine (TypeError, KeyError) before its decisions were read kind by
kind (``parlour/games/venus_needs_men/readers.py``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from parlour.core.errors import PositionError

from ..typed import VENUS as GAME
from .scenario import (
    enhanced_position,
    position,
    turn_program,
)

ROLL = {
    "moment": "roll",
    "open": False,
    "attacker": "V1",
    "target": "M1",
    "dice": [3, 4],
    "plays": [],
    "jam": 0,
    "need": 8,
    "bonus": 0,
    "qray": False,
    "cards": False,
}
SAVE = {"moment": "save", "open": False, "ship": "M1", "cause": 0, "saved_by": 0, "cards": False}


def decision(kind: str, seats: list[int], data: dict[str, Any] | None = None) -> dict[str, Any]:
    """Returns one decision as a position writes it."""
    return {"kind": kind, "seats": seats, "data": dict(data or {}), "concurrent": False}


def attacking(window: dict[str, Any]) -> dict[str, Any]:
    """Returns Venus (seat 0) attacking Mars's M1 in Orbit, with ``window`` on top of the attack phase."""
    stack = [*turn_program(0)[:3], decision("attacking", [0]), decision("zap", [], window)]
    return position(
        ships={"V1": "orbit", "M1": "orbit"}, active="venus", action="attack", acted=["V1"], decisions=stack
    )


def extending(extra: dict[str, Any]) -> dict[str, Any]:
    """Returns Venus (seat 0) taking an extension's extra step of its move action."""
    stack = [*turn_program(0)[:3], decision("extra", [0], extra)]
    return position(ships={"V1": "orbit"}, active="venus", action="move", extended=1, decisions=stack)


def immediate(data: dict[str, Any]) -> dict[str, Any]:
    """Returns seat 1 taking an immediate-action card's step, played in Venus's start window."""
    stack = [*turn_program(0, "start"), decision("immediate", [1], data)]
    return position(ships={"V1": "orbit", "M1": "mars"}, active="venus", decisions=stack)


def refusal(data: dict[str, Any]) -> PositionError:
    """Loads a position that must be refused (as data and as JSON text); returns the error."""
    before = copy.deepcopy(data)
    with pytest.raises(PositionError) as err:
        GAME.state_from_position(data)
    assert data == before, "refusing must not change the caller's data"
    with pytest.raises(PositionError) as again:
        GAME.load_position(json.dumps(data))
    assert str(again.value) == str(err.value)
    assert "\n" not in str(err.value)
    return err.value


def test_the_well_formed_cases_load() -> None:
    """The positions the cases below spoil are themselves fine."""
    for data in (
        attacking(ROLL),
        attacking(SAVE),
        extending({"action": "move"}),
        immediate({"action": "move"}),
    ):
        GAME.state_from_position(data)


@pytest.mark.parametrize("value", [["orbit"], {"area": "orbit"}, [], {}, 3, True])
def test_a_ship_somewhere_that_is_not_an_area_name(value: Any) -> None:
    data = position()
    data["ships"]["V1"] = value
    assert refusal(data).field == "ships.V1"


@pytest.mark.parametrize("value", [["venus"], {"venus": 0}, [], {}, None, 7])
def test_a_planet_that_is_not_a_name(value: Any) -> None:
    data = position()
    data["planets"][1] = value
    assert refusal(data).field == "planets[1]"


@pytest.mark.parametrize("key", sorted(ROLL))
def test_a_roll_window_missing_a_field(key: str) -> None:
    window = {k: v for k, v in ROLL.items() if k != key}
    assert refusal(attacking(window)).field == f"decisions[4].data.{key}"


@pytest.mark.parametrize("key", sorted(SAVE))
def test_a_save_window_missing_a_field(key: str) -> None:
    window = {k: v for k, v in SAVE.items() if k != key}
    assert refusal(attacking(window)).field == f"decisions[4].data.{key}"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("moment", "later"),
        ("moment", ["roll"]),
        ("open", "no"),
        ("attacker", "X9"),
        ("attacker", ["V1"]),
        ("target", {"M1": 1}),
        ("dice", [3, 11]),
        ("dice", []),
        ("dice", 7),
        ("plays", [[12, "jam"]]),
        ("plays", [[11, "hit"]]),
        ("plays", [[12, "hit"], [12, "hit"]]),
        ("plays", [12]),
        ("jam", -2),
        ("jam", 10**30),
        ("need", "8"),
        ("qray", 0),
        ("cards", None),
        ("extra", 1),
    ],
)
def test_a_roll_window_with_a_bad_field(key: str, value: Any) -> None:
    assert refusal(attacking({**ROLL, key: value})).field.startswith(f"decisions[4].data.{key}")


@pytest.mark.parametrize(
    ("key", "value"), [("cause", 10), ("cause", -1), ("saved_by", 9), ("saved_by", True), ("ship", "refuge")]
)
def test_a_save_window_with_a_bad_field(key: str, value: Any) -> None:
    """A save window's cause is a destroying card (or 0 for a hit), its saver a saving card."""
    assert refusal(attacking({**SAVE, key: value})).field.startswith(f"decisions[4].data.{key}")


@pytest.mark.parametrize("data", [{}, {"action": "fly"}, {"action": ["move"]}, {"action": "move", "x": 1}])
def test_an_extra_step_without_its_action(data: dict[str, Any]) -> None:
    assert refusal(extending(data)).field.startswith("decisions[3].data")


def test_an_extra_step_of_another_action_than_the_turns() -> None:
    assert refusal(extending({"action": "build"})).field == "decisions[3].data.action"


@pytest.mark.parametrize("data", [{}, {"action": "research"}, {"action": None}])
def test_an_immediate_step_without_its_action(data: dict[str, Any]) -> None:
    assert refusal(immediate(data)).field.startswith("decisions[5].data")


@pytest.mark.parametrize(
    "stack",
    [
        [decision("extend", [0]), decision("act", [0])],
        [*turn_program(0), decision("act", [0])],
        [*turn_program(0)[:3], decision("immediate", [0], {"action": "move"}), decision("act", [0])],
        [*turn_program(0), decision("zap", [], {"moment": "end", "open": False})],
        [*turn_program(0)[:3], decision("zap", [1], {"moment": "start", "open": False})],
        [*turn_program(0)[:2], decision("finish", [])],
        [*turn_program(0)[:3], decision("scavenge", [0])],
    ],
)
def test_a_stack_legal_play_cannot_build(stack: list[dict[str, Any]]) -> None:
    """A turn is finish, the end window, extend, the action; interruptions sit where play puts them."""
    assert refusal(position(active="venus", decisions=stack)).field.startswith("decisions")


def test_a_window_under_another_decision_is_closed() -> None:
    open_start = decision("zap", [0], {"moment": "start", "open": True})
    stack = [*turn_program(0), open_start, decision("immediate", [0], {"action": "move"})]
    assert refusal(position(active="venus", decisions=stack)).field == "decisions[4]"


def test_decisions_are_never_open_to_several_seats_at_once() -> None:
    data = position(active="venus")
    data["decisions"][-1]["concurrent"] = True
    assert refusal(data).field == "decisions[3].concurrent"


# ------------------------------------------------------------------ Mind Control (ruling A-10)
def controlled(planet: Any, ship: str = "V1", **kwargs: Any) -> dict[str, Any]:
    """Returns an Enhanced position where ``planet`` controls ``ship`` (both in Orbit with a Mars ship)."""
    ships = {"V1": "orbit", "M1": "orbit", "G1": "orbit", "T1": "titan"}
    return enhanced_position(ships=ships, active="titan", controlled={ship: planet}, **kwargs)


def test_mars_controls_an_enemy_ship() -> None:
    state = GAME.state_from_position(controlled("mars"))
    assert state.controller("V1") == "mars"


@pytest.mark.parametrize(
    ("planet", "ship"),
    [("venus", "M1"), ("ganymede", "V1"), ("titan", "M1"), (["mars"], "V1"), (None, "V1"), ("mars", "M1")],
)
def test_only_mars_takes_over_and_only_enemy_ships(planet: Any, ship: str) -> None:
    """A Mars ship controlled by Venus; a ship held by a planet without Mind Control, or by its owner."""
    assert refusal(controlled(planet, ship)).field == f"controlled.{ship}"


def test_no_mind_control_in_the_basic_game() -> None:
    data = controlled("mars")
    data["options"]["game"] = "basic"
    assert refusal(data).field == "controlled.V1"


def test_mars_does_not_take_over_its_teammates_ships() -> None:
    """The two-player team game: seat 1 plays Mars and Venus, so a Venus ship is no enemy of Mars."""
    ships = {"V1": "orbit", "M1": "orbit", "T1": "titan"}
    data = enhanced_position(2, ships=ships, active="titan", controlled={"V1": "mars"})
    assert refusal(data).field == "controlled.V1"


# ------------------------------------------------------------------ a declared attack; a release (A-10(v))
DECLARE = {
    "moment": "declare",
    "open": False,
    "attacker": "V1",
    "target": "M1",
    "weapon": "",
    "cards": False,
    "main": True,
}


def test_a_declared_attack_loads_and_rolls_when_its_window_closes() -> None:
    """A hand-written declare window opens (nobody holds a card: it closes) and the attack is rolled."""
    data = attacking(DECLARE)
    data["chance"]["forced"] = [{"kind": "die", "value": 9}, {"kind": "die", "value": 1}]
    state = GAME.state_from_position(data)
    assert state.ships["M1"] is None


@pytest.mark.parametrize(
    ("key", "value"),
    [("weapon", "qray"), ("weapon", 3), ("attacker", "X9"), ("target", None), ("main", "yes"), ("cards", 1)],
)
def test_a_declare_window_with_a_bad_field(key: str, value: Any) -> None:
    assert refusal(attacking({**DECLARE, key: value})).field == f"decisions[4].data.{key}"


def test_a_declare_window_missing_a_field() -> None:
    window = {k: v for k, v in DECLARE.items() if k != "weapon"}
    assert refusal(attacking(window)).field == "decisions[4].data.weapon"


def releasing(planet: Any, seats: list[int], under: str = "finish") -> dict[str, Any]:
    """Returns Mars (seat 1) holding V1 and G1 with one ship of its own, asked to release one."""
    ships = {"V1": "orbit", "M1": "orbit", "G1": "orbit"}
    stack = [decision("finish", []), decision("release", seats, {"planet": planet})]
    if under != "finish":
        stack = [*turn_program(0), decision("release", seats, {"planet": planet})]
    return enhanced_position(
        ships=ships, active="venus", controlled={"V1": "mars", "G1": "mars"}, decisions=stack
    )


def test_a_release_decision_loads() -> None:
    state = GAME.state_from_position(releasing("mars", [1]))
    assert [str(a) for a in state.legal_actions(1)] == ["release G1", "release V1"]


@pytest.mark.parametrize(
    ("planet", "seats", "under", "field"),
    [
        ("venus", [0], "finish", "decisions[1].data.planet"),
        ("mars", [0], "finish", "decisions[1].seats"),
        ("mars", [1], "act", "decisions[4]"),
    ],
)
def test_a_release_by_the_wrong_planet_seat_or_place_is_refused(
    planet: str, seats: list[int], under: str, field: str
) -> None:
    assert refusal(releasing(planet, seats, under)).field == field


# ------------------------------------------------------------------ who is asked to act
def test_a_position_whose_action_is_asked_of_another_seat_is_refused() -> None:
    """Venus's turn with its 'act' decision asking seat 1 (Mars) does not load."""
    data = position(active="venus")
    data["decisions"][-1]["seats"] = [1]
    with pytest.raises(PositionError):
        GAME.load_position(json.dumps(data))


def test_a_loaded_position_always_has_someone_to_act() -> None:
    """A position with an unopened start window on top is opened (or refused), never left without deciders."""
    try:
        state = GAME.load_position(json.dumps(position(window="start")))
    except PositionError:
        return
    assert state.deciders() or state.is_over()


def test_a_position_with_a_seat_without_a_planet_is_refused() -> None:
    """Three seats with seat 2 playing no home world do not load."""
    data = position(3, hands={2: [9]})
    data["seat_of"] = {"venus": 0, "mars": 0, "ganymede": 1}
    with pytest.raises(PositionError):
        GAME.load_position(json.dumps(data))
