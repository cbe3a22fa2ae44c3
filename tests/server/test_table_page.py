"""The live table page (issue 31): a spectator sees no control they cannot use, the tab says when it
is your turn, the favicon is served, and a finished table shows its winners and plays again."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
import urllib.request
from typing import Any

import pytest
from starlette.testclient import TestClient

from .browsing import LAPTOP, needs_chromium, open_seat, screenshot
from .live_server import LiveServer


def post(server: LiveServer, path: str, token: str, body: object = None) -> Any:
    """POSTs JSON to the live server with a seat's token; returns the reply's JSON."""
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(server.url + path, data=data, method="POST")
    request.add_header("authorization", f"Bearer {token}")
    request.add_header("content-type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


def tokens(made: dict[str, Any]) -> dict[int, str]:
    return {int(seat): url.split("#k=")[1] for seat, url in made["seats"].items()}


def play_one(server: LiveServer, table: str, token: str, chooser: random.Random) -> bool:
    """Plays one random legal action for the seat if it is asked; returns whether it was."""
    seen = server.get(f"/api/tables/{table}", token)
    if not seen["asked"] or not seen["legal"]:
        return False
    body = {"action": chooser.choice(seen["legal"]), "version": seen["version"]}
    with contextlib.suppress(urllib.error.HTTPError):  # the table moved on meanwhile
        post(server, f"/api/tables/{table}/actions", token, body)
    return True


def finished_embers(server: LiveServer, seed: int) -> tuple[dict[str, Any], str, dict[int, str]]:
    """Plays a two-person Embers table to its end by random legal actions (seeded); returns what
    creating it answered, its id and each seat's token."""
    made = server.create("embers", ["human", "human"])
    table, keys, chooser = made["table"], tokens(made), random.Random(seed)
    end = time.time() + 60
    while not server.get(f"/api/tables/{table}", made["spectator_token"])["over"]:
        assert time.time() < end, "the Embers table did not finish within a minute"
        for token in keys.values():
            play_one(server, table, token, chooser)
    return made, table, keys


