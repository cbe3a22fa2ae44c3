"""Traced games played on the batch's backend (local processes or Ray), in index order."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.bots.simulation import Batch, chunks
from parlour.bots.workers import open_runner
from parlour.core.content import ContentSets
from parlour.core.positions import JSONObject
from parlour.report.trace import GameTrace, play_traced

Job = tuple[str, list[str], int, list[int], JSONObject, ContentSets | None, int]
"""A chunk of games: game, seats, seed, game indexes, options, content sets, games looked at for
kingmaking (those with a lower index)."""


def _play_chunk(job: Job) -> list[GameTrace]:
    """Plays a chunk of traced games in a worker."""
    game, seats, seed, indexes, options, content, kingmaking = job
    return [play_traced(game, seats, seed, i, options, content, i < kingmaking) for i in indexes]


def collect(
    game: str,
    seats: Sequence[str],
    games: int,
    seed: int,
    options: JSONObject,
    batch: Batch,
    kingmaking: int = 0,
) -> list[GameTrace]:
    """Plays ``games`` traced games (the first ``kingmaking`` also looked at for kingmaking) and returns
    their traces by index; the same for any backend or number of workers."""
    traces: list[GameTrace] = []
    with open_runner(batch.backend, batch.workers, batch.workers_max) as runner:
        jobs: list[Job] = [
            (game, list(seats), seed, c, options, batch.content, kingmaking)
            for c in chunks(games, runner.workers)
        ]
        for played in runner.run(_play_chunk, jobs):
            traces.extend(played)
            _tell(batch.progress, len(played))
    traces.sort(key=lambda t: t.index)
    return traces


def _tell(progress: Callable[[int], None] | None, games: int) -> None:
    """Tells the progress report how many games just ended."""
    if progress is not None:
        progress(games)
