"""The report as one self-contained HTML page: tables of the figures and the plots inline as SVG."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from parlour.core.positions import JSONObject
from parlour.report.plots import all_plots

CSS = """body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}.plots{display:flex;flex-wrap:wrap;gap:.5rem}
.plot svg{max-width:100%;height:auto}.apart{color:#a40}"""
"""The page's own style (no file beside it)."""


def _rate(figure: JSONObject) -> str:
    """Returns a proportion and its interval as text."""
    low, high = figure["ci95"]
    return f"{figure['rate']:.1%} ({low:.1%}–{high:.1%})"


def _mean(figure: JSONObject) -> str:
    """Returns a mean, its interval and its standard deviation as text."""
    low, high = figure["ci95"]
    return f"{figure['mean']:.2f} ({low:.2f}–{high:.2f}; sd {figure['sd']:.2f})"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Returns an HTML table of already-escaped cells."""
    top = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{top}</tr>{body}</table>"


def figures_table(variants: Sequence[JSONObject]) -> str:
    """Returns the main figures of every variant, one column a variant."""
    lines: list[tuple[str, list[str]]] = [
        (
            "first player's win rate (AdvantageP1)",
            [_rate(v["metrics"]["outcome"]["advantage_p1"]) for v in variants],
        ),
        (
            "Balance by place in the turn order",
            [f"{v['metrics']['outcome']['balance_by_place']:.3f}" for v in variants],
        ),
        ("shared wins (Drawishness)", [_rate(v["metrics"]["outcome"]["drawishness"]) for v in variants]),
        ("turns (DurationTurns)", [_mean(v["metrics"]["length"]["turns"]) for v in variants]),
        ("actions (DurationActions)", [_mean(v["metrics"]["length"]["actions"]) for v in variants]),
        ("actions per turn", [_mean(v["metrics"]["length"]["actions_per_turn"]) for v in variants]),
        ("decisions per turn", [_mean(v["metrics"]["length"]["decisions_per_turn"]) for v in variants]),
        (
            "actions with a choice (DecisionMoves)",
            [_rate(v["metrics"]["length"]["decision_moves"]) for v in variants],
        ),
        (
            "branching factor (BranchingFactorAverage)",
            [_mean(v["metrics"]["length"]["branching_factor"]) for v in variants],
        ),
        (
            "most legal actions (BranchingFactorMaximum)",
            [str(v["metrics"]["length"]["branching_factor_max"]) for v in variants],
        ),
        (
            "winning margin (ScoreDifference)",
            [_mean(v["metrics"]["scores"]["winning_margin"]) for v in variants],
        ),
        ("score spread", [_mean(v["metrics"]["scores"]["score_spread"]) for v in variants]),
        ("lead changes (LeadChange)", [_mean(v["metrics"]["arc"]["lead_changes"]) for v in variants]),
        ("games the winner trailed in", [_rate(v["metrics"]["arc"]["comeback_games"]) for v in variants]),
        ("turns the winner trailed", [_mean(v["metrics"]["arc"]["winner_behind"]) for v in variants]),
        ("Drama (winner's gap when trailing)", [_mean(v["metrics"]["arc"]["drama"]) for v in variants]),
        (
            "Decisiveness (part of the game before the winner led for good)",
            [_mean(v["metrics"]["arc"]["decisiveness"]) for v in variants],
        ),
        ("kingmaking games (last round)", [_kingmaking(v["metrics"]["kingmaking"]) for v in variants]),
    ]
    return _table(
        ["figure", *(escape(v["label"]) for v in variants)], [[escape(name), *cells] for name, cells in lines]
    )


def win_table(variants: Sequence[JSONObject]) -> str:
    """Returns each variant's win rate by seat (counted from 0, as in report.json) and by place in the
    turn order (1: first)."""
    rows = []
    players = len(variants[0]["metrics"]["outcome"]["win_rate_by_seat"])
    for s in range(players):
        bot = escape(variants[0]["metrics"]["outcome"]["win_rate_by_seat"][s]["bot"])
        rows.append(
            [f"seat {s} ({bot})", *(_rate(v["metrics"]["outcome"]["win_rate_by_seat"][s]) for v in variants)]
        )
    for place in range(players):
        rows.append(
            [
                f"place {place + 1} in the turn order",
                *(_rate(v["metrics"]["outcome"]["win_rate_by_place"][place]) for v in variants),
            ]
        )
    return _table(["win rate", *(escape(v["label"]) for v in variants)], rows)


def _kingmaking(figure: JSONObject) -> str:
    """Returns the kingmaking share as text, or why there is none."""
    if not figure["games_looked_at"]:
        return (
            "not computed (--kingmaking-games 0, or a search bot with a time budget: its games do not replay)"
        )
    return f"{_rate(figure['kingmaking_games'])} of {figure['games_looked_at']} games"


def comparison_table(report: JSONObject) -> str:
    """Returns the differences from the first variant and whether the intervals overlap."""
    labels = [v["label"] for v in report["variants"]]
    rows = []
    for row in report["comparison"]:
        cells = [escape(row["figure"])]
        for diff, overlap in zip(row["difference"][1:], row["overlap"][1:], strict=True):
            mark = "intervals overlap" if overlap else '<span class="apart">intervals apart</span>'
            cells.append(f"{diff:+.3g} ({mark})")
        rows.append(cells)
    head = ["figure", *(f"{escape(label)} − {escape(labels[0])}" for label in labels[1:])]
    return _table(head, rows)


def skill_table(skill: JSONObject) -> str:
    """Returns each skill bot's win rate a seat, the skill gap and the share of luck."""
    rows = [
        [escape(r["bot"]), str(r["seats"]), _rate({"rate": r["win_rate"], "ci95": r["ci95"]})]
        for r in skill["bots"]
    ]
    table = _table(["bot", "seats", "win rate a seat"], rows)
    return f"{table}<p>skill gap {skill['skill_gap']:.3f}; share of luck {skill['luck_share']:.3f}</p>"


def html_page(report: JSONObject) -> str:
    """Returns the whole report page (no outside file, script or font)."""
    plots = all_plots(report)
    title = escape(f"{report['title']}: designer's report")
    seats = escape(", ".join(report["seats"]))
    parts = [
        '<!doctype html><html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{CSS}</style></head><body>",
        f"<h1>{title}</h1>",
        f"<p>{report['games']:,} games a variant, {report['players']} players ({seats}), "
        f"seed {report['seed']}; "
        f"played in {report['run']['seconds']:.1f} s on {escape(str(report['run']['backend']))}. "
        "Figures are given with their 95% intervals; definitions in docs/report.md.</p>",
        "<h2>Figures</h2>",
        figures_table(report["variants"]),
        "<h2>Win rates</h2>",
        win_table(report["variants"]),
    ]
    if report["comparison"]:
        parts += ["<h2>Variants compared</h2>", comparison_table(report)]
    if report.get("skill"):
        parts += ["<h2>Skill gap</h2>", skill_table(report["skill"])]
    parts.append('<h2>Plots</h2><div class="plots">')
    parts += [f'<div class="plot" id="plot-{name}">{svg}</div>' for name, svg in plots.items()]
    parts.append("</div></body></html>\n")
    return "\n".join(parts)