def watched(page: Any) -> Any:
    """Returns the page with the console errors, page errors and failed requests it will see."""
    page.problems = []
    page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda err: page.problems.append(str(err)))
    page.on("response", lambda r: page.problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return page


ASKED_PERMISSION = """window.permissionAsked = 0;
if (window.Notification) {
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = () => { window.permissionAsked += 1; return ask(); };
}"""
"""Counts the page's requests for the permission to notify."""


def own_browser(browser: Any, url: str) -> Any:
    """Opens a link in a page of a browser context of its own (another person's browser), watched."""
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script(ASKED_PERMISSION)
    page = watched(context.new_page())
    page.goto(url)
    page.wait_for_selector("#banner:not(:empty)")
    return page


WATCH_OUTLINES = """() => {
  window.outlined = [];
  new MutationObserver(() => window.outlined.push(
    [Number(document.body.dataset.version), document.querySelectorAll('#board .changed').length]
  )).observe(document.getElementById('board'),
             { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
}"""
"""Records, at every change of the drawing, the version drawn and how many of its parts are outlined."""


def test_the_favicon_is_served(client: TestClient) -> None:
    for path in ("/favicon.ico", "/static/favicon.svg", "/static/favicon-turn.svg"):
        reply = client.get(path)
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("image/svg+xml"), path


@needs_chromium
@pytest.mark.slow
def test_a_spectator_sees_no_control_and_no_page_logs_an_error(server: LiveServer, browser: Any) -> None:
    made = server.create("venture", ["human", "greedy"])
    page = watched(browser.new_page())
    page.goto(server.url + made["spectator"])
    page.wait_for_selector("#banner:not(:empty)")
    page.wait_for_selector("body[data-drawn]", state="attached")
    for hidden in ("#controls", "#actions-box", "#notation", "#ask-box", "#alerts", "#name-form"):
        assert not page.is_visible(hidden), hidden
    assert page.locator("button", has_text="Undo").count() == 0
    assert page.locator("#seats button").count() == 0
    assert page.title().startswith("Parlour · venture · spectator")
    banner = page.text_content("#banner") or ""
    assert len(re.findall(r"\bturn \d+", banner, re.IGNORECASE)) == 1, banner  # the turn said once
    seat = watched(open_seat(browser, server.url + made["seats"]["0"]))
    assert seat.is_visible("#controls") and seat.is_visible("#alerts")
    lobby = watched(browser.new_page())
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("#seat-0")
    time.sleep(0.5)
    for shown in (page, seat, lobby):
        assert shown.problems == [], shown.problems


@needs_chromium
@pytest.mark.slow
def test_the_tab_says_your_turn_and_stops_saying_it(server: LiveServer, browser: Any) -> None:
    made = server.create("embers", ["human", "human"])
    table, keys, chooser = made["table"], tokens(made), random.Random(3)
    pages = {s: own_browser(browser, server.url + made["seats"][str(s)]) for s in keys}
    first = next(s for s in keys if server.get(f"/api/tables/{table}", keys[s])["asked"])
    page = pages[first]
    page.wait_for_function("() => document.title.startsWith('(Your turn) Parlour')")
    assert page.get_attribute("#favicon", "href") == "/static/favicon-turn.svg"
    assert page.evaluate("() => window.permissionAsked") == 0  # never asked on load
    assert not page.is_checked("#sound") and not page.is_checked("#notify")  # both off by default
    page.check("#sound")
    assert page.evaluate("() => localStorage.getItem('parlour.sound')") == "1"
    page.click("#notify")
    page.wait_for_function("() => window.permissionAsked === 1")  # asked once the person ticks it
    shown, end = [True], time.time() + 60
    while shown[-3:] != [True, False, True]:  # asked, then not, then asked again
        assert time.time() < end, shown
        asked, title, icon = page.evaluate(
            "() => [view.asked && !view.answered_for_you, document.title,"
            " document.getElementById('favicon').getAttribute('href')]"
        )
        assert title.startswith("(Your turn) Parlour") == asked, title  # the title follows the view
        assert icon == ("/static/favicon-turn.svg" if asked else "/static/favicon.svg")
        if not asked:
            assert title == f"Parlour · embers · {page.evaluate('() => view.names[view.seat]')}"
        if asked != shown[-1]:
            shown.append(asked)
        for token in keys.values():
            play_one(server, table, token, chooser)
        time.sleep(0.05)


@needs_chromium
@pytest.mark.slow
def test_a_finished_table_shows_its_winners_and_plays_again_for_both(
    server: LiveServer, browser: Any
) -> None:
    made, table, _ = finished_embers(server, 4)
    ana, bo = (own_browser(browser, server.url + made["seats"][seat]) for seat in ("0", "1"))
    for page in (ana, bo):
        page.wait_for_selector("#finish:not([hidden]) #play-again")
        assert " win" in page.text_content("#finish .winner")
        assert "the results" in page.text_content("#finish")
    spectator = open_seat(browser, server.url + made["spectator"])
    assert spectator.is_visible("#finish") and spectator.locator("#play-again").count() == 0
    screenshot(ana, "table-finished")
    ana.click("#play-again")
    ana.wait_for_url(lambda url: "/t/" in url and table not in url)
    new = ana.url.split("/t/")[1].split("#")[0]
    ana.wait_for_selector("#banner:not(:empty)")
    assert ana.evaluate("() => view.seat") == 1  # seat 0 of the old table is seat 1 of the new
    bo.wait_for_selector("#accept-rematch")  # the rematch waits for Bo (tests/server/test_rematch.py)
    bo.click("#accept-rematch")
    bo.wait_for_url(lambda url: new in url)
    bo.wait_for_selector("#banner:not(:empty)")
    assert bo.evaluate("() => view.seat") == 0
    assert ana.problems == [] and bo.problems == []


@needs_chromium
@pytest.mark.slow
def test_the_outlines_of_what_changed_fade_once_the_table_is_still(server: LiveServer, browser: Any) -> None:
    made = server.create("venture", ["human", "greedy"])
    table, token = made["table"], tokens(made)[0]
    page = own_browser(browser, server.url + made["seats"]["0"])
    page.wait_for_selector("body[data-drawn]", state="attached")
    page.evaluate(WATCH_OUTLINES)
    end, chooser = time.time() + 30, random.Random(1)
    start = server.get(f"/api/tables/{table}", token)["turn"]
    while True:  # the person plays a whole turn (a discard ends it), then the bot plays its own
        seen = server.get(f"/api/tables/{table}", token)
        if seen["asked"] and seen["turn"] > start:
            break
        assert time.time() < end
        if seen["asked"]:
            enders = seen["ends_turn"] or seen["legal"]
            with contextlib.suppress(urllib.error.HTTPError):
                post(
                    server,
                    f"/api/tables/{table}/actions",
                    token,
                    {"action": chooser.choice(enders), "version": seen["version"]},
                )
        time.sleep(0.05)
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=seen["version"])
    # The drawing at that version outlined what the bot changed (read when drawn: the outlines fade
    # 4 s after it, and a busy machine may take that long to get here), then they fade by themselves.
    page.wait_for_function(
        "v => window.outlined.some(([at, count]) => at >= v && count > 0)", arg=seen["version"]
    )
    page.wait_for_function("() => document.querySelectorAll('#board .changed').length === 0", timeout=20_000)
    assert page.evaluate("() => shown.mark === view.observation")
    page.evaluate("() => draw()")  # a redraw of the same table outlines nothing again
    assert page.locator("#board .changed").count() == 0
    assert page.problems == []


@needs_chromium
@pytest.mark.slow
def test_a_menu_marks_the_choices_the_server_says_end_the_turn(server: LiveServer, browser: Any) -> None:
    made = server.create("venture", ["human", "greedy"])
    page = own_browser(browser, server.url + made["seats"]["0"])
    page.wait_for_function("() => view.asked && view.ends_turn.length > 0")
    marked = page.evaluate(
        """() => { const others = view.legal.filter(t => !view.ends_turn.includes(t));
                   const texts = [...view.ends_turn.slice(0, 2), ...others.slice(0, 2)];
                   menu("choices", texts);
                   return [...document.querySelectorAll('#board-menu button[data-action]')]
                     .map(b => [b.dataset.action, b.hasAttribute('data-ends'), b.textContent]); }"""
    )
    ends = page.evaluate("() => view.ends_turn")
    assert marked and any(action in ends for action, _, _ in marked)
    for action, flagged, label in marked:
        assert flagged == (action in ends)
        assert label.endswith("(ends the turn)") == (action in ends)
    assert page.locator("#actions button[data-ends]").count() == len(ends)
