"""'Analyse this game' (issue 33): the analyses asked of finished tables, as stored, and the API's side.

Each finished table has at most one analysis per view ("seat": from each seat's information set, or
"hindsight": from the real cards), a row of the ``analyses`` table (migration 0014). A request queues
it; the server's analysis worker (analysing.py) claims the oldest queued one with a compare-and-set
(``claim_next``: of several server processes on one database exactly one runs it), keeps its lease
alive with its progress (``renew``) and stores the ``parlour-analysis/1`` document or a one-line error.
A claim whose lease lapsed (its process died or stopped) is claimed again: nothing lives only in memory.

The requesting address is kept only for the per-address limit: a keyed hash (the seed key's HMAC, so
the database alone does not tell the addresses), cleared once the limit's window has passed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    and_,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from parlour.core.positions import JSONObject, JSONValue
from parlour.server.bodies import optional_body
from parlour.server.clock import Clock
from parlour.server.hall import Hall
from parlour.server.limits import address_key
from parlour.server.storage import Base
from parlour.server.tables import LiveTable, Refusal

VIEWS = ("seat", "hindsight")
"""The views an analysis is made from: each seat's information set, or the real cards (labelled)."""
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
NONE = "none"
"""The status told of an analysis nobody asked for."""
LEASE = 60.0
"""How long a worker's claim keeps other workers off an analysis without being renewed (seconds)."""
TRIES = 3
"""How often an analysis is claimed before it fails (its worker's server stopped or died each time)."""
INTERRUPTED = "the analysis was interrupted too often; ask for it again later"
"""What an analysis claimed TRIES times without an end fails with."""
BOTS_ONLY = "a game between bots only is not analysed on the server: analyse its record with parlour analyse"
"""Why a table with no person's seat is refused (its analysis would only spend the server's CPU)."""
ERROR_LENGTH = 200
"""The longest error stored (one line)."""


@dataclass(frozen=True)
class AnalysisLimits:
    """What the analysis requests are held to (docs/server.md "Analyse this game")."""

    per_address: int = 20
    """New analyses one client address may ask for in each ``window``."""
    window: float = 3600.0
    queue: int = 50
    """Analyses queued at once, from everyone; beyond, a request is refused (503)."""


