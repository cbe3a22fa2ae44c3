"""The four input surfaces fuzzed for every game: positions, records, action texts, command lines."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.bots.random_bot import RandomBot
from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.core.match import play_match
from parlour.core.record import GameRecord, replay
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState
from parlour.testing.kit import snapshot, states_along

from .check import ACCEPTED, check_position
from .corpus import positions
from .guards import Tally, no_file_named, strings_in
from .hostile import NASTY_TEXT, mutate_text
from .mutate import mutate, mutations

SIZES = {"venture": 4, "im-the-boss": 4, "venus-needs-men": 3}
PLAYERS = {name: SIZES.get(name, load_game(name).min_players + 1) for name in game_names()}
"""The table size fuzzed for each registered game (one seat above its fewest, unless SIZES says)."""


class Refused(ParlourError):
    """A command line that ended with the one-line error and exit status 2."""


@dataclass
class Corpus:
    """Valid inputs of one game to mutate: states met along random games, and finished records."""

    game: Game
    players: int
    states: list[GameState] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    vocabulary: tuple[str, ...] = ()
    """Every legal action text met, so that mutations swap in real words."""


def corpus(name: str, seeds: Sequence[int], every: int = 9) -> Corpus:
    """Returns the states and records of random games of ``name`` played with these seeds."""
    game = load_game(name)
    players = PLAYERS[name]
    found = Corpus(game, players)
    words: set[str] = set()
    for seed in seeds:
        options = dict(game.quick_options)
        for state in states_along(game, players, seed, every, options):
            found.states.append(state)
            for seat in state.deciders():
                words.update(state.format_action(a) for a in state.legal_actions(seat)[:40])
        agents = [RandomBot(seed * 10 + s) for s in range(players)]
        found.records.append(play_match(game, agents, seed, options).record.to_json())
    found.vocabulary = tuple(sorted(w for text in words for w in text.split()))
    return found


# ----------------------------------------------------------------- positions
def fuzz_positions(tally: Tally, corpus: Corpus, rng: random.Random, count: int) -> None:
    """Loads mutated positions: each is refused cleanly or gives a state every front end can use
    (``check.check_position``), within a time limit and without opening any file it names."""
    name = corpus.game.name
    for index, document in mutations(positions(name, 60, 0), count, rng.randrange(2**31)):

        def body(document: Any = document) -> bool:
            with no_file_named(strings_in(document)):
                return check_position(corpus.game, document, None, rng) == ACCEPTED

        tally.run("position", f"{name} #{index}: {json.dumps(document, default=repr)[:1500]}", body)


# ----------------------------------------------------------------- records
def fuzz_records(tally: Tally, corpus: Corpus, rng: random.Random, count: int) -> None:
    """Replays mutated records: each is refused cleanly or replays to a usable state."""
    for _ in range(count):
        document = rng.choice(corpus.records)
        if rng.random() < 0.5 and document["moves"]:
            document = json.loads(json.dumps(document))
            move = rng.choice(document["moves"])
            move["action"] = mutate_text(move["action"], rng, corpus.vocabulary)
            notes = [f"action {move['action'][:100]!r}"]
        else:
            document = mutate(document, rng, corpus.players)
            notes = [json.dumps(document, default=repr)[:1500]]

        def body(document: Any = document) -> bool:
            with no_file_named(strings_in(document)):
                record = GameRecord.from_json(document)
                state = replay(load_game(record.game), record)
                state.deciders()
                state.ranking()
            return True

        tally.run("record", f"{corpus.game.name} {'; '.join(notes)}", body)


# ----------------------------------------------------------------- action texts
def fuzz_actions(tally: Tally, corpus: Corpus, rng: random.Random, count: int) -> None:
    """Applies bent action texts: each is refused with the state unchanged, or is a legal action."""
    for _ in range(count):
        state = rng.choice(corpus.states).clone()
        if state.is_over():
            continue
        deciders = state.deciders()
        texts = [state.format_action(a) for a in state.legal_actions(deciders[0])] or ["pass"]
        text = mutate_text(rng.choice(texts), rng, corpus.vocabulary)
        seat = rng.choice((None, deciders[0], rng.randrange(-1, state.players + 1)))

        def body(
            state: GameState = state, text: str = text, seat: int | None = seat, deciders: Any = deciders
        ) -> bool:
            before = snapshot(state)
            try:
                action = state.parse_action(text)
                acting = seat if seat is not None else (deciders[0] if len(deciders) == 1 else None)
                legal = acting is not None and 0 <= acting < state.players and state.is_legal(action, acting)
                state.apply(action, seat)
            except ParlourError:
                assert snapshot(state) == before, "a refused action changed the state"
                raise
            assert legal, f"{text!r} was applied though it is not a legal action"
            assert not state.invariant_errors(), state.invariant_errors()
            return True

        tally.run("action", f"{corpus.game.name} seat {seat}: {text[:200]!r}", body)


# ----------------------------------------------------------------- command lines
def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Runs ``parlour`` in this process; returns the exit status, standard output and standard error."""
    from parlour.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit_:
                status = exit_.code if isinstance(exit_.code, int) else 2
    finally:
        sys.stdin = saved_stdin
    return status, out.getvalue(), err.getvalue()


