"""The subcommands of ``parlour`` (argument parsing lives in main.py)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import partial

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from parlour.bots.command_bot import split_seats
from parlour.bots.registry import bot_names, make_bot, search_syntax
from parlour.bots.simulation import Batch, check_commands, check_games, check_simulation, simulate
from parlour.bots.workers import check_backend
from parlour.cli import files
from parlour.cli.content import content_sets
from parlour.cli.output import make_console
from parlour.core.content import ContentSets
from parlour.core.errors import OptionError, ParlourError
from parlour.core.game import Game
from parlour.core.positions import JSONObject
from parlour.core.record import replay
from parlour.core.registry import load_game
from parlour.core.state import GameState


def _game(name: str, args: argparse.Namespace) -> Game:
    """Returns the game knowing the user's own content sets (``~/.parlour/content``, ``--content-dir``)."""
    game = load_game(name)
    return game.with_content(content_sets(game.name, args.content_dir))


def cmd_play(args: argparse.Namespace) -> int:
    """Plays a game in the terminal."""
    from parlour.cli.play import play_in_terminal

    game = _game(args.game, args)
    seats = split_seats(args.seats)
    return play_in_terminal(
        game, seats, args.seed, args.options, args.records, args.dice == "manual", args.auto_pass == "on"
    )


def cmd_learn(args: argparse.Namespace) -> int:
    """Runs a game's tutorial in the terminal."""
    from parlour.cli.learn import check_tutorial, learn_in_terminal

    if args.check:
        return check_tutorial(args.game, args.file)
    return learn_in_terminal(args.game, args.file)


def cmd_resume(args: argparse.Namespace) -> int:
    """Goes on with an unfinished game in the terminal."""
    from parlour.cli.play import resume_in_terminal

    return resume_in_terminal(args.record, args.dice == "manual", args.auto_pass == "on", args.content_dir)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serves the browser tables until interrupted."""
    from parlour.cli.serve import Analysing, Clustering, Guards, StatisticsOptions, mail_settings, serve

    guards = Guards(
        args.header_timeout,
        args.body_timeout,
        args.max_connections_per_address,
        args.forwarded_allow_ips,
        args.http_rate,
        args.http_burst,
        args.stall_timeout,
        args.max_sockets_per_address,
    )
    return serve(
        args.host,
        args.port,
        args.db,
        args.database_url,
        args.bot_workers,
        args.think,
        args.pass_delay,
        args.window_pause,
        args.seed_key_file,
        guards,
        mail_settings(args.smtp_host, args.smtp_port, args.smtp_user, args.smtp_sender, args.smtp_security),
        args.public_url,
        args.test_hooks,
        args.push_contact,
        Analysing(args.analysis_workers, args.analysis_budget),
        Clustering(args.redis_url, args.node_id),
        StatisticsOptions(args.statistics_games, args.statistics_dir, args.statistics_on_start),
    )


def cmd_new(args: argparse.Namespace) -> int:
    """Writes a starting position."""
    game = _game(args.game, args)
    state = game.new_state(args.players, args.seed, args.options)
    files.save_position(state, args.out)
    print(f"wrote {args.out} ({game.title}, {args.players} players, seed {args.seed})")
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    """Prints the legal actions of a position, one a line."""
    game = _game(args.game, args)
    state = files.load_position(game, args.position)
    if args.seat is None and len(state.deciders()) > 1:
        raise ParlourError(f"seats {list(state.deciders())} may act: give --seat")
    for action in state.legal_actions(args.seat):
        print(state.format_action(action))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    """Applies actions to a position; writes nothing if any action is refused."""
    game = _game(args.game, args)
    state = files.load_position(game, args.position)
    for number, text in enumerate(args.actions, 1):
        try:
            seat = args.seat if args.seat is not None else _only_decider(state)
            for event in state.apply_notation(text, seat):
                print(event.for_seat(seat))
        except ParlourError as err:
            quoted = repr(text if len(text) <= 60 else text[:60] + "…")
            raise ParlourError(f"action {number} ({quoted}): {err}; nothing written") from None
    out = args.out or args.position
    files.save_position(state, out)
    print(f"wrote {out}")
    return 0


def _only_decider(state: GameState) -> int:
    """Returns the one seat that may act, or refuses."""
    deciders = state.deciders()
    if not deciders:
        raise ParlourError("the game is over")
    if len(deciders) > 1:
        raise ParlourError(f"seats {list(deciders)} may act: give --seat")
    seat: int = deciders[0]
    return seat


def cmd_show(args: argparse.Namespace) -> int:
    """Prints a position as a seat sees it."""
    game = _game(args.game, args)
    state = files.load_position(game, args.position)
    print(state.render(args.seat))
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    """Writes the board as SVG."""
    game = _game(args.game, args)
    state = files.load_position(game, args.position) if args.position else None
    files.write_text(args.svg, game.board_svg(state), files.PUBLIC)
    print(f"wrote {args.svg}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replays a record to its end and prints the final scores (an unfinished game has none yet)."""
    record = files.load_record(args.record)
    game = _game(record.game, args)
    if args.step or args.view is not None:
        from parlour.cli.output import make_console
        from parlour.cli.stepper import step_through

        return step_through(game, record, make_console(), args.view)
    state = replay(game, record)
    if not state.is_over():
        # No seed, scores or ranks before the end: they would tell what the seats may not know yet.
        print(f"{game.title}, {record.players} players, {len(record.moves)} actions")
        print(
            "(the record ends before the game does: no scores or ranks until it is over; "
            "'parlour resume RECORD' goes on with it)"
        )
        return 0
    print(f"{game.title}, {record.players} players, seed {record.seed}, {len(record.moves)} actions")
    for seat, (score, rank) in enumerate(zip(state.scores(), state.ranking(), strict=True)):
        name = record.seats[seat] if seat < len(record.seats) else "?"
        print(f"seat {seat} ({name}): {score:g}  rank {rank}")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """Analyses a finished game's decisions (``parlour/cli/analysis.py``)."""
    from parlour.cli.analysis import cmd_analyse as run

    return run(args)


