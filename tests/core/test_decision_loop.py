"""The core's one decision loop: ``settle`` and ``deciders`` read ``over`` (kept, or asked of ``is_over``),
``passing_window`` reads the top decision's class, and ``DecisionIndex`` numbers decision classes."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

import pytest

from parlour.core.chance import Chance
from parlour.core.decisions import MAX_AUTO_STEPS, Decision, DecisionIndex, DecisionStack, Seat
from parlour.core.state import GameState

from .toys import Turn, Window


@dataclass(eq=False, kw_only=True)
class Countdown(Decision):
    """Steps nobody decides: each one counts down; at zero the game ends (whatever is left on the stack)."""

    kind = "countdown"
    left: int = 3
    steps: int = 0

    def auto(self, state: Any) -> bool:
        self.steps += 1
        self.left -= 1
        if self.left == 0:
            state.finish()
        return True


@dataclass(eq=False, kw_only=True)
class Answer(Decision):
    """A window every asked seat may pass."""

    kind = "answer"
    passing = True


class Kept(GameState):
    """A toy that keeps ``over`` as a plain attribute (as the games do)."""

    def __init__(self, *decisions: Decision) -> None:
        super().__init__()
        self.players = 2
        self.chance = Chance(0)
        self.stack = DecisionStack([Turn(seats=[0]), *decisions])

    def finish(self) -> None:
        self.over = True

    def scores(self) -> list[float]:
        return [0.0, 0.0]

    def clone(self) -> Kept:
        return copy.deepcopy(self)

    def determinize(self, seat: Seat, rng: random.Random) -> Kept:
        return self.clone()  # nothing hidden

    def observation(self, seat: Seat) -> dict[str, Any]:
        return {}

    def public_observation(self) -> dict[str, Any]:
        return {}

    def to_position(self) -> dict[str, Any]:
        return {}

    def parse_action(self, text: str) -> Any:
        return text


class Worked(Kept):
    """A toy that works the end out in ``is_over`` and keeps no ``over`` (as a game from elsewhere may)."""

    def __init__(self, *decisions: Decision) -> None:
        super().__init__(*decisions)
        self.ended = False

    def finish(self) -> None:
        self.ended = True

    def is_over(self) -> bool:
        return self.ended


@pytest.mark.parametrize("game", [Kept, Worked])
def test_the_loop_stops_at_the_step_that_ends_the_game(game: type[Kept]) -> None:
    countdown = Countdown(left=3)
    state = game(countdown)
    assert not state.over and not state.is_over()
    state.settle()
    assert countdown.steps == 3, "the loop must not run a step once the game is over"
    assert state.over and state.is_over()
    assert state.deciders() == (), "nobody decides once the game is over, whatever the stack holds"
    assert state.legal_actions(0) == []


def test_a_game_that_works_out_its_end_has_over_ask_it() -> None:
    state = Worked()
    assert state.over is False
    state.ended = True
    assert state.over is True
    assert "over" not in vars(state), "over is asked of is_over, not stored"
    with pytest.raises(AttributeError, match=r"Worked overrides is_over\(\).*not over"):
        state.over = False  # nothing to keep: it is worked out, and the refusal says so


def test_a_kept_over_is_an_attribute_and_is_over_reads_it() -> None:
    state = Kept()
    assert "over" not in vars(state) and state.over is False
    state.over = True
    assert state.is_over() is True
    assert state.deciders() == ()


def test_a_loop_without_end_is_refused() -> None:
    state = Kept(Countdown(left=-1))
    with pytest.raises(RuntimeError, match="automatic steps"):
        state.settle()


def test_the_passing_window_is_the_top_decisions_class() -> None:
    state = Kept()
    assert not state.passing_window()
    state.stack.push(Answer(seats=[0, 1]))
    assert state.passing_window()
    state.stack.push(Window(seats=[1]))
    assert not state.passing_window(), "a decision that does not say passing is no passing window"
    state.stack = DecisionStack()
    assert not state.passing_window()


class LateAnswer(Answer):
    """A subclass of a listed class (as each moment's Zap window is of the Zap window)."""


def test_a_decision_index_numbers_classes_and_their_subclasses() -> None:
    index = DecisionIndex([Turn, None, Answer, Window])
    assert len(index) == 4
    assert index.of(Turn(seats=[0])) == 0
    assert index.of(Answer(seats=[0])) == 2
    assert index.of(LateAnswer(seats=[0])) == 2, "a subclass takes its base's number"
    assert index.of(LateAnswer(seats=[1])) == 2, "and keeps it once found"
    assert index.of(Window(seats=[0])) == 3
    assert index.of(Countdown()) == -1, "a class not listed has no number"
    assert index.of(None) == -1
    first = DecisionIndex([LateAnswer, Answer])
    assert first.of(LateAnswer()) == 0 and first.of(Answer()) == 1, "the first listed class that fits"


@dataclass(eq=False, kw_only=True)
class Starter(Decision):
    """A turn whose one action pushes a countdown (steps nobody decides follow the action)."""

    kind = "starter"
    left: int = 3

    def legal(self, state: Any, seat: Seat) -> list[Any]:
        return ["go"]

    def apply(self, state: Any, seat: Seat, action: Any) -> None:
        state.stack.push(Countdown(left=self.left))


@pytest.mark.parametrize("checked", [True, False])
def test_apply_runs_the_steps_nobody_decides_as_settle_does(checked: bool) -> None:
    state = Kept(Starter(seats=[1], left=2))
    action = state.legal_actions(1)[0]
    if checked:
        assert state.apply(action, 1) == []
    else:
        state.apply_legal(action, 1)
    countdown = state.stack.top
    assert isinstance(countdown, Countdown) and countdown.steps == 2
    assert state.over and state.deciders() == () and state.actions_applied == 1


@pytest.mark.parametrize("checked", [True, False])
def test_apply_refuses_a_loop_without_end_after_as_many_steps_as_settle(checked: bool) -> None:
    state = Kept(Starter(seats=[1], left=-1))
    action = state.legal_actions(1)[0]
    with pytest.raises(RuntimeError, match="automatic steps"):
        if checked:
            state.apply(action, 1)
        else:
            state.apply_legal(action, 1)
    countdown = state.stack.top
    assert isinstance(countdown, Countdown) and countdown.steps == MAX_AUTO_STEPS


class Hooked(Kept):
    """A toy with hooks of its own: ``apply`` and ``apply_legal`` call them (not the base's code inline)."""

    def __init__(self, *decisions: Decision) -> None:
        super().__init__(*decisions)
        self.calls: list[str] = []

    def _legal_actions(self, seat: Seat) -> list[Any]:
        self.calls.append("legal")
        return ["a", "b"]

    def _apply(self, seat: Seat, action: Any) -> None:
        self.calls.append(f"apply {action}")
        self.settle()

    def settle(self) -> None:
        self.calls.append("settle")
        super().settle()


def test_a_game_with_its_own_hooks_has_them_called() -> None:
    assert Kept._stack_rules and Kept._stack_legal
    assert not Hooked._stack_rules and not Hooked._stack_legal
    state = Hooked()
    legal = state.legal_actions(0)
    state.apply(legal[1], 0)
    state.apply_legal(state.legal_actions(0)[0], 0)
    assert state.calls == ["legal", "apply b", "settle", "legal", "apply a", "settle"]


@dataclass(eq=False, kw_only=True)
class Reversed(Decision):
    """A decision that says who decides itself (the last listed seat first)."""

    kind = "reversed"

    def deciders(self) -> tuple[Seat, ...]:
        return tuple(reversed(self.seats))


def test_a_decision_with_its_own_deciders_is_asked() -> None:
    assert Turn._plain_deciders and not Reversed._plain_deciders
    assert Kept(Reversed(seats=[0, 1])).deciders() == (1, 0)
    assert Kept(Turn(seats=[1, 0])).deciders() == (1,)
    assert Kept(Turn(seats=[1, 0], concurrent=True)).deciders() == (1, 0)
    assert Kept(Turn(seats=[])).deciders() == ()


def test_logging_is_true_only_while_an_action_with_events_is_applied() -> None:
    seen: list[bool] = []

    @dataclass(eq=False, kw_only=True)
    class Looking(Decision):
        kind = "looking"

        def legal(self, state: Any, seat: Seat) -> list[Any]:
            return ["look"]

        def apply(self, state: Any, seat: Seat, action: Any) -> None:
            seen.append(state.logging)
            state.emit("looked")

    state = Kept(Looking(seats=[0, 1], concurrent=True))
    assert state.logging is False
    assert [e.text for e in state.apply("look", 0)] == ["looked"]
    assert state.apply("look", 1, quiet=True) == []
    state.apply_legal(state.legal_actions(0)[0], 0)
    assert seen == [True, False, False] and state.logging is False
