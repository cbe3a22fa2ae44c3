"""The orders in which I'm the Boss! asks seats (docs/negotiation.md)."""

from __future__ import annotations

from functools import cache


def clockwise(first: int, players: int) -> list[int]:
    """Returns every seat in clockwise order starting with ``first``."""
    return list(clockwise_order(first, players))


def others_from_left(seat: int, players: int) -> list[int]:
    """Returns the other seats in clockwise order starting at ``seat``'s left."""
    return list(clockwise_order(seat, players)[1:])


@cache
def clockwise_order(first: int, players: int) -> tuple[int, ...]:
    """Returns (once, then shared) every seat in clockwise order starting with ``first``."""
    return tuple((first + i) % players for i in range(players))
