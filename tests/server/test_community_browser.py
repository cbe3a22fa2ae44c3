"""Issue 32's whole path in Chromium: two people register, make a turn-based Venture table in the lobby,
keep their seats in their accounts, play turns across a server restart, a deadline passes (the clock
hook, no sleeping) and the auto policy moves, "My games" puts the table where it is your turn first, and
after the game a rematch starts once each person accepted with one click."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .accounts_helpers import PASSWORD
from .browsing import LAPTOP, needs_chromium, register_on_page, screenshot, use_buttons
from .live_server import LiveServer
from .test_turn_based_browser import DAY, advance, asked, play_turn, wait_for_auto_move

pytestmark = [needs_chromium, pytest.mark.slow]


def register(browser: Any, server: LiveServer, username: str, display: str) -> Any:
    """Registers an account through the account page in a browser context of its own; returns it."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    register_on_page(page, server.url, username, PASSWORD, display)
    page.close()
    return context


def sign_in(browser: Any, server: LiveServer, username: str) -> Any:
    """Signs in through the account page in a fresh browser context (no link kept there); returns
    the page."""
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(server.url + "/account")
    page.wait_for_selector("#signed-out:not([hidden])")
    page.fill("#signin-username", username)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-button")
    page.wait_for_selector("#signed-in:not([hidden])")
    return page


def make_table(context: Any, server: LiveServer) -> tuple[str, dict[str, str]]:
    """Makes a two-person turn-based Venture table (24 h a move) in the lobby; returns its id and links."""
    lobby = context.new_page()
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("#seat-0")
    lobby.select_option("#players", "2")
    lobby.select_option("#seat-1", "human")
    lobby.select_option("#pace", "24")
    lobby.click("#create-button")
    lobby.wait_for_selector("#links a.seat-link")
    links = lobby.eval_on_selector_all("#links a.seat-link", "links => links.map(a => a.href)")
    table = links[0].split("/t/")[1].split("#")[0]
    lobby.close()
    return table, {str(number): link for number, link in enumerate(links)}


def urgency(server: LiveServer, table: str, seat: int) -> tuple[int, float]:
    """Returns how urgent a table is for a seat: its turn first, then the least time left."""
    status = server.get(f"/api/tables/{table}/status")
    return (0 if seat in status["deciders"] else 1, status["time_left"])


def keep_seat(context: Any, link: str) -> Any:
    """Opens a seat's link and keeps the seat in the signed-in account; returns the page."""
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector("#banner:not(:empty)")
    page.click("#keep-seat-button")
    page.wait_for_selector("#keep-seat-text:has-text('kept')")
    use_buttons(page)
    return page


def test_two_accounts_play_turn_based_over_a_restart_and_the_clock_and_see_my_games(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "parlour.db"
    server = LiveServer(db, extra=["--test-hooks"]).start()
    ana, bo = register(browser, server, "ana", "Ana"), register(browser, server, "bob", "Bo")
    table, links = make_table(ana, server)
    pages = [keep_seat(ana, links["0"]), keep_seat(bo, links["1"])]
    first = asked(server, table)
    assert play_turn(server, table, pages[first], first) >= 2
    assert play_turn(server, table, pages[1 - first], 1 - first) >= 2
    late = asked(server, table)
    server.kill()  # mid-game, at once
    again = LiveServer(db, extra=["--test-hooks"])
    again.port = server.port
    again.start()
    try:
        assert again.get(f"/api/tables/{table}/status")["deciders"] == [late]
        for seat in (late, 1 - late):  # both pages reconnect by themselves, and each plays a turn
            assert play_turn(again, table, pages[seat], seat) >= 1
        late = asked(again, table)
        before = again.get(f"/api/tables/{table}/status")
        assert before["pace"] == "turn-based"
        advance(again, DAY + 1)
        wait_for_auto_move(again, table, before["version"])
        pages[late].wait_for_selector("#log .entry:has-text('the clock ran out')")
        # My games (Bo's account): a second table, and the one where it is his turn comes first.
        other = again.create("venture", ["human", "human"], pace="turn-based", move_hours=12)
        keep_seat(bo, again.url + other["seats"]["1"]).close()
        # Bo on another device: signed in, no link kept in this browser; My games opens his seats.
        games = sign_in(browser, again, "bob")
        games.goto(again.url + "/games")
        games.wait_for_function("document.querySelectorAll('#games-list a.game-row').length === 2")
        shown = games.eval_on_selector_all("#games-list a.game-row", "rows => rows.map(r => r.dataset.table)")
        assert shown == sorted([table, other["table"]], key=lambda t: urgency(again, t, 1))
        screenshot(games, "community-my-games")
        # The rest of the game: each hands their seat to a bot. Bo then follows My games to the table
        # (his account opens his seat, no link), Ana asks for a rematch, Bo accepts with one click.
        for page in pages:
            page.click("#hand-to-bot")
        pages[0].wait_for_selector("#finish:not([hidden]) .winner", timeout=120_000)
        games.click(f"#games-list a.game-row[data-table='{table}']")
        games.wait_for_selector("#finish:not([hidden]) .winner")
        assert "#" not in games.url and games.evaluate("() => view.seat") == 1  # the account's seat
        pages[0].click("#play-again")
        pages[0].wait_for_url(lambda url: f"/t/{table}" not in url)
        rematch = pages[0].url.split("/t/")[1].split("#")[0]
        waiting = again.get(f"/api/tables/{rematch}/status")
        assert waiting["status"] == "waiting" and waiting["waiting_for"] == [0]  # Bo sits at seat 0 now
        games.click("#accept-rematch")
        games.wait_for_url(lambda url: f"/t/{rematch}" in url)
        games.wait_for_selector("#banner:not(:empty)")
        started = again.get(f"/api/tables/{rematch}/status")
        assert started["status"] == "playing" and started["waiting_for"] == []
        assert started["pace"] == "turn-based" and started["time_left"] > DAY - 60
        assert [s["name"] for s in started["seats"]] == ["Bo", "Ana"]  # the accounts' names, kept
        assert "#" not in games.url and games.evaluate("() => view.seat") == 0  # his account's new seat
    finally:
        again.stop()
