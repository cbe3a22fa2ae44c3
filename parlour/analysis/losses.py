"""Each action's loss against the best, free of the best-of-several bias (cross-fitting): on each
determinisation an action is compared with the action that did best on the *other* half of them.

The action with the highest mean over every determinisation is the best of several noisy means: its
mean is biased upwards by about the sampling noise, so a loss measured against it on the same samples
is biased upwards too, the more so the more is at stake (docs/analysis.md, "Measured"). Here the
determinisations are split by parity; the action best on the odd ones is the yardstick on each even
one, and the other way round, so the yardstick is never chosen on the sample it is measured on, and a
loss's expectation is the true shortfall against an action the analysis would choose.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from parlour.analysis.intervals import interval


def best_by_halves(samples: Sequence[Sequence[float]], full: Sequence[int]) -> tuple[int, int]:
    """Returns the action (among ``full``, those played out on every determinisation) with the highest
    mean over the even determinisations, then the one with the highest over the odd ones (the first
    in ``full`` on a tie)."""

    def half_mean(action: int, parity: int) -> float:
        values = samples[action][parity::2]
        return math.fsum(values) / len(values) if values else 0.0

    return (max(full, key=lambda a: half_mean(a, 0)), max(full, key=lambda a: half_mean(a, 1)))


def crossfit_loss(
    samples: Sequence[Sequence[float]], action: int, best_even: int, best_odd: int
) -> tuple[float, float, float]:
    """Returns ``action``'s loss and its 95% interval: on each determinisation it has, the share of the
    action best on the other half (``best_odd`` on an even one, ``best_even`` on an odd one) less its
    own (negative where it did better than that yardstick)."""
    own = samples[action]
    differences = [samples[best_odd if k % 2 == 0 else best_even][k] - own[k] for k in range(len(own))]
    return interval(differences)
