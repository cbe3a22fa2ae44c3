"""``parlour train-value``: trains a game's learned evaluator for the search (docs/search.md)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from parlour.bots.command_bot import split_seats
from parlour.bots.registry import bot_names, make_bot
from parlour.bots.simulation import Batch, check_games
from parlour.bots.value_training import collect, train
from parlour.bots.workers import check_backend
from parlour.cli import files
from parlour.core.errors import OptionError
from parlour.core.registry import load_game

MAX_EPOCHS = 1_000
MAX_HIDDEN = 1_024


def default_out(game: str) -> Path:
    """Returns where the weights go by default: ``~/.parlour/values/GAME.npz`` (never the current folder)."""
    return files.parlour_home() / "values" / f"{game}.npz"


def cmd_train_value(args: argparse.Namespace) -> int:
    """Plays games of bots, fits the value network and writes its weights; prints the fit."""
    game = load_game(args.game)
    players = args.players
    game.check_players(players)
    default = "greedy" if "greedy" in bot_names(game) else "random"
    seats = split_seats(args.seats) if args.seats else [default]
    if len(seats) == 1:
        seats = seats * players
    if len(seats) != players:
        raise OptionError(f"--seats names {len(seats)} bots for {players} players")
    if args.games < 10 or not 1 <= args.epochs <= MAX_EPOCHS or not 4 <= args.hidden <= MAX_HIDDEN:
        raise OptionError(f"-n is at least 10, --epochs 1 to {MAX_EPOCHS}, --hidden 4 to {MAX_HIDDEN}")
    check_games(args.games)
    check_backend(args.backend, args.workers, args.workers_max)
    out = Path(args.out) if args.out else default_out(game.name)
    files.output_folder(out.parent)
    if out.is_dir():
        raise OptionError(f"--out {files.shown(out)} is a folder: name the weights file")
    for name in set(seats):
        make_bot(game, name, 0)  # an unknown bot or a cmd: program, refused before anything is printed
    batch = Batch(args.workers, None, args.workers_max, None, args.backend)
    print(f"playing {args.games} games of {', '.join(seats)} ...", file=sys.stderr)
    data = collect(game.name, seats, args.games, args.seed, args.options, batch=batch)
    net, fit = train(game.name, data, seed=args.seed, hidden=args.hidden, epochs=args.epochs)
    about = {
        "command": "parlour train-value " + " ".join(shlex.quote(a) for a in sys.argv[2:]),
        "seed": args.seed,
        "games": args.games,
        "players": players,
        "seats": seats,
        "options": game.options(args.options),
        "examples": fit.train_examples,
        "held_out_examples": fit.held_out_examples,
        "train_loss": round(fit.train_loss, 6),
        "held_out_loss": round(fit.held_out_loss, 6),
        "held_out_baseline": round(fit.held_out_baseline, 6),
    }
    net = type(net)(net.game, net.weights, about)
    net.save(out)
    print(
        f"{game.title}: {fit.train_examples} examples, held-out loss {fit.held_out_loss:.4f} against "
        f"{fit.held_out_baseline:.4f} for the mean; weights in {files.shown(out)}"
    )
    return 0
