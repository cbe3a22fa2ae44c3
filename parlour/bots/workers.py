"""Worker processes for simulations and tournaments: capped, dying with their parent, stopped at once.

Workers ignore Ctrl-C (the parent alone handles it and terminates them all), and
on Linux ask the kernel for SIGTERM when their parent dies (``PR_SET_PDEATHSIG``),
so no worker outlives the command, however the command ends.

A backend says where the jobs run: ``local`` (these processes) or ``ray`` (a local
Ray or the cluster at ``RAY_ADDRESS``, in :mod:`parlour.bots.ray_backend`, which
alone imports Ray, and only when asked for).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Protocol, TypeVar

from parlour.core.errors import OptionError

J = TypeVar("J")
R = TypeVar("R")

HARD_LIMIT = 256
"""No count of workers above this is accepted, whatever ``workers_max`` says."""
PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal a process gets when its parent dies."""
BACKENDS = ("local", "ray")
"""Where games may run: these processes, or Ray tasks."""
WATCH_EVERY = 0.5
"""How often a watched run (``run_jobs``'s ``watch``) is looked at while it waits for a result (s)."""


class Runner(Protocol):
    """Runs jobs on a backend, ``workers`` at a time."""

    @property
    def workers(self) -> int:
        """How many jobs run at once (what chunk sizes are worked out from)."""
        ...

    def run(self, work: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        """Yields ``work(job)`` for every job exactly once, as the jobs end (in order locally)."""
        ...


@dataclass(frozen=True)
class LocalRunner:
    """Runs jobs in this process or a pool of worker processes."""

    workers: int
    workers_max: int | None = None
    start_method: str | None = None
    """How the worker processes start (None: the platform's default, and one worker is this process;
    given: always in worker processes, as a server needs)."""
    watch: Callable[[], None] | None = None
    """Called every WATCH_EVERY seconds while a result is awaited; raising stops the run (the workers
    terminated at once): how a server stops an analysis, or gives up on a worker that died."""
    nice: int = 0
    """How much lower the worker processes' priority is than this process's (a server's: 10)."""

    def run(self, work: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        """Yields ``work(job)`` for every job, in order (see :func:`run_jobs`)."""
        return run_jobs(
            work, jobs, self.workers, self.workers_max, self.start_method, watch=self.watch, nice=self.nice
        )


def cpu_count() -> int:
    """Returns how many CPUs this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_workers(workers: int, workers_max: int | None = None) -> int:
    """Returns ``workers`` if allowed: 1 to the CPU count, or to ``workers_max`` when given."""
    if workers_max is not None and not 1 <= workers_max <= HARD_LIMIT:
        raise OptionError(f"--workers-max must be from 1 to {HARD_LIMIT}, not {workers_max}")
    limit = workers_max if workers_max is not None else cpu_count()
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    if workers > limit:
        where = f"--workers-max {workers_max}" if workers_max is not None else f"the {limit} CPUs here"
        raise OptionError(f"--workers {workers} is more than {where}; give --workers-max N to allow up to N")
    return workers


def check_backend(backend: str, workers: int | None = None, workers_max: int | None = None) -> None:
    """Refuses an unknown backend, a worker count it does not allow, Ray missing or out of reach.

    ``workers`` (None: the default, one process locally and every CPU on Ray) is capped by the CPU
    count or ``workers_max``, except on a Ray cluster, whose CPUs are not this machine's.
    """
    if backend not in BACKENDS:
        raise OptionError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend[:40]!r}")
    if backend == "ray":
        from parlour.bots import ray_backend

        ray_backend.check_ray()
        if ray_backend.cluster_address() is not None:
            if workers is not None and workers < 1:
                raise OptionError(f"--workers must be at least 1, not {workers}")
            return
    check_workers(1 if workers is None else workers, workers_max)


@contextmanager
def open_runner(
    backend: str,
    workers: int | None = None,
    workers_max: int | None = None,
    start_method: str | None = None,
    watch: Callable[[], None] | None = None,
    nice: int = 0,
) -> Iterator[Runner]:
    """Opens the backend (a local Ray is started, and stopped after, unless Ray is already running);
    ``start_method``, ``watch`` and ``nice`` are the local workers' (LocalRunner)."""
    check_backend(backend, workers, workers_max)
    if backend == "ray":
        from parlour.bots.ray_backend import ray_runner

        with ray_runner(workers) as runner:
            yield runner
        return
    yield LocalRunner(1 if workers is None else workers, workers_max, start_method, watch, nice)


def run_jobs(
    work: Callable[[J], R],
    jobs: Sequence[J],
    workers: int = 1,
    workers_max: int | None = None,
    start_method: str | None = None,
    watch: Callable[[], None] | None = None,
    nice: int = 0,
) -> Iterator[R]:
    """Yields ``work(job)`` for every job, in order, over ``workers`` processes (1: in this one). With a
    ``start_method`` ("spawn" from a threaded server), every job runs in worker processes started so,
    even a single one (a server never does the work in its own process, beside its event loop).
    ``watch`` is called every WATCH_EVERY seconds while a result is awaited (its exception ends the
    run); ``nice`` lowers the workers' priority.

    Every way out of the loop (an error, Ctrl-C, SIGTERM turned into an exception,
    the caller stopping) terminates the workers before it goes on.
    """
    check_workers(workers, workers_max)
    if not jobs:
        return
    processes = min(workers, len(jobs))
    if processes <= 1 and start_method is None:
        for job in jobs:
            yield work(job)
        return
    context = multiprocessing.get_context(start_method)
    yield from _run_pool(work, jobs, processes, context, watch, nice)


def _run_pool(
    work: Callable[[J], R],
    jobs: Sequence[J],
    processes: int,
    context: BaseContext,
    watch: Callable[[], None] | None,
    nice: int,
) -> Iterator[R]:
    """Yields ``work(job)`` for every job, in order, over an executor's processes, calling ``watch`` (if
    any) every WATCH_EVERY seconds while a result is awaited. A worker that dies mid-job breaks the
    executor (BrokenProcessPool: a Pool would wait for ever, and could deadlock terminating); every
    way out kills the workers at once. Ctrl-C is held back while the workers start (``_held_back``)."""
    executor = ProcessPoolExecutor(processes, context, start_worker, (os.getpid(), nice))
    try:
        with _held_back(signal.SIGINT):
            futures = [executor.submit(work, job) for job in jobs]  # the workers start here
        for future in futures:
            while True:
                try:
                    result = future.result(timeout=WATCH_EVERY)
                    break
                except FuturesTimeout:
                    if watch is not None:
                        watch()
            yield result
    finally:
        workers = list(getattr(executor, "_processes", {}).values())  # no public way before Python 3.14
        executor.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.kill()
        for process in workers:
            process.join(5.0)


@contextmanager
def _held_back(signum: int) -> Iterator[None]:
    """Blocks ``signum`` in this thread while the block runs, then lets a pending one through: a worker
    started meanwhile (forked, or spawned: the mask is inherited) cannot die of a Ctrl-C to the
    process group before ``start_worker`` makes it ignore Ctrl-C, which would print a traceback and,
    with a Pool, could hang the parent. The executor's own thread, started here, keeps it blocked:
    the signal goes to the main thread, where Python handles it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signum})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def start_worker(parent: int, nice: int = 0) -> None:
    """Sets a worker up: Ctrl-C is the parent's to handle, the worker dies with its parent, and runs
    ``nice`` steps below it."""
    if nice:
        os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # held back while the worker started (_held_back): ignored now
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)  # The parent died before the request above took effect.
