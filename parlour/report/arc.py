"""A game's arc by the search's estimate: lead changes, drama and decisiveness (Ludii's names)."""

from __future__ import annotations

from collections.abc import Sequence

TENTHS = 10
"""How many equal parts of a game the along-the-game figures are given for."""


def leaders(estimate: Sequence[float]) -> frozenset[int]:
    """Returns the seats whose estimate is highest (several on a tie)."""
    best = max(estimate)
    return frozenset(s for s, x in enumerate(estimate) if x == best)


def lead_changes(estimates: Sequence[Sequence[float]]) -> int:
    """Returns how often the leader changed from one turn's estimate to the next (Ludii's LeadChange,
    as a count): a tie for the lead is no leader, and a change needs a sole leader on both sides of it
    (A leads, A and B tie, B leads counts once)."""
    changes = 0
    last: int | None = None
    for row in estimates:
        lead = leaders(row)
        if len(lead) != 1:
            continue
        (seat,) = lead
        if last is not None and seat != last:
            changes += 1
        last = seat
    return changes


def gap(row: Sequence[float], seat: int) -> float:
    """Returns how far ``seat`` is behind the leader, over the largest absolute estimate (0 when it
    leads or ties for the lead; at most 2)."""
    best = max(row)
    scale = max(abs(x) for x in row)
    return (best - row[seat]) / scale if scale > 0 else 0.0


def drama(estimates: Sequence[Sequence[float]], winners: Sequence[int]) -> tuple[float, float]:
    """Returns the share of turns in which no eventual winner led, and the eventual winner's mean gap
    (:func:`gap`) over those turns (Ludii's Drama; 0 if the winner led throughout)."""
    if not estimates or not winners:
        return 0.0, 0.0
    behind = [min(gap(row, w) for w in winners) for row in estimates]
    trailing = [g for g in behind if g > 0]
    if not trailing:
        return 0.0, 0.0
    return len(trailing) / len(estimates), sum(trailing) / len(trailing)


def decisiveness(estimates: Sequence[Sequence[float]], winners: Sequence[int]) -> float:
    """Returns the fraction of the game (0 to 1, in turns) after which an eventual winner led without a
    break to the end (Ludii's DecisivenessMoves, as a fraction): 0 if it led from the first turn, 1 if
    it never led before the end."""
    count = len(estimates)
    if not count or not winners:
        return 1.0
    settled = count
    for i in range(count - 1, -1, -1):
        if not leaders(estimates[i]) & set(winners):
            break
        settled = i
    return settled / count


def winner_leads(estimates: Sequence[Sequence[float]], winners: Sequence[int]) -> list[float]:
    """Returns 1 for each turn in which an eventual winner led (or tied for the lead), else 0."""
    return [1.0 if leaders(row) & set(winners) else 0.0 for row in estimates]


def by_tenth(values: Sequence[float]) -> list[float]:
    """Returns the mean of ``values`` (one per action, in order) over each tenth of the game; a tenth
    without values takes the one before it (0 at the start)."""
    count = len(values)
    sums = [0.0] * TENTHS
    seen = [0] * TENTHS
    for i, value in enumerate(values):
        part = min(TENTHS - 1, i * TENTHS // count)
        sums[part] += value
        seen[part] += 1
    result: list[float] = []
    for part in range(TENTHS):
        result.append(sums[part] / seen[part] if seen[part] else (result[-1] if result else 0.0))
    return result
