""" "My games": every table where a seat is kept in an account, the most urgent first (``GET
/api/me/tables``).

Two queries by the index on ``seats.account_id`` (the tables, and all their seats), then whose turn it
is from the hall's table in memory where it has the stored version, else from storage (``tables.asked``,
written with each commit: a table not in memory, or one another server process moved on): no game is
replayed for it. A table stored before migration 0012 and not loaded since has ``deciders`` and
``yours`` null. A rematch waiting for its accepts, or declined, asks nobody. docs/server.md, "My games".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

from sqlalchemy import Engine, select, union
from sqlalchemy.orm import Session

from parlour.core.registry import load_game
from parlour.server.hall import Hall
from parlour.server.rematch import DECLINED, WAITING
from parlour.server.storage import MoveRow, SeatRow, TableRow

MOST = 200
"""The most tables one answer lists (the finished ones are cut first)."""


@dataclass
class Stored:
    """What storage says of one of the account's tables and its seats."""

    game: str
    players: int
    status: str
    created: float
    pace: str
    move_seconds: float | None
    deadline: float | None
    next_table: str | None
    rated: bool
    ranks: list[int] | None
    version: int
    asked: list[int] | None
    """The seats the game waits for, as last committed (None: unknown, stored before 0012)."""
    declined_by: int | None
    ended: float | None
    """The last move's time (a finished table's end)."""
    seats: list[dict[str, object]] = field(default_factory=list)
    mine: list[int] = field(default_factory=list)
    """The seats kept in the account."""
    waiting_for: list[int] = field(default_factory=list)
    """A waiting rematch's seats still to accept (stored)."""


def stored_tables(engine: Engine, account_id: int) -> dict[str, Stored]:
    """Returns the account's tables as stored, by id (those in play and the newest MOST finished ones):
    two queries, both by ``seats.account_id``."""
    kept = select(SeatRow.table_id).where(SeatRow.account_id == account_id)
    finished = (  # only the newest MOST finished ones can be listed: a long history costs nothing more
        select(TableRow.id)
        .where(TableRow.id.in_(kept), TableRow.status == "over")
        .order_by(TableRow.created.desc())
        .limit(MOST)
        .subquery()
    )
    chosen = union(
        select(TableRow.id).where(TableRow.id.in_(kept), TableRow.status != "over"), select(finished.c.id)
    ).subquery()
    last_move = (
        select(MoveRow.at)
        .where(MoveRow.table_id == TableRow.id)
        .order_by(MoveRow.number.desc())
        .limit(1)
        .scalar_subquery()
        .label("ended")
    )
    with Session(engine) as s:
        tables = s.execute(
            select(
                TableRow.id,
                TableRow.game,
                TableRow.players,
                TableRow.status,
                TableRow.created,
                TableRow.pace,
                TableRow.move_seconds,
                TableRow.deadline,
                TableRow.next_table,
                TableRow.rated,
                TableRow.ranks,
                TableRow.version,
                TableRow.asked,
                TableRow.declined_by,
                last_move,
            ).where(TableRow.id.in_(select(chosen.c.id)))
        ).all()
        seats = s.execute(
            select(
                SeatRow.table_id,
                SeatRow.seat,
                SeatRow.kind,
                SeatRow.bot,
                SeatRow.name,
                SeatRow.account_id,
                SeatRow.accepted,
            )
            .where(SeatRow.table_id.in_(select(chosen.c.id)))
            .order_by(SeatRow.table_id, SeatRow.seat)
        ).all()
    found = {row.id: Stored(**{k: v for k, v in row._mapping.items() if k != "id"}) for row in tables}
    for table_id, seat, kind, bot, name, owner, accepted in seats:
        entry = found.get(table_id)
        if entry is None:
            continue
        entry.seats.append({"seat": seat, "kind": kind, "bot": bot, "name": name, "called": None})
        if owner == account_id:
            entry.mine.append(seat)
        if entry.status == WAITING and kind == "human" and not accepted:
            entry.waiting_for.append(seat)
    return found


