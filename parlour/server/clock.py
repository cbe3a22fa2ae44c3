"""The server's clock: wall time plus an offset that only tests move (the clock hook, docs/server.md)."""

from __future__ import annotations

import time


class Clock:
    """What time it is for deadlines, pacing and the scheduler: ``time.time()`` plus ``offset``.

    The offset is 0 in a served app; a test moves it forward (``advance``, or ``POST /api/test/clock``
    on an app made with ``Settings.test_hooks``) to make a deadline pass without sleeping.
    """

    def __init__(self, offset: float = 0.0) -> None:
        self.offset = offset

    def now(self) -> float:
        """Returns the time in seconds since the epoch, the offset included."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Moves the clock forward (tests only): every deadline that falls within passes at once."""
        if not 0 <= seconds <= MAX_ADVANCE:
            raise ValueError(f"the clock moves forward 0 to {MAX_ADVANCE:g} seconds at a time")
        self.offset += seconds


MAX_ADVANCE = 30 * 86_400.0
"""The most the test hook moves the clock at once (seconds)."""
