"""Takes the screenshots of docs/screenshots/ in Chromium: a tutorial step of each game (its highlighted
table part in view) and the analysis panel of a finished four-player Venture game between bots (each
seat's view, then the hindsight view with the replay at its biggest loss).

    .venv/bin/python docs/screenshots/take.py [--budget 8]

It starts its own server (``parlour serve``) on a temporary database and home, and writes nothing but
the PNGs beside this file. Needs Chromium at /usr/bin/chromium and Playwright (``make test`` has both).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from websockets.sync.client import connect

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.live_server import LiveServer  # noqa: E402  (the project's root put on the path first)

"""The project whose server is run (whatever the current folder, whatever copy the python installed)."""
CHROMIUM = "/usr/bin/chromium"
VIEWPORT: Any = {"width": 1280, "height": 900}
TUTORIALS = ["venture", "im-the-boss", "venus-needs-men"]
NAMES = ["Ana", "Ben", "Chloé", "Dev"]
"""The people of the analysed game (each with a greedy bot standing in for them)."""


class Server(LiveServer):
    """``parlour serve`` as the tests run it (tests/server/live_server.py), with a POST of JSON."""

    def post(self, path: str, body: object) -> Any:
        """Returns the JSON reply to a POST of ``body``."""
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST")
        request.add_header("content-type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.load(reply)


def finished_game(server: Server) -> str:
    """Plays a four-player Venture game of named seats, a greedy bot standing in for each person;
    returns its table once over."""
    made = server.post(
        "/api/tables", {"game": "venture", "seats": [{"kind": "human", "name": n} for n in NAMES]}
    )
    table: str = made["table"]
    tokens = [made["seats"][str(seat)].split("#k=")[1] for seat in range(len(NAMES))]
    for seat, token in enumerate(tokens):
        with connect(f"ws://127.0.0.1:{server.port}/ws/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "stand_in", "seat": seat, "bot": "greedy"}))
            ws.recv(timeout=10)
    end = time.time() + 600
    while time.time() < end:
        if server.get(f"/api/tables/{table}", tokens[0])["over"]:
            return table
        time.sleep(0.5)
    raise SystemExit("the Venture game did not finish")


def tutorial(page: Any, server: Server, game: str) -> Path:
    """Screenshots a tutorial's first step, its highlighted part of the drawn table in view."""
    page.goto(f"{server.url}/learn/{game}")
    page.wait_for_selector("body[data-step='1']")
    page.wait_for_selector("#board .learn-highlight", state="attached")
    page.wait_for_timeout(500)  # the drawing settles
    page.evaluate(
        "() => document.querySelector('#board .learn-highlight').scrollIntoView({ block: 'center' })"
    )
    path = HERE / f"learn-{game}.png"
    page.screenshot(path=str(path))
    return path


def analysis(page: Any, server: Server, table: str) -> Path:
    """Asks for the analysis of a finished table on its page, waits for it and screenshots the panel."""
    page.goto(f"{server.url}/t/{table}")
    page.click("#analysis-ask")
    page.wait_for_selector("#analysis-box[data-status='done'] #analysis-plot", timeout=600_000)
    page.wait_for_timeout(500)
    page.evaluate("() => document.getElementById('analysis-box').scrollIntoView({ block: 'start' })")
    path = HERE / "analysis-venture.png"
    page.screenshot(path=str(path))
    return path


def hindsight(page: Any) -> Path:
    """Switches the panel on the page to the hindsight view, asks for it, and screenshots it labelled,
    the replay at its biggest loss (the log's marks beside it)."""
    page.check("#analysis-view-hindsight")
    page.click("#analysis-box[data-view='hindsight'] #analysis-ask")
    page.wait_for_selector(
        "#analysis-box[data-view='hindsight'][data-status='done'] #analysis-plot", timeout=600_000
    )
    page.click("#analysis-biggest button >> nth=0")
    page.wait_for_timeout(1000)
    page.evaluate("() => window.scrollTo(0, 0)")
    path = HERE / "analysis-venture-hindsight.png"
    page.screenshot(path=str(path))
    return path


def main() -> None:
    """Takes every screenshot, then names each file with its size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=8, help="determinisations a decision (default 8)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="parlour-screenshots-") as home:
        settings = ["--analysis-workers", "1", "--analysis-budget", str(options.budget)]
        db, log = Path(home) / "parlour.db", Path(home) / "server.log"
        server = Server(db, think=0.01, extra=settings, log=log)
        server.start(wait=60)  # its HOME is the temporary folder: nothing is written elsewhere
        try:
            table = finished_game(server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport=VIEWPORT)
                taken = [tutorial(page, server, game) for game in TUTORIALS]
                taken.append(analysis(page, server, table))
                taken.append(hindsight(page))
                browser.close()
        finally:
            server.stop()
    for path in taken:
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
