"""A server on a fresh database per test (a SQLite file, or with PARLOUR_TEST_DATABASE=postgres a database on
a throwaway PostgreSQL: tests/databases.py), bots in threads, automatic moves without delay."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from databases import (
    column_names,
    database_url,
    on_postgres,
    postgres,
    server_database,
    stored_bytes,
    table_names,
)
from databases import sql as database_sql

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from parlour.server.app import Settings, create_app
from parlour.server.tables import Timing

from .browsing import CHROMIUM, FLAGS, PatientBrowser
from .live_server import LiveServer

__all__ = [
    "column_names",
    "database_sql",
    "database_url",
    "on_postgres",
    "postgres",
    "server_database",
    "stored_bytes",
    "table_names",
]

FAST = Timing(think=0.0, pass_delay=0.0, grace=0.0, window_pause=0.0)


def quick_settings(path: Path, **changes: Any) -> Settings:
    """Returns the tests' server settings on the database named by ``path`` (``database_url``): bots in
    threads, quick automatic moves (FAST), and the ``changes`` a test asks for."""
    return Settings(database_url(path), **{"bot_workers": 0, "timing": FAST, **changes})


def make_client(path: Path, timing: Timing = FAST) -> TestClient:
    """Returns a test client of a server on the database named by ``path`` (``database_url``)."""
    return TestClient(create_app(quick_settings(path, timing=timing)))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "parlour.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as found:
        yield found


def create(
    client: TestClient, game: str, seats: list[str], auto_pass: bool = True, **extra: Any
) -> dict[str, Any]:
    """Creates a table (``human`` or bot names per seat); returns the reply with tokens by seat."""
    people = {"kind": "human"} if auto_pass else {"kind": "human", "auto_pass": False}  # True: the default
    spec = {"game": game, "seats": [people if s == "human" else {"kind": "bot", "bot": s} for s in seats]}
    reply = client.post("/api/tables", json={**spec, **extra})
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    data["tokens"] = {int(seat): url.split("#k=")[1] for seat, url in data["seats"].items()}
    data["spectator_token"] = data["spectator"].split("#k=")[1]
    return data


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A real server (uvicorn, its own process and database), bots in threads, quick automatic moves."""
    live = LiveServer(tmp_path / "parlour.db").start()
    yield live
    live.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    """Chromium from Debian, headless, driven by Playwright; its pages wait 90 s (browsing.WAIT_MS)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        found = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield PatientBrowser(found)
        found.close()
