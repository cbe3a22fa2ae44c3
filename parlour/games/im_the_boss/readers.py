"""Typed readers for the decisions of an I'm the Boss! position: each kind's data, seats and window type.

Legal play asks seats in fixed orders (docs/negotiation.md): the bargaining
window lists seats from the Boss clockwise (only the Boss once everyone has
passed), a Stop window the other seats from the player's left, the closing
round the seats still to pass from the Boss's left.  A window only ever loses
seats as they pass, so it lists a part of that order, in that order, never
empty (the last pass settles it at once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.decisions import RawDecision
from parlour.core.errors import PositionError
from parlour.core.positions import short_key
from parlour.games.im_the_boss.phases import (
    ARRIVE,
    BARGAIN,
    CLOSING,
    LIMIT,
    MARKER,
    RESPOND,
    TURN,
    clockwise,
    others_from_left,
)

if TYPE_CHECKING:
    from parlour.games.im_the_boss.state import BossState

OPEN_WINDOWS = (BARGAIN, RESPOND)
"""The decisions every listed seat may act on at once."""
DATA_FIELDS = {BARGAIN: {"quiet"}}
"""The data each kind holds (the others hold none)."""


def _in_order(seats: list[int], order: list[int]) -> bool:
    """Returns whether ``seats`` keeps some of ``order``'s seats in the same order."""
    rest = iter(order)
    return all(seat in rest for seat in seats)


def read_data(decision: RawDecision, path: str) -> None:
    """Checks a decision's data (exact keys and types) and whether it is an open window."""
    fields = DATA_FIELDS.get(decision.kind, set())
    extra = sorted(set(decision.data) - fields)
    if extra:
        raise PositionError(f"{path}.data.{short_key(extra[0])}", "unknown field")
    for name in sorted(fields):
        if not isinstance(decision.data.get(name), bool):
            raise PositionError(f"{path}.data.{name}", "must be true or false")
    if decision.concurrent != (decision.kind in OPEN_WINDOWS):
        expected = "true" if decision.kind in OPEN_WINDOWS else "false"
        raise PositionError(f"{path}.concurrent", f"must be {expected} for a {decision.kind} decision")


def expected_seats(state: BossState, decision: RawDecision) -> tuple[list[int], str, bool]:
    """Returns the order a decision asks seats in, what it is, and whether it must be that order whole."""
    players, nego = state.players, state.nego
    kind = decision.kind
    if kind == MARKER:
        return [(state.first - 1) % players], "the player to the first player's right", True
    if kind in (TURN, ARRIVE, LIMIT):
        return [state.current], f"the current seat {state.current}", True
    assert nego is not None  # the stack's shape is checked first: these need a negotiation
    if kind == BARGAIN and decision.data["quiet"]:
        return [nego.boss], f"only the Boss (seat {nego.boss}) once everyone has passed", True
    if kind == BARGAIN:
        return clockwise(nego.boss, players), f"seats from the Boss (seat {nego.boss}) clockwise", False
    if kind == CLOSING:
        return others_from_left(nego.boss, players), "the seats after the Boss still to pass", False
    assert nego.pending is not None
    by = nego.pending.by
    return others_from_left(by, players), f"other seats from seat {by}'s left", False


def read_seats(state: BossState, decision: RawDecision, path: str) -> None:
    """Checks that a decision asks the seats legal play asks, in their order."""
    order, what, whole = expected_seats(state, decision)
    seats = decision.seats
    if whole:
        fits = seats == order
    elif decision.kind == CLOSING:
        # Sequential: only the first seat acts and passes, so the seats left are the order's tail.
        fits = bool(seats) and seats == order[len(order) - len(seats) :]
    else:
        fits = bool(seats) and _in_order(seats, order)
    if not fits:
        raise PositionError(f"{path}.seats", f"must list {what}, in order, not {seats}")


def read_stack(state: BossState) -> None:
    """Checks every decision's data, window type and seats (the stack's shape is checked already)."""
    for i, decision in enumerate(state.stack):
        read_data(decision, f"decisions[{i}]")
    for i, decision in enumerate(state.stack):
        read_seats(state, decision, f"decisions[{i}]")


__all__ = ["read_stack"]
