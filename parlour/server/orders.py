"""A seat's orders (a move, a window setting, a stand-in, a name, a vote), carried out where the table
is owned: here on a single server or at a cluster's owning node, else handed to the owner (cluster.py).

The seat is the one the connection's token (or account) opened on the node that received the order;
the owner trusts it (the nodes trust each other and their Redis: docs/cluster.md).
"""

from __future__ import annotations

from parlour.server.hall import Hall
from parlour.server.tables import LiveTable, Refusal
from parlour.server.votes import vote_replace

ORDERS = ("act", "ask", "auto_pass", "stand_in", "name", "replace")
"""The orders a seat sends that change its table (chat is stored by any node: it moves nothing)."""


async def order(hall: Hall, table: LiveTable, seat: int, kind: str, message: dict[str, object]) -> int | None:
    """Carries out a seat's order here if this server owns the table, else at its owner; returns the
    new version of a move (None for the other orders); refuses with one line."""
    if kind not in ORDERS:
        raise Refusal(400, f"unknown message type {kind[:40]!r}")
    if hall.forward is None or hall.owns(table.record.id):
        return await carry_out(table, seat, kind, message)
    return await hall.forward(table.record.id, seat, kind, message)


async def carry_out(table: LiveTable, seat: int, kind: str, message: dict[str, object]) -> int | None:
    """Carries out a seat's order at the table here (the owner's side)."""
    if kind == "act":
        return await table.act(seat, message.get("action"), message.get("version"))
    if kind == "ask":
        await table.set_ask(seat, message.get("mode"), message.get("cards"))
    elif kind == "auto_pass":  # the older switch: on is "playable", off is "always"
        await table.set_auto_pass(seat, message.get("on"))
    elif kind == "stand_in":
        await table.set_stand_in(seat, message.get("seat"), message.get("bot"))
    elif kind == "name":
        await table.set_name(seat, message.get("text"))
    elif kind == "replace":
        await vote_replace(table, seat, message.get("seat"))
    else:
        raise Refusal(400, f"unknown message type {kind[:40]!r}")
    return None
