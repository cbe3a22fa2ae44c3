"""The decisions of a game of I'm the Boss! (their kinds on the decision stack) and seat orders."""

from __future__ import annotations

MARKER = "marker"
"""The player to the first player's right places the marker."""
TURN = "turn"
"""Try the deal where the marker stands, or roll."""
ARRIVE = "arrive"
"""After the roll: try this deal, or draw three."""
LIMIT = "limit"
"""Over 12 cards after drawing: discard one, or play a Recruitment triple."""
BARGAIN = "bargain"
"""The negotiation: an open window, every seat may act (ordered from the Boss)."""
RESPOND = "respond"
"""After a Travel, Boss card or triple: the other seats may answer with a Stop."""
CLOSING = "closing"
"""The Boss called the deal: each other seat from the Boss's left may still play or pass."""


def clockwise(first: int, players: int) -> list[int]:
    """Returns every seat in clockwise order starting with ``first``."""
    return [(first + i) % players for i in range(players)]


def others_from_left(seat: int, players: int) -> list[int]:
    """Returns the other seats in clockwise order starting at ``seat``'s left."""
    return [(seat + i) % players for i in range(1, players)]