def cmd_train_value(args: argparse.Namespace) -> int:
    """Trains a game's learned evaluator for the search (``parlour/cli/values.py``)."""
    from parlour.cli.values import cmd_train_value as run

    return run(args)


def cmd_options(args: argparse.Namespace) -> int:
    """Lists a game's options and bots."""
    game = _game(args.game, args)
    print(f"{game.title}: {game.min_players} to {game.max_players} players")
    for spec in game.option_specs:
        print(f"  --option {spec.name}={spec.values_text()}  (default {spec.default}): {spec.doc}")
    for spec in game.option_specs:
        if spec.content is not None:
            own = f"~/.parlour/content/{game.name}/NAME.json or --content-dir"
            print(f"content sets for {spec.name} (your own: {own}):")
            for content in game.available_content(spec.name):
                print(f"  {content.name}  sha256 {content.sha256}  {content.origin}")
    print("bots: " + ", ".join(["human", *bot_names(game)]))
    for line in search_syntax(game):
        print(line)
    return 0


def _with_progress(
    console: Console,
    label: str,
    args: argparse.Namespace,
    content: ContentSets | None,
    play: Callable[[int, JSONObject, Batch], JSONObject],
) -> JSONObject:
    """Plays a batch of games as the command line asked (seed, options, backend, workers) under a
    progress bar."""
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task(label, total=args.games)
        progress = partial(bar.advance, task)
        batch = Batch(args.workers, progress, args.workers_max, content, args.backend, commands=True)
        return play(args.seed, args.options, batch)


def _check_batch(args: argparse.Namespace) -> None:
    """Refuses -n out of range, a bad worker count or backend (Ray missing or out of reach)."""
    if args.games < 1 or (args.workers is not None and args.workers < 1):
        raise OptionError("-n and --workers must be at least 1")
    check_games(args.games)
    check_backend(args.backend, args.workers, args.workers_max)


def _check_commands(seats: list[str], backend: str) -> None:
    """Refuses ``cmd:`` seats on Ray, before anything is printed (the command line allows them)."""
    check_commands(seats, Batch(backend=backend, commands=True))


