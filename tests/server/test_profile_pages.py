"""Profiles and leaderboards (issue 32): a player's public profile (games per game, wins and places,
ratings with their history, timeouts) gives nothing private; a deleted account is "deleted player" on
the leaderboard and has no profile; the pages write every name as text; Chromium opens a profile and
a leaderboard (screenshots in var/artifacts/)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Dialog, Route

from .accounts_helpers import PASSWORD, account_client, login, one_line_error, register, rows
from .browsing import needs_chromium, screenshot
from .live_server import LiveServer
from .test_play_again import play_out
from .test_ratings import bind, board, csrf, table

NAME = "<img src=x onerror=1>"
"""A display name that is markup: the pages must show it as these characters."""
EMAIL = "ana.secret@example.org"


def games_between_ana_and_bo(db: Path, count: int = 3) -> None:
    """Registers ana2 (NAME, with an e-mail address) and bo2; plays ``count`` rated Embers tables of
    ana2, bo2 and the random bot, then a casual one; gives ana2's first seat two timeouts."""
    with account_client(db) as client:
        register(client, "ana2", display_name=NAME, email=EMAIL)
        token = register(client, "bo2", display_name="Bo")
        for _ in range(count):
            made = table(client, token, ["human", "human", "random"])
            bind(client, "ana2", made, 0)
            bind(client, "bo2", made, 1)
            token = login(client, "bo2").json()["csrf"]
            play_out(client, made)
        casual = table(client, token, ["human", "random"], rated=False)
        bind(client, "ana2", casual, 0)
        play_out(client, casual)
    assert rows(db, "SELECT count(*) FROM seats WHERE account_id = 1") == [(count + 1,)]
    first = rows(
        db,
        "SELECT s.table_id FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.account_id = 1 "
        "ORDER BY t.created LIMIT 1",
    )[0][0]
    rows(db, "UPDATE seats SET timeouts = 2 WHERE table_id = ? AND account_id = 1", first)


def test_a_profile_counts_games_places_ratings_and_timeouts_and_gives_nothing_private(db: Path) -> None:
    games_between_ana_and_bo(db)
    with account_client(db) as client:
        reply = client.get("/api/players/ANA2")  # usernames are found without regard to case
        assert reply.status_code == 200, reply.text
        shown: dict[str, Any] = reply.json()
        assert EMAIL not in reply.text and "email" not in reply.text and "password" not in reply.text
        assert shown["username"] == "ana2" and shown["display_name"] == NAME and shown["timeouts"] == 2
        (embers,) = shown["games"]
        assert embers["game"] == "embers" and embers["played"] == 4 and embers["playing"] == 0
        assert sum(embers["places"].values()) == 4 and embers["wins"] == embers["places"].get("1", 0)
        (rating,) = shown["ratings"]
        assert rating["players"] == 3 and rating["games"] == 3 and len(rating["history"]) == 3
        last = rating["history"][-1]
        assert (last["mu"], last["sigma"]) == (rating["mu"], rating["sigma"])
        assert abs(rating["ordinal"] - (rating["mu"] - 3 * rating["sigma"])) < 1e-9
        one_line_error(client.get("/api/players/nobody"), 404)
        one_line_error(client.get("/api/players/" + "x" * 40), 404)
        for hostile in ("%ED%A0%80", "%00", "%FF", "ana2%27%20OR%201=1--"):  # invalid Unicode, NUL, SQL
            one_line_error(client.get("/api/players/" + hostile), 404)
        one_line_error(client.get("/api/leaderboard?game=chess&players=2"), 400)
        one_line_error(client.get("/api/leaderboard?game=embers&players=9"), 400)
        assert (
            client.get("/api/leaderboard?game=embers&players=3")
            .headers["content-type"]
            .startswith("application/json")
        )

        # A deleted account: no profile; on the leaderboard its rating stays, as "deleted player".
        signed = login(client, "ana2").json()["csrf"]
        gone = client.post("/api/me/delete", json={"password": PASSWORD}, headers=csrf(signed))
        assert gone.status_code == 200, gone.text
        one_line_error(client.get("/api/players/ana2"), 404)
        names = {row["name"]: row for row in board(client)}
        assert set(names) == {"deleted player", "Bo", "random"}
        assert names["deleted player"]["username"] is None and names["random"]["bot"] is True
        assert EMAIL not in json.dumps(board(client))


