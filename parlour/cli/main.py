"""``parlour``: play, inspect, replay and simulate games from the command line."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from parlour.core.errors import ParlourError
from parlour.core.registry import game_names


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _options(pairs: Sequence[str]) -> dict[str, str]:
    """Returns ``--option name=value`` pairs as a dict."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ParlourError(f"--option takes name=value, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def _seed(value: int | None) -> int:
    """Returns the seed given, or a fresh random one."""
    return value if value is not None else int.from_bytes(os.urandom(4), "big")


def _add_game(parser: argparse.ArgumentParser) -> None:
    """Adds the game argument and ``--option``."""
    parser.add_argument("game", choices=game_names(), help="the game")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable); see 'parlour options GAME'",
    )
    _add_content(parser)


def _add_content(parser: argparse.ArgumentParser) -> None:
    """Adds ``--content-dir``: a folder of the user's own content sets."""
    parser.add_argument(
        "--content-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of your own content sets, DIR/GAME/NAME.json (repeatable; besides ~/.parlour/content)",
    )


def build_parser() -> argparse.ArgumentParser:
    """Returns the parser of every subcommand."""
    parser = _Parser(prog="parlour", description="Play, study and simulate Venture and friends.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = sub.add_parser("play", help="play in the terminal against bots or friends")
    _add_game(play)
    play.add_argument("--seats", required=True, help="comma-separated: human, random, greedy, ...")
    play.add_argument("--seed", type=int, help="seed of the shuffles and dice")
    play.add_argument(
        "--records", metavar="DIR", help="where to save the record (default ~/.parlour/records)"
    )
    play.add_argument(
        "--dice",
        choices=("auto", "manual"),
        default="auto",
        help="'manual' asks for each die result (a table playing with the physical game)",
    )
    play.add_argument(
        "--auto-pass",
        choices=("on", "off"),
        default="on",
        help="'on' passes for a person who may only pass in a Zap or Stop window ('autopass on|off' "
        "at the prompt changes it for that seat)",
    )

    new = sub.add_parser("new", help="write a starting position")
    _add_game(new)
    new.add_argument("--players", type=int, required=True)
    new.add_argument("--seed", type=int)
    new.add_argument("--out", required=True, metavar="FILE")

    legal = sub.add_parser("legal", help="list the legal actions of a position, in notation")
    _add_game(legal)
    legal.add_argument("--position", required=True, metavar="FILE")
    legal.add_argument("--seat", type=int, help="the seat (default: the one that may act)")

    apply = sub.add_parser("apply", help="apply actions to a position and write the new one")
    _add_game(apply)
    apply.add_argument("--position", required=True, metavar="FILE")
    apply.add_argument("actions", nargs="+", metavar="ACTION", help="actions in notation")
    apply.add_argument("--seat", type=int, help="the acting seat when several may act")
    apply.add_argument("--out", metavar="FILE", help="where to write (default: the position file)")

    show = sub.add_parser("show", help="print a position as a seat (or a spectator) sees it")
    _add_game(show)
    show.add_argument("--position", required=True, metavar="FILE")
    show.add_argument("--seat", type=int)

    board = sub.add_parser("board", help="draw a game's board as SVG (with a position's pieces)")
    _add_game(board)
    board.add_argument("--svg", required=True, metavar="FILE", help="where to write the drawing")
    board.add_argument("--position", metavar="FILE", help="draw this position's pieces")

    replay = sub.add_parser("replay", help="replay a record and print the final scores")
    replay.add_argument("record", metavar="RECORD")
    _add_content(replay)

    options = sub.add_parser("options", help="list a game's options and bots")
    options.add_argument("game", choices=game_names())
    _add_content(options)

    simulate = sub.add_parser("simulate", help="play many games quietly and summarise them")
    _add_game(simulate)
    simulate.add_argument("-n", "--games", type=int, default=100)
    simulate.add_argument("--seats", required=True, help="comma-separated bot names")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--workers", type=int, default=1)
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    tour = sub.add_parser("tournament", help="rate bots over many tables with rotated seats (OpenSkill)")
    _add_game(tour)
    tour.add_argument(
        "--bots", required=True, help="comma-separated bot names, e.g. random,greedy,ismcts:200ms"
    )
    tour.add_argument("-n", "--games", type=int, default=100)
    tour.add_argument("--players", type=int, default=4)
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--workers", type=int, default=1)
    tour.add_argument("--out", metavar="DIR", default="tournament", help="where the table and plot go")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except ParlourError as err:
        print(f"parlour: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nparlour: interrupted", file=sys.stderr)
        return 130


def _dispatch(args: Any) -> int:
    """Runs one subcommand."""
    from parlour.cli import commands

    handler = getattr(commands, f"cmd_{args.command}")
    if hasattr(args, "option"):
        args.options = _options(args.option)
    if hasattr(args, "seed") and args.command != "simulate":
        args.seed = _seed(args.seed)
    status: int = handler(args)
    return status
