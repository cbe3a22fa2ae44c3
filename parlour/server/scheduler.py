"""The scheduler: acts on the deadlines stored in the database, so no clock lives only in memory.

Every ``poll`` seconds it asks the database for tables in play whose deadline has passed, claims each
with one compare-and-set (``Store.claim``: of several server processes on one database exactly one gets
a deadline), and lets the table's auto policy move for the person whose time ran out
(``LiveTable.run_out``). A restart loses nothing: the deadlines are in the database and the first poll
after the start finds every one that passed meanwhile. Each poll also declines the rematches that waited
a week for their accepts (rematch.expire_due, a compare-and-set: once). A claim holds for ``lease``
seconds, so a process that died holding one delays that move, never loses it.
"""

from __future__ import annotations

import asyncio
import logging

from parlour.server.clock import Clock
from parlour.server.hall import Hall
from parlour.server.polling import Poller
from parlour.server.rematch import expire_due
from parlour.server.tables import Refusal

LOG = logging.getLogger("parlour.server")
POLL = 0.5
"""How often the database is asked for due deadlines (seconds)."""
LEASE = 30.0
"""How long a claim keeps other schedulers off a deadline (seconds)."""
BATCH = 100
"""The most due deadlines one poll takes on."""


class Scheduler(Poller):
    """Polls the database for due deadlines and acts on the ones it claims (see the module)."""

    what = "the scheduler's poll"

    def __init__(self, hall: Hall, clock: Clock, poll: float = POLL, lease: float = LEASE) -> None:
        super().__init__()
        self.hall, self.clock, self.poll, self.lease = hall, clock, poll, lease
        self.claimed = 0
        """Due deadlines this scheduler claimed since it started."""
        self.acted = 0
        """Deadlines this scheduler acted on (a move made) since it started."""
        self.expired = 0
        """Waiting rematches this scheduler declined because their week ran out (ruling S-3)."""

    async def tick(self) -> int:
        """Claims every due deadline it can and acts on them together; returns how many moved."""
        store, now = self.hall.store, self.clock.now()
        # A cluster's node acts only on the tables it owns (leases.py); a single server on every one.
        due = await asyncio.to_thread(store.due, now, self.lease, BATCH, self.hall.node)
        claimed = [
            (table_id, version)
            for table_id, version in due
            if await store.write(store.claim, table_id, version, now, self.lease, table=table_id)
        ]
        self.claimed += len(claimed)
        moved = await asyncio.gather(*(self._act(t, v) for t, v in claimed))
        self.acted += sum(moved)
        for table_id in await store.write(expire_due, store.engine, now, BATCH):
            self.expired += 1
            await self.hall.expired(table_id)
        return sum(moved)

    async def _act(self, table_id: str, version: int) -> bool:
        """Lets a claimed table's auto policy move; a table that did not move gives its claim back (its
        own automatic move comes first, or its deadline moved), so the next poll looks again."""
        store = self.hall.store
        moved = False
        try:
            table = self.hall.fresh(table_id, version)
            moved = await table.run_out(version)
        except Refusal as refusal:
            LOG.info("the clock's move at table %s dropped: %s", table_id, refusal.message)
        except RuntimeError as err:  # the bots' pool shut down under a move (the server is stopping)
            LOG.info("the clock's move at table %s not made: %s", table_id, err)
        except Exception:  # one table's failure stops neither the others' moves nor the next poll
            LOG.exception("the clock's move at table %s failed", table_id)
        if not moved:
            await store.write(store.release, table_id, version, table=table_id)
        return moved
