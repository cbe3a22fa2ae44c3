"""``parlour``: play, inspect, replay and simulate games from the command line."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from types import FrameType
from typing import NoReturn

from parlour.cli.report import add_arguments as add_report_arguments
from parlour.core.errors import ParlourError
from parlour.core.registry import game_names

MAX_MESSAGE = 400
"""The longest error message printed (one line)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with status 2."""

    def error(self, message: str) -> NoReturn:
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
        self.exit(2, f"{self.prog}: error: {shown} (see --help)\n")


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
    """Returns the seed given (refusing one out of range), or a fresh random one."""
    from parlour.core.record import check_seed

    return check_seed(value) if value is not None else int.from_bytes(os.urandom(4), "big")


def tutorial_name(text: str) -> str:
    """Returns a tutorial's name as ``parlour learn`` takes it: a game, or GAME/PART for an add-on."""
    game, _, part = text.partition("/")
    if game not in game_names():
        raise argparse.ArgumentTypeError(
            f"invalid choice: {game[:40]!r} (choose from {', '.join(game_names())})"
        )
    if "/" in text and not part:
        raise argparse.ArgumentTypeError(f"{text[:60]!r}: name the add-on after the '/'")
    return text


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

    learn = sub.add_parser(
        "learn", help="learn a game: a tutorial of staged steps, then a short game with hints"
    )
    learn.add_argument(
        "game",
        type=tutorial_name,
        metavar="GAME[/PART]",
        help=f"the game ({', '.join(game_names())}); GAME/PART an add-on, e.g. venus-needs-men/enhanced",
    )
    learn.add_argument(
        "--file", metavar="FILE", help="a tutorial file of your own instead of the game's (docs/tutorials.md)"
    )
    learn.add_argument("--check", action="store_true", help="only check that the tutorial plays through")

    serve = sub.add_parser("serve", help="serve Parlour's tables in the browser (lobby, live tables, bots)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument(
        "--db", metavar="FILE", help="the SQLite database file (default ~/.parlour/server/parlour.db)"
    )
    serve.add_argument("--database-url", metavar="URL", help="a SQLAlchemy URL instead of --db")
    serve.add_argument(
        "--seed-key-file",
        metavar="FILE",
        help="the key sealing the seeds of games in play (default: the --db file's name + .key, or "
        "~/.parlour/server/seed.key with --database-url; made 0600 if missing)",
    )
    serve.add_argument(
        "--redis-url",
        metavar="URL",
        help="run as one node of several over one PostgreSQL (--database-url) and this Redis "
        "(redis://HOST:PORT/DB): tables are owned by leases, moves forwarded, updates fanned out "
        "(docs/cluster.md); default: a single server",
    )
    serve.add_argument(
        "--node-id",
        metavar="NAME",
        help="this node's name in the cluster, unique among the nodes (default HOSTNAME-PID)",
    )
    serve.add_argument("--bot-workers", type=int, default=2, help="processes bots think in (0: threads)")
    serve.add_argument(
        "--think", type=float, default=0.6, help="the least time a bot's or an automatic move takes (seconds)"
    )
    serve.add_argument(
        "--pass-delay",
        type=float,
        default=1.5,
        help="every pass in a reaction window lands this long after the seat was asked (seconds; longer "
        "hides better whether a person hesitated over a card, docs/security.md)",
    )
    serve.add_argument(
        "--window-pause",
        type=float,
        default=0.25,
        help="a run of reaction windows answered without waiting for a person (bots, settings) lands "
        "this long after it began: one pause for the run, not one per seat (seconds)",
    )
    serve.add_argument(
        "--analysis-workers",
        type=int,
        default=1,
        help="processes each analysis of a finished game is judged in (default 1; 0: this server "
        "analyses nothing, another on the same database does)",
    )
    serve.add_argument(
        "--analysis-budget",
        type=int,
        default=12,
        help="determinisations a decision in the server's analyses (default 12, as parlour analyse's)",
    )
    serve.add_argument(
        "--statistics-games",
        type=int,
        default=300,
        metavar="N",
        help="games each game's statistics page (its designer's report, docs/report.md) plays, computed "
        "in the background on first request (default 300; 0: no statistics pages)",
    )
    serve.add_argument(
        "--statistics-dir",
        metavar="DIR",
        help="where the statistics are kept (default: a statistics folder beside the --db file, or "
        "~/.parlour/server/statistics with --database-url)",
    )
    serve.add_argument(
        "--statistics-on-start",
        action="store_true",
        help="compute every game's statistics when the server starts, one after the other",
    )
    serve.add_argument(
        "--test-hooks",
        action="store_true",
        help="for tests only: POST /api/test/clock moves the server's clock forward (never on a real server)",
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="close a connection whose request headers take longer (seconds; default 10)",
    )
    serve.add_argument(
        "--stall-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="cut a WebSocket whose client has read nothing of what it was sent for this long (seconds; "
        "default 30)",
    )
    serve.add_argument(
        "--body-timeout",
        type=float,
        default=20.0,
        metavar="S",
        help="answer 408 and close when a request body takes longer (seconds; default 20)",
    )
    serve.add_argument(
        "--max-connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help="connections (HTTP and WebSocket) one client address may hold at once; more are closed at "
        "once (default 64; an IPv6 client counts by its /64)",
    )
    serve.add_argument(
        "--max-sockets-per-address",
        type=int,
        default=128,
        metavar="N",
        help="WebSockets one client address may hold open at once, counted by the tables' app within "
        "its connections (default 128)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="comma-separated addresses or networks of reverse proxies whose X-Forwarded-For header "
        "names the client (default: none, the header is ignored); they are exempt from the "
        "per-address cap",
    )
    serve.add_argument(
        "--http-rate",
        type=float,
        default=50.0,
        metavar="R",
        help="HTTP requests a second one client address may make on average (default 50)",
    )
    serve.add_argument(
        "--http-burst",
        type=float,
        default=200.0,
        metavar="N",
        help="HTTP requests one client address may make in a burst (default 200)",
    )

    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="the server's address as people reach it (e.g. https://parlour.example.org), for the links "
        "in e-mails (default http://HOST:PORT)",
    )
    serve.add_argument(
        "--push-contact",
        metavar="CONTACT",
        help="where push services may reach the server's operator, the VAPID sub claim: mailto:ADDRESS "
        "or an https:// URL (default: an https --public-url, else mailto: the --smtp-sender when e-mail "
        "is on, else mailto:parlour@localhost, which some push services refuse)",
    )
    serve.add_argument(
        "--smtp-host",
        metavar="HOST",
        help="the SMTP server accounts' e-mails go through (confirmation and password-reset links; "
        "default: none, no e-mail is sent); its password is read from PARLOUR_SMTP_PASSWORD",
    )
    serve.add_argument("--smtp-port", type=int, default=587, metavar="N", help="the SMTP port (default 587)")
    serve.add_argument("--smtp-user", metavar="NAME", help="the SMTP user name (default: no login)")
    serve.add_argument(
        "--smtp-sender", default="parlour@localhost", metavar="ADDRESS", help="the e-mails' From address"
    )
    serve.add_argument(
        "--smtp-security",
        choices=("starttls", "ssl", "none"),
        default="starttls",
        help="starttls (default), ssl (TLS from the start, port 465) or none (a relay on this machine)",
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

    resume = sub.add_parser("resume", help="go on with an unfinished game saved by 'play'")
    resume.add_argument("record", metavar="RECORD", help="the record 'play' saved (its key file beside it)")
    resume.add_argument("--dice", choices=("auto", "manual"), default="auto", help="as for 'play'")
    resume.add_argument("--auto-pass", choices=("on", "off"), default="on", help="as for 'play'")
    _add_content(resume)

    replay = sub.add_parser("replay", help="replay a record and print the final scores (or step through it)")
    replay.add_argument("record", metavar="RECORD")
    replay.add_argument(
        "--step", action="store_true", help="step through the game forwards and backwards, with its log"
    )
    replay.add_argument(
        "--view",
        metavar="SEAT|spectator|all",
        help="with --step: whose view (default spectator; 'all' shows everything once the game is over)",
    )
    _add_content(replay)

    options = sub.add_parser("options", help="list a game's options and bots")
    options.add_argument("game", choices=game_names())
    _add_content(options)

    simulate = sub.add_parser("simulate", help="play many games quietly and summarise them")
    _add_game(simulate)
    simulate.add_argument("-n", "--games", type=int, default=100)
    simulate.add_argument("--seats", required=True, help="comma-separated bot names")
    simulate.add_argument("--seed", type=int, default=0)
    _add_workers(simulate)
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    tour = sub.add_parser("tournament", help="rate bots over many tables with rotated seats (OpenSkill)")
    _add_game(tour)
    tour.add_argument(
        "--bots", required=True, help="comma-separated bot names, e.g. random,greedy,ismcts:200ms"
    )
    tour.add_argument("-n", "--games", type=int, default=100)
    tour.add_argument("--players", type=int, default=4)
    tour.add_argument("--seed", type=int, default=0)
    _add_workers(tour)
    tour.add_argument(
        "--out",
        metavar="DIR",
        help="the folder for tournament.json and ratings.svg (default ~/.parlour/tournaments/GAME-TIME)",
    )
    value = sub.add_parser(
        "train-value", help="train a game's learned evaluator for the search (docs/search.md)"
    )
    value.add_argument("game", choices=game_names())
    value.add_argument("--players", type=int, default=4)
    value.add_argument("-n", "--games", type=int, default=5000, help="games to learn from (default 5000)")
    value.add_argument("--seats", help="comma-separated bots (default: greedy everywhere)")
    value.add_argument("--seed", type=int, default=0)
    value.add_argument("--epochs", type=int, default=30)
    value.add_argument("--hidden", type=int, default=64, help="units in each hidden layer (default 64)")
    value.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option (repeatable)"
    )
    value.add_argument("--out", metavar="FILE", help="the weights file (default ~/.parlour/values/GAME.npz)")
    _add_workers(value)
    report = sub.add_parser(
        "report", help="simulate many games and write a designer's report: HTML with plots, and JSON"
    )
    _add_game(report)
    add_report_arguments(report)
    _add_workers(report)
    analyse = sub.add_parser(
        "analyse", help="judge each decision of a finished game from its seat's view (docs/analysis.md)"
    )
    analyse.add_argument("record", metavar="RECORD", help="the record of a finished game")
    analyse.add_argument(
        "--seat",
        type=int,
        action="append",
        metavar="S",
        help="a seat to analyse (repeatable; default: every seat a person played)",
    )
    analyse.add_argument("--all-seats", action="store_true", help="analyse every seat, bots' too")
    analyse.add_argument(
        "--hindsight",
        action="store_true",
        help="judge from the real cards, everything revealed (labelled hindsight; default: each seat's view)",
    )
    analyse.add_argument(
        "--budget",
        metavar="B",
        help="determinisations a decision (default 12; more: narrower intervals), or a time a decision "
        "(2s, 500ms: not reproducible)",
    )
    analyse.add_argument("--seed", type=int, default=0, help="seed of the determinisations (default 0)")
    analyse.add_argument(
        "--out",
        metavar="FILE",
        help="where to write the analysis (default ~/.parlour/analyses/RECORD-analysis-TIME.json)",
    )
    _add_workers(analyse, "judge the decisions")
    _add_content(analyse)
    return parser


