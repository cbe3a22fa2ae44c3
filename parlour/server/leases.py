"""Table leases: which node of a cluster owns each table in play (docs/cluster.md).

A lease is a row of ``table_leases``: the owner's node id and when the lease runs out, in the server
clock's seconds. A node takes a table whose lease is missing or ran out with one compare-and-set (an
``UPDATE`` whose ``WHERE`` names the old state, or an ``INSERT`` the primary key lets only one node
make), so of several nodes trying at once exactly one wins; it renews its leases every few seconds,
and a node that stops renewing (killed, cut off) loses its tables once their leases run out. Only the
owner applies a table's moves and runs its clocks and bots. A single server keeps no lease.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from parlour.server.storage import LeaseRow, TableRow

LEASE = 10.0
"""How long a lease lasts without renewal (seconds): how long a dead node's tables wait for another."""
RENEW = 3.0
"""How often a node renews its leases and looks for tables nobody owns (seconds)."""
BATCH = 200
"""The most tables one look takes over."""
MARGIN = 0.2
"""The share of a lease its owner leaves unused: a node whose last renewal is older than a lease less
this share refuses its tables' writes (before another node may take them, clocks a little apart)."""


def take(engine: Engine, table_id: str, node: str, now: float, seconds: float = LEASE) -> bool:
    """Takes (or renews) a table's lease for ``node`` if nobody else holds one that runs on; returns
    whether ``node`` holds it now. A compare-and-set: of several nodes trying, exactly one wins."""
    with engine.begin() as connection:
        done = connection.execute(
            update(LeaseRow)
            .where(LeaseRow.table_id == table_id, or_(LeaseRow.owner == node, LeaseRow.expires <= now))
            .values(owner=node, expires=now + seconds)
        )
        if done.rowcount == 1:
            return True
        if connection.execute(select(LeaseRow.owner).where(LeaseRow.table_id == table_id)).first():
            return False  # another node's, running on
    try:
        with engine.begin() as connection:
            connection.execute(insert(LeaseRow).values(table_id=table_id, owner=node, expires=now + seconds))
    except IntegrityError:  # another node inserted it first (or the table is gone)
        return False
    return True


def renew(engine: Engine, node: str, now: float, seconds: float = LEASE) -> set[str]:
    """Renews every lease ``node`` holds; returns their tables (a table missing was taken by another)."""
    with engine.begin() as connection:
        rows = connection.execute(
            update(LeaseRow)
            .where(LeaseRow.owner == node)
            .values(expires=now + seconds)
            .returning(LeaseRow.table_id)
        ).all()
    return {table_id for (table_id,) in rows}


def release(engine: Engine, node: str, table_ids: Iterable[str] | None = None) -> int:
    """Gives up ``node``'s leases (of these tables; None: all of them, at a clean stop), so another
    node takes them at its next look; returns how many."""
    query = delete(LeaseRow).where(LeaseRow.owner == node)
    if table_ids is not None:
        query = query.where(LeaseRow.table_id.in_(list(table_ids)))
    with engine.begin() as connection:
        return connection.execute(query).rowcount


def release_former(engine: Engine, node: str, holder: str) -> int:
    """Gives up the leases of ``node``'s id held by any instance but ``holder`` (a former life, or one
    cut off from Redis whose id's claim ran out): the instance that claims the id now frees them for
    its first look; returns how many."""
    former = or_(LeaseRow.owner == node, LeaseRow.owner.startswith(f"{node}~", autoescape=True))
    with engine.begin() as connection:
        return connection.execute(delete(LeaseRow).where(former, LeaseRow.owner != holder)).rowcount


def orphans(engine: Engine, now: float, limit: int = BATCH) -> list[str]:
    """Returns tables in play (or rematches waiting for accepts) whose lease is missing or ran out,
    oldest first: what a node may take over."""
    held = select(LeaseRow.table_id).where(LeaseRow.expires > now)
    with engine.connect() as connection:
        rows = connection.execute(
            select(TableRow.id)
            .where(TableRow.status.in_(("playing", "waiting")), TableRow.id.not_in(held))
            .order_by(TableRow.created)
            .limit(limit)
        ).all()
    return [table_id for (table_id,) in rows]


def owner_of(engine: Engine, table_id: str, now: float) -> str | None:
    """Returns the node whose lease of the table runs on (None: nobody's)."""
    with engine.connect() as connection:
        found = connection.execute(
            select(LeaseRow.owner).where(LeaseRow.table_id == table_id, LeaseRow.expires > now)
        ).scalar()
    return found


def revisions(engine: Engine, table_ids: Iterable[str]) -> dict[str, int]:
    """Returns the stored revision of each of these tables (a node's catch-up of the tables it shows:
    every write of a table's row counts, a move or not)."""
    wanted = list(table_ids)
    if not wanted:
        return {}
    with engine.connect() as connection:
        rows = connection.execute(select(TableRow.id, TableRow.revision).where(TableRow.id.in_(wanted))).all()
    return {table_id: revision for table_id, revision in rows}
