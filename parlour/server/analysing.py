"""The analysis worker: runs the queued analyses of finished games (analyses.py) beside the scheduler.

Every ``poll`` seconds it claims one queued analysis (or one whose lease lapsed) with a compare-and-set,
loads the table's record from the database and runs ``analyse`` in a worker thread, off the event loop:
every seat (persons' and bots'), seed 0, the configured budget, the judging spread over ``workers``
processes (spawned: the server's threads are not forked). While it runs, a heartbeat on the event loop
stores its progress and renews its lease about once a second; a worker that lost its claim, or a server
stopping, makes the progress callback raise, which ends the analysis and terminates its processes. The
row's lease then lapses and another process, or this one after a restart, runs it again from the start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from parlour.analysis.analyse import analyse
from parlour.analysis.report import AnalysisError
from parlour.analysis.settings import DEFAULT_SAMPLES
from parlour.core.errors import ParlourError
from parlour.core.positions import JSONObject
from parlour.core.record import GameRecord
from parlour.server.analyses import (
    INTERRUPTED,
    LEASE,
    TRIES,
    AnalysisLimits,
    Claimed,
    claim_next,
    fail,
    finish,
    forget_addresses,
    release,
    renew,
)
from parlour.server.clock import Clock
from parlour.server.polling import Poller
from parlour.server.storage import Store
from parlour.server.tables import core_record

LOG = logging.getLogger("parlour.server")
POLL = 1.0
"""How often the database is asked for a queued analysis (seconds)."""
BEAT = 1.0
"""How often a running analysis's progress is stored and its lease renewed (seconds)."""
FORGET_EVERY = 60.0
"""How often the addresses past the per-address limit's window are forgotten (seconds)."""
SEED = 0
"""The seed every server analysis uses: everyone sees the same result."""
START_METHOD = "spawn"
"""How the judging processes start: spawned, never forked from the server's threads."""
FAILED_TEXT = "the analysis failed on the server"
"""What an unexpected error is stored as (the log keeps its traceback)."""
STALLED_TEXT = "a judging process died or stopped answering; ask for the analysis again"
"""What an analysis fails with when a judging process died mid-job (killed, out of memory), or judged
no decision for ``stall`` seconds."""
STALL_BASE, STALL_PER_SAMPLE = 300.0, 5.0
"""An analysis judging no decision for STALL_BASE + STALL_PER_SAMPLE x budget seconds has stalled."""
NICE = 10
"""How much lower the judging processes run than the server (its event loop and bots come first)."""
STOP_WAIT = 15.0
"""How long stopping waits for a running analysis to put its row back in the queue (seconds)."""
STORE_TRIES = 3
"""Attempts at storing an analysis's end before its lease is left to lapse."""


class Stopped(Exception):
    """Raised by the progress callback to end an analysis: the server is stopping or lost the claim."""


class Stalled(Exception):
    """Raised by the watch when no decision was judged for too long (a judging process died)."""


@dataclass
class Job:
    """A running analysis as its thread and its heartbeat share it."""

    claimed: Claimed
    judged: int = 0
    total: int = 0
    lost: bool = False
    """Set by the heartbeat when another worker took the analysis over (our lease lapsed)."""
    stopping: threading.Event = field(default_factory=threading.Event)
    moved: float = field(default_factory=time.monotonic)
    """When a decision was last judged (or the analysis started)."""


