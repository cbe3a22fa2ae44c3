"""The decision stack: sequential and open windows, passing, reopening, copies and JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from parlour.core.decisions import Decision, DecisionKinds, DecisionStack
from parlour.core.errors import PositionError

from .toys import Turn


@dataclass(eq=False, kw_only=True)
class Place(Decision):
    """Place a corporation: a name."""

    kind = "place"
    corp: str = ""


@dataclass(eq=False, kw_only=True)
class React(Decision):
    """A reaction window: a card, a count and a list of nested values."""

    kind = "react"
    card: str = ""
    count: int = 0
    marks: list[dict[str, int | None]] = field(default_factory=list)


@dataclass(eq=False, kw_only=True)
class Pay(Decision):
    """A payment: an amount, cards, and a nested payload."""

    kind = "pay"
    owed: int = 0
    cards: list[str] = field(default_factory=list)
    nested: dict[str, list[int]] = field(default_factory=dict)


KINDS = DecisionKinds(Turn, Place, React, Pay)


def read(data: object, players: int) -> Decision:
    """Reads one stored decision through the test's kinds."""
    return KINDS.read(data, "d", players)


# ---------------------------------------------------------------- deciders
def test_sequential_window_asks_only_the_first_seat() -> None:
    decision = React(seats=[2, 0, 1])
    assert decision.deciders() == (2,)


def test_concurrent_window_asks_every_listed_seat() -> None:
    decision = React(seats=[2, 0, 1], concurrent=True)
    assert decision.deciders() == (2, 0, 1)


def test_no_seats_no_deciders() -> None:
    assert Turn(seats=[]).deciders() == ()
    assert Turn(seats=[], concurrent=True).deciders() == ()


def test_pass_seat_moves_a_sequential_window_to_the_next_seat() -> None:
    decision = React(seats=[1, 2, 3])
    decision.pass_seat(1)
    assert decision.deciders() == (2,)
    assert decision.seats == [2, 3]
    assert not decision.is_settled
    decision.pass_seat(2)
    decision.pass_seat(3)
    assert decision.deciders() == ()
    assert decision.is_settled


def test_pass_seat_in_an_open_window_removes_only_that_seat() -> None:
    decision = React(seats=[0, 1, 2], concurrent=True)
    decision.pass_seat(1)
    assert decision.deciders() == (0, 2)
    decision.pass_seat(0)
    decision.pass_seat(2)
    assert decision.is_settled


def test_reopen_asks_the_given_seats_again_in_that_order() -> None:
    decision = React(seats=[0, 1])
    decision.pass_seat(0)
    decision.pass_seat(1)
    assert decision.is_settled
    decision.reopen([3, 1])
    assert not decision.is_settled
    assert decision.seats == [3, 1]
    assert decision.deciders() == (3,)


def test_reopen_takes_any_iterable_and_keeps_its_own_list() -> None:
    seats = [2, 0]
    decision = React(seats=[])
    decision.reopen(iter(seats))
    assert decision.seats == [2, 0]
    decision.pass_seat(2)
    assert seats == [2, 0]


# ---------------------------------------------------------------- copies
def test_copy_is_independent_including_the_payload() -> None:
    decision = Pay(seats=[0, 1], owed=3, cards=["10", "3c"], nested={"a": [1]}, concurrent=True)
    copy = decision.copy()
    assert copy.to_json() == decision.to_json()
    copy.pass_seat(0)
    copy.owed = 0
    copy.cards.append("x1")
    copy.nested["a"].append(2)
    assert decision.seats == [0, 1]
    assert decision.data == {"owed": 3, "cards": ["10", "3c"], "nested": {"a": [1]}}
    assert decision.concurrent is True


def test_stack_push_pop_top_kinds() -> None:
    stack: DecisionStack = DecisionStack()
    assert len(stack) == 0
    turn = stack.push(Turn(seats=[0]))
    place = stack.push(Place(seats=[0], corp="ST-ABC"))
    assert stack.top is place
    assert stack.kinds() == ["turn", "place"]
    assert list(stack) == [turn, place]
    assert stack[0] is turn
    assert stack.pop() is place
    assert stack.top is turn
    assert len(stack) == 1


