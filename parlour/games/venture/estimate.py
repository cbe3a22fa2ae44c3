"""How a game of Venture stands part-way through, for search: profits, and what the holdings will earn.

Search (``parlour/bots/ismcts.py``) stops its playouts some turns ahead and judges them by
``GameState.estimate()``. Holdings earn at every scoring still to come: each Profit card drawn and the
end-of-game scoring (rulebook, The Scoring of Profits). Counting them once, as if only the final scoring
were left, weighs a million banked as much as a conglomerate that will earn it five times over.
:func:`outlook` counts each seat's holdings once for the final scoring plus ``PER_CORPORATION`` times for
each corporation still to be taken (in the center and the stock): the game ends when the last one is
taken, and Profit cards turn up about that often (4.75 profit scorings in games of 54 corporations, 12
games of four ``quick`` bots), so a fresh game expects about six scorings of its holdings.
"""

from __future__ import annotations

from parlour.games.venture.scoring import holdings_profit
from parlour.games.venture.state import VentureState

PER_CORPORATION = 0.09
"""Profit-card scorings expected for each corporation still to be taken (center and stock)."""


def scorings_left(state: VentureState) -> float:
    """Returns how many scorings the holdings may still expect: the final one and the Profit cards'."""
    return 1.0 + PER_CORPORATION * (len(state.center) + len(state.stock))


def outlook(state: VentureState) -> list[float]:
    """Returns each seat's profits plus its holdings' profit times the scorings left (finished: scores)."""
    if state.over:
        return [float(p) for p in state.profits]
    times = scorings_left(state)
    return [p + times * holdings_profit(state, s) for s, p in enumerate(state.profits)]
