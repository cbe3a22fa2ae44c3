"""The lobby (issue 31): its default creates a playable table, options are proper controls, links stay
in "my tables", names typed at creation or on the table page reach every page; refused hostile names."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from .browsing import needs_chromium, screenshot
from .live_server import LiveServer


def open_lobby(browser: Any, server: LiveServer) -> Any:
    """Opens the front page and waits until its default game is drawn."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors  # the scripts' uncaught errors
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-0")
    return page


def test_every_response_says_no_referrer(client: TestClient) -> None:
    for path in ("/", "/api/games", "/static/lobby.js", "/no/such/page"):
        assert client.get(path).headers["referrer-policy"] == "no-referrer", path


def test_the_games_options_say_how_they_are_asked_for(client: TestClient) -> None:
    venture = next(g for g in client.get("/api/games").json() if g["name"] == "venture")
    kinds = {o["name"]: o for o in venture["options"]}
    assert kinds["last_draw"]["kind"] == "boolean"
    assert kinds["best_ties"]["kind"] == "choice" and kinds["best_ties"]["choices"] == ["first", "solver"]
    assert kinds["max_turns"]["kind"] == "integer" and kinds["max_turns"]["minimum"] == 0
    assert kinds["deck"]["kind"] == "content"


@needs_chromium
@pytest.mark.slow
def test_the_default_creates_a_playable_venture_table(server: LiveServer, browser: Any) -> None:
    page = open_lobby(browser, server)
    assert page.input_value("#game") == "venture"
    assert "embers" not in page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
    for seat in range(int(page.input_value("#players"))):  # every seat's choice is one of its values
        assert page.eval_on_selector(f"#seat-{seat}", "s => s.selectedIndex") >= 0
        assert page.text_content(f"#seat-help-{seat}")
    assert page.locator("#options input[type=checkbox]").count() >= 1
    assert page.locator("#options select").count() >= 1
    assert page.locator("#options input[type=number]").count() >= 1
    assert "players" in page.text_content("#about")
    screenshot(page, "lobby")
    page.click("#create-button")
    page.wait_for_selector("#links a.seat-link")
    assert page.text_content("#create-error") == ""
    page.click("#links a.seat-link[data-seat='0']")
    page.wait_for_selector("#actions button[data-action]", state="attached", timeout=60_000)
    assert page.errors == []


@needs_chromium
@pytest.mark.slow
def test_a_stale_error_clears_when_the_game_changes(server: LiveServer, browser: Any) -> None:
    page = open_lobby(browser, server)
    page.fill("#move_seconds", "999999")
    page.click("#create-button")
    page.wait_for_selector("#create-error:not(:empty)")
    page.select_option("#game", "im-the-boss")
    assert page.text_content("#create-error") == ""
    page.click("#developers summary")
    page.check("#show-reference")
    page.select_option("#game", "embers")  # the reference game, for developers
    assert page.locator("#seat-1 option").count() >= 2
