"""The server process's garbage collector, tuned for short pauses (docs/server.md, Under load)."""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
"""Allocations (less deallocations) between two collections of the youngest generation (Python's
default: 700). A server makes and drops a table's views, moves and messages by the thousand a second;
at the default it collected ten times as often, and its older generations with it."""
OLDER_THRESHOLDS = (50, 100)
"""Collections of a generation between two of the next older one (Python's default: 10 and 10)."""


def tune_collector() -> None:
    """Freezes every object the start made (modules, content, the app: never freed, never scanned
    again) and collects less often: a full collection of a server holding a hundred tables stopped its
    event loop for 60 to 80 ms on this machine, the largest share of the slowest updates."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
