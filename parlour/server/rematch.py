"""A rematch's accepts (issue 32, ruling S-3): a "play again" table waits until every person accepted.

The table is made at the first request with status "waiting" (the asker accepted by asking); each
other person's seat has ``accepted`` false until they accept. The last accept starts the game (status
"playing", ``started`` and the first deadline from then); one decline cancels it (status "declined",
``declined_by``); a week (EXPIRES) after its making without the last accept, the scheduler declines
it with ``declined_by`` null (``expire_due``). Each is one transaction with compare-and-sets on the
stored status, so of several server processes on one database the answers agree; this module holds
those transactions and what the pages are told, the table's side is ``accepting.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, func, select, update

from parlour.server.storage import SeatRecord, SeatRow, TableRecord, TableRow

WAITING = "waiting"
"""A rematch's status until its last person accepts."""
DECLINED = "declined"
"""A rematch's status once a person declined it, or nobody answered in time (``declined_by`` null):
never played, never rated."""
EXPIRES = 7 * 86_400.0
"""How long a rematch waits for its accepts (seconds from its making: a week); then it is declined."""
EXPIRED = "the rematch expired: not everyone accepted in a week"
"""What is said of a rematch the scheduler declined because its time ran out (``declined_by`` null)."""


def waiting_for(record: TableRecord) -> list[int]:
    """Returns the seats whose persons are still to accept the rematch (none unless it waits)."""
    if record.status != WAITING:
        return []
    return [s.seat for s in record.seats if s.kind == "human" and not s.accepted]


def called(seat: SeatRecord, names: Sequence[str]) -> str:
    """Returns how a refusal names a seat's person: the name they gave, else the game's ("seat 2")."""
    return seat.name or names[seat.seat]


def joined(words: Sequence[str]) -> str:
    """Returns "A", "A and B", "A, B and C"."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def waiting_text(record: TableRecord, names: Sequence[str]) -> str:
    """Returns the one line refusing a move at a table that is not played: who is still to accept,
    or who declined."""
    if record.status == DECLINED and record.declined_by is None:
        return EXPIRED
    if record.status == DECLINED and record.declined_by is not None:
        return f"{called(record.seats[record.declined_by], names)} declined the rematch: it is not played"
    who = [called(record.seats[s], names) for s in waiting_for(record)]
    return f"waiting for {joined(who)} to accept the rematch"


def rematch_json(record: TableRecord) -> dict[str, object]:
    """Returns what the finished table's page is told of its rematch: the table, its status, the
    seats (of the new table) still to accept, and the seat that declined."""
    return {
        "table": record.id,
        "status": record.status,
        "waiting_for": waiting_for(record),
        "declined_by": record.declined_by,
    }


@dataclass
class Answered:
    """A rematch as stored after an answer: its status, each seat's accept, who declined, and when
    its game started (None: not yet)."""

    status: str
    accepted: list[bool]
    declined_by: int | None
    started: float | None
    deadline: float | None


def store_answer(
    engine: Engine, table_id: str, seat: int, accept: bool, now: float, deadline: float | None
) -> Answered:
    """Stores a person's accept or decline of a waiting rematch in one transaction (run in the store's
    writer thread) and returns the rematch as it then stands. An accept that leaves no person to
    accept starts the game: status "playing", ``started`` now and the first ``deadline`` (computed by
    the table from this moment). Each change is a compare-and-set on status "waiting", so an accept
    after a decline, or a second start, changes nothing. The table's row is written first (a no-op
    update), so answers to one rematch on several processes take turns: under READ COMMITTED two last
    accepts would each count the other's seat as not yet accepted, and neither would start the game."""
    with engine.begin() as connection:
        waiting = (TableRow.id == table_id) & (TableRow.status == WAITING)
        connection.execute(update(TableRow).where(waiting).values(revision=TableRow.revision + 1))
        if accept:
            connection.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .where(select(TableRow.id).where(waiting).exists())
                .values(accepted=True)
            )
            left = connection.execute(
                select(func.count())
                .select_from(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.kind == "human", SeatRow.accepted.is_(False))
            ).scalar()
            if not left:
                connection.execute(
                    update(TableRow).where(waiting).values(status="playing", started=now, deadline=deadline)
                )
        else:
            connection.execute(update(TableRow).where(waiting).values(status=DECLINED, declined_by=seat))
        return _answered(connection, table_id)


def expire_due(engine: Engine, now: float, limit: int) -> list[str]:
    """Declines the waiting rematches whose time to be accepted ran out (``expires`` passed), with
    ``declined_by`` null, and returns their ids (run in the store's writer thread). Each is a
    compare-and-set on status "waiting": of several schedulers on one database exactly one expires a
    rematch, and one whose last accept came first stays in play."""
    with engine.begin() as connection:
        due = connection.execute(
            select(TableRow.id).where(TableRow.status == WAITING, TableRow.expires <= now).limit(limit)
        ).scalars()
        expired = []
        for table_id in list(due):
            done = connection.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == WAITING)
                .values(status=DECLINED, declined_by=None, revision=TableRow.revision + 1)
            )
            if done.rowcount == 1:
                expired.append(table_id)
        return expired


def _answered(connection: Connection, table_id: str) -> Answered:
    """Returns a rematch's stored answers, read in the answer's transaction."""
    row = connection.execute(
        select(TableRow.status, TableRow.declined_by, TableRow.started, TableRow.deadline).where(
            TableRow.id == table_id
        )
    ).one()
    accepted = connection.execute(
        select(SeatRow.accepted).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
    ).scalars()
    return Answered(row.status, [bool(a) for a in accepted], row.declined_by, row.started, row.deadline)


def stored_rematch(engine: Engine, table_id: str) -> dict[str, object] | None:
    """Returns ``rematch_json`` of a stored table, read from the database (None: no such table); for a
    finished table read back from storage, whose rematch is not in memory."""
    with engine.connect() as connection:
        row = connection.execute(
            select(TableRow.status, TableRow.declined_by).where(TableRow.id == table_id)
        ).one_or_none()
        if row is None:
            return None
        seats = connection.execute(
            select(SeatRow.seat, SeatRow.kind, SeatRow.accepted)
            .where(SeatRow.table_id == table_id)
            .order_by(SeatRow.seat)
        ).all()
    waiting = [s.seat for s in seats if s.kind == "human" and not s.accepted] if row.status == WAITING else []
    return {"table": table_id, "status": row.status, "waiting_for": waiting, "declined_by": row.declined_by}
