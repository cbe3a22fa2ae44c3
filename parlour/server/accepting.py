"""A person's answer to a rematch (ruling S-3): accept with one click, or decline, with the seat's
token at the new table. The stored answer (rematch.store_answer, one transaction) is the truth; the
table in memory adopts it, starts the game on the last accept, and tells its connections."""

from __future__ import annotations

from parlour.server.rematch import DECLINED, WAITING, rematch_json, store_answer, waiting_text
from parlour.server.tables import LiveTable, Refusal


async def answer(table: LiveTable, seat: int | None, accept: bool) -> dict[str, object]:
    """Records ``seat``'s accept (or decline) of the rematch ``table`` is; returns the rematch as it
    then stands (rematch.rematch_json). Idempotent: a second accept, or a second decline, changes
    nothing and answers the same. Refuses with one line a spectator or visitor (403), an accept of a
    declined rematch, a decline of one in play, and a table that is no rematch waiting (409)."""
    if seat is None:
        raise Refusal(403, "only a seated person accepts or declines a rematch")
    began = changed = False
    async with table.lock:
        record = table.record  # read under the lock: a node's catch-up may have replaced it
        if not _settled(table, seat, accept):
            changed = True
            now = table.clock.now()
            deadline = table._deadline(table.state, now) if accept else None
            store = table.store
            answered = await store.write(
                store_answer, store.engine, record.id, seat, accept, now, deadline, table=record.id
            )
            began = record.status == WAITING and answered.status == "playing"
            record.status, record.declined_by = answered.status, answered.declined_by
            for stored, accepted in zip(record.seats, answered.accepted, strict=True):
                stored.accepted = accepted
            if began and answered.started is not None:
                record.started, record.deadline = answered.started, answered.deadline
                table.start(answered.started)
    if began:
        await table.began(seat)
    elif changed:
        await table.broadcast()
    return rematch_json(record)


def _settled(table: LiveTable, seat: int, accept: bool) -> bool:
    """Returns whether the answer changes nothing (given already, or a decline of a declined rematch);
    refuses one the table cannot take."""
    record = table.record
    if record.status == WAITING:
        return accept and record.seats[seat].accepted
    if record.status == DECLINED:
        if accept:
            names = [table.state.seat_name(s) for s in range(record.players)]
            raise Refusal(409, waiting_text(record, names))
        return True
    if record.started is None:  # made in the lobby, or a rematch of one person that began at once
        raise Refusal(409, "this table is not waiting for anyone to accept")
    if not accept:
        raise Refusal(409, "the rematch has begun: it can no longer be declined")
    return True
