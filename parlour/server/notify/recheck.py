"""The check made again when a message is sent: a queued message goes only to a person still asked at
its table with no connection of their seat open (they may have moved, the window may have closed, the
table may have ended, or a tab of theirs may be open now); otherwise it is dropped, never sent. A
digest keeps only the tables that still ask. Who is asked is the table's (``AskedNow``, given by the
app: the tables are above the outbox); the account's seats and the table's version and status are read
from the database, so a table another server moved is read again first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import select

from parlour.server.notify.outbox import NotificationRow, entries
from parlour.server.storage import SeatRow, Store, TableRow

AskedNow = Callable[[str, int, Sequence[int]], bool]
"""Whether any of these seats of the table (stored at this version) is asked now, by no connection of
its own shown it, and not answered for by its setting."""


@dataclass(frozen=True)
class Place:
    """An account's seats at a table, and the table's stored version and status."""

    table_id: str
    version: int
    playing: bool
    seats: tuple[int, ...]


def tables_of(payload: dict[str, object], table_id: str | None) -> list[str]:
    """Returns the tables a message is about: its own, or a digest's list."""
    if table_id is not None:
        return [table_id]
    return [str(t.get("table")) for t in entries(payload)]


def places(store: Store, notification: int) -> list[Place]:
    """Returns where the message's account sits at the message's tables (empty: the message is gone)."""
    with store.session() as s:
        row = s.get(NotificationRow, notification)
        if row is None:
            return []
        wanted = tables_of(dict(row.payload), row.table_id)
        found = s.execute(
            select(SeatRow.table_id, SeatRow.seat, TableRow.version, TableRow.status)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(SeatRow.table_id.in_(wanted), SeatRow.account_id == row.account_id)
        ).all()
    seats: dict[str, list[int]] = {}
    stored: dict[str, tuple[int, bool]] = {}
    for table_id, seat, version, status in found:
        seats.setdefault(table_id, []).append(seat)
        stored[table_id] = (version, status == "playing")
    return [
        Place(table, stored[table][0], stored[table][1], tuple(sorted(seats[table])))
        for table in wanted
        if table in stored
    ]


def still_asked(found: Sequence[Place], asked_now: AskedNow) -> list[str]:
    """Returns the tables among ``found`` that still ask the account (in the event loop: the tables'
    memory is read)."""
    return [p.table_id for p in found if p.playing and asked_now(p.table_id, p.version, p.seats)]


def narrowed(payload: dict[str, object], kept: Sequence[str]) -> dict[str, object]:
    """Returns a digest's payload with only the tables that still ask (another message's as it is)."""
    if payload.get("tables") is None:
        return payload
    return {**payload, "tables": [t for t in entries(payload) if t.get("table") in kept]}