def cmd_simulate(args: argparse.Namespace) -> int:
    """Plays many games with bots and prints the summary."""
    seats = split_seats(args.seats)
    if "human" in seats:
        raise OptionError("simulate plays bots only; 'human' cannot sit at a simulated table")
    # Every refusal comes before the progress bar starts, so it is the one line printed.
    _check_commands(seats, args.backend)
    _check_batch(args)
    content = content_sets(args.game, args.content_dir)
    check_simulation(args.game, seats, args.options, content, Batch(commands=True))
    summary = _with_progress(
        make_console(stderr=True),
        "simulating",
        args,
        content,
        partial(simulate, args.game, seats, args.games),
    )
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    _print_summary(summary)
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """Plays a rated tournament; prints the table and writes JSON and an SVG plot."""
    from pathlib import Path

    from parlour.bots.tournament import tournament
    from parlour.cli.plot import ratings_svg

    bots = split_seats(args.bots)
    if len(bots) < 2 or args.games < 1 or (args.workers is not None and args.workers < 1):
        raise OptionError("a tournament needs at least two bots, -n 1 or more and --workers 1 or more")
    if "human" in bots:
        raise OptionError("a tournament plays bots only")
    _check_commands(bots, args.backend)
    _check_batch(args)
    game = _game(args.game, args)
    game.check_players(args.players)  # every refusal before the first line of output
    for name in set(bots):
        make_bot(game, name, 0, commands=True, players=args.players)  # refused before any game is played
    # Never into the current folder by default: ~/.parlour/tournaments/GAME-TIME, said before playing.
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path(args.out) if args.out else files.parlour_home() / "tournaments" / f"{game.name}-{stamp}"
    files.output_folder(out, create=False)
    console = make_console(stderr=True)
    console.print(f"results go to {out}", soft_wrap=True)
    play = partial(tournament, args.game, bots, args.games, args.players)
    result = _with_progress(console, "playing", args, game.content_sets, play)
    table = Table(title=f"{game.title}: {args.games} games of {args.players}, seed {args.seed}")
    for column in ("bot", "rating (μ−3σ)", "μ", "σ", "seats", "win rate"):
        table.add_column(column, justify="right")
    for row in result["bots"]:
        table.add_row(
            row["bot"],
            f"{row['ordinal']:.1f}",
            f"{row['mu']:.1f}",
            f"{row['sigma']:.2f}",
            str(row["seats"]),
            f"{row['win_rate']:.1%}",
        )
    make_console().print(table)
    files.output_folder(out)
    files.write_text(out / "tournament.json", json.dumps(result, indent=1), files.PUBLIC)
    files.write_text(out / "ratings.svg", ratings_svg(result), files.PUBLIC)
    print(f"wrote {out / 'tournament.json'} and {out / 'ratings.svg'} ({result['seconds']:.1f} s)")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Writes a designer's report of a game (parlour/cli/report.py)."""
    from parlour.cli.report import cmd_report as report

    return report(args)


def _print_summary(summary: JSONObject) -> None:
    """Prints a simulation summary as tables."""
    console = make_console()
    table = Table(title=f"{summary['game']}: {summary['games']} games, seed {summary['seed']}")
    for column in ("seat", "bot", "wins", "win rate", "95% CI", "mean score", "score sd"):
        table.add_column(column, justify="right")
    for row in summary["seats"]:
        low, high = row["ci95"]
        table.add_row(
            str(row["seat"]),
            row["bot"],
            f"{row['wins']:g}",
            f"{row['win_rate']:.1%}",
            f"{low:.1%}–{high:.1%}",
            f"{row['mean_score']:.1f}",
            f"{row['score_sd']:.1f}",
        )
    console.print(table)
    for bot, row in summary["bots"].items():
        low, high = row["ci95"]
        console.print(
            f"{bot}: win rate {row['win_rate']:.1%} (95% CI {low:.1%}–{high:.1%}) over {row['seats']} seat(s)"
        )
    order = ", ".join(
        f"{row['place'] + 1}. {row['win_rate']:.1%} ({row['ci95'][0]:.1%}–{row['ci95'][1]:.1%})"
        for row in summary["turn_order"]
    )
    console.print(f"win rate by place in the turn order: {order}")
    console.print(
        f"game length: {summary['mean_length']:.1f} actions (sd {summary['length_sd']:.1f}), "
        f"{summary['mean_turns']:.1f} turns; "
        f"{summary['actions']} actions in {summary['seconds']:.1f} s"
    )
