"""The GameState base class: refusals leave the state unchanged, restores, ranks and events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.core.chance import DIE, ORDER, Chance, Forced
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.errors import IllegalActionError, NotationError, ParlourError
from parlour.core.registry import load_game
from parlour.core.state import Event, GameState, rank
from parlour.testing.kit import snapshot

from .toys import Turn, Window


# ---------------------------------------------------------------- a tiny dice game
class Dice(GameState):
    """Each seat in turn rolls one die ('roll') or two ('double', the second after the first
    has been scored); 'open' opens a window where every seat may 'pass'.  First to ``goal``
    points ends the game."""

    def __init__(self, players: int = 2, seed: int = 0, goal: int = 20) -> None:
        super().__init__()
        self.players = players
        self.chance = Chance(seed)
        self.stack = DecisionStack([Turn(seats=[0])])
        self.points = [0] * players
        self.goal = goal
        self.current = 0

    def _legal_actions(self, seat: Seat) -> list[Any]:
        if self.stack.top.kind == "window":
            return ["pass"]
        return ["roll", "double", "open"]

    def _apply(self, seat: Seat, action: Any) -> None:
        if action == "pass":
            self.stack.top.pass_seat(seat)
            self.emit(f"seat {seat} passes")
            if self.stack.top.is_settled:
                self.stack.pop()
            return
        if action == "open":
            self.stack.push(Window(seats=list(range(self.players)), concurrent=True))
            self.emit("a window opens")
            return
        for _ in range(2 if action == "double" else 1):
            value = self.chance.roll(6)
            self.points[seat] += value
            self.emit(f"seat {seat} rolls", seat, str(value))
        self.current = (seat + 1) % self.players
        self.stack.top.reopen([self.current])

    def is_over(self) -> bool:
        return max(self.points) >= self.goal

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def clone(self) -> Dice:
        other = Dice(self.players, self.chance.seed, self.goal)
        other.chance = self.chance.copy()
        other.stack = self.stack.copy()
        other.points = list(self.points)
        other.current = self.current
        other.actions_applied = self.actions_applied
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> Dice:
        other = self.clone()
        other.chance = self.chance.fresh(rng)
        return other

    def observation(self, seat: Seat) -> dict[str, Any]:
        return self.public_observation()

    def public_observation(self) -> dict[str, Any]:
        return {"points": list(self.points)}

    def to_position(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "current": self.current,
            "chance": self.chance.to_json(),
            "decisions": self.stack.to_json(),
            "actions_applied": self.actions_applied,
        }

    def format_action(self, action: Any) -> str:
        return str(action)

    def parse_action(self, text: str) -> Any:
        word = text.strip()
        if word not in ("roll", "double", "open", "pass"):
            raise NotationError(f"cannot read {text!r}")
        return word


def test_forced_die_feeds_the_roll() -> None:
    state = Dice()
    state.chance.forced = [Forced(DIE, 5)]
    events = state.apply("roll")
    assert state.points == [5, 0]
    assert [e.for_seat(0) for e in events] == ["seat 0 rolls (5)"]
    assert state.chance.forced == []


def test_bad_forced_die_restores_the_whole_state() -> None:
    state = Dice()
    state.apply("roll", 0)
    state.apply("roll", 1)
    # The first die of 'double' is scored before the second (impossible) one is refused.
    state.chance.forced = [Forced(DIE, 4), Forced(DIE, 9)]
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="forced die result 9"):
        state.apply("double", 0)
    assert snapshot(state) == before
    assert state.chance.forced == [Forced(DIE, 4), Forced(DIE, 9)]
    assert state.actions_applied == 2
    assert not state.logging
    # The state is usable afterwards: a good forced queue is honoured.
    state.chance.forced = [Forced(DIE, 4), Forced(DIE, 2)]
    state.apply("double", 0)
    assert state.chance.forced == []
    assert state.deciders() == (1,)


def test_bad_die_from_the_manual_dice_callback_restores_the_whole_state() -> None:
    state = Dice()
    dice = iter([4, 15])

    def ask(low: int, high: int) -> int:
        return next(dice)

    state.chance.ask = ask
    before = snapshot(state)
    # The first die of 'double' is scored before the second (impossible) one is refused.
    with pytest.raises(IllegalActionError, match=r"die result 15 is outside 1\.\.6"):
        state.apply("double", 0)
    assert snapshot(state) == before
    assert state.points == [0, 0] and state.actions_applied == 0
    # The table keeps its dice: the callback survives the restore and feeds the next roll.
    assert state.chance.ask is ask
    dice = iter([3, 2])
    state.apply("double", 0)
    assert state.points == [5, 0]


@pytest.mark.parametrize("bad", [0, 7, True, "3", None])
def test_manual_dice_outside_the_die_are_refused(bad: Any) -> None:
    state = Dice()
    state.chance.ask = lambda low, high: bad
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"outside 1\.\.6"):
        state.apply("roll", 0)
    assert snapshot(state) == before


def test_restore_copies_every_attribute_back() -> None:
    state = Dice()
    saved = state.clone()
    state.points = [9, 9]
    state.current = 1
    state.actions_applied = 5
    state._restore(saved)
    assert state.points == [0, 0]
    assert state.current == 0
    assert state.actions_applied == 0


def test_unrelated_forced_order_does_not_stop_a_roll() -> None:
    state = Dice(seed=3)
    state.chance.forced = [Forced(ORDER, ["a"])]
    state.apply("roll")
    assert state.chance.forced == [Forced(ORDER, ["a"])]
    assert state.points[0] == Chance(3).roll(6)


def test_open_window_needs_a_seat_and_accepts_any_listed_one() -> None:
    state = Dice(players=3)
    state.apply("open")
    assert state.deciders() == (0, 1, 2)
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match=r"seats \[0, 1, 2\] may act now: say which seat"):
        state.apply("pass")
    state.apply("pass", 2)
    assert state.deciders() == (0, 1)
    with pytest.raises(IllegalActionError, match="seat 2 may not act now"):
        state.apply("pass", 2)
    state.apply("pass", 0)
    state.apply("pass", 1)
    assert state.stack.kinds() == ["turn"]
    assert state.deciders() == (0,)


def test_game_over_refuses_every_action() -> None:
    state = Dice(goal=1)
    state.apply("roll")
    assert state.is_over()
    assert state.deciders() == ()
    assert state.legal_actions() == []
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("roll")
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("roll", 1)


def test_winners_and_ranking_with_a_tie() -> None:
    state = Dice(players=4)
    state.points = [7, 12, 12, 3]
    assert state.ranking() == [3, 1, 1, 4]
    assert state.winners() == [1, 2]
    state.points = [7, 12, 11, 3]
    assert state.winners() == [1]


@pytest.mark.parametrize(
    ("scores", "ranks"),
    [
        ([10, 20, 30], [3, 2, 1]),
        ([5, 5, 3], [1, 1, 3]),
        ([1, 3, 3, 2], [4, 1, 1, 3]),
        ([4, 4, 4], [1, 1, 1]),
        ([2.5, -1, 2.5, 0], [1, 4, 1, 3]),
        ([], []),
    ],
)
def test_rank_is_competition_ranking(scores: list[float], ranks: list[int]) -> None:
    assert rank(scores) == ranks


# ---------------------------------------------------------------- events
def test_event_secret_is_shown_to_its_seat_only() -> None:
    event = Event("seat 1 draws 2 cards", 1, "10 3c")
    assert event.for_seat(1) == "seat 1 draws 2 cards (10 3c)"
    assert event.for_seat(0) == "seat 1 draws 2 cards"
    assert event.for_seat(None) == "seat 1 draws 2 cards"


def test_event_of_seat_zero_and_events_without_secret() -> None:
    assert Event("x", 0, "s").for_seat(0) == "x (s)"
    assert Event("x", 0, "s").for_seat(1) == "x"
    assert Event("x", 0).for_seat(0) == "x"
    assert Event("x", None, "s").for_seat(None) == "x"
    assert Event("x", None, "s").for_seat(0) == "x"


# ---------------------------------------------------------------- Venture
@pytest.fixture
def venture() -> Any:
    return load_game("venture")


def _mover(state: GameState) -> int:
    (seat,) = state.deciders()
    return seat


def test_illegal_action_is_refused_and_leaves_the_state_unchanged(venture: Any) -> None:
    state = venture.new_state(4, 7)
    before = snapshot(state)
    # 'end' is not legal before any transaction; a corporation not in the center cannot be taken.
    illegal = [
        text
        for text in ("end", "done", "pay 3c", "take ZZ-A", "place alone", "reorganise")
        if state.parse_action(text) not in state.legal_actions()
    ]
    assert "end" in illegal and "take ZZ-A" in illegal
    for text in illegal:
        with pytest.raises(IllegalActionError) as info:
            state.apply_notation(text)
        assert text.split()[0] in str(info.value)
        assert snapshot(state) == before, f"refusing {text!r} changed the state"
    assert state.actions_applied == 0


def test_malformed_notation_is_a_notation_error(venture: Any) -> None:
    state = venture.new_state(3, 2)
    before = snapshot(state)
    for text in ("", "xyzzy", "take", "take ST-ABC extra", "pay pay"):
        with pytest.raises(NotationError, match="expected one of"):
            state.apply_notation(text)
    assert snapshot(state) == before


def test_wrong_seat_is_refused(venture: Any) -> None:
    state = venture.new_state(4, 7)
    seat = _mover(state)
    other = (seat + 1) % 4
    action = state.legal_actions(seat)[0]
    before = snapshot(state)
    assert state.legal_actions(other) == []
    assert not state.is_legal(action, other)
    with pytest.raises(
        IllegalActionError, match=rf"seat {other} may not act now \(waiting for seats {seat}\)"
    ):
        state.apply(action, other)
    with pytest.raises(IllegalActionError, match=r"there is no seat 4 \(seats are 0\.\.3\)"):
        state.apply(action, 4)
    with pytest.raises(IllegalActionError, match="there is no seat -1"):
        state.apply(action, -1)
    assert snapshot(state) == before
    state.apply(action, seat)
    assert snapshot(state) != before


def test_legal_action_applies_and_returns_events(venture: Any) -> None:
    state = venture.new_state(4, 7)
    seat = _mover(state)
    take = next(a for a in state.legal_actions() if str(a).startswith("take "))
    events = state.apply(take)
    assert state.actions_applied == 1
    assert any(str(take).split()[1] in e.text for e in events)
    assert all(isinstance(e, Event) for e in events)
    assert _mover(state) == seat


@pytest.mark.parametrize("name", ["venture", "im-the-boss", "venus-needs-men", "embers"])
def test_a_quiet_apply_checks_as_apply_does_and_records_no_event(name: str) -> None:
    """``apply(..., quiet=True)`` (mass simulation) refuses what ``apply`` refuses, leaves the same state
    after a legal action, and returns no event."""
    game = load_game(name)
    loud, quiet = game.new_state(4, 3), game.new_state(4, 3)
    rng = random.Random(3)
    for _ in range(60):
        if loud.is_over():
            break
        seat = loud.deciders()[0]
        other = next(s for s in range(4) if s not in loud.deciders()) if len(loud.deciders()) < 4 else None
        action = rng.choice(loud.legal_actions(seat))
        if other is not None:
            before = snapshot(quiet)
            with pytest.raises(IllegalActionError, match=f"seat {other} may not act now"):
                quiet.apply(action, other, quiet=True)
            assert snapshot(quiet) == before
        loud.apply(action, seat)
        assert quiet.apply(action, seat, quiet=True) == []
        assert quiet.to_position() == loud.to_position()


def test_venture_draw_event_shows_the_cards_to_the_drawer_only(venture: Any) -> None:
    state = venture.new_state(4, 7)
    seat = _mover(state)
    discard = next(a for a in state.legal_actions() if str(a).startswith("discard "))
    hand_before = sorted(state.observation(seat)["hand"])
    events = state.apply(discard)
    draws = [e for e in events if e.seat == seat and e.secret is not None]
    assert len(draws) == 1
    draw = draws[0]
    drawn = draw.secret.split()
    assert len(drawn) == 2
    assert draw.for_seat(seat) == f"{draw.text} ({draw.secret})"
    for viewer in [None, *(s for s in range(4) if s != seat)]:
        assert draw.for_seat(viewer) == draw.text
        assert draw.secret not in draw.for_seat(viewer)
    hand_after = list(state.observation(seat)["hand"])
    expected = list(hand_before)
    expected.remove(str(discard).split()[1])
    for name in drawn:
        expected.append(name)
    assert sorted(hand_after) == sorted(expected)


def test_venture_winners_and_ranking_follow_the_profits(venture: Any) -> None:
    state = venture.new_state(4, 7)
    state.profits = [30, 45, 45, 10]
    assert state.scores() == [30.0, 45.0, 45.0, 10.0]
    assert state.ranking() == [3, 1, 1, 4]
    assert state.winners() == [1, 2]
    state.profits = [50, 45, 45, 10]
    assert state.winners() == [0]


def test_venture_bad_forced_order_at_a_reshuffle_restores_the_state(venture: Any) -> None:
    """An impossible forced order is refused when the drawing deck is reshuffled; nothing changes."""
    state = venture.new_state(4, 3)
    bad = [Forced(ORDER, ["no such card"])]
    state.chance.forced = list(bad)
    rng = random.Random(3)
    refused = None
    for _ in range(5000):
        if state.is_over():
            break
        seat = state.deciders()[0]
        action = rng.choice(state.legal_actions(seat))
        before = snapshot(state)
        try:
            state.apply(action, seat)
        except IllegalActionError as err:
            assert "no such card" in str(err)
            assert snapshot(state) == before
            assert state.chance.forced == bad
            refused = (seat, action)
            break
    assert refused is not None, "no reshuffle happened in the game"
    # The refused action applies, and reshuffles, once the forced queue is cleared.
    state.chance.forced = []
    events = state.apply(refused[1], refused[0])
    assert any("shuffled into a new drawing deck" in e.text for e in events)


def test_parlour_errors_share_a_base() -> None:
    assert issubclass(IllegalActionError, ParlourError)
    assert issubclass(NotationError, ParlourError)


def test_a_bad_manual_die_in_a_real_game_leaves_the_state_unchanged() -> None:
    """I'm the Boss!'s 'roll' with a table's die callback answering 15: refused, nothing moved."""
    game = load_game("im-the-boss")
    state = game.new_state(3, 5)
    while "roll" not in [state.format_action(a) for a in state.legal_actions()]:
        state.apply(state.legal_actions()[0])
    state.chance.ask = lambda low, high: 15
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="die result 15 is outside"):
        state.apply_notation("roll")
    assert snapshot(state) == before
    state.chance.ask = lambda low, high: low
    state.apply_notation("roll")
    assert snapshot(state) != before
