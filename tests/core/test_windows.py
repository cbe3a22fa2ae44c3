"""The decision stack's reaction windows on a toy game, the shapes I'm the Boss! and Venus Needs Men! need.

The toy game: on its turn a seat plays ``go``; every other seat holding a ``stop`` card is
asked (in clockwise order, or all at once in an open window) to ``stop`` or ``pass``; a
stop cancels the go and re-asks everyone else, and a stop of a stop restores it (as in
Exploding Kittens' Nope).  The go scores 1 when the window settles with an even number
of stops.  Hands are secret.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.core import Chance, DecisionStack, GameState, IllegalActionError
from parlour.core.match import play_match
from parlour.core.record import GameRecord

from .toys import Turn, Window


class Toy(GameState):
    """A four-seat toy game with a response window after every go."""

    def __init__(self, concurrent: bool, stops: list[int]) -> None:
        super().__init__()
        self.players, self.chance, self.stack = 4, Chance(0), DecisionStack()
        self.concurrent = concurrent
        self.stops = list(stops)
        self.points = [0] * 4
        self.turn = 0
        self.stack.push(Turn(seats=[0]))

    def _holders(self, exclude: int) -> list[int]:
        active = self.turn % 4
        order = [(active + i) % 4 for i in range(1, 4)] + [active]
        return [s for s in order if s != exclude and self.stops[s] > 0]

    def _legal_actions(self, seat: int) -> list[Any]:
        return ["go"] if isinstance(self.stack.top, Turn) else ["stop", "pass"]

    def _apply(self, seat: int, action: Any) -> None:
        top = self.stack.top
        if action == "go":
            self.stack.push(Window(seats=self._holders(seat), concurrent=self.concurrent))
        elif action == "pass":
            top.pass_seat(seat)
        else:
            assert isinstance(top, Window)
            self.stops[seat] -= 1
            top.stops += 1
            top.reopen(self._holders(seat))
        window = self.stack.top
        if isinstance(window, Window) and window.is_settled:
            self.stack.pop()
            if window.stops % 2 == 0:
                self.points[self.turn % 4] += 1
            self.turn += 1
            self.stack.top.seats = [self.turn % 4]

    def is_over(self) -> bool:
        return self.turn >= 8

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def clone(self) -> Toy:
        other = Toy(self.concurrent, self.stops)
        other.points, other.turn, other.stack = list(self.points), self.turn, self.stack.copy()
        return other

    def determinize(self, seat: int, rng: random.Random) -> Toy:
        other = self.clone()
        hidden = [s for s in range(4) if s != seat]
        pool = [self.stops[s] for s in hidden]
        rng.shuffle(pool)
        for s, n in zip(hidden, pool, strict=True):
            other.stops[s] = n
        return other

    def observation(self, seat: int) -> dict[str, Any]:
        return {**self.public_observation(), "my_stops": self.stops[seat]}

    def public_observation(self) -> dict[str, Any]:
        return {"points": self.points, "turn": self.turn, "asked": list(self.stack.top.seats)}

    def to_position(self) -> dict[str, Any]:
        return {"stops": self.stops, "points": self.points, "turn": self.turn, "stack": self.stack.to_json()}

    def format_action(self, action: Any) -> str:
        return str(action)

    def parse_action(self, text: str) -> Any:
        return text.strip()


def test_sequential_window_asks_holders_one_at_a_time_in_clockwise_order() -> None:
    """Only the first holder may answer; a pass hands the question to the next."""
    state = Toy(concurrent=False, stops=[0, 1, 0, 1])
    state.apply("go", 0)
    assert state.deciders() == (1,)
    with pytest.raises(IllegalActionError):
        state.apply("pass", 3)
    state.apply("pass", 1)
    assert state.deciders() == (3,)
    state.apply("pass", 3)
    assert state.points == [1, 0, 0, 0] and state.deciders() == (1,)


def test_a_response_reopens_the_window_for_everyone_else() -> None:
    """A stop re-asks the other holders, including the one who played the go."""
    state = Toy(concurrent=False, stops=[1, 1, 0, 1])
    state.apply("go", 0)
    state.apply("stop", 1)
    assert state.stack.top.seats == [3, 0]
    state.apply("stop", 3)
    assert state.stack.top.seats == [0]
    state.apply("pass", 0)
    assert state.points[0] == 1  # two stops: the go stands


def test_open_window_accepts_any_listed_seat_first_come_first_served() -> None:
    """In an open window every holder may act; the later seat may answer first."""
    state = Toy(concurrent=True, stops=[0, 1, 1, 1])
    state.apply("go", 0)
    assert state.deciders() == (1, 2, 3)
    with pytest.raises(IllegalActionError, match="say which seat"):
        state.apply("pass")
    state.apply("stop", 3)
    assert state.deciders() == (1, 2)
    state.apply("pass", 2)
    state.apply("pass", 1)
    assert state.points[0] == 0  # one stop: the go is cancelled


def test_the_accepted_order_replays_exactly() -> None:
    """A record of an open-window game keeps the accepted order, so a replay is identical."""
    state = Toy(concurrent=True, stops=[1, 2, 1, 2])
    rng = random.Random(5)
    record = GameRecord("toy", 4, 0)
    while not state.is_over():
        seat = rng.choice(state.deciders())
        action = rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
        record.add(seat, action)
    again = Toy(concurrent=True, stops=[1, 2, 1, 2])
    for move in GameRecord.loads(record.dumps()).moves:
        again.apply(again.parse_action(move.action), move.seat)
    assert again.to_position() == state.to_position()


def test_views_of_a_seat_do_not_depend_on_other_hands() -> None:
    """Determinising for a seat re-deals the others' secret cards but not what it sees."""
    state = Toy(concurrent=False, stops=[0, 1, 2, 3])
    rng = random.Random(1)
    seen = {tuple(state.determinize(0, rng).stops) for _ in range(30)}
    assert len(seen) > 1 and all(s[0] == 0 for s in seen)
    assert all(state.determinize(0, rng).observation(0) == state.observation(0) for _ in range(10))


class FirstChoice:
    """An agent that plays the first legal action."""

    name = "first"

    def choose(self, state: GameState, seat: int) -> Any:
        return state.legal_actions(seat)[0]


def test_matches_use_the_first_decider_of_an_open_window() -> None:
    """play_match follows the game's order of deciders, so bot games are deterministic."""

    class ToyGame:
        name = "toy"

        def options(self, given: Any = None) -> dict[str, Any]:
            return {}

    state = Toy(concurrent=True, stops=[1, 1, 1, 1])
    result = play_match(ToyGame(), [FirstChoice()] * 4, 0, state=state)  # type: ignore[arg-type]
    assert result.state.is_over()
    assert [m.seat for m in result.record.moves[:3]] == [0, 1, 2]
