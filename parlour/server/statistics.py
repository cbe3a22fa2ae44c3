"""Each game's designer's report in the browser: computed once in a worker process, kept on disk.

``GET /statistics`` lists the games; ``GET /statistics/GAME`` shows the game's report (docs/report.md)
once it is ready, and until then a page that says it is being computed and reloads itself. The first
request (or the server's start, with ``on_start``) starts the computation in a spawned worker process,
at a lower priority, off the event loop (one report at a time); the report is written into the
statistics folder, named by what it plays, so it survives restarts and a changed setting makes a new
one. ``GET /api/statistics/GAME`` answers ``{"status": "ready", "report": ...}`` or the status.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from html import escape
from importlib import metadata
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from parlour.bots.simulation import Batch
from parlour.bots.workers import run_jobs
from parlour.core.registry import game_names, load_game
from parlour.report.build import VERSION as REPORT_VERSION
from parlour.report.build import ReportSpec, check_report, make_report

LOG = logging.getLogger("parlour.server")
GAMES = 300
"""Greedy games a report plays by default: done within a minute or so for every game."""
PLAYERS = 4
"""The table size of a report (within the game's range)."""
CLAIM_SECONDS = 900.0
"""A claim on a report's computation older than this is taken over (the node that made it is gone)."""
RETRY = 60.0
"""How long after a failed computation a request starts it again (seconds)."""
NICE = 10
"""How much lower the report's worker runs than the server."""
STOP_WAIT = 10.0
"""How long stopping waits for a computation to end (its worker is killed at once)."""
RELOAD = 3
"""How often the page of a report being computed reloads itself (seconds)."""


@dataclass(frozen=True)
class StatisticsSettings:
    """Where reports are kept, how many games they play, whether every game's starts with the server."""

    folder: Path | None = None
    """The folder of the reports (None: statistics are off)."""
    games: int = GAMES
    on_start: bool = False
    seed: int = 0


class Stopped(Exception):
    """Raised in the watch of a computation when the server stops."""


def _made_by() -> str:
    """Returns what a report file's name says made it: the report's format and Parlour's version (a
    report made by another version is not reused)."""
    return f"v{REPORT_VERSION}-{_package_version()}"


def _package_version() -> str:
    """Returns Parlour's installed version ("dev" when not installed)."""
    try:
        return metadata.version("parlour")
    except metadata.PackageNotFoundError:
        return "dev"


def players_of(game: str) -> int:
    """Returns the report's table size for a game: PLAYERS, within the game's range."""
    known = load_game(game)
    return min(max(PLAYERS, known.min_players), known.max_players)


def compute(job: tuple[str, int, int, int]) -> tuple[str, str]:
    """Plays and measures a game's report (in the worker process); returns its JSON and its page."""
    from parlour.report.page import html_page  # matplotlib: loaded in the worker, never in the server

    game, players, games, seed = job
    spec = check_report(ReportSpec(game, players, games, seed=seed, kingmaking_games=min(games, 100)))
    report = make_report(spec, Batch())
    return json.dumps(report, indent=1) + "\n", html_page(report)


def _write(path: Path, text: str) -> None:
    """Writes a file atomically (a temporary file renamed over it)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


class Statistics:
    """The reports of every game: found on disk, or computed one at a time (see the module)."""

    def __init__(self, settings: StatisticsSettings) -> None:
        self.settings = settings
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.failed: dict[str, tuple[str, float]] = {}
        self.stopping = threading.Event()
        self.lock: asyncio.Lock | None = None

    def paths(self, game: str) -> tuple[Path, Path]:
        """Returns a game's report files (JSON, page), named by what the report plays."""
        folder = self.settings.folder or Path()
        stem = f"{game}-{players_of(game)}p-{self.settings.games}g-seed{self.settings.seed}-{_made_by()}"
        return folder / f"{stem}.json", folder / f"{stem}.html"

    def status(self, game: str) -> str:
        """Returns ``ready``, ``running`` or ``failed``, starting the computation if none is under way
        (nor failed within RETRY seconds)."""
        data, page = self.paths(game)
        if data.is_file() and page.is_file():
            return "ready"
        if game in self.tasks:
            return "running"
        failed = self.failed.get(game)
        if failed is not None and time.monotonic() - failed[1] < RETRY:
            return "failed"
        if not self._claim(game):
            return "running"  # another node (sharing the folder) computes it
        self.tasks[game] = asyncio.get_running_loop().create_task(self._compute(game))
        return "running"

    def _claim(self, game: str) -> bool:
        """Claims a game's computation in the folder (a lock file made exclusively, so nodes sharing the
        folder compute each report once); a claim older than CLAIM_SECONDS (its node died) is taken over."""
        lock = self.paths(game)[0].with_suffix(".lock")
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                if time.time() - lock.stat().st_mtime > CLAIM_SECONDS:
                    lock.unlink()
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return False
        except OSError:
            return True  # a folder that cannot hold the lock: compute here (writing will say what is wrong)
        os.close(descriptor)
        return True

    def _release(self, game: str) -> None:
        """Removes the game's claim (its computation ended, well or not)."""
        with contextlib.suppress(OSError):
            self.paths(game)[0].with_suffix(".lock").unlink()

    async def start(self) -> None:
        """Starts every game's report (one after the other) if the settings ask for it."""
        if self.settings.folder is not None and self.settings.on_start:
            for game in game_names():
                self.status(game)

    async def stop(self) -> None:
        """Stops: a computation under way has its worker killed; nothing half-written is kept."""
        self.stopping.set()
        tasks = list(self.tasks.values())
        if tasks:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait(tasks, timeout=STOP_WAIT)

    async def _compute(self, game: str) -> None:
        """Computes a game's report in a worker process and writes its files (after any other's)."""
        if self.lock is None:
            self.lock = asyncio.Lock()
        try:
            async with self.lock:
                if self.stopping.is_set():
                    return
                started = time.monotonic()
                data, page = await asyncio.to_thread(self._in_worker, game)
                await asyncio.to_thread(self._keep, game, data, page)
                LOG.info("the statistics of %s took %.1f s", game, time.monotonic() - started)
        except Stopped:
            pass
        except Exception:  # the page says so in general words; the reason goes to the log
            LOG.exception("the statistics of %s failed", game)
            self.failed[game] = ("the server's log says why", time.monotonic())
        finally:
            self.tasks.pop(game, None)
            self._release(game)

    def _watch(self) -> None:
        """Ends a computation when the server stops."""
        if self.stopping.is_set():
            raise Stopped

    def _in_worker(self, game: str) -> tuple[str, str]:
        """Runs :func:`compute` in a spawned worker process (in a thread, off the event loop)."""
        job = (game, players_of(game), self.settings.games, self.settings.seed)
        (result,) = list(run_jobs(compute, [job], 1, 1, "spawn", watch=self._watch, nice=NICE))
        return result

    def _keep(self, game: str, data: str, page: str) -> None:
        """Writes a report's files: the JSON first, the page last (a report is ready once both are)."""
        json_path, html_path = self.paths(game)
        json_path.parent.mkdir(parents=True, exist_ok=True)
        _write(json_path, data)
        _write(html_path, page)


def _waiting_page(game: str, status: str, statistics: Statistics) -> HTMLResponse:
    """Returns the page shown while a report is computed (it reloads itself), or why it failed."""
    title = escape(load_game(game).title)
    games = statistics.settings.games
    if status == "failed":
        reason = escape(statistics.failed.get(game, ("", 0.0))[0])
        body = (
            f'<p id="statistics-failed">The statistics could not be computed: {reason}. '
            "Try again in a minute.</p>"
        )
        refresh = ""
    else:
        body = (
            f'<p id="statistics-waiting">The statistics of {games:,} games of bots are being '
            "computed; this page shows them when they are ready.</p>"
        )
        refresh = f'<meta http-equiv="refresh" content="{RELOAD}">'
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">{refresh}'
        f"<title>{title}: statistics</title></head><body><h1>{title}: statistics</h1>{body}"
        '<p><a href="/">Back to the lobby</a></p></body></html>\n',
        status_code=202 if status == "running" else 503,
    )


