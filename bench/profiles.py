"""Where random playouts spend their time: a cProfile summary of every game and mode.

``python bench/profiles.py [--seconds S] [--top N]`` (or ``make bench ONLY=profiles``) plays random
games of each table of ``bench/speed.py`` (four players, through ``apply_legal``) under cProfile for
``seconds`` each and prints the ``top`` functions by own time, as shares of the profiled time, with
their share including callees. cProfile slows call-heavy code more than the rest, so the shares are a
guide, not a measurement.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from command_line import settings
from playouts import random_playouts
from speed import PLAYERS, TABLES

WARM_UP_SEED = 1_000_000
"""The first seed of the unprofiled warm-up games (the profiled games are seeded from 0)."""
Row = tuple[str, float, float, int]
"""A profiled function: its place (file:line(name)), own share, share with callees, calls."""


def profile(name: str, options: dict[str, object], seconds: float, top: int) -> list[Row]:
    """Returns the ``top`` functions by own time of random playouts of one game for ``seconds``."""
    # One-time work (copies compiled per state class) first, on other games than those profiled.
    random_playouts(name, PLAYERS, 0.3, False, dict(options), seed=WARM_UP_SEED)
    profiler = cProfile.Profile()
    profiler.runcall(random_playouts, name, PLAYERS, seconds, False, dict(options))
    stats = pstats.Stats(profiler)
    table = stats.stats  # type: ignore[attr-defined]
    total = sum(own for _, _, own, _, _ in table.values()) or 1.0
    rows = [
        (_place(key), own / total, cumulative / total, calls)
        for key, (_, calls, own, cumulative, _) in table.items()
    ]
    return sorted(rows, key=lambda row: -row[1])[:top]


def _place(key: tuple[str, int, str]) -> str:
    """Returns a function's place as ``module.py:line(name)``, the path cut to parlour/ or the file."""
    path, line, function = key
    short = path.split("/parlour/", 1)[-1] if "/parlour/" in path else Path(path).name
    return f"{short}:{line}({function})" if line else function


def print_profiles(seconds: float, top: int) -> None:
    """Prints the profile of every game and mode."""
    for title, name, options in TABLES:
        print(f"{title}: own share, share with callees, calls")
        for place, own, cumulative, calls in profile(name, options, seconds, top):
            print(f"  {own:6.1%} {cumulative:6.1%} {calls:>9,}  {place}")


def main() -> None:
    """Prints the profiles with the command line's settings."""
    args = settings(__doc__, seconds=5.0, top=12)
    print_profiles(args.seconds, int(args.top))


if __name__ == "__main__":
    main()
