"""The report's figures over many traced games (named as Ludii and TAG name them, docs/report.md)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence

from parlour.bots.simulation import wilson
from parlour.core.positions import JSONObject
from parlour.report.trace import GameTrace

BINS = 20
"""The most bars a histogram has."""


def proportion(successes: float, trials: int) -> JSONObject:
    """Returns a proportion with its 95% Wilson interval."""
    low, high = wilson(successes, trials)
    return {"rate": successes / trials if trials else 0.0, "ci95": [low, high], "n": trials}


def mean_ci(values: Sequence[float]) -> JSONObject:
    """Returns a mean, its standard deviation and a normal 95% interval of the mean."""
    if not values:
        return {"mean": 0.0, "sd": 0.0, "ci95": [0.0, 0.0], "n": 0}
    mean = math.fsum(values) / len(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(values))
    return {"mean": mean, "sd": sd, "ci95": [mean - half, mean + half], "n": len(values)}


def histogram(values: Sequence[float], bins: int = BINS) -> JSONObject:
    """Returns equal-width bins over the values' range (whole-number edges for whole numbers)."""
    if not values:
        return {"edges": [], "counts": []}
    low, high = min(values), max(values)
    whole = all(float(v).is_integer() for v in values)
    width = (high - low) / bins if high > low else 1.0
    if whole:
        width = max(1.0, math.ceil(width))
    count = max(1, min(bins, math.floor((high - low) / width) + 1))
    counts = [0] * count
    for v in values:
        counts[min(count - 1, int((v - low) // width))] += 1
    return {"edges": [low + i * width for i in range(count + 1)], "counts": counts}


def balance(rates: Sequence[float]) -> float:
    """Returns Ludii's Balance: 1 minus the gap between the highest and the lowest win rate (1: every
    seat or place wins as often)."""
    return 1.0 - (max(rates) - min(rates)) if rates else 1.0


def margins(trace: GameTrace) -> tuple[float, float]:
    """Returns a game's winning margin (the winners' lowest score minus the best other score; 0 if all
    share the win) and its score spread (highest minus lowest score)."""
    win = [x for x, w in zip(trace.scores, trace.wins, strict=True) if w > 0]
    rest = [x for x, w in zip(trace.scores, trace.wins, strict=True) if w == 0]
    margin = min(win) - max(rest) if win and rest else 0.0
    return margin, max(trace.scores) - min(trace.scores)


def column_means(rows: Sequence[Sequence[float]]) -> list[float]:
    """Returns the mean of each column of equal-length rows."""
    return [math.fsum(column) / len(rows) for column in zip(*rows, strict=True)] if rows else []


def outcome(traces: Sequence[GameTrace], seats: Sequence[str]) -> JSONObject:
    """Returns win rates by seat and by place in the turn order (AdvantageP1: the first's), Balance,
    shared wins (Drawishness) and why games ended."""
    n = len(traces)
    players = len(seats)
    by_seat = [proportion(sum(t.wins[s] for t in traces), n) | {"bot": seats[s]} for s in range(players)]
    by_place = [proportion(sum(t.wins[(t.first + p) % players] for t in traces), n) for p in range(players)]
    shared = sum(1 for t in traces if sum(1 for w in t.wins if w > 0) > 1)
    ends = Counter(_end_kind(t.end) for t in traces)
    return {
        "win_rate_by_seat": by_seat,
        "win_rate_by_place": by_place,
        "advantage_p1": by_place[0] if by_place else proportion(0, 0),
        "balance_by_place": balance([row["rate"] for row in by_place]),
        "balance_by_seat": balance([row["rate"] for row in by_seat]),
        "drawishness": proportion(shared, n),
        "end_reasons": [
            {"reason": r, "games": c} for r, c in sorted(ends.items(), key=lambda i: (-i[1], i[0]))
        ],
    }


def _end_kind(sentence: str) -> str:
    """Returns an end sentence with its numbers blurred, so like ends count together (names stay: Venus
    Needs Men!'s ends name the winning planet)."""
    words = ["N" if any(c.isdigit() for c in w) else w for w in sentence.split()]
    return " ".join(words)[:160] or "(not said)"


def scores(traces: Sequence[GameTrace]) -> JSONObject:
    """Returns score means by seat, winning margins and spreads (Ludii's ScoreDifference), histograms."""
    pairs = [margins(t) for t in traces]
    margin = [m for m, _ in pairs]
    spread = [s for _, s in pairs]
    players = len(traces[0].scores) if traces else 0
    return {
        "mean_score_by_seat": [mean_ci([t.scores[s] for t in traces]) for s in range(players)],
        "winning_margin": mean_ci(margin),
        "winning_margin_histogram": histogram(margin),
        "score_spread": mean_ci(spread),
    }


def length(traces: Sequence[GameTrace]) -> JSONObject:
    """Returns game length in turns and actions (DurationTurns, DurationActions), their histograms,
    actions and decisions per turn, and the branching factor (BranchingFactorAverage and Maximum,
    DecisionMoves, TAG's ActionSpace) overall and by tenth of the game."""
    turns = [float(t.turns) for t in traces]
    actions = [float(t.actions) for t in traces]
    all_actions = sum(t.actions for t in traces)
    return {
        "turns": mean_ci(turns),
        "turns_histogram": histogram(turns),
        "actions": mean_ci(actions),
        "actions_histogram": histogram(actions),
        "actions_per_turn": mean_ci([t.actions / t.turns for t in traces if t.turns]),
        "decisions_per_turn": mean_ci([t.decisions / t.turns for t in traces if t.turns]),
        "decision_moves": proportion(sum(t.decisions for t in traces), all_actions),
        "branching_factor": mean_ci([t.branching for t in traces]),
        "branching_factor_max": max((t.branching_max for t in traces), default=0),
        "branching_by_tenth": column_means([t.branching_tenths for t in traces]),
    }


def arc_figures(traces: Sequence[GameTrace]) -> JSONObject:
    """Returns the games' arc by the estimate: LeadChange, Drama, Decisiveness and the share of turns
    the eventual winner led in each tenth of the game."""
    n = len(traces)
    comebacks = sum(1 for t in traces if t.behind > 0)
    return {
        "lead_changes": mean_ci([float(t.lead_changes) for t in traces]),
        "lead_changes_histogram": histogram([float(t.lead_changes) for t in traces]),
        "winner_behind": mean_ci([t.behind for t in traces]),
        "comeback_games": proportion(comebacks, n),
        "drama": mean_ci([t.drama for t in traces if t.behind > 0]),
        "decisiveness": mean_ci([t.decisive for t in traces]),
        "winner_leads_by_tenth": column_means([t.leads_tenths for t in traces]),
    }


def kingmaking(traces: Sequence[GameTrace]) -> JSONObject:
    """Returns the share of the games looked at with a kingmaking decision in their last round, and
    such decisions per game (``kingmaking.py``)."""
    looked = [t for t in traces if t.kingmaking is not None]
    found = [t.kingmaking or 0 for t in looked]
    return {
        "games_looked_at": len(looked),
        "kingmaking_games": proportion(sum(1 for f in found if f > 0), len(looked)),
        "decisions_per_game": mean_ci([float(f) for f in found]),
    }


def variant_metrics(traces: Sequence[GameTrace], seats: Sequence[str]) -> JSONObject:
    """Returns every figure of one variant's games."""
    return {
        "games": len(traces),
        "outcome": outcome(traces, seats),
        "scores": scores(traces),
        "length": length(traces),
        "arc": arc_figures(traces),
        "kingmaking": kingmaking(traces),
    }
