"""'Analyse this game' (issue 33): a finished table's analysis asked for, queued, run by the server's
worker off the event loop and shown; its limits, its refusals, its secrecy, and a worker that dies or
is doubled losing nothing and running each analysis once."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.analysis.report import load_analysis
from parlour.server.analyses import AnalysisLimits
from parlour.server.app import Settings, create_app

from .conftest import FAST, bearer, create

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

BUDGET = 2
"""Determinisations a decision in these tests' analyses: quick, still a real analysis."""
SHAPE = {"view", "status", "judged", "total", "ahead", "error", "analysis"}


def make(db: Path, workers: int = 1, limits: AnalysisLimits | None = None) -> TestClient:
    """Returns a test client of a server analysing with ``workers`` (0: none) at the tests' budget."""
    found = Settings(
        f"sqlite:///{db}",
        bot_workers=0,
        timing=FAST,
        analysis_workers=workers,
        analysis_budget=BUDGET,
        analysis_limits=limits or AnalysisLimits(),
        analysis_poll=0.05,
    )
    return TestClient(create_app(found))


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make(db) as found:
        yield found


@pytest.fixture
def idle(db: Path) -> Iterator[TestClient]:
    """A server that analyses nothing (another process would): its requests stay queued."""
    with make(db, workers=0, limits=AnalysisLimits(per_address=4, queue=3)) as found:
        yield found


def finished(client: TestClient, seats: tuple[str, ...] = ("random", "random")) -> str:
    """Returns the id of a finished Embers table of these seats' bots."""
    made = create(client, "embers", list(seats))
    end = time.time() + 60
    while not client.get(f"/api/tables/{made['table']}", headers=bearer(made["spectator_token"])).json()[
        "over"
    ]:
        assert time.time() < end, "the table of bots did not finish"
        time.sleep(0.02)
    return str(made["table"])


def ask(client: TestClient, table: str, view: str | None = None) -> Any:
    return client.post(f"/api/tables/{table}/analysis", json={} if view is None else {"view": view})


def shown(client: TestClient, table: str, view: str = "seat") -> dict[str, Any]:
    reply = client.get(f"/api/tables/{table}/analysis?view={view}")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    assert set(found) == SHAPE
    return found


def wait_done(
    client: TestClient, table: str, view: str = "seat", timeout: float = 120
) -> list[dict[str, Any]]:
    """Polls the analysis until it is done (or failed); returns every status seen on the way."""
    seen, end = [], time.time() + timeout
    while True:
        found = shown(client, table, view)
        seen.append(found)
        if found["status"] in ("done", "failed"):
            return seen
        assert time.time() < end, f"the analysis did not end: {found}"
        time.sleep(0.05)


def test_an_analysis_is_asked_for_queued_run_with_progress_and_shown(client: TestClient) -> None:
    table = finished(client)
    assert shown(client, table) == {
        "view": "seat", "status": "none", "judged": 0, "total": 0, "ahead": 0, "error": None, "analysis": None
    }  # fmt: skip
    reply = ask(client, table)
    assert reply.status_code == 202, reply.text
    assert set(reply.json()) == SHAPE and reply.json()["status"] in ("queued", "running")
    seen = wait_done(client, table)
    done = seen[-1]
    assert done["status"] == "done" and done["error"] is None, done
    analysis = load_analysis(done["analysis"])
    assert analysis.view == "seat" and analysis.seed == 0 and analysis.analysed == [0, 1]
    assert done["judged"] == done["total"] == len(analysis.decisions) > 0
    statuses = [s["status"] for s in seen]
    assert statuses == sorted(statuses, key=["queued", "running", "done"].index)
