"""The report's plots, drawn with matplotlib (Agg, no window) as deterministic SVG text."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

import matplotlib

matplotlib.use("Agg")
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from parlour.core.positions import JSONObject

SALT = "parlour-report"
"""The SVG ids' fixed salt, so the same data gives the same SVG."""
NO_METADATA: dict[str, str | None] = {"Date": None, "Creator": None, "Format": None, "Type": None}
"""Nothing in the SVG's metadata: no date, no version, no links to metadata vocabularies."""
SIZE = (6.4, 3.2)
"""A plot's size in inches."""


def svg(figure: Figure) -> str:
    """Returns a figure as SVG text without the date or any other changing metadata."""
    out = io.StringIO()
    with style():
        figure.savefig(out, format="svg", metadata=NO_METADATA, bbox_inches="tight")
    text = out.getvalue()
    return text[text.index("<svg") :]


def style() -> AbstractContextManager[None]:
    """Returns the plots' settings: fixed ids (the salt), text kept as text, a small font."""
    return matplotlib.rc_context({"svg.hashsalt": SALT, "svg.fonttype": "none", "font.size": 9.0})


def plot(draw: Callable[[Axes], None], title: str, xlabel: str, ylabel: str, legend: bool = True) -> str:
    """Returns one plot as SVG text: ``draw`` fills the axes, then the title, the labels and the legend."""
    with style():
        figure = Figure(figsize=SIZE)
        axes = figure.add_subplot()
        draw(axes)
        axes.set_title(title)
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
        if legend:
            axes.legend(fontsize=7)
    return svg(figure)


def errors_of(rows: Sequence[JSONObject], key: str) -> list[list[float]]:
    """Returns the error bars of the rates ``key`` of ``rows`` (below and above, from ``ci95``)."""
    return [[r[key] - r["ci95"][0] for r in rows], [r["ci95"][1] - r[key] for r in rows]]


def win_rates(variants: Sequence[JSONObject], key: str, title: str, xlabel: str) -> str:
    """Returns bars of each variant's win rate by seat or place with their 95% Wilson intervals, and the
    fair share as a line."""

    def draw(axes: Axes) -> None:
        width = 0.8 / len(variants)
        for i, variant in enumerate(variants):
            rows = variant["metrics"]["outcome"][key]
            xs = [p + (i - (len(variants) - 1) / 2) * width for p in range(len(rows))]
            rates = [r["rate"] for r in rows]
            axes.bar(xs, rates, width * 0.9, yerr=errors_of(rows, "rate"), capsize=3, label=variant["label"])
        players = len(variants[0]["metrics"]["outcome"][key])
        axes.axhline(1 / players, color="black", linestyle="--", linewidth=0.8, label="fair share")
        first = 1 if key == "win_rate_by_place" else 0  # places count from 1, seats from 0 (report.json)
        axes.set_xticks(range(players), [str(p + first) for p in range(players)])

    return plot(draw, title, xlabel, "win rate (95% interval)")


def histograms(variants: Sequence[JSONObject], part: str, key: str, title: str, xlabel: str) -> str:
    """Returns each variant's histogram (as steps, so several can be read over each other)."""

    def draw(axes: Axes) -> None:
        for variant in variants:
            hist = variant["metrics"][part][key]
            if hist["counts"]:
                axes.stairs(hist["counts"], hist["edges"], label=variant["label"], linewidth=1.5)

    return plot(draw, title, xlabel, "games")


def by_tenth(variants: Sequence[JSONObject], part: str, key: str, title: str, ylabel: str) -> str:
    """Returns each variant's figure over the tenths of the game, as lines."""

    def draw(axes: Axes) -> None:
        for variant in variants:
            values = variant["metrics"][part][key]
            axes.plot([10 * i + 5 for i in range(len(values))], values, marker="o", label=variant["label"])
        axes.set_xlim(0, 100)

    return plot(draw, title, "part of the game (% of its length)", ylabel)


def skill(figures: JSONObject) -> str:
    """Returns bars of each skill bot's win rate a seat with 95% intervals."""
    rows = figures["bots"]

    def draw(axes: Axes) -> None:
        rates = [r["win_rate"] for r in rows]
        axes.bar(range(len(rows)), rates, 0.6, yerr=errors_of(rows, "win_rate"), capsize=3, color="#4a7ab5")
        axes.set_xticks(range(len(rows)), [r["bot"] for r in rows])

    title = f"Skill: win rate a seat over {figures['games']} games"
    return plot(draw, title, "", "win rate (95% interval)", legend=False)


def all_plots(report: JSONObject) -> dict[str, str]:
    """Returns every plot of a report by name, as SVG text."""
    variants = report["variants"]
    plots = {
        "seats": win_rates(variants, "win_rate_by_seat", "Win rate by seat", "seat"),
        "places": win_rates(variants, "win_rate_by_place", "Win rate by place in the turn order", "place"),
        "turns": histograms(variants, "length", "turns_histogram", "Game length", "turns"),
        "actions": histograms(variants, "length", "actions_histogram", "Game length", "actions"),
        "margins": histograms(variants, "scores", "winning_margin_histogram", "Winning margin", "points"),
        "lead_changes": histograms(variants, "arc", "lead_changes_histogram", "Lead changes", "lead changes"),
        "branching": by_tenth(variants, "length", "branching_by_tenth", "Branching factor", "legal actions"),
        "winner_leads": by_tenth(
            variants, "arc", "winner_leads_by_tenth", "How often the eventual winner leads", "share of turns"
        ),
    }
    if report.get("skill"):
        plots["skill"] = skill(report["skill"])
    return {name: own_ids(name, text) for name, text in plots.items()}


def own_ids(name: str, text: str) -> str:
    """Returns an SVG whose ids (and references to them) start with ``name``, so that several plots in
    one page never share an id."""
    text = re.sub(r'\bid="([^"]+)"', rf'id="{name}-\1"', text)
    return re.sub(r"(url\(#|href=\"#)([^)\"]+)", rf"\1{name}-\2", text)
