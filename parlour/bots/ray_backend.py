"""Games on Ray: jobs (chunks of games) as Ray tasks on a local Ray or the cluster at ``RAY_ADDRESS``.

This module alone imports Ray, and only when a runner is opened, so importing Parlour never does.
A task whose worker dies (or raises a transient error: out of memory, a lost connection) is rerun
by Ray up to :data:`MAX_RETRIES` times; every job's result is collected exactly once, by its job
number, so a retried chunk of games is neither lost nor counted twice. Games are seeded by their
index alone (``parlour.bots.simulation.game_seed``), so where and how often a chunk runs never
changes its outcomes: the results equal the local backend's.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Protocol, TypeVar, cast

from parlour.core.errors import ParlourError

J = TypeVar("J")
R = TypeVar("R")

MAX_RETRIES = 3
"""How many times Ray reruns a job whose worker died (or raised a transient error) before giving up."""
RETRIED_EXCEPTIONS: list[type[BaseException]] = [MemoryError, OSError]
"""Errors raised in a job that Ray retries (a game's own errors are deterministic: never retried)."""
QUEUED_PER_WORKER = 2
"""Jobs submitted at once per worker: enough to keep every CPU busy, few enough to bound memory."""
WAIT_SLICE = 0.25
"""Seconds a wait for tasks lasts before a signal held meanwhile (Ctrl-C, SIGTERM) is acted on."""
CONNECT_TIMEOUT = 5.0
"""Seconds to reach ``RAY_ADDRESS`` before saying it is out of reach (Ray itself retries for minutes)."""
INSTALL_HINT = "--backend ray needs Ray: pip install 'parlour[ray]' (or pip install ray)"


class BackendError(ParlourError):
    """Ray cannot run the games: not installed, its cluster out of reach, or a job given up."""


class RayTask(Protocol):
    """A Ray remote function: ``remote`` submits a call and returns the reference of its result."""

    def remote(self, *args: object) -> Hashable:
        """Submits one call; returns its object reference."""


class RayErrors(Protocol):
    """``ray.exceptions``: the errors ``ray.get`` raises."""

    @property
    def RayTaskError(self) -> type[Exception]:
        """A task's own error, carried as its ``cause``."""

    @property
    def RayError(self) -> type[Exception]:
        """An error of Ray's own (a worker lost, a task given up)."""


class Ray(Protocol):
    """The part of the ``ray`` module the runner uses (imported only when a runner opens)."""

    @property
    def exceptions(self) -> RayErrors:
        """Ray's errors."""

    def remote(
        self, *, max_retries: int, retry_exceptions: list[type[BaseException]]
    ) -> Callable[[Callable[..., object]], RayTask]:
        """Returns a decorator that makes a function a remote task."""

    def wait(
        self, refs: list[Hashable], *, num_returns: int, timeout: float
    ) -> tuple[list[Hashable], list[Hashable]]:
        """Returns the references whose tasks have ended and those still running."""

    def get(self, ref: Hashable) -> object:
        """Returns a task's result, raising its error."""

    def cancel(self, ref: Hashable) -> None:
        """Cancels a task."""

    def is_initialized(self) -> bool:
        """Whether this process is connected to a Ray."""

    def cluster_resources(self) -> dict[str, float]:
        """The resources (``CPU``) of the connected Ray."""

    def init(self, **settings: object) -> object:
        """Starts or joins a Ray."""

    def shutdown(self) -> None:
        """Leaves (and stops, if started here) the connected Ray."""


def cluster_address() -> str | None:
    """Returns ``RAY_ADDRESS`` when it names a cluster to join (None: start a local Ray)."""
    address = os.environ.get("RAY_ADDRESS", "").strip()
    return address if address and address != "local" else None


def check_ray() -> None:
    """Refuses the ray backend when Ray is not installed, or ``RAY_ADDRESS`` cannot be reached."""
    if importlib.util.find_spec("ray") is None:
        raise BackendError(INSTALL_HINT)
    address = cluster_address()
    if address is not None:
        check_reachable(address)


def check_reachable(address: str) -> None:
    """Refuses a ``host:port`` (or ``ray://host:port``) address that takes no connection."""
    where = address.split("://", 1)[-1]
    host, sep, port = where.rpartition(":")
    if not sep or not port.isdecimal():
        if address == "auto":
            return  # Ray looks for a cluster started on this machine, and says if there is none
        raise BackendError(f"RAY_ADDRESS must be host:port, ray://host:port or auto, not {address[:80]!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise BackendError(f"cannot reach the Ray cluster at RAY_ADDRESS={address[:80]}: {reason}") from None


def _ray() -> Ray:
    """Returns the ray module (imported here, on demand)."""
    check_ray()
    import ray

    return cast(Ray, ray)


class RayRunner:
    """Runs jobs as Ray tasks, ``workers`` at a time (twice that many queued)."""

    def __init__(self, ray: Ray, workers: int) -> None:
        """Runs on the connected ``ray``; ``workers`` sizes the chunks and the queue."""
        self.ray = ray
        self.workers = workers

    def run(self, work: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        """Yields ``work(job)`` for every job exactly once, as the tasks end.

        Any way out of the loop (an error, Ctrl-C, the caller stopping) cancels the tasks still queued.
        """
        task = self.ray.remote(max_retries=MAX_RETRIES, retry_exceptions=RETRIED_EXCEPTIONS)(run_job)
        pending: dict[Hashable, int] = {}
        collected = [False] * len(jobs)
        submitted = 0
        try:
            while pending or submitted < len(jobs):
                while submitted < len(jobs) and len(pending) < QUEUED_PER_WORKER * self.workers:
                    pending[task.remote(work, submitted, jobs[submitted])] = submitted
                    submitted += 1
                for ref in self._ready(list(pending)):
                    yield cast(R, self._collect(ref, pending.pop(ref), collected))  # run_job's R
        finally:
            for ref in pending:
                with suppress(Exception):
                    self.ray.cancel(ref)

    def _ready(self, refs: list[Hashable]) -> list[Hashable]:
        """Returns the tasks that have ended, waiting for one if none has."""
        while True:
            with held_signals():
                ready = self.ray.wait(refs, num_returns=len(refs), timeout=0)[0]
                if not ready:
                    ready = self.ray.wait(refs, num_returns=1, timeout=WAIT_SLICE)[0]
            if ready:
                return ready

    def _collect(self, ref: Hashable, job: int, collected: list[bool]) -> object:
        """Returns job ``job``'s result, once; its own error is raised as is, Ray giving up as one line."""
        try:
            number, result = cast(tuple[int, object], self.ray.get(ref))  # run_job's (number, result)
        except self.ray.exceptions.RayTaskError as err:
            cause = getattr(err, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None
            raise
        except self.ray.exceptions.RayError as err:
            first = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise BackendError(
                f"Ray gave up on job {job + 1} of {len(collected)} after {MAX_RETRIES} retries: {first}"
            ) from None
        if number != job or collected[job]:
            raise RuntimeError(f"Ray returned job {number} for job {job}, or twice")  # never: one task a job
        collected[job] = True
        return result


@contextmanager
def held_signals() -> Iterator[None]:
    """Holds Ctrl-C and SIGTERM during a call into Ray, then acts on them as the command's handlers say.

    Ray's waits run the Python signal handlers inside its own code, which mangles any exception
    but KeyboardInterrupt and SystemExit (the command's SIGTERM raises its own); held, they are
    raised here, in Python, right after the call.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    for signum in previous:
        signal.signal(signum, lambda number, frame: held.append(number))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    for number in held:
        handler = previous[signal.Signals(number)]
        if callable(handler):
            handler(number, None)
        elif handler == signal.SIG_DFL:
            signal.raise_signal(number)


def run_job(work: Callable[[J], R], number: int, job: J) -> tuple[int, R]:
    """Runs one job in a Ray worker; returns it with its number, which the driver collects it by."""
    return number, work(job)


@contextmanager
def ray_runner(workers: int | None) -> Iterator[RayRunner]:
    """Opens a runner on the running Ray, or else on the cluster at RAY_ADDRESS or a new local Ray.

    A Ray this function starts or joins is left (``ray.shutdown``) on the way out; one already
    running (a notebook's, a test's) is used and left running. ``workers`` (None: every CPU Ray has)
    is a new local Ray's CPU count; it sizes the chunks and the queue (twice as many jobs submitted).
    """
    ray = _ray()
    started = not ray.is_initialized()
    try:
        if started:
            with held_signals():  # Ctrl-C while Ray starts: acted on once it has, so it is stopped
                _connect(ray, workers)
        if not ray.is_initialized():
            raise BackendError("Ray was stopped while it started")  # a SIGTERM without a handler to raise
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield RayRunner(ray, workers if workers is not None else max(1, cpus))
    finally:
        if started and ray.is_initialized():
            ray.shutdown()


def _connect(ray: Ray, workers: int | None) -> None:
    """Joins the cluster at RAY_ADDRESS or starts a local Ray of ``workers`` CPUs (None: all of them).

    ``ray.init`` installs its own SIGTERM handler (exiting at once); the one before it is put back,
    and a SIGTERM that came while Ray started is raised again for it, once Ray is stopped.
    """
    address = cluster_address()
    settings: dict[str, object] = {"include_dashboard": False, "logging_level": logging.ERROR}
    if address is None:
        # "local": never join another Ray that happens to run on this machine.
        settings.update(address="local", num_cpus=workers)
    else:
        settings.update(address=address)
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGTERM) if main else None
    try:
        ray.init(**settings)
    except SystemExit as exit_:
        if previous is None or exit_.code != signal.SIGTERM:
            raise
        with suppress(Exception):
            ray.shutdown()
        signal.signal(signal.SIGTERM, previous)
        signal.raise_signal(signal.SIGTERM)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as err:
        raise _not_started(err, address) from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _not_started(err: Exception, address: str | None) -> BackendError:
    """Returns the one-line error of a Ray that could not be started or joined."""
    first = (str(err).strip().splitlines() or [type(err).__name__])[0]
    where = f"the Ray cluster at RAY_ADDRESS={address[:80]}" if address else "a local Ray"
    hint = ""
    if address and "RAY_AUTH_MODE" not in os.environ:
        hint = " (a cluster with token authentication needs RAY_AUTH_MODE=token: docs/scaling.md)"
    return BackendError(f"cannot start or join {where}: {first}{hint}")
