"""The report's figures over hand-made traces: intervals, balance, margins, histograms, skill, compare."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import pytest

from parlour.core.state import GameState
from parlour.report import compare, metrics
from parlour.report.kingmaking import kingmaker
from parlour.report.skill import seating, skill_figures
from parlour.report.trace import GameTrace

BASE = GameTrace(
    index=0,
    scores=[10.0, 4.0, 7.0],
    wins=[1.0, 0.0, 0.0],
    first=0,
    actions=30,
    turns=10,
    decisions=20,
    branching=3.0,
    branching_max=9,
    branching_tenths=[3.0] * 10,
    lead_changes=2,
    behind=0.2,
    drama=0.5,
    decisive=0.6,
    leads_tenths=[0.0] * 5 + [1.0] * 5,
    end="Seat 2 rolled 1 after deal 14: the game ends.",
    kingmaking=None,
)


def test_wilson_intervals_have_their_known_values() -> None:
    figure = metrics.proportion(8, 10)
    assert figure["rate"] == 0.8
    assert figure["ci95"] == [pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4)]
    assert metrics.proportion(0, 10)["ci95"] == [0.0, pytest.approx(0.2775, abs=1e-4)]
    assert metrics.proportion(0, 0) == {"rate": 0.0, "ci95": [0.0, 1.0], "n": 0}


def test_mean_ci() -> None:
    figure = metrics.mean_ci([1.0, 3.0])  # the sample standard deviation: sqrt(2)
    assert figure["mean"] == 2.0 and figure["sd"] == pytest.approx(2**0.5)
    assert figure["ci95"] == [pytest.approx(2 - 1.96), pytest.approx(2 + 1.96)]
    assert metrics.mean_ci([])["n"] == 0


def test_balance_is_one_minus_the_widest_gap() -> None:
    assert metrics.balance([0.25, 0.25, 0.25, 0.25]) == 1.0
    assert metrics.balance([0.4, 0.1, 0.3]) == pytest.approx(0.7)


def test_margins_and_spread() -> None:
    assert metrics.margins(BASE) == (3.0, 6.0)
    shared = replace(BASE, scores=[5.0, 5.0, 1.0], wins=[0.5, 0.5, 0.0])
    assert metrics.margins(shared) == (4.0, 4.0)
    everyone = replace(BASE, scores=[2.0, 2.0, 2.0], wins=[1 / 3] * 3)
    assert metrics.margins(everyone) == (0.0, 0.0)


def test_histograms_cover_every_value_once() -> None:
    values = [float(v) for v in (1, 4, 4, 7, 55, 30)]
    hist = metrics.histogram(values)
    assert sum(hist["counts"]) == len(values)
    assert len(hist["edges"]) == len(hist["counts"]) + 1
    assert hist["edges"][0] == 1.0 and hist["edges"][-1] > 55.0
    assert len(hist["counts"]) <= metrics.BINS
    assert metrics.histogram([3.0, 3.0]) == {"edges": [3.0, 4.0], "counts": [2]}
    assert metrics.histogram([]) == {"edges": [], "counts": []}


def test_the_outcome_counts_by_seat_and_by_place_in_the_turn_order() -> None:
    # Seat 0 wins both games; it was first in one and last (seat 1 first) in the other.
    traces = [BASE, replace(BASE, index=1, first=1)]
    outcome = metrics.outcome(traces, ["greedy"] * 3)
    assert [row["rate"] for row in outcome["win_rate_by_seat"]] == [1.0, 0.0, 0.0]
    assert [row["rate"] for row in outcome["win_rate_by_place"]] == [0.5, 0.0, 0.5]
    assert outcome["advantage_p1"]["rate"] == 0.5
    assert outcome["balance_by_seat"] == 0.0
    assert outcome["end_reasons"] == [{"reason": "Seat N rolled N after deal N the game ends.", "games": 2}]
    shared = metrics.outcome([replace(BASE, wins=[0.5, 0.5, 0.0])], ["greedy"] * 3)
    assert shared["drawishness"]["rate"] == 1.0


def test_length_and_arc_figures() -> None:
    traces = [BASE, replace(BASE, turns=20, actions=50, decisions=10, lead_changes=0, behind=0.0, drama=0.0)]
    length = metrics.length(traces)
    assert length["turns"]["mean"] == 15.0
    assert length["decisions_per_turn"]["mean"] == pytest.approx((2.0 + 0.5) / 2)
    assert length["decision_moves"]["rate"] == pytest.approx(30 / 80)
    assert length["branching_factor_max"] == 9
    figures = metrics.arc_figures(traces)
    assert figures["lead_changes"]["mean"] == 1.0
    assert figures["comeback_games"]["rate"] == 0.5
    assert figures["drama"]["mean"] == 0.5  # over the games the winner trailed in only
    assert figures["winner_leads_by_tenth"] == [0.0] * 5 + [1.0] * 5


def test_kingmaking_counts_only_the_games_looked_at() -> None:
    traces = [BASE, replace(BASE, kingmaking=0), replace(BASE, kingmaking=2)]
    figure = metrics.kingmaking(traces)
    assert figure["games_looked_at"] == 2
    assert figure["kingmaking_games"]["rate"] == 0.5
    assert figure["decisions_per_game"]["mean"] == 1.0


class Stub:
    """A position where each legal action leaves the estimate written for it."""

    def __init__(self, after: dict[str, list[float]]) -> None:
        self.after = after
        self.estimated: list[float] = []
        self.over = False

    def legal_actions(self, seat: int) -> list[str]:
        return list(self.after)

    def clone(self) -> Stub:
        return Stub(self.after)

    def apply(self, action: str, seat: int, quiet: bool = False) -> None:
        self.estimated = self.after[action]

    def estimate(self) -> list[float]:
        return self.estimated


def test_a_kingmaker_cannot_lead_and_picks_who_does() -> None:
    picks = Stub({"a": [9.0, 1.0, 8.0], "b": [7.0, 1.0, 8.0]})
    assert kingmaker(cast(GameState, picks), 1)
    same = Stub({"a": [9.0, 1.0, 8.0], "b": [9.5, 1.0, 8.0]})
    assert not kingmaker(cast(GameState, same), 1)  # seat 0 leads whatever seat 1 does
    could_lead = Stub({"a": [9.0, 1.0, 8.0], "b": [7.0, 10.0, 8.0]})
    assert not kingmaker(cast(GameState, could_lead), 1)
    alone = Stub({"a": [9.0, 1.0, 8.0]})
    assert not kingmaker(cast(GameState, alone), 1)


def test_the_skill_seating_rotates_every_bot_through_every_seat() -> None:
    bots = ["ismcts:50it", "greedy", "random"]
    assert seating(bots, 4, 0) == ["ismcts:50it", "greedy", "random", "ismcts:50it"]
    assert seating(bots, 4, 1) == ["greedy", "random", "ismcts:50it", "greedy"]


def test_the_share_of_luck() -> None:
    lineups = [["s", "r"], ["r", "s"]]
    always = skill_figures(["s", "r"], lineups, [[1.0, 0.0], [0.0, 1.0]], 2)
    assert always["luck_share"] == 0.0 and always["skill_gap"] == 1.0
    assert [row["win_rate"] for row in always["bots"]] == [1.0, 0.0]
    even = skill_figures(["s", "r"], lineups, [[1.0, 0.0], [1.0, 0.0]], 2)
    assert even["luck_share"] == 1.0 and even["skill_gap"] == 0.0


def _variant(turns: list[float]) -> dict[str, object]:
    """Returns a variant's metrics from made-up traces of these lengths."""
    traces = [replace(BASE, index=i, turns=int(t)) for i, t in enumerate(turns)]
    return {"label": "x", "metrics": metrics.variant_metrics(traces, ["greedy"] * 3)}


def test_compare_gives_differences_and_whether_intervals_overlap() -> None:
    rows = {r["figure"]: r for r in compare.compare([_variant([10, 12] * 20), _variant([30, 32] * 20)])}
    turns = rows["length in turns (DurationTurns)"]
    assert turns["values"] == [11.0, 31.0]
    assert turns["difference"] == [None, 20.0]
    assert turns["overlap"] == [None, False]
    assert rows["lead changes (LeadChange)"]["overlap"] == [None, True]
    assert compare.overlap([0, 1], [1, 2]) and not compare.overlap([0, 1], [1.5, 2])