@needs_chromium
@pytest.mark.slow
def test_chromium_opens_a_profile_and_the_leaderboard_names_as_text(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "parlour.db"
    games_between_ana_and_bo(db, count=4)
    server = LiveServer(db).start()
    try:
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        errors: list[str] = []
        dialogs: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))

        def dismissed(dialog: Dialog) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", dismissed)
        page.goto(server.url + "/")
        # One board asked at a time: the page draws each answer as it lands, so an earlier answer
        # landing last (a busy server) would draw over the board asked for.
        with page.expect_response(lambda reply: "/api/leaderboard?" in reply.url):  # the first game's
            page.click("#leaderboard-link")
        page.wait_for_selector("#board-game option[value=embers]", state="attached")
        with page.expect_response(lambda reply: "/api/leaderboard?game=embers&" in reply.url):
            page.select_option("#board-game", "embers")
        with page.expect_response(lambda reply: "/api/leaderboard?game=embers&players=3" in reply.url):
            page.select_option("#board-players", "3")
        page.wait_for_function("document.querySelectorAll('#board-rows tr').length === 3")
        names = page.locator("#board-rows tr td:nth-child(2)").all_text_contents()
        assert set(names) == {NAME, "Bo", "random (bot)"}
        assert page.locator("#board img").count() == 0  # the name is text, not markup
        screenshot(page, "leaderboard")

        page.click(f"#board-rows a:text-is('{NAME}')")
        page.wait_for_selector(".rating-plot circle")
        assert page.text_content("#profile-name") == NAME and page.locator("main img").count() == 0
        assert page.locator(".rating-plot circle").count() == 4
        assert "2 times" in (page.text_content("#profile-timeouts") or "")
        assert page.locator("#profile-games td").first.text_content() == "Embers"  # its title, not its id
        assert page.locator("#profile-ratings a").first.text_content() == "Embers, 3 players"
        assert EMAIL not in page.content()
        screenshot(page, "profile")

        # Signed in, the lobby offers "Rated"; the table it makes says so.
        signed = page.request.post(server.url + "/api/login", data={"username": "bo2", "password": PASSWORD})
        assert signed.ok, signed.text()
        page.goto(server.url + "/")
        page.wait_for_selector("#rated-row:not([hidden])")
        page.check("#rated")
        page.click("#create-button")
        page.wait_for_selector("#links a.seat-link")
        assert page.text_content("#create-error") == ""
        made = page.evaluate("JSON.parse(localStorage.getItem('parlour.tables'))[0].table")
        assert rows(db, "SELECT rated FROM tables WHERE id = ?", made) == [(1,)]  # (unlisted: no status)
        assert not errors and not dialogs
    finally:
        server.stop()


@needs_chromium
@pytest.mark.slow
def test_a_board_answer_landing_after_a_later_choice_is_not_drawn(browser: Any, tmp_path: Path) -> None:
    """The leaderboard's first answer is held back until the board chosen after it is drawn: let through
    last, it does not draw over the board asked for."""
    db = tmp_path / "parlour.db"
    games_between_ana_and_bo(db, count=1)
    server = LiveServer(db).start()
    try:
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        held: list[Route] = []

        def hold_the_first(route: Route) -> None:
            if held:
                route.continue_()
            else:
                held.append(route)

        page.route(re.compile(r"/api/leaderboard\?"), hold_the_first)
        page.goto(server.url + "/leaderboard")
        page.wait_for_selector("#board-game option[value=embers]", state="attached")
        end = time.time() + 30
        while not held and time.time() < end:  # the first board's request reaches the test
            page.wait_for_timeout(20)
        assert len(held) == 1  # its answer, held
        page.select_option("#board-game", "embers")
        with page.expect_response(lambda reply: "/api/leaderboard?game=embers&players=3" in reply.url):
            page.select_option("#board-players", "3")
        page.wait_for_function("document.querySelectorAll('#board-rows tr').length === 3")
        with page.expect_response(lambda reply: reply.request == held[0].request):
            held[0].continue_()
        page.wait_for_timeout(1000)  # the late answer has landed: give the page its turn to draw it
        names = page.locator("#board-rows tr td:nth-child(2)").all_text_contents()
        assert set(names) == {NAME, "Bo", "random (bot)"}
        assert page.input_value("#board-game") == "embers" and page.input_value("#board-players") == "3"
    finally:
        server.stop()
