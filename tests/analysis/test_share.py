"""A seat's share of a game: half by its finishing place (winners first, ties split), half by its part
of the scores; shares sum to 1 and a seat far behind still has a place to play for."""

from __future__ import annotations

import math
import random

import pytest

from parlour.analysis.share import PLACE_WEIGHT, place_points, shares
from parlour.core.registry import load_game
from parlour.core.state import GameState


def test_place_points_of_four_players_are_a_half_a_third_a_sixth_and_nothing() -> None:
    assert place_points([30.0, 20.0, 10.0, 0.0], [0]) == pytest.approx([1 / 2, 1 / 3, 1 / 6, 0.0])


def test_tied_seats_split_their_places() -> None:
    # Seats 1 and 2 tie for second: each gets one point for seat 3 and half a point for the other.
    assert place_points([10.0, 5.0, 5.0, 0.0], [0]) == pytest.approx([3 / 6, 1.5 / 6, 1.5 / 6, 0.0])
    # Two winners tied: they split first and second.
    assert place_points([7.0, 7.0, 1.0], [0, 1]) == pytest.approx([1.5 / 3, 1.5 / 3, 0.0])


def test_a_winner_by_tie_break_finishes_first_whatever_the_scores() -> None:
    assert place_points([5.0, 7.0], [0]) == [1.0, 0.0]


def test_winners_share_first_place_whatever_their_scores() -> None:
    # Venus Needs Men!: two planets reach the target together, on 26 and 25 population: a shared win.
    assert place_points([26.0, 25.0, 4.0, 4.0], [0, 1]) == pytest.approx([2.5 / 6, 2.5 / 6, 0.5 / 6, 0.5 / 6])


def test_negative_scores_rank_as_they_are_and_count_nothing_in_the_score_share() -> None:
    assert place_points([3.0, -1.0, -5.0], [0]) == pytest.approx([2 / 3, 1 / 3, 0.0])
    ended: GameState = _Ended([3.0, -1.0, -5.0], [0])  # type: ignore[assignment]
    assert shares(ended) == pytest.approx([PLACE_WEIGHT * 2 / 3 + (1 - PLACE_WEIGHT), PLACE_WEIGHT / 3, 0.0])


def test_a_lone_seat_has_the_whole_place() -> None:
    assert place_points([3.0], [0]) == [1.0]


class _Ended:
    """A finished game's results, as shares reads them."""

    def __init__(self, scores: list[float], winners: list[int]) -> None:
        self._scores, self._winners = scores, winners

    def is_over(self) -> bool:
        return True

    def scores(self) -> list[float]:
        return self._scores

    def winners(self) -> list[int]:
        return self._winners


def test_a_share_is_half_the_place_points_and_half_the_score_share() -> None:
    ended: GameState = _Ended([60.0, 30.0, 10.0, 0.0], [0])  # type: ignore[assignment]
    places = [1 / 2, 1 / 3, 1 / 6, 0.0]
    parts = [0.6, 0.3, 0.1, 0.0]
    expected = [PLACE_WEIGHT * p + (1 - PLACE_WEIGHT) * x for p, x in zip(places, parts, strict=True)]
    assert shares(ended) == pytest.approx(expected)
    assert PLACE_WEIGHT == 0.5


def test_the_last_two_seats_still_play_for_third_place() -> None:
    # Far behind the leaders, third place against fourth is worth a sixth of the place points.
    behind: GameState = _Ended([100.0, 90.0, 2.0, 1.0], [0])  # type: ignore[assignment]
    swapped: GameState = _Ended([100.0, 90.0, 1.0, 2.0], [0])  # type: ignore[assignment]
    gain = shares(behind)[2] - shares(swapped)[2]
    assert gain == pytest.approx(PLACE_WEIGHT / 6 + (1 - PLACE_WEIGHT) * (2 - 1) / 193)


class _Cut(_Ended):
    """A playout cut off before the end: judged by its estimate, the leaders taking the win."""

    def is_over(self) -> bool:
        return False

    def estimate(self) -> list[float]:
        return self._scores


def test_an_unfinished_game_is_judged_by_its_estimate_the_leaders_winning() -> None:
    cut: GameState = _Cut([5.0, 9.0, 9.0, 1.0], [])  # type: ignore[assignment]
    places = [1 / 6, 2.5 / 6, 2.5 / 6, 0.0]
    parts = [5 / 24, 9 / 24, 9 / 24, 1 / 24]
    expected = [PLACE_WEIGHT * p + (1 - PLACE_WEIGHT) * x for p, x in zip(places, parts, strict=True)]
    assert shares(cut) == pytest.approx(expected)


def test_nobody_scoring_gives_equal_score_parts() -> None:
    ended: GameState = _Ended([0.0, 0.0, 0.0], [0, 1, 2])  # type: ignore[assignment]
    assert shares(ended) == pytest.approx([1 / 3] * 3)


@pytest.mark.parametrize("name", ["venture", "im-the-boss", "venus-needs-men", "embers"])
def test_shares_sum_to_one_and_winners_have_the_most_place_points(name: str) -> None:
    game = load_game(name)
    rng = random.Random(5)
    for seed in range(3):
        state = game.new_state(4 if name != "embers" else 3, seed)
        for _ in range(20_000):
            if state.is_over():
                break
            seat = state.deciders()[0]
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        found = shares(state)
        assert math.isclose(sum(found), 1.0)
        assert all(0.0 <= x <= 1.0 for x in found)
        if state.is_over():
            winners = list(state.winners())
            places = place_points([float(x) for x in state.scores()], winners)
            assert all(places[w] == max(places) for w in winners)
