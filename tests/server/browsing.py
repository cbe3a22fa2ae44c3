"""What the real-browser tests share: Chromium from Debian, where screenshots go, and page helpers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "artifacts"
"""Screenshots of the tables (test artifacts; var/ is not in git)."""
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

WAIT_MS = 90_000
"""How long a page waits for anything by default: on a busy machine (two test workers, a server
process and Chromium on two shared cores) Playwright's 30 s ran out now and then."""

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is installed by make test")


class PatientBrowser:
    """A Playwright browser whose pages and contexts wait WAIT_MS by default; the rest as Playwright's."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_page(self, **options: Any) -> Any:
        """Returns a new page (in a context of its own) that waits WAIT_MS by default."""
        page = self.browser.new_page(**options)
        page.set_default_timeout(WAIT_MS)
        return page

    def new_context(self, **options: Any) -> Any:
        """Returns a new context whose pages wait WAIT_MS by default."""
        context = self.browser.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


def open_seat(browser: Any, url: str, viewport: dict[str, int] | None = None) -> Any:
    """Opens a seat's (or a spectator's) link in a new page and waits for the first view."""
    page = browser.new_page(viewport=viewport or LAPTOP)
    page.goto(url)
    page.wait_for_selector("#banner:not(:empty)")
    return page


def version(page: Any) -> int:
    """Returns the table version the page shows."""
    return int(page.evaluate("() => Number(document.body.dataset.version)"))


def wait_past(page: Any, seen: int, timeout: float = WAIT_MS) -> None:
    """Waits until the page shows a version after ``seen``."""
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=seen, timeout=timeout)


MINE_ALONE = """() => view && view.seat !== null && !view.over && view.asked && !view.answered_for_you
    && view.deciders.length === 1 && view.deciders[0] === view.seat ? [view.version] : null"""
"""The version the page shows, once its seat alone is asked a decision of its own (not a pass the table
makes for it, which lands by itself): a list, so that version 0 counts as found."""


def wait_for_my_move(page: Any, timeout: float = WAIT_MS) -> int:
    """Waits until the page's seat alone is asked and it is not the table's pass to make; returns the
    version shown. Without a clock nothing moves at the table then until the seat acts, so what the page
    shows stays put for the clicks that follow (a bot's move, a pass made for the seat or the end of a
    window could otherwise redraw it between a read and a click)."""
    found: list[int] = page.wait_for_function(MINE_ALONE, timeout=timeout).json_value()
    return found[0]


def wait_for_results(page: Any, still: float = 30.0, most: float = 600.0) -> None:
    """Waits for the results while the table keeps moving: fails once the page shows no new version
    for ``still`` seconds (a stalled table), or after ``most`` seconds in all (a busy machine is slow,
    not stuck)."""
    start = last = time.time()
    seen = version(page)
    while True:
        try:
            page.wait_for_selector("#results-box:not([hidden])", timeout=2_000)
            return
        except PlaywrightTimeout:
            now, shown = time.time(), version(page)
            if shown != seen:
                seen, last = shown, now
            assert now - last < still, f"the table stalled at version {seen} for {still:.0f} s"
            assert now - start < most, f"no results after {most:.0f} s (version {seen})"


def screenshot(page: Any, name: str) -> Path:
    """Saves a screenshot of the page as var/artifacts/NAME.png and returns its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def board_fits(page: Any) -> bool:
    """Returns whether the drawn table lies wholly inside the window (no scrolling needed to see it)."""
    found: bool = page.evaluate(
        """() => { const r = document.getElementById('board-box').getBoundingClientRect();
                   return r.width > 0 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1; }"""
    )
    return found


def use_buttons(page: Any) -> None:
    """Opens "Your choices" (the buttons of every legal action), which a drawn table folds away."""
    page.wait_for_selector("body[data-drawn]", state="attached")
    page.evaluate("() => { document.getElementById('actions-box').open = true; }")


def register_on_page(page: Any, url: str, username: str, password: str, display: str = "") -> None:
    """Registers an account through the account page at ``url`` (the server's), as a person would:
    the form filled in (``display``: the display name, if any) and sent; returns once signed in."""
    page.goto(url + "/account")
    page.wait_for_selector("#signed-out:not([hidden])")
    page.fill("#register-username", username)
    page.fill("#register-password", password)
    if display:
        page.fill("#register-display", display)
    page.click("#register-button")
    page.wait_for_selector("#signed-in:not([hidden])")
