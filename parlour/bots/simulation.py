"""Mass simulation: many games with bots, spread over processes, summarised with confidence intervals."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.bots.command_bot import is_command
from parlour.bots.registry import make_bot
from parlour.bots.workers import open_runner
from parlour.core.content import ContentSets
from parlour.core.errors import OptionError
from parlour.core.match import play_match
from parlour.core.positions import JSONObject
from parlour.core.registry import load_game


@dataclass(frozen=True)
class Batch:
    """How a batch of games is played: backend and workers, progress reports, the user's content sets.

    ``workers`` (None: one process locally, every CPU on Ray) may not exceed the CPU count unless
    ``workers_max`` allows more (a Ray cluster's CPUs are not this machine's); ``progress`` is told
    how many games just ended; ``content`` holds the user's own content sets the options may name;
    ``backend`` is ``local`` (processes here) or ``ray`` (the Ray cluster at ``RAY_ADDRESS``, or a
    local Ray, ``docs/scaling.md``).
    """

    workers: int | None = None
    progress: Callable[[int], None] | None = None
    workers_max: int | None = None
    content: ContentSets | None = None
    backend: str = "local"
    commands: bool = False
    """Whether ``cmd:`` seats may start their programs (the command line allows it; a server never does;
    only on the ``local`` backend: a program is on this machine, not on a cluster's nodes)."""


DEFAULT_BATCH = Batch()
"""One local process, no progress report, no content sets of the user's."""


@dataclass(frozen=True)
class GameOutcome:
    """What one simulated game left: scores, shared-win credit per seat, its length."""

    index: int
    scores: list[float]
    wins: list[float]
    actions: int
    turns: int
    first: int
    """The seat that acted first (the start of the turn order)."""


MAX_GAMES = 1_000_000
"""The most games one ``simulate``, ``tournament`` or ``train-value`` plays."""


def check_games(games: int) -> None:
    """Refuses more than MAX_GAMES games."""
    if games > MAX_GAMES:
        raise OptionError(f"-n is at most {MAX_GAMES:,} games, not {str(games)[:20]}")


def game_seed(seed: int, index: int) -> int:
    """Returns the seed of game ``index`` of a simulation (independent of the worker count)."""
    return seed * 1_000_003 + index


def play_one(
    game_name: str,
    seats: Sequence[str],
    seed: int,
    index: int,
    options: Mapping[str, object],
    content: ContentSets | None = None,
    commands: bool = False,
) -> GameOutcome:
    """Plays game ``index`` of a simulation; a shared win gives each winner an equal share. A ``cmd:``
    seat, where ``commands`` allows it, starts its own child process for the game (in whichever worker
    plays it), ended with the game; else it is refused.

    ``content`` holds the user's own content sets the options may name (the command line reads them).
    """
    game = load_game(game_name).with_content(content or ContentSets())
    own_seed = game_seed(seed, index)
    agents = [make_bot(game, name, own_seed * 8 + s, commands, options) for s, name in enumerate(seats)]
    result = play_match(game, agents, own_seed, options, recorded=False)  # the seed replays it
    winners = result.state.winners()
    wins = [1.0 / len(winners) if s in winners else 0.0 for s in range(len(seats))]
    state = result.state
    return GameOutcome(index, state.scores(), wins, result.actions, state.turns_played(), result.first)


def _play_chunk(
    job: tuple[str, list[str], int, list[int], JSONObject, ContentSets | None, bool],
) -> list[GameOutcome]:
    """Plays several games in a worker process."""
    game_name, seats, seed, indexes, options, content, commands = job
    return [play_one(game_name, seats, seed, i, options, content, commands) for i in indexes]


def simulate(
    game_name: str,
    seats: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    batch: Batch = DEFAULT_BATCH,
) -> JSONObject:
    """Plays ``games`` games and returns the summary (identical for any backend and number of workers)."""
    content = batch.content
    values = check_simulation(game_name, seats, options, content, batch)
    game = load_game(game_name)
    outcomes: list[GameOutcome] = []
    with open_runner(batch.backend, batch.workers, batch.workers_max) as runner:
        start = time.perf_counter()
        jobs = [
            (game.name, list(seats), seed, c, values, content, batch.commands)
            for c in chunks(games, runner.workers)
        ]
        for played in runner.run(_play_chunk, jobs):
            outcomes.extend(played)
            if batch.progress:
                batch.progress(len(played))
        seconds = time.perf_counter() - start
    outcomes.sort(key=lambda o: o.index)
    return summarise(game.name, list(seats), seed, values, outcomes, seconds)


def chunks(games: int, workers: int) -> list[list[int]]:
    """Returns the game indexes in chunks: up to ten games, at least four chunks a worker (slow games
    spread evenly); how games are chunked never changes their outcomes."""
    size = max(1, min(10, games // (4 * max(workers, 1))))
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


def check_simulation(
    game_name: str,
    seats: Sequence[str],
    options: Mapping[str, object] | None,
    content: ContentSets | None = None,
    batch: Batch = DEFAULT_BATCH,
) -> JSONObject:
    """Refuses an unknown game or bot, a wrong number of seats or a bad option, and a ``cmd:`` seat
    unless ``batch`` allows it (``commands``, on the local backend); returns the options. An allowed
    ``cmd:`` seat is checked (its settings, its program found) but not started."""
    game = load_game(game_name).with_content(content or ContentSets())
    values = game.options(options)
    game.check_players(len(seats))
    check_commands(seats, batch)
    for s, name in enumerate(seats):
        make_bot(game, name, s, commands=batch.commands, options=values, players=len(seats))
    return values


def check_commands(seats: Sequence[str], batch: Batch) -> None:
    """Refuses ``cmd:`` seats on Ray: their programs are on this machine, not on the cluster's nodes."""
    if batch.commands and batch.backend != "local" and any(is_command(s) for s in seats):
        raise OptionError("a cmd: seat runs a program on this machine: use --backend local")


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Returns the Wilson 95% confidence interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def summarise(
    game: str,
    seats: list[str],
    seed: int,
    options: Mapping[str, object],
    outcomes: list[GameOutcome],
    seconds: float,
) -> JSONObject:
    """Returns win rates by seat and by bot, score means and spreads, and game lengths."""
    n = len(outcomes)
    seat_rows = []
    for s, bot in enumerate(seats):
        wins = sum(o.wins[s] for o in outcomes)
        scores = [o.scores[s] for o in outcomes]
        seat_rows.append(
            {
                "seat": s,
                "bot": bot,
                "wins": round(wins, 3),
                "win_rate": wins / n if n else 0.0,
                "ci95": list(wilson(wins, n)),
                "mean_score": statistics.fmean(scores) if scores else 0.0,
                "score_sd": statistics.pstdev(scores) if scores else 0.0,
            }
        )
    by_bot = {}
    for bot in dict.fromkeys(seats):
        places = [s for s, b in enumerate(seats) if b == bot]
        wins = sum(o.wins[s] for o in outcomes for s in places)
        trials = n * len(places)
        by_bot[bot] = {
            "seats": len(places),
            "wins": round(wins, 3),
            "win_rate": wins / trials if trials else 0.0,
            "ci95": list(wilson(wins, trials)),
        }
    lengths = [o.actions for o in outcomes]
    return {
        **_summary_head(game, n, seed, options, lengths, seconds, outcomes),
        "seats": seat_rows,
        "bots": by_bot,
        "turn_order": _turn_order(len(seats), outcomes),
    }


def _turn_order(players: int, outcomes: list[GameOutcome]) -> list[JSONObject]:
    """Returns win rates by place in the turn order (0: the first player), whoever sat there."""
    rows = []
    n = len(outcomes)
    for place in range(players):
        wins = sum(o.wins[(o.first + place) % players] for o in outcomes)
        rows.append(
            {
                "place": place,
                "wins": round(wins, 3),
                "win_rate": wins / n if n else 0.0,
                "ci95": list(wilson(wins, n)),
            }
        )
    return rows


def _summary_head(
    game: str,
    n: int,
    seed: int,
    options: Mapping[str, object],
    lengths: list[int],
    seconds: float,
    outcomes: list[GameOutcome],
) -> JSONObject:
    """Returns the summary's general figures: counts, time, lengths."""
    return {
        "game": game,
        "games": n,
        "seed": seed,
        "options": dict(options),
        "actions": sum(lengths),
        "seconds": seconds,
        "mean_length": statistics.fmean(lengths) if lengths else 0.0,
        "length_sd": statistics.pstdev(lengths) if lengths else 0.0,
        "mean_turns": statistics.fmean(o.turns for o in outcomes) if outcomes else 0.0,
    }
