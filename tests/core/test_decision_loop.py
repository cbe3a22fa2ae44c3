"""The core's one decision loop: ``settle`` and ``deciders`` read ``over`` (kept, or asked of ``is_over``),
``passing_window`` reads the top decision's class, and ``DecisionIndex`` numbers decision classes."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

import pytest

from parlour.core.chance import Chance
from parlour.core.decisions import Decision, DecisionIndex, DecisionStack, Seat
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
