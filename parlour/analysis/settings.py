"""The analysis's settings: its budget a decision, the marks' thresholds and the accuracy scale."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from parlour.core.errors import OptionError

DEFAULT_SAMPLES = 12
"""Determinisations a decision by default; every action considered is played out once on each."""
MAX_SAMPLES = 10_000
"""The most determinisations a decision may ask for."""
MAX_SECONDS = 600.0
"""The longest time budget a decision may ask for."""
MIN_SAMPLES = 4
"""Determinisations a decision takes at least, whatever its time budget (fewer give no interval)."""
MAX_ACTIONS = 16
"""Actions considered at a decision with more legal ones: the one played, the adviser's, then others
drawn at random (docs/analysis.md)."""
SCREEN = 4
"""After this many determinisations, only the KEEP best actions (and the one played) play on."""
KEEP = 4
"""Actions kept after the screen, the one played besides."""
MARKS = (("??", 0.20), ("?", 0.10), ("?!", 0.05))
"""Each mark and the loss (share of the game, two players) the lower end of its interval must exceed;
with N players the thresholds are scaled by 2 / N (a fair share is 1 / N)."""
_BUDGET = re.compile(r"([0-9]{1,6})|([0-9]{1,4}(?:\.[0-9]{1,3})?)s|([0-9]{1,7})ms", re.ASCII)


@dataclass(frozen=True)
class Budget:
    """How long each decision is studied: determinisations, or milliseconds (then at least MIN_SAMPLES;
    a timed analysis depends on the machine's speed and is not reproducible)."""

    samples: int = DEFAULT_SAMPLES
    milliseconds: int = 0

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Reads ``16`` (determinisations a decision), ``2s``, ``0.5s`` or ``500ms``; else OptionError."""
        found = _BUDGET.fullmatch(text.strip().lower())
        if found is None:
            raise OptionError(
                f"--budget must be determinisations a decision (as 16) or a time (as 2s, 500ms), "
                f"not {text[:24]!r}"
            )
        if found[1] is not None:
            samples = int(found[1])
            if not 2 <= samples <= MAX_SAMPLES:
                raise OptionError(f"--budget must be from 2 to {MAX_SAMPLES} determinisations, not {samples}")
            return cls(samples=samples)
        seconds = float(found[2]) if found[2] is not None else int(found[3]) / 1000
        if not 0.001 <= seconds <= MAX_SECONDS or not math.isfinite(seconds):
            raise OptionError(f"--budget must be from 1ms to {MAX_SECONDS:g}s, not {text.strip()[:24]!r}")
        return cls(samples=0, milliseconds=round(seconds * 1000))

    def describe(self) -> str:
        """Returns the budget as --budget writes it."""
        return f"{self.milliseconds}ms" if self.milliseconds else str(self.samples)


def thresholds(players: int) -> dict[str, float]:
    """Returns the loss each mark needs (the lower end of its interval above it) with ``players`` seats."""
    return {mark: limit * 2 / players for mark, limit in MARKS}


def mark(loss_low: float, players: int) -> str:
    """Returns the mark of a decision whose loss's 95% interval starts at ``loss_low`` ("" for none)."""
    for name, limit in thresholds(players).items():
        if loss_low > limit:
            return name
    return ""


def accuracy(loss: float, players: int) -> float:
    """Returns one decision's accuracy, 0 to 100: 100 × exp(-loss / the "?" threshold) (a loss as large
    as the "?" threshold scores 37, none 100)."""
    scale = thresholds(players)["?"]
    return 100.0 * math.exp(-max(0.0, loss) / scale)
