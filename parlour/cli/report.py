"""``parlour report``: a designer's report of a game, written as index.html and report.json."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

from parlour.cli import files
from parlour.core.errors import OptionError
from parlour.report import SEARCH_BOT

if TYPE_CHECKING:
    from parlour.report.build import ReportSpec

FILES = ("index.html", "report.json")
"""What a report folder holds."""


def add_arguments(report: argparse.ArgumentParser) -> None:
    """Adds the report's own arguments."""
    report.add_argument("--players", type=int, required=True, help="players at each table")
    report.add_argument("-n", "--games", type=int, required=True, help="games a variant")
    report.add_argument(
        "--seats", help="comma-separated bot names, one a seat (default: greedy everywhere, random if none)"
    )
    report.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    report.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="NAME=VALUE[,NAME=VALUE]",
        help="a variant to set beside the others, played on the same seeds (repeatable: two or more; "
        "one alone is set beside the options as given)",
    )
    report.add_argument(
        "--skill-games",
        type=int,
        default=0,
        metavar="N",
        help=f"games of {SEARCH_BOT} against greedy against random, seats rotated (default 0: none)",
    )
    report.add_argument(
        "--skill-bot", default=SEARCH_BOT, metavar="BOT", help=f"the search bot (default {SEARCH_BOT})"
    )
    report.add_argument(
        "--kingmaking-games",
        type=int,
        default=100,
        metavar="N",
        help="the first N games of each variant looked at for kingmaking, each played again (default 100)",
    )
    report.add_argument(
        "--out",
        metavar="DIR",
        help="the folder for index.html and report.json (default ~/.parlour/reports/GAME-TIME); "
        "a folder holding other files is refused unless --force",
    )
    report.add_argument("--force", action="store_true", help="write into a folder that is not empty")


def variant(text: str) -> dict[str, str]:
    """Returns a ``--compare`` variant's option changes: ``name=value`` pairs split at commas (a part
    without '=' belongs to the value before it, as in ``planets=venus,mars``)."""
    changes: dict[str, str] = {}
    last = ""
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if sep and name.strip():
            last = name.strip()
            changes[last] = value.strip()
        elif last and not sep:
            changes[last] += "," + part.strip()
        else:
            raise OptionError(f"--compare takes name=value[,name=value], not {text[:60]!r}")
    return changes


def spec_from(args: argparse.Namespace) -> ReportSpec:
    """Returns the report the command line asks for (not yet checked against the game)."""
    from parlour.bots.command_bot import split_seats
    from parlour.report.build import ReportSpec

    variants = [variant(text) for text in args.compare]
    if len(variants) == 1:
        variants.insert(0, {})
    return ReportSpec(
        game=args.game,
        players=args.players,
        games=args.games,
        seats=split_seats(args.seats) if args.seats else [],
        seed=args.seed,
        options=dict(args.options),
        variants=variants,
        skill_games=args.skill_games,
        skill_bot=args.skill_bot,
        kingmaking_games=args.kingmaking_games,
    )


def out_folder(args: argparse.Namespace, game: str) -> Path:
    """Returns the report's folder, refusing one that holds files other than a report's (without
    --force); never the current folder unless asked for by name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path(args.out) if args.out else files.parlour_home() / "reports" / f"{game}-{stamp}"
    files.output_folder(out, create=False)
    if out.is_dir() and not args.force and any(out.iterdir()):
        raise OptionError(f"{files.shown(out)} is not empty: give another --out, or --force to write into it")
    return out


def cmd_report(args: argparse.Namespace) -> int:
    """Plays the report's games and writes its page and data."""
    from rich.progress import Progress

    from parlour.bots.simulation import Batch
    from parlour.bots.workers import check_backend
    from parlour.cli.content import content_sets
    from parlour.cli.output import make_console
    from parlour.report.build import check_report, make_report
    from parlour.report.page import html_page

    if args.workers is not None and args.workers < 1:
        raise OptionError("--workers must be at least 1")
    check_backend(args.backend, args.workers, args.workers_max)
    content = content_sets(args.game, args.content_dir)
    spec = check_report(spec_from(args), content)
    out = out_folder(args, spec.game)
    console = make_console(stderr=True)
    console.print(f"the report goes to {out}", soft_wrap=True)
    variants = max(1, len(spec.variants))
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("playing", total=spec.games * variants + spec.skill_games)
        batch = Batch(args.workers, lambda n: bar.advance(task, n), args.workers_max, content, args.backend)
        report = make_report(spec, batch)
    page = html_page(report)
    files.output_folder(out)
    files.write_text(out / "report.json", json.dumps(report, indent=1) + "\n", files.PUBLIC)
    files.write_text(out / "index.html", page, files.PUBLIC)
    print(f"wrote {out / 'index.html'} and {out / 'report.json'} ({report['run']['seconds']:.1f} s)")
    return 0
