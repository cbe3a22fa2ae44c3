"""A seat's share of a game's result: most for a (shared) win, the rest by its part of the scores."""

from __future__ import annotations

from parlour.core.state import GameState

WIN_WEIGHT = 0.75
"""The part of a seat's share that a win gives (split among tied winners); the rest is its score share."""
SCORES = {
    "venture": "profits",
    "im-the-boss": "money",
    "venus-needs-men": "population collected",
    "embers": "cards taken",
}
"""What each game's score is, as docs/analysis.md states it (every game's share is defined alike)."""


def shares(state: GameState) -> list[float]:
    """Returns each seat's share, summing to 1: WIN_WEIGHT split among the winners plus the rest in
    proportion to the scores (equal parts when nobody scored). An unfinished game (a playout cut off)
    is judged by its estimate, the leaders taking the win."""
    over = state.is_over()
    scores = [max(0.0, float(x)) for x in (state.scores() if over else state.estimate())]
    players = len(scores)
    if over:
        winners = state.winners()
    else:
        best = max(scores)
        winners = [s for s, x in enumerate(scores) if x == best]
    total = sum(scores)
    rest = 1.0 - WIN_WEIGHT
    return [
        (WIN_WEIGHT / len(winners) if s in winners else 0.0)
        + rest * (x / total if total > 0 else 1.0 / players)
        for s, x in enumerate(scores)
    ]
