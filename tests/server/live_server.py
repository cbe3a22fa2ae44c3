"""A real Parlour server in its own process (uvicorn), on a free port, with its own database."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _suite_database(db: Path) -> str | None:
    """Returns the database standing for ``db`` when the test suite runs on another database than SQLite
    (PARLOUR_TEST_DATABASE, tests/databases.py), else None: the SQLite file."""
    if os.environ.get("PARLOUR_TEST_DATABASE", "sqlite").strip().lower() in ("", "sqlite"):
        return None
    from databases import database_url  # tests/ is on the path under pytest

    return database_url(db)


class LiveServer:
    """Starts ``parlour serve`` and talks to it over HTTP."""

    def __init__(
        self,
        db: Path,
        think: float = 0.02,
        bot_workers: int = 0,
        pass_delay: float | None = None,
        extra: Sequence[str] = (),
        open_files: int | None = None,
        log: Path | None = None,
        database_url: str | None = None,
    ) -> None:
        """``extra``: more options of ``parlour serve``; ``open_files``: its RLIMIT_NOFILE (soft and
        hard); ``log``: a file for its standard error (default a pipe nobody reads); ``database_url``:
        the server's database instead of the SQLite file ``db`` (whose folder is still its HOME, where
        its seed key goes); when the suite runs on PostgreSQL, ``db`` names one of its databases."""
        self.db, self.think, self.bot_workers, self.port = db, think, bot_workers, free_port()
        self.database_url = database_url
        self.pass_delay = think if pass_delay is None else pass_delay
        self.extra, self.open_files, self.log = list(extra), open_files, log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: float = 30.0) -> LiveServer:
        """Starts the server and waits up to ``wait`` seconds for it to answer (it resumes every table in
        play first)."""
        url = self.database_url if self.database_url is not None else _suite_database(self.db)
        database = ["--db", str(self.db)] if url is None else ["--database-url", url]
        args = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port), *database]
        args += ["--bot-workers", str(self.bot_workers), "--think", str(self.think)]
        args += [
            "--pass-delay",
            str(self.pass_delay),
            "--window-pause",
            str(min(self.think, 0.25)),
            *self.extra,
        ]
        env = {**os.environ, "HOME": str(self.db.parent)}
        stderr: int | IO[bytes] = subprocess.PIPE if self.log is None else self.log.open("wb")
        self.process = subprocess.Popen(
            args, env=env, stdout=subprocess.DEVNULL, stderr=stderr, preexec_fn=self._limit()
        )
        if not isinstance(stderr, int):
            stderr.close()  # the server has its own copy
        end = time.time() + wait
        while time.time() < end:
            try:
                self.get("/api/games")
                return self
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def _limit(self) -> Callable[[], None] | None:
        """Returns what sets the server's limit of open files in the child, if there is one."""
        if self.open_files is None:
            return None
        limit = self.open_files
        return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    def kill(self) -> None:
        """Kills the server at once (SIGKILL): no clean shutdown."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def get(self, path: str, token: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path)
        if token:
            request.add_header("authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.load(reply)

    def create(self, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
        spec = {
            "game": game,
            "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        }
        request = urllib.request.Request(
            self.url + "/api/tables", data=json.dumps({**spec, **extra}).encode(), method="POST"
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            made: dict[str, Any] = json.load(reply)
        made["spectator_token"] = made["spectator"].split("#k=")[1]
        return made
