"""Embers positions: they round-trip, and a hostile one is refused in one line naming the field, the
caller's data untouched (docs/positions.md, "Embers")."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from parlour.core.errors import PositionError
from parlour.games.embers import GAME
from parlour.testing.kit import playout

from .scenario import deal, play

Position = dict[str, Any]
HANDS = (["1", "7", "8", "8", "douse"], ["5", "6", "7", "douse", "douse"], ["1", "2", "3", "4", "douse"])


def turn() -> Position:
    """Seat 1's turn after seat 0's 8 stood."""
    state = deal(*HANDS)
    play(state, "0: play 8", "1: pass", "2: pass")
    return state.to_position()


def answering() -> Position:
    """Seat 0's 7 doused by seat 1; seats 2 and 0 still to answer the douse."""
    state = deal(*HANDS)
    play(state, "0: play 7", "1: douse")
    return state.to_position()


def finished() -> Position:
    return playout(GAME, 3, 1).to_position()


def refusal(data: Position) -> PositionError:
    """Loads a position that must be refused, as data and as JSON text; returns the error."""
    before = copy.deepcopy(data)
    with pytest.raises(PositionError) as err:
        GAME.state_from_position(data)
    assert data == before, "refusing must not change the caller's data"
    assert "\n" not in str(err.value)
    with pytest.raises(PositionError):
        GAME.load_position(json.dumps(data))
    return err.value


def test_positions_round_trip_and_read_every_field() -> None:
    for data in (turn(), answering(), finished()):
        assert GAME.state_from_position(data).to_position() == data
    assert answering()["decisions"] == [
        {"kind": "turn", "seats": [0], "data": {"step": "end"}, "concurrent": False},
        {"kind": "answer", "seats": [2, 0], "data": {}, "concurrent": False},
    ]
    assert answering()["play"] == "7" and answering()["dousers"] == [1]


def move(data: Position, zone: str, seat: int, card: str, to: str) -> None:
    """Moves a card from a seat's pile to the fire, onto the ember (a douser), or in play (the ember
    that was there goes to the discard pile): the deck is still whole."""
    data[zone][seat].remove(card)
    if to == "fire":
        data["fire"].append(card)
    elif to == "dousers":
        data["dousers"].append(seat)
    else:
        data["discard"].append(data["play"])
        data["play"] = card


def spoil(make: Callable[[], Position], change: Callable[[Position], object]) -> Position:
    data = make()
    change(data)
    return data


CASES: list[tuple[str, Callable[[], Position], Callable[[Position], object], str]] = [
    ("no format", turn, lambda d: d.pop("format"), "format"),
    ("another game's", turn, lambda d: d.update(format="parlour-venture-position/1"), "format"),
    ("named for another game", turn, lambda d: d.update(game="venture"), "game"),
    ("unknown field", turn, lambda d: d.update(colour="R"), "colour"),
    ("six players", turn, lambda d: d.update(players=6), "players"),
    ("players not a number", turn, lambda d: d.update(players="3"), "players"),
    ("a missing zone", turn, lambda d: d.pop("hands"), "hands"),
    ("a hand not a list", turn, lambda d: d.update(hands="1 2 3"), "hands"),
    ("a card not a string", turn, lambda d: d["hands"][1].__setitem__(0, 5), "hands[1][0]"),
    ("an unknown card", turn, lambda d: d["draw"].__setitem__(0, "9"), "draw[0]"),
    ("a huge card name", turn, lambda d: d["fire"].append("x" * 5000), "fire[1]"),
    ("a card twice", turn, lambda d: d["draw"].append("1"), "draw[15]"),
    ("a card missing", turn, lambda d: d["draw"].pop(), "hands"),
    ("a hand out of order", turn, lambda d: d["hands"][1].reverse(), "hands[1]"),
    (
        "six cards in hand",
        turn,
        lambda d: d["hands"][2].insert(0, d["draw"].pop(d["draw"].index("1"))),
        "hands[2]",
    ),
    ("a fire past the blaze", turn, lambda d: move(d, "hands", 0, "7", "fire"), "fire"),
    ("a seat out of range", turn, lambda d: d.update(active=7), "active"),
    ("a bool for a number", turn, lambda d: d.update(turn=True), "turn"),
    ("over yet cards to play", turn, lambda d: d.update(over=True), "over"),
    ("an unknown decision", turn, lambda d: d["decisions"][0].update(kind="bid"), "decisions[0].kind"),
    (
        "an unknown step",
        turn,
        lambda d: d["decisions"][0]["data"].update(step="nap"),
        "decisions[0].data.step",
    ),
    (
        "a step nobody waits at",
        turn,
        lambda d: d["decisions"][0]["data"].update(step="start"),
        "decisions[0].data.step",
    ),
    ("the turn of another seat", turn, lambda d: d["decisions"][0].update(seats=[2]), "decisions[0].seats"),
    ("no decisions", turn, lambda d: d.update(decisions=[]), "decisions"),
    (
        "an answer with no ember",
        turn,
        lambda d: d["decisions"].append(answering()["decisions"][1]),
        "decisions",
    ),
    ("douses on no ember", turn, lambda d: move(d, "hands", 2, "douse", "dousers"), "dousers"),
    ("no answer window", answering, lambda d: d["decisions"].pop(), "decisions"),
    (
        "the douser asked",
        answering,
        lambda d: d["decisions"][1].update(seats=[1, 2, 0]),
        "decisions[1].seats",
    ),
    ("out of order", answering, lambda d: d["decisions"][1].update(seats=[0, 2]), "decisions[1].seats"),
    ("a seat twice", answering, lambda d: d["decisions"][1].update(seats=[0, 0]), "decisions[1].seats"),
    ("an empty window", answering, lambda d: d["decisions"][1].update(seats=[]), "decisions[1].seats"),
    ("an open window", answering, lambda d: d["decisions"][1].update(concurrent=True), "decisions[1].seats"),
    (
        "a payload field",
        answering,
        lambda d: d["decisions"][1]["data"].update(stops=1),
        "decisions[1].data.stops",
    ),
    ("a douse under chain=off", answering, lambda d: d.update(options={"chain": "off"}), "dousers"),
    ("a bad option", answering, lambda d: d.update(options={"chain": "maybe"}), "options"),
    ("a douse card answered", answering, lambda d: move(d, "hands", 2, "douse", "play"), "play"),
    ("a douse card in the fire", answering, lambda d: move(d, "hands", 2, "douse", "fire"), "fire[0]"),
    ("a finished game asking", finished, lambda d: d.update(decisions=turn()["decisions"]), "decisions"),
]


@pytest.mark.parametrize(("make", "change", "where"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_hostile_position_is_refused_naming_the_field(
    make: Callable[[], Position], change: Callable[[Position], object], where: str
) -> None:
    assert refusal(spoil(make, change)).field == where


def test_the_cards_are_counted_against_the_deck_naming_the_copy_too_many_and_the_missing_ones() -> None:
    assert str(refusal(spoil(turn, lambda d: d["draw"].append("1")))) == (
        "draw[15]: more '1' cards than the 3 there are"
    )
    assert str(refusal(spoil(turn, lambda d: d["taken"][0].append("douse")))) == (
        "taken[0][0]: more 'douse' cards than the 6 there are"
    )
    spent = spoil(turn, lambda d: [d["draw"].remove(card) for card in ("8", "douse")])
    assert str(refusal(spent)) == "hands: no place holds the deck's 8 douse"
    assert str(refusal(spoil(turn, lambda d: d["fire"].append("9")))) == "fire[1]: there is no card '9'"
