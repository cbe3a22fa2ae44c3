"""Cross-fitted losses: the yardstick on each determinisation is the best of the other half, so a loss
carries no best-of-several bias."""

from __future__ import annotations

import random

from parlour.analysis.intervals import interval
from parlour.analysis.losses import best_by_halves, crossfit_loss


def test_a_certain_loss_is_exact() -> None:
    samples = [[1.0] * 6, [0.25] * 6]
    even, odd = best_by_halves(samples, [0, 1])
    assert (even, odd) == (0, 0)
    assert crossfit_loss(samples, 1, even, odd) == (0.75, 0.75, 0.75)


def test_the_yardstick_on_a_sample_is_chosen_on_the_other_half() -> None:
    # Action 1 does best on the even samples, action 2 on the odd ones.
    samples = [[0.5, 0.5, 0.5, 0.5], [0.9, 0.1, 0.9, 0.1], [0.2, 0.8, 0.2, 0.8]]
    even, odd = best_by_halves(samples, [0, 1, 2])
    assert (even, odd) == (1, 2)
    # Even samples are measured against action 2 (best on the odd ones), odd against action 1.
    loss, _, _ = crossfit_loss(samples, 0, even, odd)
    assert loss == sum([0.2 - 0.5, 0.1 - 0.5, 0.2 - 0.5, 0.1 - 0.5]) / 4


def test_an_action_with_fewer_samples_is_measured_on_those_it_has() -> None:
    samples = [[0.6, 0.4, 0.6, 0.4, 0.6, 0.4], [0.1, 0.1]]
    even, odd = best_by_halves(samples, [0])
    assert crossfit_loss(samples, 1, even, odd)[0] == (0.5 + 0.3) / 2


def test_no_bias_when_every_action_is_as_good() -> None:
    """Five equally good actions with noisy shares: an action's loss against the best of the same
    samples is clearly positive on average, the cross-fitted one is not (its mean holds 0)."""
    rng = random.Random(7)
    same, crossed = [], []
    for _ in range(2000):
        samples = [[rng.random() for _ in range(12)] for _ in range(5)]
        best = max(range(5), key=lambda a: sum(samples[a]))
        same.append(sum(b - a for a, b in zip(samples[0], samples[best], strict=True)) / 12)
        crossed.append(crossfit_loss(samples, 0, *best_by_halves(samples, range(5)))[0])
    assert interval(same)[1] > 0.08
    mean, low, high = interval(crossed)
    assert low < 0 < high and abs(mean) < 0.01
