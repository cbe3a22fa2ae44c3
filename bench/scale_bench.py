"""Games per second of one simulation on the local backend and on a local Ray of as many CPUs (issue 15).

Both runs play the same games (same seed and count) with the same number of workers, one after the
other in this process, and their summaries are checked equal (apart from the time). Ray's start is
timed apart: the games per second are the summary's own ``seconds`` (after Ray is up).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from parlour.bots.simulation import Batch, simulate

SCALE_TABLES = (
    ("venture", ["greedy", "random", "random", "random"], 120),
    ("embers", ["random", "random", "random"], 4000),
)
"""Whole Venture games (about a second each: throughput) and tiny Embers ones (overhead per chunk)."""


def timeless(summary: dict[str, Any]) -> dict[str, Any]:
    """Returns a summary without its wall-clock time."""
    return {k: v for k, v in summary.items() if k != "seconds"}


def scale_figures(results: dict[str, Any], workers: int = 2, seed: int = 2026) -> None:
    """Measures and prints games per second locally and on a local Ray of ``workers`` CPUs."""
    try:
        import ray
    except ImportError as err:
        results["scale"] = f"unavailable: {err}"
        print(f"Simulation on Ray: unavailable ({err})")
        return
    print(f"Simulation games per second, {workers} local processes, then a local Ray of {workers} CPUs:")
    start = time.perf_counter()
    ray.init(address="local", num_cpus=workers, include_dashboard=False, logging_level=logging.ERROR)
    started = time.perf_counter() - start
    rows: dict[str, Any] = {"workers": workers, "ray_start_seconds": started}
    try:
        for game, seats, games in SCALE_TABLES:
            rows[game] = row = scale_row(game, seats, games, workers, seed)
            print(
                f"  {game:8s} {','.join(seats)} x {games}:"
                f" local {row['local_games_per_second']:,.1f} games/s,"
                f" Ray {row['ray_games_per_second']:,.1f} games/s"
                f" (ratio {row['ratio']:.2f}; identical results: {row['identical']})"
            )
    finally:
        ray.shutdown()
    print(f"  (the local Ray took {started:.1f} s to start, not counted above)")
    results["scale"] = rows


def scale_row(game: str, seats: list[str], games: int, workers: int, seed: int) -> dict[str, Any]:
    """Plays the same simulation on both backends; returns games per second and whether they agree."""
    local = simulate(game, seats, games, seed=seed, batch=Batch(workers=workers, workers_max=workers))
    on_ray = simulate(game, seats, games, seed=seed, batch=Batch(workers=workers, backend="ray"))
    here, there = games / local["seconds"], games / on_ray["seconds"]
    return {
        "games": games,
        "seats": seats,
        "local_games_per_second": here,
        "ray_games_per_second": there,
        "ratio": there / here,
        "identical": timeless(local) == timeless(on_ray),
    }
