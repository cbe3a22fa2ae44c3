"""The analysis's figures (issue 33): the time to analyse a typical four-player game of each game at the
default budget on two workers; on games between search seats (a fixed iteration count standing for
``ismcts:1s``) and ``random`` seats, the mean loss of each kind's decisions; and how often two analyses
with different seeds agree on the marks.

Run alone: ``python bench/analysis_bench.py [--only trust] [--games 2] [--game venture] [--records DIR]
[--write]`` (``make bench ONLY=analysis`` writes the figures into bench/results.json; ``--write`` merges
them into its "analysis" section).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.analysis.analyse import analyse, clear_loss
from parlour.analysis.intervals import interval
from parlour.analysis.report import Analysis, Judgement
from parlour.analysis.settings import Budget
from parlour.bots.registry import make_bot
from parlour.core.match import play_match
from parlour.core.record import GameRecord
from parlour.core.registry import load_game

RESULTS = Path(__file__).resolve().parent / "results.json"
"""Where ``--write`` merges the figures (its "analysis" section only)."""
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("venture", {}),
    ("im-the-boss", {}),
    ("venus-needs-men", {"game": "basic"}),
)
"""The games measured, four players each (Venus Needs Men!'s Basic game)."""
WORKERS = 2
TRUST_GAMES = 6
"""Trust games a game by default: every other one with the seats turned by one."""
AGREEMENT_GAMES = 2
"""Trust games analysed a second time (seed 1) to measure the marks' agreement: the first ones."""
FIRST_SEED = 2032
"""The first trust game's seed (the next games count up). The share's definition was chosen on the games
of seeds 2026 to 2031 (docs/analysis.md); the figures are measured on these, which played no part in it."""
TRUST: dict[str, tuple[dict[str, Any], str]] = {
    "venture": ({}, "ismcts:800it"),
    "im-the-boss": ({"length": "short", "max_turns": 24, "negotiation_limit": 4}, "ismcts:750it"),
    "venus-needs-men": ({"game": "basic"}, "ismcts:650it"),
}
"""The trust games' options and search seats. The issue names ``ismcts:1s``, whose strength depends on
the machine's load; each iteration count is what one second of CPU held in games against random seats
with the compiled modules (815, 766 and 658 iterations a CPU second, 2026-12-06; docs/analysis.md), so
it stands for ``ismcts:1s`` on a quiet machine, reproducibly. I'm the Boss! short (its negotiations with
random seats are long: a full game of search seats took over eight minutes on the busy machine)."""


def cpu_seconds() -> float:
    """Returns the CPU time of this process and its ended children (the worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bots_game(name: str, options: dict[str, Any], seats: list[str], seed: int) -> GameRecord:
    """Returns the record of a game between bots (seat names as the record keeps them)."""
    game = load_game(name)
    agents = [make_bot(game, bot, seed * 8 + s) for s, bot in enumerate(seats)]
    return play_match(game, agents, seed, options).record


def kept_game(
    name: str, options: dict[str, Any], seats: list[str], seed: int, records: Path | None
) -> GameRecord:
    """Returns ``bots_game``'s record, read from ``records`` when an earlier run kept it there (the
    games of fixed-iteration bots are the same every run), else played and kept there."""
    if records is None:
        return bots_game(name, options, seats, seed)
    path = records / f"{name}-{'-'.join(seats)}-{seed}.json".replace(":", "_")
    if path.exists():
        return GameRecord.loads(path.read_text())
    record = bots_game(name, options, seats, seed)
    records.mkdir(parents=True, exist_ok=True)
    path.write_text(record.dumps())
    return record


def timed(record: GameRecord, **settings: Any) -> tuple[Analysis, float, float]:
    """Returns an analysis with its wall and CPU seconds (workers included)."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = analyse(record, workers=WORKERS, **settings)
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def typical_time(name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Analyses a four-player game of greedy bots, seat 0 as its person, at the default budget."""
    record = bots_game(name, options, ["greedy"] * 4, seed)
    record.seats = ["human", "greedy", "greedy", "greedy"]
    result, wall, cpu = timed(record)
    return {
        "seed": seed,
        "actions": len(record.moves),
        "decisions": len(result.decisions),
        "budget": result.budget,
        "rollout": result.rollout,
        "workers": WORKERS,
        "seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "marked": sum(1 for d in result.decisions if d.mark),
    }


def trust(
    name: str,
    options: dict[str, Any],
    games: int,
    search: str,
    records: Path | None = None,
    budget: int | None = None,
    first_seed: int = FIRST_SEED,
    agreement: int = AGREEMENT_GAMES,
) -> dict[str, Any]:
    """Plays ``games`` games of two search seats against two random ones (the seats turned by one every
    other game), analyses every seat (seed 0; the first ``agreement`` games again with seed 1) and
    returns each kind's mean loss (the analysis's: clear losses; and raw) with its interval, the share
    at stake (the best action's mean),
    the same over the decisions with at least the fair share at stake, each decision's loss less what a
    uniformly random choice among the actions considered would lose there (matched stakes: negative
    where the seat chose better than chance), and the marks' agreement."""
    kinds = (search, "random")
    losses: dict[str, list[float]] = {bot: [] for bot in kinds}
    clear: dict[str, list[float]] = {bot: [] for bot in kinds}
    stakes: dict[str, list[float]] = {bot: [] for bot in kinds}
    alive: dict[str, list[tuple[float, float]]] = {bot: [] for bot in kinds}
    uniform: dict[str, list[float]] = {bot: [] for bot in kinds}
    marked: dict[str, int] = dict.fromkeys(kinds, 0)
    repeated: dict[str, int] = dict.fromkeys(kinds, 0)
    tried: dict[str, int] = dict.fromkeys(kinds, 0)
    agree = total = 0
    seconds = 0.0
    rollout = ""
    for index in range(games):
        seats = (
            [search, "random", search, "random"] if index % 2 == 0 else ["random", search, "random", search]
        )
        record = kept_game(name, options, seats, first_seed + index, records)
        first, wall, _ = timed(record, all_seats=True, seed=0, budget=budget)
        seconds += wall
        rollout = first.rollout
        marks: dict[int, str] | None = None
        if index < agreement:
            second, wall2, _ = timed(record, all_seats=True, seed=1, budget=budget)
            seconds += wall2
            marks = {d.move: d.mark for d in second.decisions}
        for judgement in first.decisions:
            bot = seats[judgement.seat]
            losses[bot].append(judgement.loss)
            clear[bot].append(clear_loss(judgement))
            uniform[bot].append(judgement.loss - _uniform_loss(judgement))
            stakes[bot].append(judgement.before)
            if judgement.before >= 1 / record.players:
                alive[bot].append((clear[bot][-1], losses[bot][-1]))
            marked[bot] += judgement.mark != ""
            if marks is not None:
                tried[bot] += judgement.mark != ""
                repeated[bot] += judgement.mark != "" and marks[judgement.move] != ""
        if marks is not None:
            agree += sum(1 for d in first.decisions if marks[d.move] == d.mark)
            total += len(first.decisions)
    row: dict[str, Any] = {
        "games": games,
        "seeds": f"{first_seed} to {first_seed + games - 1}",
        "games analysed twice": min(agreement, games),
        "seats": f"2 x {search}, 2 x random",
        "rollout": rollout,
        "budget": budget or Budget().samples,
        "seconds": round(seconds, 1),
    }
    for bot in kinds:
        row[f"{bot} decisions"] = len(losses[bot])
        row[f"{bot} mean clear loss"] = _interval(clear[bot])
        row[f"{bot} mean loss"] = _interval(losses[bot])
        row[f"{bot} marked"] = marked[bot]
        row[f"{bot} marked in the games analysed twice"] = tried[bot]
        row[f"{bot} marked again with seed 1"] = repeated[bot]
        row[f"{bot} mean share before deciding"] = _interval(stakes[bot])
        row[f"{bot} clear loss / share at stake"] = _ratio(clear[bot], stakes[bot])
        row[f"{bot} loss / share at stake"] = _ratio(losses[bot], stakes[bot])
        row[f"{bot} loss less a uniform choice's"] = _interval(uniform[bot])
        row[f"{bot} decisions at stake >= fair share"] = len(alive[bot])
        row[f"{bot} mean clear loss at stake >= fair share"] = _interval([c for c, _ in alive[bot]])
        row[f"{bot} mean loss at stake >= fair share"] = _interval([r for _, r in alive[bot]])
    for what in ("mean clear loss", "mean loss", "mean clear loss at stake >= fair share"):
        row[f"random {what} clearly larger"] = row[f"random {what}"][1] > row[f"{search} {what}"][2]
    row["marks agree"] = round(agree / total, 4) if total else None
    row["decisions compared"] = total
    return row


def _uniform_loss(judgement: Judgement) -> float:
    """Returns the mean loss of the actions considered at a decision: what a uniformly random choice
    among them loses there (the same position, so the same stakes)."""
    return math.fsum(a.loss for a in judgement.actions) / len(judgement.actions)


def _interval(values: list[float]) -> list[float]:
    """Returns the mean and its 95% interval, rounded (zeros for fewer than two values)."""
    found = interval(values) if len(values) > 1 else (0.0, 0.0, 0.0)
    return [round(x, 4) for x in found]


def _ratio(losses: list[float], stakes: list[float]) -> float:
    """Returns the losses' sum over the stakes' sum: the part of the share at stake lost a decision."""
    at_stake = math.fsum(stakes)
    return round(math.fsum(losses) / at_stake, 4) if at_stake > 0 else 0.0


def analysis_figures(
    results: dict[str, Any],
    games: int = TRUST_GAMES,
    search: str | None = None,
    only: str | None = None,
    names: list[str] | None = None,
    records: Path | None = None,
    budget: int | None = None,
    first_seed: int = FIRST_SEED,
    agreement: int = AGREEMENT_GAMES,
) -> None:
    """Measures and prints the analysis's figures into ``results["analysis"]`` (``only``: ``time`` or
    ``trust``; ``names``: only these games; ``budget``: the trust analyses' determinisations a decision,
    else the default, and a key naming it; the other figures there are kept)."""
    figures: dict[str, Any] = results.get("analysis") or {}
    figures["default budget"] = Budget().describe()
    results["analysis"] = figures
    if only != "trust":
        typical_times(figures, names)
    if only != "time":
        trust_figures(figures, games, search, names, records, budget, first_seed, agreement)


def typical_times(figures: dict[str, Any], names: list[str] | None = None) -> None:
    """Times the analysis of a typical four-player game of each game (greedy bots, seat 0 as the person)."""
    print(f"Analysis: a four-player greedy game, seat 0 judged, default budget, {WORKERS} workers:")
    for name, options in GAMES:
        if names and name not in names:
            continue
        row = figures[f"time {name}"] = typical_time(name, options, 7)
        print(
            f"  {name:16s} {row['seconds']:6.1f} s ({row['cpu_seconds']:.1f} CPU s), {row['decisions']} "
            f"decisions of {row['actions']} actions, {row['marked']} marked"
        )


def trust_figures(
    figures: dict[str, Any],
    games: int,
    search: str | None,
    names: list[str] | None = None,
    records: Path | None = None,
    budget: int | None = None,
    first_seed: int = FIRST_SEED,
    agreement: int = AGREEMENT_GAMES,
) -> None:
    """Measures each game's trust figures (``trust``): losses by kind of seat, agreement of two seeds."""
    print(
        f"Analysis trust: {games} game(s) a game (seeds from {first_seed}) of 2 search seats against "
        "2 random, every seat, analysis seeds 0, 1:"
    )
    for name, (options, bot) in TRUST.items():
        if names and name not in names:
            continue
        key = f"trust {name}" + (f", budget {budget}" if budget else "")
        row = figures[key] = trust(
            name, options, games, search or bot, records, budget, first_seed, agreement
        )
        print(f"  {name:16s} " + ", ".join(f"{k} {v}" for k, v in row.items()), flush=True)


def main() -> None:
    """Prints the figures as JSON (``--write``: merged into bench/results.json's "analysis" section)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=TRUST_GAMES, help="trust games a game")
    parser.add_argument("--search", help="the search seats (default: per game, TRUST)")
    parser.add_argument("--only", choices=["time", "trust"], help="measure only this part")
    parser.add_argument("--game", action="append", choices=sorted(TRUST), help="only this game (repeatable)")
    parser.add_argument("--records", type=Path, help="a folder keeping the trust games' records for reuse")
    parser.add_argument("--write", action="store_true", help="merge the figures into bench/results.json")
    parser.add_argument("--budget", type=int, help="the trust analyses' determinisations a decision")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED, help="the first trust game's seed")
    parser.add_argument(
        "--agreement-games", type=int, default=AGREEMENT_GAMES, help="trust games analysed twice (the first)"
    )
    args = parser.parse_args()
    results: dict[str, Any] = {}
    if args.write:
        results = json.loads(RESULTS.read_text())
    analysis_figures(
        results,
        args.games,
        args.search,
        args.only,
        args.game,
        args.records,
        args.budget,
        args.first_seed,
        args.agreement_games,
    )
    if args.write:
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results["analysis"], indent=1))


if __name__ == "__main__":
    main()
