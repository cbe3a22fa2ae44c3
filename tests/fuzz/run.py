"""Fuzz runs: many mutated inputs for one game, a tally of the outcomes, and the failures found."""

from __future__ import annotations

import json
import random
import traceback
from dataclasses import dataclass, field

from parlour.core.registry import load_game

from .check import ACCEPTED, check_position
from .corpus import positions
from .mutate import Path, mutations

TEXT_OPTIONS: tuple[Path, ...] = (("options", "deck"), ("options", "content"), ("options", "zap"))
"""Options naming content files: left as they were until content sets get names (issue 10, part 1)."""


@dataclass
class Tally:
    """What a fuzz run tried and found."""

    tried: int = 0
    refused: int = 0
    accepted: int = 0
    failures: list[str] = field(default_factory=list)
    """One entry a failure: the exception, the traceback's last line and the input (as JSON text)."""


def fuzz_positions(
    name: str,
    count: int,
    seed: int = 0,
    base: int = 60,
    max_actions: int | None = 12,
    keep: tuple[Path, ...] = TEXT_OPTIONS,
    stop_after: int = 5,
) -> Tally:
    """Loads ``count`` mutated positions of game ``name`` (seeded); stops after ``stop_after`` failures."""
    game = load_game(name)
    tally = Tally()
    rng = random.Random(seed)
    for index, data in mutations(positions(name, base, seed), count, seed, keep):
        tally.tried += 1
        try:
            outcome = check_position(game, data, max_actions, rng)
        except Exception as err:  # every failure is reported with its input
            where = traceback.format_exc().strip().splitlines()[-3:]
            tally.failures.append(
                f"#{index}: {type(err).__name__}: {err} | {' / '.join(where)} | "
                + json.dumps(data, default=repr)[:3000]
            )
            if len(tally.failures) >= stop_after:
                break
            continue
        if outcome == ACCEPTED:
            tally.accepted += 1
        else:
            tally.refused += 1
    return tally


def main(argv: list[str] | None = None) -> int:
    """Fuzzes positions from the command line: ``python -m tests.fuzz.run --count N --seed S [GAME...]``."""
    import argparse

    from parlour.core.registry import game_names

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("games", nargs="*", default=game_names())
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--base", type=int, default=60, help="valid positions to mutate, per game")
    parser.add_argument("--max-actions", type=int, default=None, help="legal actions tried per seat")
    args = parser.parse_args(argv)
    failed = 0
    for name in args.games:
        tally = fuzz_positions(name, args.count, args.seed, args.base, args.max_actions)
        print(
            f"{name}: tried {tally.tried}, refused {tally.refused}, accepted {tally.accepted}, "
            f"failures {len(tally.failures)}"
        )
        for failure in tally.failures:
            print("  " + failure[:2000])
        failed += len(tally.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
