"""Starting a real server on a database a bench filled: the benches of the web's figures share it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # as under pytest: server.live_server

from server.live_server import LiveServer

UNLIMITED = ["--http-rate", "1e6", "--http-burst", "1e6"]
"""The per-address request limit lifted: every request of a bench comes from one address."""


def start_filled(db: Path, extra: list[str] | None = None) -> tuple[LiveServer, float]:
    """Starts a server on ``db`` (its per-address limit lifted, ``extra`` options added); returns it and
    the seconds its start took (it resumes up to 2,000 tables first, so it may take minutes)."""
    server = LiveServer(db, extra=[*(extra or []), *UNLIMITED])
    began = time.perf_counter()
    server.start(wait=300.0)
    return server, time.perf_counter() - began
