"""Malformed I'm the Boss! positions (issue 10, part 4): a one-line PositionError naming the field.

Windows that deadlocked the game (an empty Stop or bargaining window, a seat listed twice) and keys
that crashed the Python API (integer seats in payments and tips) are refused when loading; every
decision's seats, data and window type are read against what legal play produces
(``parlour/games/im_the_boss/readers.py``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from parlour.core.errors import PositionError
from parlour.games.im_the_boss import GAME

from .scenario import deal_record, negotiation, play, position

Position = dict[str, Any]


def refusal(data: Position, as_text: bool = True) -> PositionError:
    """Loads a position that must be refused (as data, and as JSON text); returns the error."""
    before = copy.deepcopy(data)
    with pytest.raises(PositionError) as err:
        GAME.state_from_position(data)
    assert data == before, "refusing must not change the caller's data"
    assert "\n" not in str(err.value)
    if as_text:
        with pytest.raises(PositionError):
            GAME.load_position(json.dumps(data))
    return err.value


def bargaining() -> Position:
    """Seat 0 has just opened a negotiation on space 4 (three players): everyone may act."""
    return negotiation().to_position()


def stop_window() -> Position:
    """Seat 2 has played a Travel card: seats 0 and 1, from its left, may answer with a Stop."""
    state = negotiation(hands=[[], [], ["travel:O"]])
    play(state, "1: offer O 2", "0: accept O @1", "2: travel O")
    data = state.to_position()
    assert [d["kind"] for d in data["decisions"]] == ["bargain", "respond"]
    return data


def closing_round() -> Position:
    """Seat 0, the Boss, has called the deal: seats 1 and 2 may still play a card or pass."""
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1", "0: call")
    data = state.to_position()
    assert [d["kind"] for d in data["decisions"]] == ["bargain", "closing"]
    return data


def with_seats(data: Position, index: int, seats: Any) -> Position:
    """Returns the position with decision ``index`` asking ``seats``."""
    data["decisions"][index]["seats"] = seats
    return data


def test_the_windows_load_as_written() -> None:
    for data in (bargaining(), stop_window(), closing_round()):
        GAME.state_from_position(data)


@pytest.mark.parametrize("seats", [[], [0, 0], [1, 0], [2, 0], [0, 1, 2], [3]])
def test_a_stop_window_that_legal_play_cannot_open(seats: list[int]) -> None:
    """Empty (it deadlocked: nobody asked, 'apply pass' said the game was over), a seat twice, out of
    order from the player's left, or asking the player who played the card."""
    assert refusal(with_seats(stop_window(), 1, seats)).field.startswith("decisions[1].seats")


def test_a_stop_window_some_seats_have_passed_loads() -> None:
    state = GAME.state_from_position(with_seats(stop_window(), 1, [1]))
    assert state.deciders() == (1,)


@pytest.mark.parametrize("seats", [[], [1, 1], [2, 1], [0, 0, 1, 2], [0, 1, 2, 0]])
def test_a_bargaining_window_that_legal_play_cannot_open(seats: list[int]) -> None:
    assert refusal(with_seats(bargaining(), 0, seats)).field == "decisions[0].seats"


def test_a_bargaining_window_after_some_passes_loads() -> None:
    state = GAME.state_from_position(with_seats(bargaining(), 0, [0, 2]))
    assert state.deciders() == (0, 2)


def test_a_quiet_bargaining_window_asks_only_the_boss() -> None:
    data = bargaining()
    data["decisions"][0]["data"]["quiet"] = True
    assert refusal(with_seats(copy.deepcopy(data), 0, [1])).field == "decisions[0].seats"
    assert GAME.state_from_position(with_seats(data, 0, [0])).deciders() == (0,)


@pytest.mark.parametrize("seats", [[], [2, 1], [1, 1], [1], [0, 1, 2]])
def test_a_closing_round_is_the_seats_after_the_boss_still_to_pass(seats: list[int]) -> None:
    assert refusal(with_seats(closing_round(), 1, seats)).field == "decisions[1].seats"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "decisions[0].data.quiet"),
        ({"quiet": 1}, "decisions[0].data.quiet"),
        ({"quiet": False, "x": 0}, "decisions[0].data.x"),
    ],
)
def test_bargaining_data_is_exactly_the_quiet_flag(data: dict[str, Any], field: str) -> None:
    position_ = bargaining()
    position_["decisions"][0]["data"] = data
    assert refusal(position_).field == field


@pytest.mark.parametrize(("make", "index"), [(bargaining, 0), (stop_window, 1)])
def test_open_windows_are_concurrent_and_the_others_are_not(make: Any, index: int) -> None:
    data = make()
    data["decisions"][index]["concurrent"] = False
    assert refusal(data).field == f"decisions[{index}].concurrent"
    turn = position()
    turn["decisions"][0]["concurrent"] = True
    assert refusal(turn).field == "decisions[0].concurrent"


def test_a_turn_decision_holds_no_data() -> None:
    data = position()
    data["decisions"][0]["data"] = {"quiet": False}
    assert refusal(data).field == "decisions[0].data.quiet"


# ------------------------------------------------------------------ keys that are not seat names
def test_integer_keys_in_deal_payments_are_refused() -> None:
    """Python API: a dict with integer keys raised AttributeError ('int' has no isdecimal)."""
    data = position(covered={5: 1}, deals=[deal_record(5, 1, payments={1: 1})])
    GAME.state_from_position(copy.deepcopy(data))
    data["deals"][0]["payments"] = {1: 1}
    assert refusal(data, as_text=False).field == "deals[0].payments"


@pytest.mark.parametrize("key", ["01", "-1", "3", "x", " 1"])
def test_payments_keyed_by_anything_but_a_seat_are_refused(key: str) -> None:
    data = position(covered={5: 1}, deals=[deal_record(5, 1)])
    data["deals"][0]["payments"] = {key: 1}
    assert refusal(data).field == "deals[0].payments"


def test_integer_keys_in_tips_are_refused() -> None:
    state = negotiation()
    play(state, "0: tip @1 1")
    data = state.to_position()
    assert data["negotiation"]["tips"] == {"1": [1, False]}
    GAME.state_from_position(copy.deepcopy(data))
    data["negotiation"]["tips"] = {1: [1, False]}
    assert refusal(data, as_text=False).field == "negotiation.tips"
    data["negotiation"]["tips"] = {"01": [1, False]}
    assert refusal(data).field == "negotiation.tips.01"


@pytest.mark.parametrize("colour", ["", "RM", "r", "OG"])
def test_offers_and_terms_name_one_colour_exactly(colour: str) -> None:
    """The colours were checked as a substring of 'RMOGBY': an empty colour crashed the deal (KeyError)."""
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1")
    data = state.to_position()
    offers = copy.deepcopy(data)
    offers["negotiation"]["offers"][0][0] = colour
    assert refusal(offers).field == "negotiation.offers[0]"
    terms = copy.deepcopy(data)
    terms["negotiation"]["terms"][colour] = terms["negotiation"]["terms"].pop("O")
    assert refusal(terms).field.startswith("negotiation.terms")
