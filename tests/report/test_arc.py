"""The arc figures on made-up estimate sequences: lead changes, drama, decisiveness, tenths."""

from __future__ import annotations

import pytest

from parlour.report import arc

# Seat 0 leads, then seat 1, then a tie, then seat 1 again, then seat 0 to the end.
ESTIMATES = [[5.0, 1.0], [2.0, 4.0], [3.0, 3.0], [1.0, 6.0], [8.0, 2.0], [9.0, 2.0]]


def test_leaders_are_every_seat_at_the_top() -> None:
    assert arc.leaders([1.0, 3.0, 3.0]) == {1, 2}
    assert arc.leaders([4.0, 0.0]) == {0}


def test_lead_changes_count_sole_leaders_only() -> None:
    assert arc.lead_changes(ESTIMATES) == 2  # 0 -> 1 (the tie skipped, 1 again) -> 0
    assert arc.lead_changes([[1.0, 0.0], [0.5, 0.5], [1.0, 0.0]]) == 0
    assert arc.lead_changes([]) == 0


def test_the_gap_is_scaled_by_the_largest_estimate() -> None:
    assert arc.gap([2.0, 4.0], 0) == pytest.approx(0.5)
    assert arc.gap([2.0, 4.0], 1) == 0.0
    assert arc.gap([-4.0, 2.0], 0) == pytest.approx(1.5)
    assert arc.gap([0.0, 0.0], 0) == 0.0


def test_drama_is_the_winners_gap_while_it_trails() -> None:
    behind, drama = arc.drama(ESTIMATES, [0])
    assert behind == pytest.approx(2 / 6)  # turns 2 and 4
    assert drama == pytest.approx((0.5 + 5 / 6) / 2)
    behind, drama = arc.drama(ESTIMATES, [1])
    assert behind == 0.5 and drama == pytest.approx((0.8 + 0.75 + 7 / 9) / 3)
    assert arc.drama([[3.0, 1.0], [4.0, 0.0]], [0]) == (0.0, 0.0)


def test_a_shared_win_trails_only_when_every_winner_does() -> None:
    assert arc.drama([[1.0, 2.0, 0.0]], [0, 1]) == (0.0, 0.0)


def test_decisiveness_is_where_the_winners_last_lead_began() -> None:
    assert arc.decisiveness(ESTIMATES, [0]) == pytest.approx(4 / 6)
    assert arc.decisiveness([[5.0, 1.0], [5.0, 1.0]], [0]) == 0.0
    assert arc.decisiveness([[5.0, 1.0], [0.0, 1.0]], [0]) == 1.0
    assert arc.decisiveness([[1.0, 1.0], [2.0, 1.0]], [0]) == 0.0  # a tie for the lead is leading


def test_winner_leads_marks_each_turn() -> None:
    assert arc.winner_leads(ESTIMATES, [0]) == [1.0, 0.0, 1.0, 0.0, 1.0, 1.0]


def test_by_tenth_averages_each_tenth_and_carries_over_empty_ones() -> None:
    assert arc.by_tenth([float(i) for i in range(20)]) == [0.5 + 2 * i for i in range(10)]
    assert arc.by_tenth([4.0, 8.0]) == [4.0] * 5 + [8.0] * 5
    assert arc.by_tenth([]) == [0.0] * 10
