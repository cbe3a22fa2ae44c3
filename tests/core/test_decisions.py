"""The decision stack: sequential and open windows, passing, reopening, copies and JSON."""

from __future__ import annotations

import json

import pytest

from parlour.core.decisions import DecisionStack, RawDecision
from parlour.core.errors import PositionError


# ---------------------------------------------------------------- deciders
def test_sequential_window_asks_only_the_first_seat() -> None:
    decision = RawDecision("react", [2, 0, 1])
    assert decision.deciders() == (2,)


def test_concurrent_window_asks_every_listed_seat() -> None:
    decision = RawDecision("react", [2, 0, 1], concurrent=True)
    assert decision.deciders() == (2, 0, 1)


def test_no_seats_no_deciders() -> None:
    assert RawDecision("turn", []).deciders() == ()
    assert RawDecision("turn", [], concurrent=True).deciders() == ()


def test_pass_seat_moves_a_sequential_window_to_the_next_seat() -> None:
    decision = RawDecision("react", [1, 2, 3])
    decision.pass_seat(1)
    assert decision.deciders() == (2,)
    assert decision.seats == [2, 3]
    assert not decision.is_settled
    decision.pass_seat(2)
    decision.pass_seat(3)
    assert decision.deciders() == ()
    assert decision.is_settled


def test_pass_seat_in_an_open_window_removes_only_that_seat() -> None:
    decision = RawDecision("react", [0, 1, 2], concurrent=True)
    decision.pass_seat(1)
    assert decision.deciders() == (0, 2)
    decision.pass_seat(0)
    decision.pass_seat(2)
    assert decision.is_settled


def test_reopen_asks_the_given_seats_again_in_that_order() -> None:
    decision = RawDecision("react", [0, 1])
    decision.pass_seat(0)
    decision.pass_seat(1)
    assert decision.is_settled
    decision.reopen([3, 1])
    assert not decision.is_settled
    assert decision.seats == [3, 1]
    assert decision.deciders() == (3,)


def test_reopen_takes_any_iterable_and_keeps_its_own_list() -> None:
    seats = [2, 0]
    decision = RawDecision("react", [])
    decision.reopen(iter(seats))
    assert decision.seats == [2, 0]
    decision.pass_seat(2)
    assert seats == [2, 0]


# ---------------------------------------------------------------- copies
def test_copy_is_independent_including_the_payload() -> None:
    decision = RawDecision("pay", [0, 1], {"owed": 3, "cards": ["10", "3c"], "nested": {"a": [1]}}, True)
    copy = decision.copy()
    assert copy == decision
    copy.pass_seat(0)
    copy.data["owed"] = 0
    copy.data["cards"].append("x1")
    copy.data["nested"]["a"].append(2)
    assert decision.seats == [0, 1]
    assert decision.data == {"owed": 3, "cards": ["10", "3c"], "nested": {"a": [1]}}
    assert decision.concurrent is True


def test_stack_push_pop_top_kinds() -> None:
    stack = DecisionStack()
    assert len(stack) == 0
    turn = stack.push(RawDecision("turn", [0]))
    place = stack.push(RawDecision("place", [0], {"corp": "ST-ABC"}))
    assert stack.top is place
    assert stack.kinds() == ["turn", "place"]
    assert list(stack) == [turn, place]
    assert stack.pop() is place
    assert stack.top is turn
    assert len(stack) == 1


def test_stack_copy_is_deep() -> None:
    stack = DecisionStack([RawDecision("turn", [0]), RawDecision("pay", [0], {"cards": ["10"]})])
    copy = stack.copy()
    copy.top.data["cards"].append("3c")
    copy.top.pass_seat(0)
    copy.push(RawDecision("extra", [1]))
    assert stack.kinds() == ["turn", "pay"]
    assert stack.top.seats == [0]
    assert stack.top.data == {"cards": ["10"]}


# ---------------------------------------------------------------- JSON
def test_decision_json_round_trip() -> None:
    decision = RawDecision("react", [2, 0], {"card": "zap", "count": 2, "list": [1, {"x": None}]}, True)
    data = json.loads(json.dumps(decision.to_json()))
    assert data == {
        "kind": "react",
        "seats": [2, 0],
        "data": {"card": "zap", "count": 2, "list": [1, {"x": None}]},
        "concurrent": True,
    }
    assert RawDecision.from_json(data, "d", players=3) == decision


def test_decision_to_json_does_not_share_the_payload() -> None:
    decision = RawDecision("pay", [0], {"cards": ["10"]})
    data = decision.to_json()
    data["data"]["cards"].append("3c")
    data["seats"].append(1)
    assert decision.data == {"cards": ["10"]}
    assert decision.seats == [0]


def test_decision_from_json_defaults() -> None:
    decision = RawDecision.from_json({"kind": "turn", "seats": [1]}, "d", players=2)
    assert decision == RawDecision("turn", [1], {}, False)


def test_stack_json_round_trip() -> None:
    stack = DecisionStack(
        [
            RawDecision("turn", [1]),
            RawDecision("react", [0, 2], {"card": "zap"}, True),
            RawDecision("pay", [1]),
        ]
    )
    data = json.loads(json.dumps(stack.to_json()))
    again = DecisionStack.from_json(data, "decisions", players=3)
    assert again.kinds() == ["turn", "react", "pay"]
    assert list(again) == list(stack)
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
        ({"kind": "turn", "seats": [3]}, "d.seats"),
        ({"kind": "turn", "seats": [-1]}, "d.seats"),
        ({"kind": "turn", "seats": ["0"]}, "d.seats"),
        ({"kind": "turn", "seats": [0], "data": [1]}, "d.data"),
        ({"kind": "turn", "seats": [0], "data": "x"}, "d.data"),
    ],
)
def test_decision_from_json_refusals_name_the_field(data: object, field: str) -> None:
    with pytest.raises(PositionError) as info:
        RawDecision.from_json(data, "d", players=3)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


def test_seat_range_message_names_the_players() -> None:
    with pytest.raises(PositionError, match=r"seats 0\.\.1"):
        RawDecision.from_json({"kind": "turn", "seats": [2]}, "d", players=2)


def test_stack_from_json_refusals_name_the_entry() -> None:
    with pytest.raises(PositionError) as info:
        DecisionStack.from_json({"kind": "turn"}, "decisions", players=2)
    assert info.value.field == "decisions"
    good = {"kind": "turn", "seats": [0]}
    with pytest.raises(PositionError) as info:
        DecisionStack.from_json([good, {"kind": "pay", "seats": [5]}], "decisions", players=2)
    assert info.value.field == "decisions[1].seats"


@pytest.mark.parametrize("value", ["false", "no", 1])
def test_decision_from_json_refuses_non_boolean_concurrent(value: object) -> None:
    with pytest.raises(PositionError) as info:
        RawDecision.from_json({"kind": "turn", "seats": [0], "concurrent": value}, "d", players=2)
    assert info.value.field == "d.concurrent"


def test_decision_from_json_refuses_boolean_seats() -> None:
    with pytest.raises(PositionError) as info:
        RawDecision.from_json({"kind": "turn", "seats": [True]}, "d", players=2)
    assert info.value.field == "d.seats"
