"""The lobby's statistics link in Chromium: the page says the report is being computed, then shows its
plots (a real server computing a small report in its worker process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.server.statistics import _made_by

from .browsing import LAPTOP, needs_chromium, screenshot
from .live_server import LiveServer

pytestmark = [needs_chromium, pytest.mark.slow]


@pytest.fixture
def reporting(tmp_path: Path) -> Iterator[LiveServer]:
    """A real server whose statistics play 6 games a report, kept in tmp_path/statistics."""
    live = LiveServer(
        tmp_path / "parlour.db",
        extra=["--statistics-games", "6", "--statistics-dir", str(tmp_path / "statistics")],
    ).start()
    yield live
    live.stop()


def test_the_lobby_links_each_games_statistics(reporting: LiveServer, browser: Any, tmp_path: Path) -> None:
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(reporting.url + "/")
    page.select_option("#game", "venture")
    page.click("a[data-statistics='venture']")
    page.wait_for_selector("#statistics-waiting, #plot-seats svg")
    page.wait_for_selector("#plot-seats svg", timeout=180_000)  # the page reloads itself until ready
    assert "Venture: designer's report" in page.title()
    for name in ("seats", "places", "turns", "branching", "winner_leads"):
        assert page.locator(f"#plot-{name} svg").count() == 1
    assert page.locator("#plot-seats svg").bounding_box()["width"] > 100
    screenshot(page, "statistics-venture")
    assert (tmp_path / "statistics" / f"venture-4p-6g-seed0-{_made_by()}.html").is_file()
    page.goto(reporting.url + "/statistics")
    assert page.locator("a[data-statistics='venus-needs-men']").count() == 1
    assert errors == []