def _add_workers(parser: argparse.ArgumentParser, work: str = "play") -> None:
    """Adds ``--workers``, ``--workers-max`` and ``--backend`` (``work``: what the processes do)."""
    parser.add_argument(
        "--workers",
        type=int,
        help=f"processes to {work} in (default 1, at most the CPU count); with --backend ray the local Ray's "
        "CPUs (default all), or on a cluster a cap of 2N chunks at a time (default: the cluster's CPUs)",
    )
    parser.add_argument(
        "--workers-max", type=int, metavar="N", help="allow --workers up to N instead of the CPU count"
    )
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where the games run: 'local' processes (default) or 'ray', the Ray cluster at RAY_ADDRESS "
        "or else a local Ray (docs/scaling.md)",
    )


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM, so that worker pools and files are cleaned up on the way out."""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status.

    The one place errors become output: a refusal (ParlourError), a file that
    cannot be used (OSError) or a value out of range (ValueError, OverflowError)
    is one line on stderr and exit status 2, never a traceback; Ctrl-C is 130,
    SIGTERM 143, a closed output pipe (``| head``) 141, quietly.
    """
    with _terminate_on_sigterm():
        try:
            return _dispatch(build_parser().parse_args(argv))
        except BrokenPipeError:
            _silence_stdout()
            return 128 + signal.SIGPIPE
        except (ParlourError, OSError, ValueError, OverflowError) as err:
            _error(_describe(err))
            return 2
        except KeyboardInterrupt:
            _error("interrupted", label="")
            return 130
        except Terminated:
            _error("terminated", label="")
            return 128 + signal.SIGTERM


