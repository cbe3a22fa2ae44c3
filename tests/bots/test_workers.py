"""Worker processes die with their parent and stop on Ctrl-C; a game imports only what it uses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool

import pytest

from parlour.bots.workers import HARD_LIMIT, check_workers, cpu_count, run_jobs
from parlour.core.errors import OptionError

from .processes import PATIENCE, alive, children, kill_all, linux_only, start_cli, wait_until


@pytest.fixture
def simulation() -> Iterator[tuple[subprocess.Popen[str], list[int]]]:
    """A `parlour simulate` with two workers, in its own process group, once both workers are up."""
    argv = [
        "simulate",
        "venture",
        "--seats",
        "greedy,greedy",
        "-n",
        "2000",
        "--workers",
        "2",
        "--workers-max",
        "2",
    ]
    proc = start_cli(argv)
    workers: list[int] = []
    try:
        wait_until(lambda: len(children(proc.pid)) >= 2, "two workers")
        workers = children(proc.pid)
        yield proc, workers
    finally:
        kill_all(proc, workers)


@linux_only
@pytest.mark.parametrize(
    ("send", "code", "line"),
    [
        (lambda pid: os.kill(pid, signal.SIGTERM), 128 + signal.SIGTERM, "parlour: terminated\n"),
        # Ctrl-C at a terminal signals the whole process group.
        (lambda pid: os.killpg(pid, signal.SIGINT), 130, "parlour: interrupted\n"),
    ],
    ids=["sigterm-to-the-parent", "ctrl-c-to-the-group"],
)
def test_a_signal_ends_the_workers_with_one_line(
    simulation: tuple[subprocess.Popen[str], list[int]], send: Callable[[int], None], code: int, line: str
) -> None:
    proc, workers = simulation
    send(proc.pid)
    assert proc.wait(timeout=PATIENCE) == code
    assert proc.stderr is not None and proc.stderr.read() == line
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to end")


@linux_only
def test_workers_die_with_a_killed_parent(simulation: tuple[subprocess.Popen[str], list[int]]) -> None:
    """SIGKILL leaves the parent no time to clean up: the kernel ends the workers (PR_SET_PDEATHSIG)."""
    proc, workers = simulation
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=PATIENCE)
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to end")


def test_workers_are_capped_at_the_cpu_count() -> None:
    assert check_workers(cpu_count()) == cpu_count()
    with pytest.raises(OptionError, match="--workers-max"):
        check_workers(cpu_count() + 1)
    assert check_workers(cpu_count() + 1, cpu_count() + 1) == cpu_count() + 1
    for bad in (0, HARD_LIMIT + 1):
        with pytest.raises(OptionError, match="--workers-max must be from 1"):
            check_workers(1, bad)
    with pytest.raises(OptionError, match="at least 1"):
        check_workers(0)


def _square(n: int) -> int:
    return n * n


def test_run_jobs_keeps_the_order_and_refuses_too_many_workers() -> None:
    assert list(run_jobs(_square, list(range(7)), 2, workers_max=2)) == [n * n for n in range(7)]
    assert list(run_jobs(_square, [3], 1)) == [9]
    with pytest.raises(OptionError):
        list(run_jobs(_square, [1, 2], 10_000))


def _dies_on_two(n: int) -> int:
    """Squares a number; the worker judging 2 is killed mid-job (as by the kernel's OOM killer)."""
    if n == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


def test_a_watched_run_whose_worker_died_ends_at_once_and_its_workers_with_it() -> None:
    """A pool's worker killed mid-job never answers (a Pool would wait for ever); a watched run (a
    server's analysis) ends with BrokenProcessPool, the results before it yielded."""
    found: list[int] = []
    started = time.monotonic()
    with pytest.raises(BrokenProcessPool):
        for result in run_jobs(_dies_on_two, [0, 1, 2, 3], 1, start_method="spawn", watch=lambda: None):
            found.append(result)
    assert found == [0, 1] and time.monotonic() - started < 60


class GiveUp(Exception):
    """Raised by the watch below."""


def test_a_watch_that_raises_ends_the_run_and_kills_its_workers() -> None:
    started = time.monotonic()

    def watch() -> None:
        if time.monotonic() - started > 2.0:
            raise GiveUp

    with pytest.raises(GiveUp):
        list(run_jobs(_sleeps, [0, 1], 1, start_method="spawn", watch=watch))
    assert time.monotonic() - started < 30


def _sleeps(seconds: int) -> int:
    """Sleeps far longer than a test waits (only a kill ends it)."""
    time.sleep(3600)
    return seconds


def test_a_watched_run_yields_every_result_in_order_at_a_lower_priority() -> None:
    watched: list[int] = []
    assert (
        list(run_jobs(_niceness, [0, 1, 2], 2, 2, "spawn", watch=lambda: watched.append(1), nice=5))
        == [os.nice(0) + 5] * 3
    )


def _niceness(_: int) -> int:
    """Returns the worker's niceness."""
    return os.nice(0)


# ---------------------------------------------------------------- a game imports what it uses
SCIPY_CHECK = """
import sys
import time
from parlour.bots.registry import make_bot
from parlour.core.registry import load_game
for game, bots in {game_bots!r}.items():
    for name in bots:
        make_bot(load_game(game), name, 0)
print("scipy" in sys.modules)
"""


@pytest.mark.parametrize(
    "game_bots",
    [
        {"im-the-boss": ["greedy", "random", "ismcts:10it"]},
        {"venus-needs-men": ["greedy", "random"]},
        {"venture": ["random", "greedy", "quick", "ismcts:10it"]},
    ],
)
def test_making_bots_does_not_import_scipy(game_bots: dict[str, list[str]]) -> None:
    """scipy (~0.5 s, ~100 MiB a process) is imported by the Venture optimiser only when it is used."""
    code = SCIPY_CHECK.format(game_bots=game_bots)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_the_optimiser_does_import_scipy() -> None:
    """The check above can fail: the optimiser itself brings scipy."""
    code = "import sys, parlour.games.venture.optimiser; print('scipy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "True", result.stderr