def _files(corpus: Corpus, folder: Path, rng: random.Random) -> dict[str, str]:
    """Writes a valid position, a mutated one, a valid record and a mutated one; returns their paths."""
    state = rng.choice([s for s in corpus.states if not s.is_over()] or corpus.states)
    paths = {
        "position": state.to_position(),
        "bad-position": mutate(state.to_position(), rng, corpus.players),
        "record": rng.choice(corpus.records),
        "bad-record": mutate(rng.choice(corpus.records), rng, corpus.players),
    }
    written = {}
    for name, document in paths.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        written[name] = str(path)
    return written


def command_lines(corpus: Corpus, files: dict[str, str], out: Path, rng: random.Random) -> list[list[str]]:
    """Returns valid command lines of every subcommand for this game (the seeds of the mutations)."""
    name, players = corpus.game.name, str(corpus.players)
    bots = ",".join(["random"] * corpus.players)
    position = rng.choice((files["position"], files["bad-position"]))
    record = rng.choice((files["record"], files["bad-record"]))
    return [
        ["new", name, "--players", players, "--seed", "3", "--out", str(out / "new.json")],
        ["legal", name, "--position", position],
        ["show", name, "--position", position, "--seat", "1"],
        ["apply", name, "--position", position, "pass", "--out", str(out / "next.json")],
        ["board", name, "--svg", str(out / "board.svg"), "--position", position],
        ["replay", record],
        ["options", name],
        ["simulate", name, "-n", "2", "--seats", bots, "--seed", "1", "--json"],
        ["simulate", name, "-n", "2", "--seats", bots, "--workers", "100000"],
        ["resume", record],
        ["train-value", name, "-n", "10", "--epochs", "1", "--players", players, "--out", str(out / "v.npz")],
        ["report", name, "--players", players, "-n", "2", "--kingmaking-games", "1", "--out", str(out / "r")],
        ["learn", name, "--check"],
        ["learn", name, "--file", rng.choice((files["position"], files["bad-record"]))],
        [
            "tournament",
            name,
            "--bots",
            "random,random",
            "-n",
            "2",
            "--players",
            players,
            "--out",
            str(out / "t"),
        ],
        [
            "play",
            name,
            "--seats",
            "human," + ",".join(["random"] * (corpus.players - 1)),
            "--records",
            str(out),
        ],
    ]


SWAPS = (
    *NASTY_TEXT[:12],
    "--seat",
    "--out",
    "--workers-max",
    "0",
    "-5",
    "ismcts:infs",
    "ismcts:0s",
    "human",
    "--workers",
    "--option",
    "deck=/dev/zero",
    "zap=/etc/passwd",
    "content=../x",
)