def _describe(err: BaseException) -> str:
    """Returns an error's message; an OSError's names its file."""
    if isinstance(err, OSError) and not isinstance(err, ParlourError):
        reason = err.strerror or type(err).__name__
        return f"{err.filename}: {reason}" if err.filename is not None else reason
    return str(err) or type(err).__name__


def _error(message: str, label: str = "error: ") -> None:
    """Prints ``parlour: error: message`` as exactly one line on stderr (control characters escaped)."""
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    if len(line) > MAX_MESSAGE:
        line = line[: MAX_MESSAGE - 1] + "…"
    # After ^C at a terminal, start on a fresh line; elsewhere print just the one line.
    fresh = "\n" if not label and sys.stderr.isatty() else ""
    with suppress(OSError):
        print(f"{fresh}parlour: {label}{line}", file=sys.stderr)


def _silence_stdout() -> None:
    """Points stdout at /dev/null after a broken pipe, so the exit's flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass  # stdout is not a real file (captured in tests): nothing to flush


@contextmanager
def _terminate_on_sigterm() -> Iterator[None]:
    """Turns SIGTERM into :class:`Terminated` in the main thread while the command runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
        raise Terminated

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _dispatch(args: argparse.Namespace) -> int:
    """Runs one subcommand."""
    from parlour.cli import commands

    handler = getattr(commands, f"cmd_{args.command.replace('-', '_')}")
    if hasattr(args, "option"):
        args.options = _options(args.option)
    if hasattr(args, "seed") and args.command not in ("simulate", "analyse", "report"):
        args.seed = _seed(args.seed)
    status: int = handler(args)
    return status
