"""The "My games" page in Chromium (issue 32): a signed-in person on another browser, without any link,
sees the account's tables with the one where it is their turn first and the time left, and one click
opens that table as their seat, which they play; this browser's links are merged in, each table once."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from typing import Any

import pytest

from .accounts_helpers import PASSWORD
from .browsing import PHONE, needs_chromium, screenshot, version, wait_past
from .live_server import LiveServer
from .test_table_page import play_one, tokens

TURN_BASED = {"pace": "turn-based", "move_hours": 24}


NAMED = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]


def table_asking(server: LiveServer, seat: int) -> dict[str, Any]:
    """Returns a new turn-based Venture table of Ana (seat 0) and Bo whose first decision is ``seat``'s
    (Venture draws who starts: tables are made until one fits)."""
    for _ in range(50):
        body = json.dumps({"game": "venture", "seats": NAMED, **TURN_BASED}).encode()
        request = urllib.request.Request(server.url + "/api/tables", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=10) as reply:
            made: dict[str, Any] = json.load(reply)
        if server.get(f"/api/tables/{made['table']}/status")["deciders"] == [seat]:
            return made
    raise AssertionError(f"no table asked seat {seat} first in 50")


def keep(context: Any, server: LiveServer, csrf: str, table: str, token: str) -> None:
    """Keeps a seat in the account signed in in ``context`` (its cookie), by the seat's token."""
    reply = context.request.post(
        f"{server.url}/api/tables/{table}/bind",
        headers={"authorization": f"Bearer {token}", "x-csrf-token": csrf},
    )
    assert reply.ok, reply.text()


def token_of(made: dict[str, Any], seat: int) -> str:
    link: str = made["seats"][str(seat)]
    return link.split("#k=")[1]


@needs_chromium
@pytest.mark.slow
def test_my_games_your_turn_first_and_one_click_plays_the_seat(browser: Any, server: LiveServer) -> None:
    first = browser.new_context()
    made = first.request.post(f"{server.url}/api/register", data={"username": "ana", "password": PASSWORD})
    assert made.status == 201
    csrf = made.json()["csrf"]
    waiting, asked = table_asking(server, 1), table_asking(server, 0)  # Bo's turn, then Ana's
    keep(first, server, csrf, waiting["table"], token_of(waiting, 0))
    keep(first, server, csrf, asked["table"], token_of(asked, 0))
    first.close()
    stranger = table_asking(server, 1)  # only in the browser's links (Ana's seat 0 there too)

    second = browser.new_context(viewport=PHONE)  # another device: no link of any seat
    page = second.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server.url + "/games")
    page.wait_for_selector("#games-invite:not([hidden])")
    signed = second.request.post(f"{server.url}/api/login", data={"username": "ana", "password": PASSWORD})
    assert signed.ok
    page.goto(server.url + "/")
    page.evaluate(
        """([w, s]) => { MyTables.remember({table: w.table, game: "venture", seat: w.seat, links: w.links});
                         MyTables.remember({table: s.table, game: "venture", seat: 0, links: s.links}); }""",
        [
            {"table": waiting["table"], "seat": 0, "links": {"0": waiting["seats"]["0"]}},
            {"table": stranger["table"], "links": {"0": stranger["seats"]["0"]}},
        ],
    )
    page.click("#games-link")
    page.wait_for_selector("#games-list a.game-row")
    page.wait_for_function("document.querySelectorAll('#games-list a.game-row').length === 3")
    assert page.is_hidden("#games-invite")
    rows = page.locator("#games-list a.game-row")
    tables = [rows.nth(i).get_attribute("data-table") for i in range(3)]
    assert tables[0] == asked["table"] and set(tables) == {
        asked["table"],
        waiting["table"],
        stranger["table"],
    }
    top = rows.nth(0)
    assert top.get_attribute("data-turn") == "yours"
    assert top.locator(".game-turn").text_content() == "your turn"
    assert top.locator(".game-left").text_content() == "24 h left"
    assert top.locator(".game-title").text_content() == "Venture"
    assert top.get_attribute("href") == f"/t/{asked['table']}"  # an account's seat: no token in it
    kept_row = page.locator(f"#games-list a.game-row[data-table='{waiting['table']}']")
    assert "#k=" in (kept_row.get_attribute("href") or "")  # the browser's own link, with its token
    assert kept_row.get_attribute("data-turn") == "other"
    assert kept_row.locator(".game-turn").text_content() == "Bo's turn"
    assert top.locator(".game-others").text_content() == "with Bo"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "my-games")

    top.click()
    page.wait_for_selector("#banner:not(:empty)")
    page.wait_for_selector("#actions button[data-action]", state="attached")  # asked: its actions offered
    assert page.evaluate("view.seat") == 0
    seen = version(page)
    page.evaluate("act(view.legal[0])")  # the page's own move, sent over the account's socket
    wait_past(page, seen)
    status = server.get(f"/api/tables/{asked['table']}/status")
    assert status["version"] == seen + 1
    assert errors == []
    second.close()


@needs_chromium
@pytest.mark.slow
def test_my_games_lists_a_rematch_waiting_for_the_others_accept(browser: Any, server: LiveServer) -> None:
    body = json.dumps({"game": "embers", "seats": NAMED}).encode()
    request = urllib.request.Request(server.url + "/api/tables", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=10) as reply:
        made: dict[str, Any] = json.load(reply)
    table, keys, chooser = made["table"], tokens(made), random.Random(3)
    end = time.time() + 60
    while not server.get(f"/api/tables/{table}", keys[0])["over"]:
        assert time.time() < end, "the game did not end"
        for token in keys.values():
            play_one(server, table, token, chooser)
    context = browser.new_context()
    registered = context.request.post(
        f"{server.url}/api/register", data={"username": "ana", "password": PASSWORD}
    )
    csrf = registered.json()["csrf"]
    keep(context, server, csrf, table, keys[0])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server.url}/t/{table}")  # the account's seat, without its link
    page.wait_for_selector("#finish:not([hidden]) #play-again")
    with page.expect_request(lambda r: "/again" in r.url) as sent:
        page.click("#play-again")
    assert sent.value.url.endswith(f"/api/tables/{table}/again?seat=0")  # the seat the page shows
    page.wait_for_url(lambda url: "/t/" in url and table not in url)
    rematch = page.url.split("/t/")[1].split("#")[0]
    page.goto(server.url + "/games")
    page.wait_for_function("document.querySelectorAll('#games-list a.game-row').length === 2")
    rows = page.locator("#games-list a.game-row")
    assert [rows.nth(i).get_attribute("data-table") for i in range(2)] == [rematch, table]
    waiting = rows.nth(0)
    assert waiting.get_attribute("data-turn") == "waiting"
    assert waiting.locator(".game-turn").text_content() == "a rematch: waiting for Bo to accept"
    assert waiting.locator(".game-left").text_content() == ""
    assert rows.nth(1).get_attribute("data-turn") == "over"
    assert errors == []
    context.close()


def test_the_games_page_is_served(server: LiveServer) -> None:
    with urllib.request.urlopen(server.url + "/games", timeout=10) as reply:
        page = reply.read().decode()
    assert "/static/games.js" in page and "/static/mytables.js" in page
    request = urllib.request.Request(server.url + "/api/me/tables")
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("the list was given without a session")
    except urllib.error.HTTPError as refused:
        assert refused.code == 401 and json.loads(refused.read())["error"] == "sign in first"