class Analyser(Poller):
    """Claims queued analyses one at a time and runs them off the event loop (see the module)."""

    what = "the analysis worker's poll"

    def __init__(
        self,
        store: Store,
        clock: Clock,
        workers: int = 1,
        budget: int = DEFAULT_SAMPLES,
        poll: float = POLL,
        lease: float = LEASE,
        limits: AnalysisLimits | None = None,
    ) -> None:
        super().__init__()
        self.store, self.clock, self.workers, self.budget = store, clock, workers, budget
        self.poll, self.lease = poll, lease
        self.limits = limits or AnalysisLimits()
        self.token = secrets.token_hex(16)
        """This worker's name in its claims."""
        self.stopping = threading.Event()
        self._forgotten = -math.inf
        """When the addresses past the limit's window were last forgotten (the clock's time)."""
        self.done = 0
        """Analyses this worker finished (done or failed) since it started."""
        self.idle = asyncio.Event()
        """Set while no analysis runs here (stopping waits for it)."""
        self.idle.set()
        self.stall = STALL_BASE + STALL_PER_SAMPLE * budget
        """Seconds without a decision judged after which an analysis has stalled."""

    async def tick(self) -> int:
        """Forgets the addresses past the limit's window (once a minute), then claims and runs one
        analysis (if any is waiting); returns how many it ran."""
        store, now = self.store, self.clock.now()
        if now - self._forgotten >= FORGET_EVERY:
            self._forgotten = now
            await store.write(forget_addresses, store.engine, now, self.limits.window)
        claimed = await store.write(claim_next, store.engine, self.token, now, self.lease)
        if claimed is None:
            return 0
        await self.run(claimed)
        return 1

    async def stop(self) -> None:
        """Stops polling: an analysis under way is ended within a second (its processes terminated) and
        put back in the queue, its attempt not counted, for the next worker to start afresh."""
        self.stopping.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle.wait(), STOP_WAIT)
        await super().stop()

    async def run(self, claimed: Claimed) -> None:
        """Runs a claimed analysis and stores its document, or its one-line error."""
        job = Job(claimed, stopping=self.stopping)
        if claimed.attempts > TRIES:
            await self._store(fail, job, INTERRUPTED)
            return
        self.idle.clear()
        try:
            await self._judged(job)
        finally:
            self.idle.set()

    async def _judged(self, job: Job) -> None:
        """Runs a claimed analysis's judging in a thread beside its heartbeat and stores how it ended."""
        claimed = job.claimed
        beat = asyncio.get_running_loop().create_task(self._beat(job))
        try:
            document = await asyncio.to_thread(self._analyse, job)
        except Stopped:
            LOG.info("the analysis of table %s stopped (%s)", claimed.table_id, claimed.view)
            if self.stopping.is_set() and not job.lost:
                await self._store(release, job, None)
            return
        except (Stalled, BrokenProcessPool):
            LOG.warning("the analysis of table %s stalled (%s)", claimed.table_id, claimed.view)
            await self._store(fail, job, STALLED_TEXT)
            return
        except (AnalysisError, ParlourError) as err:
            await self._store(fail, job, str(err))
            return
        except Exception:  # stored as one line; the traceback stays in the log
            LOG.exception("the analysis of table %s failed", claimed.table_id)
            await self._store(fail, job, FAILED_TEXT)
            return
        finally:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
        await self._store(finish, job, document)

    async def _store(self, method: Callable[..., bool], job: Job, value: object) -> None:
        """Stores an analysis's end (``finish``, ``fail`` or ``release``) if this worker still holds it,
        trying STORE_TRIES times (a database busy once does not throw a finished document away)."""
        store = self.store
        args = (store.engine, job.claimed, self.token) if method is release else None
        for attempt in range(1, STORE_TRIES + 1):
            try:
                if args is not None:
                    held = await store.write(method, *args)
                else:
                    held = await store.write(
                        method, store.engine, job.claimed, self.token, self.clock.now(), value
                    )
                break
            except Exception:  # the lease lapses if every try fails: another worker runs it again
                LOG.exception("the end of the analysis of table %s was not stored", job.claimed.table_id)
                if attempt == STORE_TRIES:
                    return
                await asyncio.sleep(1.0)
        self.done += method is not release
        if not held:
            LOG.info("the analysis of table %s was taken over by another worker", job.claimed.table_id)

    async def _beat(self, job: Job) -> None:
        """Stores a running analysis's progress and renews its lease every BEAT seconds; marks the job
        lost if another worker took it over."""
        store = self.store
        while True:
            await asyncio.sleep(BEAT)
            try:
                held = await store.write(
                    renew, store.engine, job.claimed, self.token, self.clock.now(), job.judged, job.total
                )
            except Exception:  # a write that failed once (the database busy): the next beat tries again
                LOG.exception("the progress of the analysis of table %s was not stored", job.claimed.table_id)
                continue
            if not held:
                job.lost = True
                return

    def _analyse(self, job: Job) -> JSONObject:
        """Analyses a claimed table's game (in a worker thread) and returns the document."""
        record = self._record(job.claimed.table_id)

        def watch() -> None:
            if job.stopping.is_set() or job.lost:
                raise Stopped
            if time.monotonic() - job.moved > self.stall:
                raise Stalled

        def progress(judged: int, total: int) -> None:
            watch()
            job.judged, job.total, job.moved = judged, total, time.monotonic()

        result = analyse(
            record,
            all_seats=True,
            seed=SEED,
            budget=self.budget,
            workers=self.workers,
            workers_max=self.workers,
            progress=progress,
            hindsight=job.claimed.view == "hindsight",
            start_method=START_METHOD,
            watch=watch,
            nice=NICE,
        )
        return result.to_json()

    def _record(self, table_id: str) -> GameRecord:
        """Returns a finished table's record, read from the database; refuses a game not over (an
        analysis tells each seat's hidden cards) in one line."""
        stored = self.store.load(table_id)
        if stored is None:
            raise AnalysisError(f"there is no table {table_id}")
        if stored.status != "over":
            raise AnalysisError("the game is not over: it is analysed once it has ended")
        return core_record(stored)
