"""What every fuzzed input is held to: a clean refusal or a consistent state, no hang, no named file read."""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from parlour.core.errors import ParlourError


class Hang(BaseException):
    """Raised by the alarm when one input takes longer than its time limit (a BaseException: no
    ``except Exception`` in the code under test swallows it)."""


class NamedFileRead(AssertionError):
    """The code opened a file whose name came from inside the input."""


# ----------------------------------------------------------------- file opens
_WATCHED: list[set[str]] = []
_SEEN: list[str] = []
_HOOKED = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """Notes every ``open`` of a path the current input named (an audit hook, see sys.addaudithook)."""
    if not _WATCHED or event not in ("open", "os.listdir", "os.scandir"):
        return
    path = args[0] if args else None
    if isinstance(path, bytes):
        path = path.decode("utf-8", "replace")
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, str) and (path in _WATCHED[-1] or os.path.abspath(path) in _WATCHED[-1]):
        _SEEN.append(path)


@contextmanager
def no_file_named(strings: set[str]) -> Iterator[None]:
    """Fails the input if any of ``strings`` (all the strings inside the input) is opened as a path."""
    global _HOOKED
    if not _HOOKED:
        sys.addaudithook(_audit)
        _HOOKED = True
    paths = {s for s in strings if s and len(s) < 4096 and "\x00" not in s}
    paths |= {os.path.abspath(os.path.expanduser(s)) for s in paths}
    _WATCHED.append(paths)
    _SEEN.clear()
    try:
        yield
    finally:
        _WATCHED.pop()
    if _SEEN:
        raise NamedFileRead(f"opened {_SEEN[0]!r}, a path named inside the input")


def strings_in(value: Any) -> set[str]:
    """Returns every string (keys and values) inside a JSON value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


# ----------------------------------------------------------------- time limits
@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raises Hang in the body if it runs longer than ``seconds`` (main thread only)."""

    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ----------------------------------------------------------------- tallies
@dataclass
class Tally:
    """What happened to the inputs of one fuzzing run."""

    tried: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    """One line per input that broke a promise: a traceback, a hang, a named file read, a bad state."""
    notes: list[str] = field(default_factory=list)
    """Figures a surface adds to the summary (the net surface: its attacks and the server's log)."""
    hangs: int = 0
    tracebacks: int = 0
    named_reads: int = 0
    broken: int = 0

    def run(self, surface: str, describe: str, body: Callable[[], bool], seconds: float = 10.0) -> None:
        """Runs one input: ``body`` returns True if it was accepted, raises ParlourError if refused."""
        self.tried[surface] += 1
        try:
            with time_limit(seconds):
                accepted = body()
        except ParlourError as err:
            if "\n" in str(err) or not str(err):
                self._fail(surface, describe, f"refusal is not one line: {str(err)!r}")
            self.refused[surface] += 1
            return
        except Hang as err:
            self.hangs += 1
            self._fail(surface, describe, str(err))
            return
        except NamedFileRead as err:
            self.named_reads += 1
            self._fail(surface, describe, str(err))
            return
        except AssertionError as err:  # a broken promise about the state or the output
            self._fail(surface, describe, f"{err}")
            return
        except Exception as err:  # every other exception is the defect being hunted
            self.tracebacks += 1
            where = traceback.extract_tb(err.__traceback__)[-1]
            self._fail(surface, describe, f"{type(err).__name__}: {err} at {where.filename}:{where.lineno}")
            return
        (self.accepted if accepted else self.refused)[surface] += 1

    def _fail(self, surface: str, describe: str, what: str) -> None:
        """Notes a broken promise (keeps the first hundred)."""
        self.broken += 1
        if len(self.failures) < 100:
            self.failures.append(f"[{surface}] {describe[:300]}: {what[:400]}")

    def check(self) -> None:
        """Fails with every broken promise listed."""
        assert not self.broken, "\n".join([self.summary(), *self.failures])

    def summary(self) -> str:
        """Returns the figures: inputs tried, clean refusals, accepted, tracebacks, hangs."""
        lines = [f"{'surface':<12}{'tried':>10}{'refused':>10}{'accepted':>10}"]
        for surface in sorted(self.tried):
            lines.append(
                f"{surface:<12}{self.tried[surface]:>10}{self.refused[surface]:>10}{self.accepted[surface]:>10}"
            )
        total = sum(self.tried.values())
        lines.append(
            f"{'total':<12}{total:>10}{sum(self.refused.values()):>10}{sum(self.accepted.values()):>10}"
        )
        others = self.broken - self.tracebacks - self.hangs - self.named_reads
        lines.append(
            f"tracebacks {self.tracebacks}, hangs {self.hangs}, named files read {self.named_reads}, "
            f"other broken promises {others}"
        )
        return "\n".join([*lines, *self.notes])
