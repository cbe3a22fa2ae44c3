"""Tournaments: tables of bots with rotated seats, played in parallel, rated with OpenSkill.

Each game seats ``players`` bots taken in turn from the list (so every bot meets
every other and sits in every seat); a bot may fill several seats when there are
fewer bots than seats.  Every game updates a Plackett–Luce rating (OpenSkill, a
multiplayer rating built for free-for-all results) from the final ranking; a bot
in several seats of one game is rated per seat and its new rating is their mean.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from parlour.bots.registry import make_bot
from parlour.bots.simulation import DEFAULT_BATCH, Batch, GameOutcome, check_commands, play_one
from parlour.bots.workers import open_runner
from parlour.core.content import ContentSets
from parlour.core.positions import JSONObject
from parlour.core.registry import load_game


def seating(bots: Sequence[str], players: int, index: int) -> list[str]:
    """Returns the bots of game ``index``: a window of the list that moves one place a game."""
    return [bots[(index + seat) % len(bots)] for seat in range(players)]


def _play(
    job: tuple[str, list[str], int, int, JSONObject, ContentSets | None, bool],
) -> tuple[list[str], GameOutcome]:
    """Plays one tournament game in a worker."""
    game_name, seats, seed, index, options, content, commands = job
    outcome = play_one(game_name, seats, seed, index, options, content, commands)
    return seats, outcome


def tournament(
    game_name: str,
    bots: Sequence[str],
    games: int,
    players: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    batch: Batch = DEFAULT_BATCH,
) -> JSONObject:
    """Plays the tournament and returns each bot's rating, results and the run's figures (one game a job,
    on any backend: the ratings are worked out in game order, so they never depend on where games ran)."""
    content = batch.content
    game = load_game(game_name).with_content(content or ContentSets())
    game.check_players(players)
    values = game.options(options)
    check_commands(bots, batch)
    for name in set(bots):
        # An unknown bot, a refused cmd: seat, a learned policy that cannot read these tables.
        make_bot(game, name, 0, commands=batch.commands, options=values, players=players)
    jobs = [
        (game_name, seating(bots, players, i), seed, i, values, content, batch.commands) for i in range(games)
    ]
    results: list[tuple[list[str], GameOutcome]] = []
    with open_runner(batch.backend, batch.workers, batch.workers_max) as runner:
        start = time.perf_counter()
        for item in runner.run(_play, jobs):
            results.append(item)
            if batch.progress:
                batch.progress(1)
        seconds = time.perf_counter() - start
    table = rate(sorted(set(bots)), results)
    return {
        "game": game_name,
        "players": players,
        "games": games,
        "seed": seed,
        "options": values,
        "bots": table,
        "seconds": seconds,
    }


def rate(names: list[str], results: Sequence[tuple[list[str], GameOutcome]]) -> list[JSONObject]:
    """Rates every bot from the games' rankings (in game order, so the result is reproducible)."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    played = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0.0)
    for seats, outcome in sorted(results, key=lambda item: item[1].index):
        # Winners first (a shared win ranks together), then by score.
        keys = list(zip(outcome.wins, outcome.scores, strict=True))
        ranks = [1.0 + sum(1 for other in keys if other > mine) for mine in keys]
        teams = [[model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma, name=b)] for b in seats]
        updated = model.rate(teams, ranks=ranks)
        for name in set(seats):
            mine = [team[0] for team, b in zip(updated, seats, strict=True) if b == name]
            ratings[name] = model.rating(
                mu=sum(r.mu for r in mine) / len(mine),
                sigma=sum(r.sigma for r in mine) / len(mine),
                name=name,
            )
        for seat, name in enumerate(seats):
            played[name] += 1
            wins[name] += outcome.wins[seat]
    rows = [
        {
            "bot": name,
            "mu": ratings[name].mu,
            "sigma": ratings[name].sigma,
            "ordinal": ratings[name].mu - 3 * ratings[name].sigma,
            "seats": played[name],
            "wins": wins[name],
            "win_rate": wins[name] / played[name] if played[name] else 0.0,
        }
        for name in names
    ]
    return sorted(rows, key=lambda row: -row["ordinal"])
