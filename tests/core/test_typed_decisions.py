"""Decisions that carry their own rules: dispatch, the settle loop, windows, JSON and copies, on a toy game.

The toy game: on its turn a seat plays ``go N`` (N from 1 to 3); every other seat holding a stop
card is asked in clockwise order to ``stop`` or ``pass``; a stop cancels the go and asks the others
again. When the window settles, a ``Score`` step nobody decides adds the go's points (unless stopped)
and hands the turn on.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from parlour.core import Action, Chance, Decision, DecisionKinds, DecisionStack, GameState, Notation
from parlour.core.errors import IllegalActionError, PositionError
from parlour.core.notation import Bare, Number, action


@action
class Go(Action, form="go {points}"):
    points: int


class Stop(Bare, form="stop"):
    """Cancel the go just played."""


class Pass(Bare, form="pass"):
    """Let the go stand."""


NOTATION = Notation([Go, Stop, Pass], {"points": Number("points 1-3", 1)})
ToyAction = Go | Stop | Pass


@dataclass(eq=False, kw_only=True)
class Turn(Decision["Toy", ToyAction]):
    kind = "turn"

    def legal(self, state: Toy, seat: int) -> list[ToyAction]:
        return [Go(1), Go(2), Go(3)]

    def apply(self, state: Toy, seat: int, action: ToyAction) -> None:
        assert isinstance(action, Go)
        state.stack.push(Score(points=action.points))
        state.stack.push(Window(seats=state.holders(seat)))


@dataclass(eq=False, kw_only=True)
class Window(Decision["Toy", ToyAction]):
    kind = "window"
    stops: int = 0
    stoppers: list[int] = field(default_factory=list)

    def legal(self, state: Toy, seat: int) -> list[ToyAction]:
        return [Stop(), Pass()]

    def apply(self, state: Toy, seat: int, action: ToyAction) -> None:
        if isinstance(action, Pass):
            self.pass_seat(seat)
            return
        state.stops[seat] -= 1
        self.stops += 1
        self.stoppers.append(seat)
        self.reopen(state.holders(seat))

    def auto(self, state: Toy) -> bool:
        if not self.is_settled:
            return False
        state.stack.pop()
        score = state.stack.top
        assert isinstance(score, Score)
        score.stopped = self.stops % 2 == 1
        return True


@dataclass(eq=False, kw_only=True)
class Score(Decision["Toy", ToyAction]):
    kind = "score"
    points: int
    stopped: bool = False

    def auto(self, state: Toy) -> bool:
        state.stack.pop()
        if not self.stopped:
            state.points[state.turn % 4] += self.points
        state.turn += 1
        state.stack.top.seats = [state.turn % 4]
        return True


KINDS = DecisionKinds(Turn, Window, Score)


class Toy(GameState[ToyAction]):
    """A four-seat toy game with a response window after every go."""

    def __init__(self, stops: list[int]) -> None:
        super().__init__()
        self.players, self.chance, self.stack = 4, Chance(0), DecisionStack([Turn(seats=[0])])
        self.stops = list(stops)
        self.points = [0] * 4
        self.turn = 0

    def holders(self, exclude: int) -> list[int]:
        active = self.turn % 4
        order = [(active + i) % 4 for i in range(1, 4)]
        return [s for s in order if s != exclude and self.stops[s] > 0]

    def is_over(self) -> bool:
        return self.turn >= 8

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def clone(self) -> Toy:
        copy = Toy(self.stops)
        copy.points, copy.turn, copy.stack = list(self.points), self.turn, self.stack.copy()
        return copy

    def determinize(self, seat: int, rng: random.Random) -> Toy:
        return self.clone()

    def observation(self, seat: int) -> dict[str, Any]:
        return {"points": self.points}

    def public_observation(self) -> dict[str, Any]:
        return {"points": self.points}

    def to_position(self) -> dict[str, Any]:
        return {"stack": self.stack.to_json()}

    def parse_action(self, text: str) -> ToyAction:
        return cast(ToyAction, NOTATION.parse(text))


def test_the_top_decision_lists_the_legal_actions() -> None:
    state = Toy([0, 1, 1, 1])
    assert [str(a) for a in state.legal_actions()] == ["go 1", "go 2", "go 3"]


def test_a_window_asks_in_order_and_its_close_runs_without_anyone_deciding() -> None:
    state = Toy([0, 1, 1, 1])
    state.apply_notation("go 2")
    assert state.stack.kinds() == ["turn", "score", "window"]
    assert state.deciders() == (1,)
    for seat in (1, 2, 3):
        state.apply_notation("pass", seat)
    # The window closed itself and the score step ran: nobody decided either.
    assert state.stack.kinds() == ["turn"]
    assert state.points == [2, 0, 0, 0]
    assert state.deciders() == (1,)


def test_a_stop_reopens_the_window_for_the_others_and_cancels_the_go() -> None:
    state = Toy([0, 1, 1, 1])
    state.apply_notation("go 3")
    state.apply_notation("stop", 1)
    assert state.stack.top.seats == [2, 3]
    state.apply_notation("pass", 2)
    state.apply_notation("pass", 3)
    assert state.points == [0, 0, 0, 0]
    assert state.stops == [0, 0, 1, 1]


def test_an_action_of_another_decision_is_refused_and_changes_nothing() -> None:
    state = Toy([0, 1, 1, 1])
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply(Stop(), 0)
    assert state.stack.kinds() == ["turn"]


def test_typed_decisions_round_trip_through_json_with_their_payloads() -> None:
    state = Toy([0, 1, 1, 1])
    state.apply_notation("go 2")
    state.apply_notation("stop", 1)
    data = json.loads(json.dumps(state.stack.to_json()))
    assert data[2] == {
        "kind": "window",
        "seats": [2, 3],
        "data": {"stops": 1, "stoppers": [1]},
        "concurrent": False,
    }
    back = DecisionStack.from_json(data, "stack", 4, KINDS)
    assert back.to_json() == data
    assert isinstance(back.top, Window) and back.top.stoppers == [1]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"stops": "1"}, r"stack\[0\].data.stops: must be an integer"),
        ({"stops": 1, "stoppers": [True]}, r"stack\[0\].data.stoppers\[0\]: must be an integer"),
        ({"stops": 1, "colour": "R"}, r"stack\[0\].data.colour: unknown field"),
    ],
)
def test_a_malformed_payload_is_refused_naming_the_field(payload: dict[str, Any], message: str) -> None:
    data = [{"kind": "window", "seats": [1], "data": payload}]
    with pytest.raises(PositionError, match=message):
        DecisionStack.from_json(data, "stack", 4, KINDS)


def test_a_missing_payload_field_and_an_unknown_kind_are_refused() -> None:
    with pytest.raises(PositionError, match=r"stack\[0\].data.points: missing"):
        DecisionStack.from_json([{"kind": "score", "seats": []}], "stack", 4, KINDS)
    with pytest.raises(PositionError, match=r"stack\[0\].kind: unknown decision 'bid'"):
        DecisionStack.from_json([{"kind": "bid", "seats": []}], "stack", 4, KINDS)


def test_a_copy_shares_no_mutable_payload() -> None:
    window = Window(seats=[1, 2], stoppers=[3])
    copy = window.copy()
    copy.seats.append(3)
    copy.stoppers.append(1)
    assert window.seats == [1, 2] and window.stoppers == [3]
    assert type(copy) is Window


def test_two_decision_classes_may_not_share_a_kind() -> None:
    with pytest.raises(ValueError, match="kind of its own"):
        DecisionKinds(Turn, Turn)


def test_a_loop_of_automatic_steps_is_stopped() -> None:
    @dataclass(eq=False, kw_only=True)
    class Forever(Decision[Toy, ToyAction]):
        kind = "forever"

        def auto(self, state: Toy) -> bool:
            return True

    state = Toy([0, 0, 0, 0])
    state.stack.push(Forever())
    with pytest.raises(RuntimeError, match="automatic steps"):
        state.settle()


def test_a_step_nobody_decides_lists_no_actions_and_refuses_any() -> None:
    state = Toy([0, 0, 0, 0])
    step = Score(points=1)
    assert step.legal(state, 0) == []
    with pytest.raises(IllegalActionError, match="nobody decides 'score'"):
        step.apply(state, 0, Go(1))


def test_an_action_the_top_decision_accepts_is_legal_though_not_listed() -> None:
    @dataclass(eq=False, kw_only=True)
    class Generous(Turn):
        kind = "generous"

        def accepts(self, state: Toy, seat: int, action: object) -> bool:
            return isinstance(action, Go) and action.points == 4

    state = Toy([0, 0, 0, 0])
    state.stack = DecisionStack([Generous(seats=[0])])
    assert Go(4) not in state.legal_actions(0)
    assert state.is_legal(Go(4), 0)
    assert not state.is_legal(Go(5), 0)
    assert not state.is_legal(Go(4), 1)  # accepted only from a seat that may act
    state.apply(Go(4), 0)
    assert state.points == [4, 0, 0, 0]


def test_an_equal_action_is_legal_as_the_listed_one_and_an_unhashable_object_is_not() -> None:
    state = Toy([0, 1, 1, 1])
    listed = state.legal_actions(0)[1]
    assert state.is_legal(listed, 0) and state.is_legal(Go(2), 0)
    assert not state.is_legal([Go(2)], 0)
    state.apply(Go(2), 0)
    assert state.stack.kinds() == ["turn", "score", "window"]
