"""A turn-based Venture table in Chromium: two people play their turns, the server restarts, a deadline
passes (the clock hook, no sleeping) and the auto policy moves; "My tables" puts your turn first."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .browsing import LAPTOP, needs_chromium, screenshot, use_buttons
from .live_server import LiveServer

pytestmark = [needs_chromium, pytest.mark.slow]
DAY = 86_400


def advance(server: LiveServer, seconds: float) -> None:
    """Moves the server's clock forward (it was started with --test-hooks)."""
    body = json.dumps({"advance": seconds}).encode()
    request = urllib.request.Request(server.url + "/api/test/clock", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=10) as reply:
        assert reply.status == 200


def asked(server: LiveServer, table: str) -> int:
    """Returns the seat asked now (the table's public status)."""
    found: int = server.get(f"/api/tables/{table}/status")["deciders"][0]
    return found


def wait_for_auto_move(server: LiveServer, table: str, version: int, most: float = 30.0) -> None:
    """Waits until the table moves past ``version`` (the auto policy acting once the clock was moved
    past a deadline): within ``most`` seconds, not the day the deadline was away. The scheduler looks
    every half second; 2 s was too little on a busy machine."""
    started = time.perf_counter()
    while server.get(f"/api/tables/{table}/status")["version"] == version:
        assert time.perf_counter() - started < most, f"the auto policy did not act within {most:.0f} s"
        time.sleep(0.02)


def play_turn(server: LiveServer, table: str, page: Any, seat: int) -> int:
    """Plays ``seat``'s whole turn by clicking its buttons (its turn's end where offered, else the first
    choice), once the page is connected and up to date; returns how many moves it made."""
    moves = 0
    while asked(server, table) == seat and moves < 20:
        seen = server.get(f"/api/tables/{table}/status")["version"]
        page.wait_for_function("v => socket && socket.readyState === 1 && view.version === v", arg=seen)
        page.wait_for_selector("#actions button", timeout=10_000)
        ends = page.locator("#actions button[data-action='done'], #actions button[data-action='end']")
        (ends.first if ends.count() else page.locator("#actions button").first).click()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=seen)
        moves += 1
    return moves


def test_two_people_play_turns_across_a_restart_and_a_deadline_passes_to_the_auto_policy(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "parlour.db"
    server = LiveServer(db, extra=["--test-hooks"]).start()
    made = server.create("venture", ["human", "human"], pace="turn-based", move_hours=24)
    pages = []
    for seat in ("0", "1"):
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.goto(server.url + made["seats"][seat])
        page.wait_for_selector("#banner:not(:empty)")
        use_buttons(page)
        pages.append(page)
    first = asked(server, made["table"])
    assert play_turn(server, made["table"], pages[first], first) >= 2
    assert play_turn(server, made["table"], pages[1 - first], 1 - first) >= 2
    late = asked(server, made["table"])
    assert " h " in pages[late].text_content("#clock")  # "clock: 23 h 59 min for Seat 1"
    server.kill()  # mid-game, at once
    again = LiveServer(db, extra=["--test-hooks"])
    again.port = server.port
    again.start()
    try:
        path = f"/api/tables/{made['table']}"
        before = again.get(path, made["spectator_token"])
        assert before["deciders"] == [late] and before["clock"]["pace"] == "turn-based"
        pages[late].wait_for_function(
            "v => Number(document.body.dataset.version) === v", arg=before["version"]
        )
        advance(again, DAY + 1)
        wait_for_auto_move(again, made["table"], before["version"])
        for page in pages:  # both pages, reconnecting after the restart (tries 8 s apart at most), hear of it
            page.wait_for_selector("#log .entry:has-text('the clock ran out')")
        after = again.get(path, made["spectator_token"])
        pages[late].reload()  # a fresh log, then redrawn at every update: the note stays one line
        pages[late].wait_for_selector("#log .entry:has-text('the clock ran out')")
        pages[late].evaluate("() => { drawLog(); drawLog(); }")
        assert pages[late].text_content("#log").count("the clock ran out") == 1
        assert after["seats"][late]["timeouts"] == 1 and after["seats"][1 - late]["timeouts"] == 0
        screenshot(pages[late], "turn-based-clock-ran-out")
        # My tables (this browser holds the late seat's link): a table where it is my turn comes first.
        mine = again.create("venture", ["human", "human"], pace="turn-based", move_hours=12)
        other = 1 - again.get(f"/api/tables/{mine['table']}", mine["spectator_token"])["deciders"][0]
        lobby = pages[late].context.new_page()
        lobby.goto(again.url + mine["seats"][str(other)])  # a table where the other person is asked
        lobby.wait_for_selector("#banner:not(:empty)")
        lobby.goto(again.url + "/")
        lobby.wait_for_selector("#my-tables li.my-table .my-turn[data-turn]")
        lobby.wait_for_function(
            "() => document.querySelectorAll('#my-tables .my-turn[data-turn]').length === 2"
        )
        order = lobby.eval_on_selector_all(
            "#my-tables li.my-table", "items => items.map(i => i.dataset.table)"
        )
        yours = made["table"] if asked(again, made["table"]) == late else mine["table"]  # else: least left
        assert order[0] == yours
        texts = lobby.eval_on_selector_all("#my-tables .my-turn", "boxes => boxes.map(b => b.textContent)")
        assert all(" h left" in text for text in texts), texts
        screenshot(lobby, "turn-based-my-tables")
        lobby.wait_for_selector("#seat-0")  # the lobby's form makes a turn-based table too
        lobby.select_option("#seat-1", "human")
        lobby.select_option("#pace", "24")
        lobby.click("#create-button")
        lobby.wait_for_selector("#links a.seat-link")
        newest = again.get("/api/tables")[0]["table"]
        assert again.get(f"/api/tables/{newest}/status")["pace"] == "turn-based"
    finally:
        again.stop()
