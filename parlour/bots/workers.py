"""Worker processes for simulations and tournaments: capped, dying with their parent, stopped at once.

Workers ignore Ctrl-C (the parent alone handles it and terminates them all), and
on Linux ask the kernel for SIGTERM when their parent dies (``PR_SET_PDEATHSIG``),
so no worker outlives the command, however the command ends.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from parlour.core.errors import OptionError

J = TypeVar("J")
R = TypeVar("R")

HARD_LIMIT = 256
"""No count of workers above this is accepted, whatever ``workers_max`` says."""
PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal a process gets when its parent dies."""


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


def run_jobs(
    work: Callable[[J], R], jobs: Sequence[J], workers: int = 1, workers_max: int | None = None
) -> Iterator[R]:
    """Yields ``work(job)`` for every job, in order, over ``workers`` processes (1: in this one).

    Every way out of the loop (an error, Ctrl-C, SIGTERM turned into an exception,
    the caller stopping) terminates the workers before it goes on.
    """
    check_workers(workers, workers_max)
    processes = min(workers, len(jobs))
    if processes <= 1:
        for job in jobs:
            yield work(job)
        return
    pool = multiprocessing.Pool(processes, initializer=start_worker, initargs=(os.getpid(),))
    try:
        yield from pool.imap(work, jobs, chunksize=1)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def start_worker(parent: int) -> None:
    """Sets a worker up: Ctrl-C is the parent's to handle, and the worker dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)  # The parent died before the request above took effect.