def test_stack_copy_is_deep() -> None:
    pay = Pay(seats=[0], cards=["10"])
    stack = DecisionStack([Turn(seats=[0]), pay])
    copy = stack.copy()
    copied = copy.top
    assert isinstance(copied, Pay) and copied is not pay
    copied.cards.append("3c")
    copied.pass_seat(0)
    copy.push(Turn(seats=[1]))
    assert stack.kinds() == ["turn", "pay"]
    assert pay.seats == [0]
    assert pay.cards == ["10"]


# ---------------------------------------------------------------- JSON
def test_decision_json_round_trip() -> None:
    decision = React(seats=[2, 0], card="zap", count=2, marks=[{"x": None, "y": 1}], concurrent=True)
    data = json.loads(json.dumps(decision.to_json()))
    assert data == {
        "kind": "react",
        "seats": [2, 0],
        "data": {"card": "zap", "count": 2, "marks": [{"x": None, "y": 1}]},
        "concurrent": True,
    }
    again = read(data, players=3)
    assert isinstance(again, React)
    assert again.to_json() == decision.to_json()


def test_decision_to_json_does_not_share_the_payload() -> None:
    decision = Pay(seats=[0], cards=["10"])
    data = decision.to_json()
    payload, seats = data["data"], data["seats"]
    assert isinstance(payload, dict) and isinstance(seats, list)
    payload["cards"].append("3c")
    seats.append(1)
    assert decision.cards == ["10"]
    assert decision.seats == [0]


def test_decision_from_json_defaults() -> None:
    decision = read({"kind": "pay", "seats": [1]}, players=2)
    assert isinstance(decision, Pay)
    assert (decision.seats, decision.concurrent, decision.owed, decision.cards) == ([1], False, 0, [])


def test_stack_json_round_trip() -> None:
    stack = DecisionStack([Turn(seats=[1]), React(seats=[0, 2], card="zap", concurrent=True), Pay(seats=[1])])
    data = json.loads(json.dumps(stack.to_json()))
    again = DecisionStack.from_json(data, "decisions", 3, KINDS)
    assert again.kinds() == ["turn", "react", "pay"]
    assert again.to_json() == stack.to_json()
    assert [type(d) for d in again] == [Turn, React, Pay]
    assert again.top.deciders() == (1,)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ("turn", "d"),
        (["turn", [0]], "d"),
        ({"kind": "turn", "seats": [0], "who": 1}, "d.who"),
        ({"seats": [0]}, "d.kind"),
        ({"kind": 3, "seats": [0]}, "d.kind"),
        ({"kind": "turn"}, "d.seats"),
        ({"kind": "turn", "seats": 0}, "d.seats"),
        ({"kind": "turn", "seats": [3]}, "d.seats[0]"),
        ({"kind": "turn", "seats": [-1]}, "d.seats[0]"),
        ({"kind": "turn", "seats": ["0"]}, "d.seats[0]"),
        ({"kind": "turn", "seats": [0], "data": [1]}, "d.data"),
        ({"kind": "turn", "seats": [0], "data": "x"}, "d.data"),
    ],
)
def test_decision_from_json_refusals_name_the_field(data: object, field: str) -> None:
    with pytest.raises(PositionError) as info:
        read(data, players=3)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


def test_seat_range_message_names_the_last_seat() -> None:
    with pytest.raises(PositionError, match=r"^d\.seats\[0\]: must be at most 1, not 2$"):
        read({"kind": "turn", "seats": [2]}, players=2)


def test_stack_from_json_refusals_name_the_entry() -> None:
    with pytest.raises(PositionError) as info:
        DecisionStack.from_json({"kind": "turn"}, "decisions", 2, KINDS)
    assert info.value.field == "decisions"
    good = {"kind": "turn", "seats": [0]}
    with pytest.raises(PositionError) as info:
        DecisionStack.from_json([good, {"kind": "pay", "seats": [5]}], "decisions", 2, KINDS)
    assert info.value.field == "decisions[1].seats[0]"


@pytest.mark.parametrize("value", ["false", "no", 1])
def test_decision_from_json_refuses_non_boolean_concurrent(value: object) -> None:
    with pytest.raises(PositionError) as info:
        read({"kind": "turn", "seats": [0], "concurrent": value}, players=2)
    assert info.value.field == "d.concurrent"


def test_decision_from_json_refuses_boolean_seats() -> None:
    with pytest.raises(PositionError) as info:
        read({"kind": "turn", "seats": [True]}, players=2)
    assert info.value.field == "d.seats[0]"
