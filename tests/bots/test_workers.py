"""Worker processes die with their parent and stop on Ctrl-C; a game imports only what it uses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from parlour.bots.workers import HARD_LIMIT, check_workers, cpu_count, run_jobs
from parlour.core.errors import OptionError

linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
PATIENCE = 60.0
"""Seconds to wait for something that should happen at once (a loaded machine may be slow)."""


def _stat(pid: int) -> list[str] | None:
    """Returns the fields of /proc/PID/stat after the command name, or None if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def children(pid: int) -> list[int]:
    """Returns the live child processes of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdecimal():
            fields = _stat(int(entry.name))
            if fields is not None and fields[1] == str(pid) and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Returns whether a process exists and is not a zombie."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def wait_until(condition: object, what: str) -> None:
    """Polls until ``condition()`` holds, failing after PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture
def simulation() -> Iterator[tuple[subprocess.Popen[bytes], list[int]]]:
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
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    workers: list[int] = []
    try:
        wait_until(lambda: len(children(proc.pid)) >= 2, "two workers")
        workers = children(proc.pid)
        yield proc, workers
    finally:
        for pid in [proc.pid, *workers]:  # only the processes this test started
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=PATIENCE)


@linux_only
@pytest.mark.parametrize(
    ("send", "code", "line"),
    [
        (lambda pid: os.kill(pid, signal.SIGTERM), 128 + signal.SIGTERM, b"parlour: terminated\n"),
        # Ctrl-C at a terminal signals the whole process group.
        (lambda pid: os.killpg(pid, signal.SIGINT), 130, b"parlour: interrupted\n"),
    ],
    ids=["sigterm-to-the-parent", "ctrl-c-to-the-group"],
)
def test_a_signal_ends_the_workers_with_one_line(
    simulation: tuple[subprocess.Popen[bytes], list[int]], send: Callable[[int], None], code: int, line: bytes
) -> None:
    proc, workers = simulation
    send(proc.pid)
    assert proc.wait(timeout=PATIENCE) == code
    assert proc.stderr is not None and proc.stderr.read() == line
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to end")


@linux_only
def test_workers_die_with_a_killed_parent(simulation: tuple[subprocess.Popen[bytes], list[int]]) -> None:
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


# ---------------------------------------------------------------- a game imports what it uses
SCIPY_CHECK = """
import sys
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
