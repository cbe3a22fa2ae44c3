"""A move that throws the game away is marked, the right one is not, and marks need the interval."""

from __future__ import annotations

from parlour.analysis.analyse import analyse
from parlour.analysis.settings import Budget, accuracy, mark, thresholds
from parlour.core.registry import load_game

from .games import embers_ending, record_from

# Seat 0 may take the fire (13 + 2) or leave it at 14 for seat 1, whose 2 takes it and the game.
STAGED = (
    [["1", "2"], ["2"]],
    ["8", "5"],
    [["3", "3", "3"], ["4", "4", "4", "6"]],
)


def test_throwing_the_game_away_is_marked_worst() -> None:
    game = load_game("embers")
    record = record_from(game, embers_ending(*STAGED), ["play 1"])
    result = analyse(record, [0], budget=Budget(8), seed=3)
    first = result.decisions[0]
    assert (first.move, first.played, first.best) == (0, "play 1", "play 2")
    assert first.mark == "??"
    assert first.loss_low > thresholds(2)["??"]
    assert result.summary[0].marks["??"] == 1
    assert result.biggest[0].played == "play 1" and result.biggest[0].best == "play 2"


def test_the_winning_move_is_not_marked() -> None:
    game = load_game("embers")
    record = record_from(game, embers_ending(*STAGED), ["play 2"])
    result = analyse(record, [0], budget=Budget(8), seed=3)
    first = result.decisions[0]
    assert (first.played, first.best, first.loss, first.mark) == ("play 2", "play 2", 0.0, "")
    assert result.summary[0].accuracy == 100.0


def test_marks_only_when_the_interval_clears_the_threshold() -> None:
    limits = thresholds(4)
    assert limits == {"??": 0.1, "?": 0.05, "?!": 0.025}
    assert mark(0.0, 4) == "" and mark(-0.3, 4) == ""  # an interval holding 0 is never marked
    assert mark(0.03, 4) == "?!" and mark(0.06, 4) == "?" and mark(0.11, 4) == "??"
    assert mark(0.06, 2) == "?!"  # two players: twice the thresholds
    assert accuracy(0.0, 4) == 100.0 and 36 < accuracy(0.05, 4) < 37


def test_budgets_and_progress() -> None:
    assert Budget.parse("12") == Budget(12) and Budget.parse(" 0.5s ") == Budget(0, 500)
    assert Budget.parse("250ms") == Budget(0, 250)
    record = record_from(load_game("embers"), embers_ending(*STAGED), ["play 1"])
    told: list[tuple[int, int]] = []
    timed = analyse(record, seat=0, budget="5ms", progress=lambda done, total: told.append((done, total)))
    assert told and told[-1][0] == told[-1][1] == len(timed.decisions)
    assert all(a.samples >= 4 for a in timed.decisions[0].actions)  # at least MIN_SAMPLES on a clock
    assert timed.decisions[0].mark == "??" and timed.budget == "5ms"
