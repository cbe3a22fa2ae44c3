"""Starting a real server on a database a bench filled: the benches of the web's figures share it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def print_figures(doc: str | None, figures: Callable[..., dict[str, Any]], **defaults: int) -> None:
    """Runs a bench's ``figures`` with its integer options (``--NAME``, each with its default, from the
    command line) and prints what it returns as JSON: the ``main`` of a bench run as a script."""
    parser = argparse.ArgumentParser(description=doc)
    for name, default in defaults.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    args = parser.parse_args()
    print(json.dumps(figures(**{name: getattr(args, name) for name in defaults}), indent=1))
