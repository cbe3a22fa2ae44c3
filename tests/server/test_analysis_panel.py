"""The analysis panel of a finished table (issue 33) in Chromium, end to end against real servers: a
finished Embers game (a person's seat with a hostile name, a bot standing in), "Analyse this game"
queued (a front server that runs no analysis shows the progress), then judged by a second server on the
same database with a small budget; the plot (a line per player), the accuracy table under the page's
names, the biggest losses moving the replay (mouse and keyboard), the marks beside the replay's log,
the hindsight view labelled on every part, a phone's width, and no console error."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from .browsing import LAPTOP, needs_chromium, screenshot
from .live_server import LiveServer

pytestmark = [needs_chromium, pytest.mark.slow]

NAME = '<b id="bold">Ana</b> &"'
"""A person's name as hostile as names come: the panel writes it as text."""
HINDSIGHT = "Hindsight: judged with every card revealed — not what the player knew"
PHONE_NARROW = {"width": 375, "height": 812}
BUDGET = ["--analysis-budget", "2"]


def watch(page: Any) -> list[str]:
    """Collects the page's console errors."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


def finished_embers(server: LiveServer) -> str:
    """Returns a finished three-seat Embers table: seat 0 a named person's (a random bot standing in for
    them), seats 1 and 2 random bots."""
    spec = {
        "game": "embers",
        "seats": [
            {"kind": "human", "name": NAME},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
    }
    request = urllib.request.Request(
        server.url + "/api/tables", data=json.dumps(spec).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        made = json.load(reply)
    table: str = made["table"]
    token = made["seats"]["0"].split("#k=")[1]
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.recv(timeout=10)
        ws.send(json.dumps({"type": "stand_in", "seat": 0, "bot": "random"}))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if server.get(f"/api/tables/{table}", token)["over"]:
                return table
            time.sleep(0.3)
    raise AssertionError("the Embers table did not finish")


def shown(page: Any) -> int:
    """Returns the step the replay viewer shows."""
    return int(page.get_attribute("#replay-box", "data-version"))


def sideways(page: Any) -> dict[str, Any]:
    """Returns the page's width and any box inside it that scrolls sideways."""
    found: dict[str, Any] = page.evaluate(
        """() => ({ page: document.documentElement.scrollWidth, window: innerWidth,
                    boxes: [...document.querySelectorAll('body *')].filter(n => {
                        const s = getComputedStyle(n);
                        return (s.overflowX === 'auto' || s.overflowX === 'scroll')
                            && n.scrollWidth > n.clientWidth + 1;
                    }).map(n => n.id || String(n.className)),
                    wide: [...document.querySelectorAll('#analysis-box *')].filter(n => {
                        const r = n.getBoundingClientRect(); return r.width && r.right > innerWidth + 1;
                    }).map(n => n.id || n.tagName) })"""
    )
    return found


