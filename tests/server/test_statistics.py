"""Each game's statistics page: computed once in a worker process on first request, kept on disk (a
restarted server shows it at once), hostile game names refused, off without a folder."""

from __future__ import annotations

import json
import os
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from parlour.server.app import create_app
from parlour.server.statistics import CLAIM_SECONDS, Statistics, StatisticsSettings, _made_by

from .conftest import quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def client_of(db: Path, folder: Path | None, games: int = 3) -> TestClient:
    """Returns a test client of a server keeping its statistics in ``folder``."""
    return TestClient(create_app(quick_settings(db, statistics=StatisticsSettings(folder, games))))


def wait_ready(client: TestClient, game: str) -> dict[str, Any]:
    """Asks for a game's statistics until they are ready; returns the answer."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        reply = client.get(f"/api/statistics/{game}")
        if reply.status_code == 200:
            found: dict[str, Any] = reply.json()
            return found
        assert reply.status_code == 202, reply.text
        assert reply.json() == {"status": "running"}
        time.sleep(0.5)
    raise AssertionError("the statistics were not ready within two minutes")


@pytest.mark.slow  # a spawned worker process plays the games
def test_computed_on_first_request_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "statistics"
    with client_of(tmp_path / "parlour.db", folder) as client:
        first = client.get("/statistics/embers")
        assert first.status_code == 202
        assert 'http-equiv="refresh"' in first.text and 'id="statistics-waiting"' in first.text
        answer = wait_ready(client, "embers")
        assert answer["status"] == "ready"
        report = answer["report"]
        assert report["game"] == "embers" and report["games"] == 3 and report["players"] == 4
        page = client.get("/statistics/embers")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert 'id="plot-seats"><svg' in page.text and "Embers: designer" in page.text
    stem = f"embers-4p-3g-seed0-{_made_by()}"  # another version of Parlour makes its own reports
    assert sorted(p.name for p in folder.iterdir()) == [f"{stem}.html", f"{stem}.json"]
    stored = json.loads((folder / f"{stem}.json").read_text(encoding="utf-8"))
    assert stored["variants"] == report["variants"]
    # A restarted server shows the kept report at once; another size is another report.
    with client_of(tmp_path / "parlour.db", folder) as client:
        assert client.get("/statistics/embers").status_code == 200
    with client_of(tmp_path / "parlour.db", folder, games=2) as client:
        assert client.get("/statistics/embers").status_code == 202


def test_the_list_and_hostile_names(tmp_path: Path) -> None:
    with client_of(tmp_path / "parlour.db", tmp_path / "statistics") as client:
        listing = client.get("/statistics")
        assert listing.status_code == 200
        for game in ("venture", "im-the-boss", "venus-needs-men", "embers"):
            assert f'href="/statistics/{game}"' in listing.text
        for name in ("nothing", "%2e%2e%2fparlour.db", "embers.json", "x" * 300):
            assert client.get(f"/statistics/{name}").status_code == 404
            assert client.get(f"/api/statistics/{name}").status_code == 404
    assert not (tmp_path / "statistics").exists()


def test_off_without_a_folder(tmp_path: Path) -> None:
    with client_of(tmp_path / "parlour.db", None) as client:
        assert client.get("/statistics").status_code == 404
        assert client.get("/statistics/venture").status_code == 404
        assert client.get("/api/statistics/venture").status_code == 404


def test_the_serve_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from parlour.cli.serve import StatisticsOptions, statistics_settings
    from parlour.core.errors import OptionError

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    beside = statistics_settings(StatisticsOptions(), str(tmp_path / "db" / "parlour.db"), None)
    assert beside == StatisticsSettings(tmp_path / "db" / "statistics", 300)
    home = statistics_settings(StatisticsOptions(on_start=True), None, "postgresql+psycopg://x/y")
    assert home == StatisticsSettings(tmp_path / "home" / ".parlour" / "server" / "statistics", 300, True)
    assert statistics_settings(StatisticsOptions(0), None, None).folder is None
    for games in (-1, 100_001):
        with pytest.raises(OptionError, match="--statistics-games must be 0 to 100,000"):
            statistics_settings(StatisticsOptions(games), None, None)
    (tmp_path / "file").write_text("x")
    with pytest.raises(OptionError, match="is not a folder"):
        statistics_settings(StatisticsOptions(folder=str(tmp_path / "file")), None, None)


def test_a_report_another_node_claimed_is_not_computed_twice(tmp_path: Path) -> None:
    """Nodes sharing the folder: a fresh claim (a lock file) means another node computes the report; a
    claim older than CLAIM_SECONDS (its node died) is taken over."""
    folder = tmp_path / "statistics"
    statistics = Statistics(StatisticsSettings(folder, 3))
    lock = statistics.paths("embers")[0].with_suffix(".lock")
    folder.mkdir()
    lock.write_text("")
    assert not statistics._claim("embers")
    old = time.time() - CLAIM_SECONDS - 1
    os.utime(lock, (old, old))
    assert statistics._claim("embers") and lock.exists()
    assert not statistics._claim("embers")
    statistics._release("embers")
    assert not lock.exists()
