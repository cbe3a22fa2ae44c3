"""Variants side by side: each figure's value and interval, its difference from the first variant and
whether their 95% intervals overlap."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.positions import JSONObject

FIGURES = (
    ("first player's win rate (AdvantageP1)", ("outcome", "advantage_p1"), "rate"),
    ("shared wins (Drawishness)", ("outcome", "drawishness"), "rate"),
    ("length in turns (DurationTurns)", ("length", "turns"), "mean"),
    ("length in actions (DurationActions)", ("length", "actions"), "mean"),
    ("decisions per turn", ("length", "decisions_per_turn"), "mean"),
    ("branching factor (BranchingFactorAverage)", ("length", "branching_factor"), "mean"),
    ("winning margin (ScoreDifference)", ("scores", "winning_margin"), "mean"),
    ("lead changes (LeadChange)", ("arc", "lead_changes"), "mean"),
    ("games the winner trailed in", ("arc", "comeback_games"), "rate"),
    ("decisiveness (DecisivenessMoves)", ("arc", "decisiveness"), "mean"),
    ("kingmaking games", ("kingmaking", "kingmaking_games"), "rate"),
)
"""The figures compared: a label, where the figure is in a variant's metrics, and its value's key."""


def overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    """Returns whether two intervals share a point."""
    return a[0] <= b[1] and b[0] <= a[1]


def compare(variants: Sequence[JSONObject]) -> list[JSONObject]:
    """Returns one row a figure: each variant's value and interval, its difference from the first
    variant's and whether its interval overlaps the first's (None for the first)."""
    rows = []
    for label, (part, name), key in FIGURES:
        figures = [v["metrics"][part][name] for v in variants]
        base = figures[0]
        rows.append(
            {
                "figure": label,
                "values": [f[key] for f in figures],
                "ci95": [f["ci95"] for f in figures],
                "difference": [None if i == 0 else f[key] - base[key] for i, f in enumerate(figures)],
                "overlap": [
                    None if i == 0 else overlap(f["ci95"], base["ci95"]) for i, f in enumerate(figures)
                ],
            }
        )
    return rows
