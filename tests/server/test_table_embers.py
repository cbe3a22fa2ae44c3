"""Embers at the server: the lobby lists it (a registered game needs nothing else), a person plays a
whole game through the API, and the browser gives it the generic table of buttons (it has no drawing
of its own: docs/browser-tables.md)."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from .browsing import needs_chromium, open_seat, screenshot, version, wait_past
from .conftest import bearer, create
from .live_server import LiveServer


def test_the_lobby_lists_embers_with_its_option_and_bots(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    embers = games["embers"]
    assert (embers["title"], embers["min_players"], embers["max_players"]) == ("Embers", 2, 5)
    assert embers["options"] == [
        {
            "name": "chain",
            "default": "on",
            "values": "on|off",
            "doc": embers["options"][0]["doc"],
            "kind": "boolean",  # the lobby's checkbox
            "choices": ["on", "off"],
            "minimum": 0,
        }
    ]
    assert {"random", "ismcts"} <= set(embers["bots"])


def test_a_person_plays_a_whole_game_of_embers_against_a_bot(client: TestClient) -> None:
    made = create(client, "embers", ["human", "random"], auto_pass=False)
    table, token = made["table"], made["tokens"][0]
    deadline = time.monotonic() + 60
    while True:
        seen: dict[str, Any] = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        assert "hand" in seen["observation"] and seen["observation"]["hand_sizes"][1] <= 5
        if seen["over"]:
            break
        assert time.monotonic() < deadline, "the game did not end"
        if seen["asked"]:
            move = {"action": seen["legal"][-1], "version": seen["version"]}
            reply = client.post(f"/api/tables/{table}/actions", json=move, headers=bearer(token))
            assert reply.status_code in (200, 409), reply.text  # 409: the bot moved first
        else:
            time.sleep(0.01)
    assert seen["results"]["end_reason"] == "Every card has been played (rule 6.1)."
    assert len(seen["results"]["steps"]) == 2


@needs_chromium
def test_the_browser_shows_embers_as_the_generic_table_of_buttons(server: LiveServer, browser: Any) -> None:
    made = server.create("embers", ["human", "random", "random"])
    page = open_seat(browser, server.url + made["seats"]["0"])
    page.wait_for_selector("#actions button")
    assert page.is_hidden("#board-box") and page.evaluate("() => document.getElementById('actions-box').open")
    assert "Your turn: you to play a card" in page.text_content("#banner")  # "you" to the seat itself
    assert "Your hand:" in page.text_content("body")
    seen = version(page)
    page.click("#actions button >> nth=0")
    wait_past(page, seen)
    screenshot(page, "embers-table")