def statistics_routes(statistics: Statistics) -> list[Route]:
    """Returns the statistics pages and their JSON API."""

    def known(request: Request) -> str:
        game = str(request.path_params["game"])
        if statistics.settings.folder is None or game not in game_names():
            raise LookupError
        return game

    async def index(request: Request) -> Response:
        if statistics.settings.folder is None:  # --statistics-games 0: no statistics here
            return _not_here()
        items = "".join(
            f'<li><a href="/statistics/{name}" data-statistics="{name}">'
            f"{escape(load_game(name).title)}</a></li>"
            for name in game_names()
        )
        return HTMLResponse(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Statistics</title></head>'
            f"<body><h1>Statistics</h1><p>Each game's designer's report: {statistics.settings.games:,} "
            f"games of bots (greedy; Embers: random).</p><ul>{items}</ul>"
            '<p><a href="/">Back to the lobby</a></p></body></html>\n'
        )

    async def page(request: Request) -> Response:
        try:
            game = known(request)
        except LookupError:
            return _not_here()
        status = statistics.status(game)
        if status == "ready":
            return FileResponse(statistics.paths(game)[1], media_type="text/html; charset=utf-8")
        return _waiting_page(game, status, statistics)

    async def data(request: Request) -> Response:
        try:
            game = known(request)
        except LookupError:
            return JSONResponse({"error": "there are no statistics of that game here"}, status_code=404)
        status = statistics.status(game)
        if status != "ready":
            return JSONResponse({"status": status}, status_code=202 if status == "running" else 503)
        text = await asyncio.to_thread(statistics.paths(game)[0].read_text, encoding="utf-8")
        return JSONResponse({"status": status, "report": json.loads(text)})

    return [
        Route("/statistics", index),
        Route("/statistics/{game}", page),
        Route("/api/statistics/{game}", data),
    ]


def _not_here() -> HTMLResponse:
    """Returns the page of a game the server has no statistics of."""
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Statistics</title></head>'
        "<body><p>There are no statistics of that game here.</p></body></html>\n",
        status_code=404,
    )