@cache
def title(game: str) -> str:
    """Returns a game's title ("Venus Needs Men!"), or its name if the server no longer has it."""
    try:
        return load_game(game).title
    except Exception:  # a game removed since the table was played: its name is all there is
        return game


def my_tables(hall: Hall, stored: dict[str, Stored], now: float) -> list[dict[str, object]]:
    """Returns the account's tables, most urgent first: where it is asked now (least time left first),
    the others in play (least time left first), then the finished ones (newest first); at most MOST."""
    listed = [_entry(hall, table_id, found, now) for table_id, found in stored.items()]
    listed.sort(key=_urgency)
    return listed[:MOST]


def _entry(hall: Hall, table_id: str, found: Stored, now: float) -> dict[str, object]:
    """Returns one table as "my games" lists it: from memory where the hall has it at the stored
    version and status, else from storage (another process may have moved it on)."""
    live = hall.tables.get(table_id)
    if live is not None and (live.record.version, live.record.status) != (found.version, found.status):
        live = None  # this process's copy is stale (or newer than what was read): storage decides
    seats, status, version, deadline = found.seats, found.status, found.version, found.deadline
    next_table, ended = found.next_table, found.ended
    waiting, declined_by = found.waiting_for, found.declined_by
    turn: int | None = None
    turn_player: int | None = None
    deciders: list[int] | None = None
    unplayed = status in (WAITING, DECLINED)
    if live is not None:
        state, record = live.state, live.record
        over = state.is_over()
        seats = [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "called": state.seat_name(s.seat)}
            for s in record.seats
        ]
        status, version, deadline = record.status, record.version, record.deadline
        next_table = record.next_table
        turn, turn_player = state.turns_played(), state.turn_player()
        deciders = [] if over or unplayed else list(state.deciders())
        winners = list(state.winners()) if over else []
        if record.moves:
            ended = record.moves[-1].at
    else:
        over = status == "over"
        deciders = [] if over or unplayed else (None if found.asked is None else list(found.asked))
        winners = [seat for seat, place in enumerate(found.ranks or []) if place == 1] if over else []
    deadline = None if over or unplayed else deadline
    mine = found.mine
    return {
        "table": table_id,
        "game": found.game,
        "title": title(found.game),
        "players": found.players,
        "pace": found.pace,
        "move_seconds": found.move_seconds,
        "rated": found.rated,
        "status": status,
        "over": over,
        "version": version,
        "created": found.created,
        "ended": ended if over else None,
        "turn": turn,
        "turn_player": turn_player,
        "deciders": deciders,
        "waiting_for": list(waiting) if status == WAITING else [],
        "declined_by": declined_by if status == DECLINED else None,
        "seats": seats,
        "mine": mine,
        "mine_names": [_called(seats, seat) for seat in mine],
        "yours": None if deciders is None else any(seat in deciders for seat in mine),
        "winners": winners,
        "deadline": deadline,
        "time_left": None if deadline is None else max(0.0, deadline - now),
        "next_table": next_table,
    }


def _called(seats: list[dict[str, object]], seat: int) -> str:
    """Returns how a seat is called: its person's name, else the game's name of it, else "seat N"."""
    for found in seats:
        if found["seat"] == seat:
            return str(found["name"] or found["called"] or f"seat {seat}")
    return f"seat {seat}"


def _urgency(entry: dict[str, object]) -> tuple[int, float]:
    """Returns a table's place in "my games": your turn, then in play, then rematches waiting for
    their accepts (newest first), then finished or declined (newest first)."""
    if entry["over"] or entry["status"] == DECLINED:
        ended = entry["ended"] or entry["created"]
        return 3, -_number(ended)
    if entry["status"] == WAITING:
        return 2, -_number(entry["created"])
    left = entry["time_left"]
    return (0 if entry["yours"] else 1), (math.inf if left is None else _number(left))


def _number(value: object) -> float:
    """Returns a time of an entry as a float (an int or float; anything else counts as 0)."""
    return float(value) if isinstance(value, int | float) else 0.0
