"""A seat's share of a game's result: half by its finishing place, half by its part of the scores."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.state import GameState

PLACE_WEIGHT = 0.5
"""The part of a seat's share that its finishing place gives (place points, below); the rest is its
score share. Chosen on the trust games (docs/analysis.md, "Measured"): with most of the share on the
win alone, a seat far behind had almost nothing at stake, and its poorest decisions cost it nothing."""
SCORES = {
    "venture": "profits",
    "im-the-boss": "money",
    "venus-needs-men": "population collected",
    "embers": "cards taken",
}
"""What each game's score is, as docs/analysis.md states it (every game's share is defined alike)."""


def shares(state: GameState) -> list[float]:
    """Returns each seat's share, summing to 1: PLACE_WEIGHT times its place points plus the rest times
    its score share (equal parts when nobody scored). An unfinished game (a playout cut off) is judged
    by its estimate, the leaders taking the win."""
    over = state.is_over()
    raw = [float(x) for x in (state.scores() if over else state.estimate())]
    if over:
        winners = list(state.winners())
    else:
        best = max(raw)
        winners = [s for s, x in enumerate(raw) if x == best]
    places = place_points(raw, winners)
    scores = [max(0.0, x) for x in raw]  # the score share counts no negative score
    total = sum(scores)
    players = len(scores)
    rest = 1.0 - PLACE_WEIGHT
    return [
        PLACE_WEIGHT * places[s] + rest * (x / total if total > 0 else 1.0 / players)
        for s, x in enumerate(scores)
    ]


def place_points(scores: Sequence[float], winners: Sequence[int]) -> list[float]:
    """Returns each seat's place points, summing to 1: one point for each other seat it finished ahead
    of, half a point for each it tied with, over the points of all seats (N(N-1)/2). The winners tie
    for first, ahead of every other seat whatever the scores (a game's tie-breaks decide its winners;
    a shared win is a tie), the others follow by their scores; with four players 1/2, 1/3, 1/6 and 0
    from first to last."""
    players = len(scores)
    if players < 2:
        return [1.0] * players
    ranks = [(True, 0.0) if s in winners else (False, scores[s]) for s in range(players)]
    pairs = players * (players - 1) / 2
    return [sum(_ahead(ranks[s], ranks[o]) for o in range(players) if o != s) / pairs for s in range(players)]


def _ahead(mine: tuple[bool, float], other: tuple[bool, float]) -> float:
    """Returns a seat's point against another: 1 ahead of it, 1/2 tied, 0 behind."""
    return 1.0 if mine > other else 0.5 if mine == other else 0.0