class AnalysisRow(Base):
    """An analysis of a finished table from one view: its status, progress, claim and result."""

    __tablename__ = "analyses"
    __table_args__ = (
        UniqueConstraint("table_id", "view", name="uq_analyses_table_view"),
        Index("ix_analyses_queue", "status", "requested"),
        Index("ix_analyses_requester", "requester", "requested"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    view: Mapped[str] = mapped_column(String(16))
    """"seat" or "hindsight" (VIEWS)."""
    status: Mapped[str] = mapped_column(String(16))
    """queued, running, done or failed."""
    judged: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    requested: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
    claim: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The token of the worker running it (its compare-and-sets name it)."""
    claimed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its worker last renewed the claim: it lapses ``LEASE`` seconds after."""
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The ``parlour-analysis/1`` document (JSON text), once done."""
    error: Mapped[str | None] = mapped_column(String(ERROR_LENGTH), nullable=True)
    """Why it failed: one line, no traceback."""
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How often a worker claimed it since it was queued (one that kills its server is not retried
    for ever: ``TRIES``)."""
    requester: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The keyed hash of the asking address (``address_hash``), cleared after the limit's window."""


@dataclass(frozen=True)
class Claimed:
    """An analysis a worker claimed: its row, table and view."""

    id: int
    table_id: str
    view: str
    attempts: int = 1
    """How often it was claimed since it was queued, this claim included."""


def address_hash(key: bytes, address: str) -> str:
    """Returns what the per-address limit stores of an address: its HMAC under the server's key."""
    return hmac.new(key, b"parlour-analysis-address:" + address.encode(), hashlib.sha256).hexdigest()[:32]


def one_line(text: str) -> str:
    """Returns an error as stored: its first line, printable, at most ERROR_LENGTH characters."""
    first = text.strip().splitlines()[0] if text.strip() else "the analysis failed"
    return "".join(c if c.isprintable() else " " for c in first)[:ERROR_LENGTH]


def check_view(view: object) -> str:
    """Returns a view named by a request, refusing anything else (400)."""
    if not isinstance(view, str) or view not in VIEWS:
        raise Refusal(400, 'view must be "seat" or "hindsight"')
    return view


def ask_for(
    engine: Engine, table_id: str, view: str, requester: str, now: float, limits: AnalysisLimits
) -> tuple[JSONObject, bool]:
    """Queues the analysis of a finished table from ``view`` unless it was asked for already (a failed
    one is queued again); returns its status (``status_json``) and whether it was queued now. Refuses
    an address over its limit (429) and a full queue (503). Run in the store's writer thread."""
    try:
        return _request(engine, table_id, view, requester, now, limits)
    except IntegrityError:  # another process queued it between our read and our write
        return status_json(engine, table_id, view), False


def _request(
    engine: Engine, table_id: str, view: str, requester: str, now: float, limits: AnalysisLimits
) -> tuple[JSONObject, bool]:
    """``ask_for`` in one transaction (an insert racing another process's raises IntegrityError)."""
    with engine.begin() as connection:
        row = _row(connection, table_id, view)
        if row is not None and row.status != FAILED:
            return _status(connection, row), False
        _check_limits(connection, requester, now, limits)
        fresh = {
            "status": QUEUED,
            "judged": 0,
            "total": 0,
            "attempts": 0,
            "requested": now,
            "requester": requester,
        }
        if row is None:
            connection.execute(insert(AnalysisRow).values(table_id=table_id, view=view, **fresh))
            queued = True
        else:
            cleared = {"started": None, "finished": None, "claim": None, "claimed_at": None, "result": None}
            done = connection.execute(
                update(AnalysisRow)
                .where(AnalysisRow.id == row.id, AnalysisRow.status == FAILED)
                .values(**fresh, **cleared, error=None)
            )
            queued = done.rowcount == 1
        found = _row(connection, table_id, view)
        assert found is not None
        return _status(connection, found), queued


def status_json(engine: Engine, table_id: str, view: str) -> JSONObject:
    """Returns what ``GET /api/tables/T/analysis`` tells of a table's analysis from ``view``."""
    with engine.connect() as connection:
        row = _row(connection, table_id, view)
        if row is None:
            return _empty(view)
        return _status(connection, row)


def claim_next(engine: Engine, token: str, now: float, lease: float = LEASE) -> Claimed | None:
    """Claims the oldest queued analysis, or one whose worker's lease lapsed, for the worker ``token``:
    a compare-and-set, so of several workers on one database exactly one gets each. Returns it, or
    None if there is none to claim. Run in the store's writer thread."""
    with engine.begin() as connection:
        candidates = connection.execute(
            select(AnalysisRow.id, AnalysisRow.table_id, AnalysisRow.view, AnalysisRow.attempts)
            .where(_claimable(now, lease))
            .order_by(AnalysisRow.requested, AnalysisRow.id)
            .limit(5)
        ).all()
        for found in candidates:
            done = connection.execute(
                update(AnalysisRow)
                .where(AnalysisRow.id == found.id, _claimable(now, lease))
                .values(
                    status=RUNNING,
                    claim=token,
                    claimed_at=now,
                    started=now,
                    judged=0,
                    total=0,
                    attempts=AnalysisRow.attempts + 1,
                )
            )
            if done.rowcount == 1:
                return Claimed(found.id, found.table_id, found.view, found.attempts + 1)
    return None


def renew(engine: Engine, claimed: Claimed, token: str, now: float, judged: int, total: int) -> bool:
    """Stores a running analysis's progress and renews its worker's lease; returns False if the worker
    no longer holds it (its lease lapsed and another took it over)."""
    with engine.begin() as connection:
        done = connection.execute(
            update(AnalysisRow)
            .where(_held(claimed, token))
            .values(claimed_at=now, judged=judged, total=total)
        )
        return done.rowcount == 1


def finish(engine: Engine, claimed: Claimed, token: str, now: float, document: JSONObject) -> bool:
    """Stores a finished analysis's document (done); returns False if the worker no longer held it."""
    text = json.dumps(document, separators=(",", ":"), allow_nan=False)
    total = len(document.get("decisions") or []) if isinstance(document.get("decisions"), list) else 0
    with engine.begin() as connection:
        done = connection.execute(
            update(AnalysisRow)
            .where(_held(claimed, token))
            .values(status=DONE, result=text, finished=now, claim=None, judged=total, total=total)
        )
        return done.rowcount == 1


def release(engine: Engine, claimed: Claimed, token: str) -> bool:
    """Puts a running analysis back in the queue, its attempt not counted (the server stopping under
    it: the next worker starts it afresh at once); returns False if the worker no longer held it."""
    with engine.begin() as connection:
        done = connection.execute(
            update(AnalysisRow)
            .where(_held(claimed, token))
            .values(status=QUEUED, claim=None, judged=0, total=0, attempts=AnalysisRow.attempts - 1)
        )
        return done.rowcount == 1


def fail(engine: Engine, claimed: Claimed, token: str, now: float, error: str) -> bool:
    """Stores why an analysis failed (one line); returns False if the worker no longer held it."""
    with engine.begin() as connection:
        done = connection.execute(
            update(AnalysisRow)
            .where(_held(claimed, token))
            .values(status=FAILED, error=one_line(error), finished=now, claim=None)
        )
        return done.rowcount == 1


def forget_addresses(engine: Engine, now: float, window: float) -> int:
    """Clears the requesters of analyses asked for longer ago than the limit's window (they count no
    more); returns how many. Run in the store's writer thread."""
    with engine.begin() as connection:
        done = connection.execute(
            update(AnalysisRow)
            .where(AnalysisRow.requester.is_not(None), AnalysisRow.requested <= now - window)
            .values(requester=None)
        )
        return int(done.rowcount or 0)


def _check_limits(connection: Connection, requester: str, now: float, limits: AnalysisLimits) -> None:
    """Refuses a request beyond the address's limit (429) or with the queue full (503)."""
    asked = connection.execute(
        select(func.count())
        .select_from(AnalysisRow)
        .where(AnalysisRow.requester == requester, AnalysisRow.requested > now - limits.window)
    ).scalar()
    if int(asked or 0) >= limits.per_address:
        raise Refusal(429, "too many analyses asked for from this address: try again later")
    queued = connection.execute(
        select(func.count()).select_from(AnalysisRow).where(AnalysisRow.status == QUEUED)
    ).scalar()
    if int(queued or 0) >= limits.queue:
        raise Refusal(503, "the analysis queue is full; try again later")


def _row(connection: Connection, table_id: str, view: str) -> AnalysisRow | None:
    """Returns a table's analysis row from a view (its columns), or None."""
    found = connection.execute(
        select(AnalysisRow.__table__).where(AnalysisRow.table_id == table_id, AnalysisRow.view == view)
    ).one_or_none()
    return found  # type: ignore[return-value]  # a Row with the same attributes


def _empty(view: str) -> JSONObject:
    """Returns the status of an analysis nobody asked for."""
    return {
        "view": view,
        "status": NONE,
        "judged": 0,
        "total": 0,
        "ahead": 0,
        "error": None,
        "analysis": None,
    }


def _status(connection: Connection, row: AnalysisRow) -> JSONObject:
    """Returns an analysis's status as the API tells it: progress, the queued ones before it, the error
    and (done) the document."""
    ahead = 0
    if row.status == QUEUED:
        before = or_(
            AnalysisRow.requested < row.requested,
            and_(AnalysisRow.requested == row.requested, AnalysisRow.id < row.id),
        )
        found = connection.execute(
            select(func.count()).select_from(AnalysisRow).where(AnalysisRow.status == QUEUED, before)
        ).scalar()
        ahead = int(found or 0)
    document: JSONValue = json.loads(row.result) if row.status == DONE and row.result else None
    return {
        "view": row.view,
        "status": row.status,
        "judged": row.judged,
        "total": row.total,
        "ahead": ahead,
        "error": row.error if row.status == FAILED else None,
        "analysis": document,
    }


def _claimable(now: float, lease: float) -> ColumnElement[bool]:
    """Returns the condition that an analysis may be claimed: queued, or running with a lapsed lease."""
    lapsed = and_(AnalysisRow.status == RUNNING, AnalysisRow.claimed_at <= now - lease)
    return or_(AnalysisRow.status == QUEUED, lapsed)


def _held(claimed: Claimed, token: str) -> ColumnElement[bool]:
    """Returns the condition that the worker ``token`` still holds a running analysis."""
    return and_(AnalysisRow.id == claimed.id, AnalysisRow.status == RUNNING, AnalysisRow.claim == token)


# --------------------------------------------------------------------- the routes
def analysis_routes(hall: Callable[[], Hall], clock: Clock, limits: AnalysisLimits) -> list[Route]:
    """Returns the routes asking for and showing a finished table's analysis (docs/server.md)."""

    async def ask(request: Request) -> Response:
        view = body_view(await optional_body(request))
        table = finished(hall(), request)
        if not any(seat.kind == "human" for seat in table.record.seats):
            raise Refusal(409, BOTS_ONLY)
        store = table.store
        host = request.client.host if request.client else "unknown"
        requester = address_hash(store.seed_key, address_key(host))
        found, queued = await store.write(
            ask_for, store.engine, table.record.id, view, requester, clock.now(), limits
        )
        return JSONResponse(found, status_code=202 if queued else 200)

    async def show(request: Request) -> Response:
        view = query_view(request)
        table = finished(hall(), request)
        found = await asyncio.to_thread(status_json, table.store.engine, table.record.id, view)
        return JSONResponse(found)

    path = "/api/tables/{table}/analysis"
    return [Route(path, ask, methods=["POST"]), Route(path, show, methods=["GET"])]


def finished(hall: Hall, request: Request) -> LiveTable:
    """Returns the URL's table if its game is over; refuses one in play (409: an analysis tells each
    seat's hidden cards) and an unknown one (404)."""
    table = hall.get(request.path_params["table"])
    if not table.state.is_over():
        raise Refusal(409, "the analysis is ready to ask for once the game is over")
    return table


def body_view(body: JSONValue) -> str:
    """Returns the view a request's body asks for: ``{}`` (or no body) the seat's, ``{"view": V}``;
    refuses anything else (400)."""
    if not isinstance(body, dict):
        raise Refusal(400, 'an analysis is asked for with {"view": "seat"|"hindsight"} or no body')
    unknown = set(body) - {"view"}
    if unknown:
        raise Refusal(400, f"unknown field {sorted(unknown)[0][:40]!r}")
    return check_view(body.get("view", "seat"))


def query_view(request: Request) -> str:
    """Returns the view ``?view=`` asks for (default the seat's); refuses other parameters (400)."""
    query = request.query_params
    unknown = set(query) - {"view"}
    if unknown:
        raise Refusal(400, f"unknown query parameter {sorted(unknown)[0][:40]!r}")
    if len(query.getlist("view")) > 1:
        raise Refusal(400, "give view once")
    return check_view(query.get("view", "seat"))