NUMBERS = ("0", "-1", "1000001", "x", "9" * 5000, "2.5", "", "0x10", "١٢")
"""What a hostile person puts where a count goes (never a count that is merely large: that is a long job)."""
COUNTED = ("-n", "--players", "--workers", "--workers-max", "--seat")


def hostile_paths(folder: Path) -> tuple[str, ...]:
    """Makes, inside the scratch ``folder``, the files a hostile command line names: a FIFO, a folder,
    a dangling link, links to a device and to a folder, a name too long, a file under a missing folder.

    System paths are never swapped into a command line: as root, an output there would be written.
    """
    special = folder / "special"
    special.mkdir(exist_ok=True)
    fifo, directory = special / "fifo", special / "dir"
    if not fifo.exists():
        os.mkfifo(fifo)
        directory.mkdir()
        (special / "dangling").symlink_to(special / "missing" / "x.json")
        (special / "zero").symlink_to("/dev/zero")
        (special / "dirlink").symlink_to(directory)
    names = ("fifo", "dir", "dangling", "zero", "dirlink", "x" * 300, "missing/deeper/x.json")
    return (*(str(special / n) for n in names), "-", str(special) + "/")


def mutate_argv(argv: list[str], rng: random.Random, paths: tuple[str, ...] = ()) -> list[str]:
    """Returns a command line with one argument swapped, dropped, repeated or added."""
    result = list(argv)
    swaps = (*SWAPS, *paths)
    roll = rng.randrange(4)
    i = rng.randrange(1, len(result)) if len(result) > 1 else 0
    if i > 0 and result[i - 1] in COUNTED and roll in (0, 3):
        result[i] = rng.choice(NUMBERS)
    elif roll == 0:
        result[i] = rng.choice(swaps)
    elif roll == 1:
        del result[i]
    elif roll == 2:
        result.insert(i, rng.choice(swaps))
    else:
        result[i] = mutate_text(result[i], rng)
    return result


def _typed_lines(corpus: Corpus, rng: random.Random) -> str:
    """Returns what a hostile person types at the ``play`` prompt (then the input ends)."""
    lines = [
        mutate_text(rng.choice(corpus.vocabulary or ("pass",)), rng, corpus.vocabulary) for _ in range(6)
    ]
    lines += rng.sample(["help", "hint", "[/foo]", "take [/foo]", "9" * 5000, "", "quit"], 3)
    return "\n".join(line.replace("\n", " ") for line in lines) + "\n"


def fuzz_cli(tally: Tally, corpus: Corpus, rng: random.Random, count: int, folder: Path) -> None:
    """Runs mutated command lines: each exits 0, or 2 with one line on standard error; no traceback."""
    for number in range(count):
        work = folder / f"{corpus.game.name}-{number}"
        work.mkdir(parents=True)
        files = _files(corpus, work, rng)
        argv = rng.choice(command_lines(corpus, files, work, rng))
        if rng.random() < 0.7:
            argv = mutate_argv(argv, rng, hostile_paths(folder))
        stdin = _typed_lines(corpus, rng) if argv and argv[0] == "play" else ""
        watched = set()
        for key in ("bad-position", "bad-record"):
            watched |= strings_in(json.loads(Path(files[key]).read_text(encoding="utf-8")))

        def body(
            argv: list[str] = argv, stdin: str = stdin, watched: set[str] = watched, work: Path = work
        ) -> bool:
            with no_file_named(watched - set(argv)), contextlib.chdir(work):
                status, _, err = run_cli(argv, stdin)
            assert "Traceback" not in err, err[-2000:]
            if status == 2:
                lines = [line for line in err.splitlines() if line.strip()]
                assert len(lines) == 1, f"exit 2 with {len(lines)} lines on standard error: {err[:500]!r}"
                raise Refused(lines[0])
            assert status in (0, 130), f"exit status {status}: {err[:500]!r}"
            return True

        tally.run("cli", f"{corpus.game.name} {argv!r}"[:300] + f" stdin {stdin[:80]!r}", body, seconds=60)
