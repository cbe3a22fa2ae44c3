"""The orders in which I'm the Boss! asks seats (docs/negotiation.md)."""

from __future__ import annotations


def clockwise(first: int, players: int) -> list[int]:
    """Returns every seat in clockwise order starting with ``first``."""
    return [(first + i) % players for i in range(players)]


def others_from_left(seat: int, players: int) -> list[int]:
    """Returns the other seats in clockwise order starting at ``seat``'s left."""
    return [(seat + i) % players for i in range(1, players)]
