"""``parlour analyse RECORD``: the analysis of a finished game, printed in short and written as JSON."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.progress import Progress

from parlour.analysis.analyse import analyse, choose_seats
from parlour.analysis.report import Analysis, Judgement
from parlour.analysis.settings import Budget
from parlour.bots.workers import check_backend
from parlour.cli import files
from parlour.cli.content import content_sets
from parlour.cli.output import make_console
from parlour.core.errors import OptionError
from parlour.core.record import check_seed
from parlour.core.registry import load_game

MAX_SEATS_GIVEN = 16
"""The most --seat options accepted."""


def default_out(record: str | Path) -> Path:
    """Returns where an analysis goes by default: ``~/.parlour/analyses/<record name>-TIME.json``."""
    stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in Path(record).stem)[:80] or "record"
    return files.parlour_home() / "analyses" / f"{stem}-analysis-{time.strftime('%Y%m%d-%H%M%S')}.json"


def cmd_analyse(args: argparse.Namespace) -> int:
    """Analyses a record's decisions; prints the summary and writes the JSON document."""
    budget = Budget.parse(args.budget) if args.budget is not None else Budget()
    seed = check_seed(args.seed)
    seats = list(args.seat or [])
    if len(seats) > MAX_SEATS_GIVEN:
        raise OptionError(f"--seat is given at most {MAX_SEATS_GIVEN} times")
    if args.workers is not None and args.workers < 1:
        raise OptionError("--workers must be at least 1")
    check_backend(args.backend, args.workers, args.workers_max)
    record = files.load_record(args.record)
    game = load_game(record.game)
    content = content_sets(game.name, args.content_dir)
    choose_seats(record, seats, args.all_seats)  # refused before any work
    out = Path(args.out) if args.out else default_out(args.record)
    files.output_path(out)
    console = make_console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("analysing", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = analyse(
            record,
            seats,
            all_seats=args.all_seats,
            budget=budget,
            seed=seed,
            workers=args.workers,
            workers_max=args.workers_max,
            backend=args.backend,
            progress=progress,
            content=content,
            hindsight=args.hindsight,
        )
    for line in summary_lines(result, game.title):
        print(line)
    files.write_text(out, json.dumps(result.to_json(), indent=1) + "\n")
    print(f"wrote {out}")
    return 0


def _clean(text: str) -> str:
    """Returns text from a record fit for one terminal line (control characters escaped, cut short)."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return shown if len(shown) <= 60 else shown[:59] + "…"


def summary_lines(result: Analysis, title: str) -> list[str]:
    """Returns the readable summary: each marked decision with the better action, then each seat's
    accuracy, mean loss, marks and swings."""
    seats = ", ".join(f"{s} ({_clean(result.seats[s])})" for s in result.analysed)
    lines = [
        "HINDSIGHT: judged from the real cards, everything revealed (not what each seat knew)"
        if result.view == "hindsight"
        else "",
        f"{title}, {result.players} players, {result.moves} actions; seats analysed: {seats}",
        f"budget {result.budget} determinisations a decision, seed {result.seed}, rollouts by "
        f"{result.rollout}; share = {result.share}",
        "marks when the loss's 95% interval lies above: "
        + ", ".join(f"{m} {v:.3f}" for m, v in result.thresholds.items()),
    ]
    marked = [j for j in result.decisions if j.mark]
    lines.append(f"{len(marked)} marked of {len(result.decisions)} judged decisions:" if marked else "")
    lines.extend(_decision_line(j) for j in marked)
    for row in result.summary:
        marks = ", ".join(f"{count} {name}" for name, count in row.marks.items() if count) or "no marks"
        lines.append(
            f"seat {row.seat} ({_clean(row.name)}): accuracy {row.accuracy:.1f}, {row.decisions} decisions, "
            f"mean loss {row.mean_loss:.3f} (95% {row.mean_loss_low:.3f} to {row.mean_loss_high:.3f}), "
            f"{marks}; share {row.fair:.3f} -> {row.final:.3f}: own losses -{row.own_losses:.3f}, "
            f"luck {row.luck:+.3f}"
        )
    return [line for line in lines if line]


def _decision_line(j: Judgement) -> str:
    """Returns one marked decision: where, what was played, its loss and the better action."""
    return (
        f"  move {j.move + 1} (turn {j.turn}) seat {j.seat}: {j.played} {j.mark}  loss {j.loss:.3f} "
        f"(95% {j.loss_low:.3f} to {j.loss_high:.3f}); better: {j.best} "
        f"({j.before:.3f} against {j.after:.3f}){_bot_values(j)}"
    )


def _bot_values(j: Judgement) -> str:
    """Returns the best three of the values the seat's own bot sent (a ``cmd:`` bot's), or ""."""
    if not j.values:
        return ""
    top = sorted(j.values, key=lambda pair: -pair[1])[:3]
    return "; its bot's values: " + ", ".join(f"{_clean(action)} {value:.3g}" for action, value in top)
