"""Means with Student's 95% confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145)
"""Student's t two-sided 95% quantiles for 1 to 14 degrees of freedom."""
T95_MORE = ((20, 2.086), (30, 2.042), (60, 2.000), (120, 1.980))
"""Quantiles beyond: at most this many degrees of freedom take this one (then 1.96)."""


def t95(freedom: int) -> float:
    """Returns Student's two-sided 95% quantile for ``freedom`` degrees of freedom (1 or more)."""
    if freedom <= len(T95):
        return T95[max(freedom, 1) - 1]
    for most, value in T95_MORE:
        if freedom <= most:
            return value
    return 1.96


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Returns the mean and its 95% interval (one value: the interval is the value itself, unbounded
    uncertainty being no use to anyone; callers never judge on fewer than two samples)."""
    count = len(values)
    if not count:
        raise ValueError("no samples")
    mean = math.fsum(values) / count
    if count < 2:
        return mean, mean, mean
    variance = math.fsum((v - mean) ** 2 for v in values) / (count - 1)
    half = t95(count - 1) * math.sqrt(variance / count)
    return mean, mean - half, mean + half