def test_analyse_a_finished_game_in_the_browser(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "parlour.db"
    front = LiveServer(db, extra=["--analysis-workers", "0"]).start()  # queues; judges nothing
    worker: LiveServer | None = None
    try:
        table = finished_embers(front)
        page = browser.new_page(viewport=LAPTOP)
        errors = watch(page)
        page.goto(f"{front.url}/t/{table}")
        page.wait_for_selector("#analysis-ask")
        assert "that seat's information only" in page.text_content("#analysis-about")
        assert "share" in page.text_content("#analysis-about")
        page.click("#analysis-ask")
        page.wait_for_selector("#analysis-progress")
        assert "queue" in page.text_content("#analysis-progress-text")
        assert page.get_attribute("#analysis-box", "data-status") == "queued"

        # A server with an analysis worker on the same database judges it; the page follows.
        worker = LiveServer(db, extra=["--analysis-workers", "1", *BUDGET]).start()
        page.wait_for_selector("#analysis-box[data-status='done'] #analysis-plot", timeout=180_000)
        document = front.get(f"/api/tables/{table}/analysis?view=seat")["analysis"]
        names = page.evaluate("() => view.names")
        assert NAME in names[0]
        # The plot: a line per player, a point per judged decision, the fair share's guide.
        assert page.locator("#analysis-plot .analysis-line").count() == 3
        assert page.locator("#analysis-plot .analysis-point").count() == len(document["decisions"])
        assert page.locator("#analysis-plot .analysis-fair").count() == 1
        legend = page.text_content("#analysis-legend")
        assert "own loss" in legend and "luck" in legend
        first = document["decisions"][0]
        title = page.text_content(f"#analysis-plot .analysis-point[data-move='{first['move']}'] title")
        assert f"move {first['move'] + 1}" in title and first["played"] in title
        # The accuracy table under the page's names, the hostile one as text.
        rows = page.eval_on_selector_all("#analysis-accuracy tbody th", "ns => ns.map(n => n.textContent)")
        assert rows == [names[s["seat"]] for s in document["summary"]]
        assert page.locator("#bold").count() == 0
        accuracy = page.text_content("#analysis-accuracy tbody tr")
        assert f"{document['summary'][0]['accuracy']:.0f}%" in accuracy
        # The biggest losses, each with the better action; a click shows the move in the replay.
        biggest = document["biggest"]
        assert page.locator("#analysis-biggest button").count() == len(biggest) > 0
        assert f"better: {biggest[0]['best']}" in page.text_content("#analysis-biggest button >> nth=0")
        page.click("#analysis-biggest button >> nth=0")
        page.wait_for_selector(f"#replay-box[data-version='{biggest[0]['move'] + 1}']")
        # ... and the keyboard does the same.
        last = biggest[-1]["move"] + 1
        page.focus(f"#analysis-biggest li:nth-child({len(biggest)}) button")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#replay-box[data-version='{last}']")
        # The marks beside the log's moves (entry number = move + 1), each judged entry titled.
        page.click("#replay-box button[data-label='end »']")
        page.wait_for_selector(f"#replay-box[data-version='{document['moves']}']")
        marked = [d for d in document["decisions"] if d["mark"]]
        assert page.locator("#replay-log .analysis-mark").count() == len(marked)
        entry = page.get_attribute(f"#replay-log .entry[data-number='{first['move'] + 1}']", "title")
        assert first["played"] in entry
        assert "Marks of the analysis" in page.text_content("#analysis-log-note")
        screenshot(page, "analysis-panel")

        # The hindsight view: asked for, judged, and labelled on every part while it is selected.
        page.check("#analysis-view-hindsight")
        page.wait_for_selector("#analysis-box[data-view='hindsight'] #analysis-ask")
        assert HINDSIGHT in page.text_content("#analysis-label")
        assert "Analyse this game in hindsight" in page.text_content("#analysis-ask")
        page.click("#analysis-ask")
        page.wait_for_selector(
            "#analysis-box[data-view='hindsight'][data-status='done'] #analysis-plot", timeout=180_000
        )
        labels = page.eval_on_selector_all(
            "#analysis-box .analysis-hindsight", "ns => ns.map(n => n.textContent)"
        )
        assert len(labels) == 4 and all(label == HINDSIGHT for label in labels)  # the box, plot, table, list
        assert "with every card revealed" in page.text_content("#analysis-about")
        assert HINDSIGHT in page.text_content("#analysis-log-note")
        hindsight = front.get(f"/api/tables/{table}/analysis?view=hindsight")["analysis"]
        assert hindsight["view"] == "hindsight"
        point = page.text_content("#analysis-plot .analysis-point title")
        assert point.startswith("Hindsight")
        # Back to each seat's view: no hindsight label left.
        page.check("#analysis-view-seat")
        page.wait_for_selector("#analysis-box[data-view='seat'][data-status='done'] #analysis-plot")
        assert page.locator("#analysis-box .analysis-hindsight").count() == 0
        assert page.get_attribute("#analysis-log-note", "class") != "hindsight"
        assert errors == []

        # A phone's width: nothing clipped sideways, the table's rows as cards.
        phone = browser.new_page(viewport=PHONE_NARROW)
        phone_errors = watch(phone)
        phone.goto(f"{front.url}/t/{table}")
        phone.wait_for_selector("#analysis-box[data-status='done'] #analysis-plot")
        phone.locator("#analysis-box").scroll_into_view_if_needed()
        found = sideways(phone)
        assert found["page"] <= found["window"] and found["boxes"] == [] and found["wide"] == [], found
        screenshot(phone, "analysis-panel-phone")
        assert phone_errors == []
    finally:
        if worker is not None:
            worker.stop()
        front.stop()


def test_a_marked_move_and_a_failed_analysis_are_shown(
    server: LiveServer, browser: Any, tmp_path: Path
) -> None:
    """The page's side of what the server says, whatever the small budget marked: a served document with
    a mark shows it beside its move in the log, titled with its loss and the better action; a failed
    analysis shows its error and asks again."""
    table = finished_embers(server)
    record = server.get(f"/api/tables/{table}/record")
    from parlour.analysis.analyse import analyse
    from parlour.core.record import GameRecord

    document = analyse(GameRecord.from_json(record), all_seats=True, budget=2).to_json()
    decision = document["decisions"][0]
    decision.update(mark="??", best="the better one", played=decision["played"])
    replies = {"failed": True}
    asked: list[str] = []

    def answer(route: Any, request: Any) -> None:
        if request.method == "POST":
            asked.append(request.post_data)
            replies["failed"] = False
            route.fulfill(status=202, json={"status": "queued"})
        elif replies["failed"]:
            route.fulfill(
                json={
                    "view": "seat",
                    "status": "failed",
                    "judged": 0,
                    "total": 0,
                    "ahead": 0,
                    "error": "the analysis ran out of time",
                    "analysis": None,
                }
            )
        else:
            route.fulfill(
                json={
                    "view": "seat",
                    "status": "done",
                    "judged": 1,
                    "total": 1,
                    "ahead": 0,
                    "error": None,
                    "analysis": document,
                }
            )

    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.route("**/api/tables/*/analysis*", answer)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#analysis-error")
    assert page.text_content("#analysis-error") == "the analysis ran out of time"
    page.click("#analysis-ask")  # "Ask again"
    page.wait_for_selector("#analysis-box[data-status='done'] #analysis-plot")
    assert asked and json.loads(asked[0]) == {"view": "seat"}
    mark = page.locator(f"#replay-log .entry[data-number='{decision['move'] + 1}'] .analysis-mark")
    assert mark.text_content() == "??"
    assert "better: the better one" in mark.get_attribute("title")
    assert "loss" in mark.get_attribute("title")
    assert errors == []
