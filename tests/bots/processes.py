"""Process helpers for the tests that run `parlour` as a command and stop it: launch, poll, /proc readers."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
PATIENCE = 120.0
"""Seconds to wait for something that should happen at once (a loaded machine is slow)."""


def default_signals() -> None:
    """Gives a child about to start the signals a shell gives a command: Ctrl-C and SIGTERM at their
    defaults and nothing blocked, whatever the test process inherited or set (a child inherits an
    ignored or blocked Ctrl-C, and then Python never raises KeyboardInterrupt in it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def start_cli(argv: list[str], env: Mapping[str, str] | None = None) -> subprocess.Popen[str]:
    """Starts ``python -m parlour.cli ARGV`` in its own session, its standard error readable as text,
    with the signals a shell would give it (``default_signals``)."""
    return subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=None if env is None else dict(env),
        start_new_session=True,
        preexec_fn=default_signals,
    )


def kill_all(proc: subprocess.Popen[str], started: list[int]) -> None:
    """Kills ``proc`` and the processes it ``started`` (only those: never anything else) and reaps it."""
    for pid in [proc.pid, *started]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    proc.wait(timeout=PATIENCE)


def wait_until(condition: Callable[[], bool], what: str, patience: float = PATIENCE) -> None:
    """Polls until ``condition()`` holds, failing after ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _processes() -> dict[int, tuple[str, int]]:
    """Returns every live (not zombie) process: its name and its parent."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()
        if rest[0] != "Z":
            found[int(entry.name)] = (name, int(rest[1]))
    return found


def children(pid: int) -> list[int]:
    """Returns the live child processes of ``pid``."""
    return [child for child, (_, parent) in _processes().items() if parent == pid]


def descendants(pid: int) -> dict[int, str]:
    """Returns the live processes under ``pid`` (its children, theirs, ...) with their names."""
    parents: dict[int, list[tuple[int, str]]] = {}
    for child, (name, parent) in _processes().items():
        parents.setdefault(parent, []).append((child, name))
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child, name in parents.get(todo.pop(), []):
            found[child] = name
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Returns whether a process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
