"""Timing helper for the Venture reorganisation optimiser."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.games.venture.optimiser import CorpLike, best_arrangement, clear_cache


def _time_ms(corps: Sequence[CorpLike]) -> float:
    """Return the wall time in ms of one uncached best_arrangement call."""
    clear_cache()
    start = time.perf_counter()
    best_arrangement(corps)
    return (time.perf_counter() - start) * 1000.0


def optimiser_timings(
    deck_corps: Sequence[CorpLike],
    sizes: Sequence[int] = (8, 16, 24),
    repeats: int = 20,
    seed: int = 0,
    deck_repeats: int = 5,
) -> dict[str, float]:
    """Return median uncached best_arrangement times in ms: keys "8", "16", "24", "deck"."""
    rng = random.Random(seed)
    corps = list(deck_corps)
    warm = rng.sample(corps, min(len(corps), 12))
    _time_ms(warm)  # first solve pays for lazy imports inside scipy
    result: dict[str, float] = {}
    for size in sizes:
        if size > len(corps):
            continue
        times = [_time_ms(rng.sample(corps, size)) for _ in range(repeats)]
        result[str(size)] = statistics.median(times)
    result["deck"] = statistics.median(_time_ms(corps) for _ in range(max(1, deck_repeats)))
    return result


@dataclass(frozen=True)
class _SyntheticCorp:
    """A synthetic corporation card."""

    id: str
    industry: str
    letters: frozenset[str]


def synthetic_deck(seed: int = 0, per_industry: int = 9) -> list[_SyntheticCorp]:
    """Return a seeded random deck: ``per_industry`` distinct cards in each of six industries."""
    rng = random.Random(seed)
    industries = ["ST", "OI", "RR", "RE", "AU", "SH"]
    deck: list[_SyntheticCorp] = []
    for ind in industries:
        seen: set[frozenset[str]] = set()
        while len(seen) < per_industry:
            letters = frozenset(rng.sample("ABCDEF", rng.randint(1, 5)))
            if letters not in seen:
                seen.add(letters)
                deck.append(_SyntheticCorp(f"{ind}-{''.join(sorted(letters))}", ind, letters))
    return deck


def main() -> None:
    """Print optimiser timings for a synthetic 54-card deck."""
    deck = synthetic_deck()
    timings = optimiser_timings(deck)
    print(f"median best_arrangement time, {len(deck)}-card synthetic deck:")
    for key, ms in timings.items():
        label = f"{len(deck)} (deck)" if key == "deck" else key
        print(f"{label:>9} cards: {ms:8.2f} ms")


if __name__ == "__main__":
    main()
