"""The browser tables in a real Chromium (Playwright): each game played through the page to its results
and replay, two people at one table live, a reload that resumes, and a server killed mid-game."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .browsing import ARTIFACTS, needs_chromium, use_buttons, wait_for_my_move, wait_for_results, wait_past
from .live_server import LiveServer

OPTIONS = {"venture": {}, "im-the-boss": {"length": "short"}, "venus-needs-men": {"length": "short"}}

pytestmark = [needs_chromium, pytest.mark.slow]
LIVE_S = 30
"""How soon a move must show on the other person's page: the server tells it (the page does not poll)."""


@pytest.mark.parametrize("game", list(OPTIONS))
def test_a_person_plays_turns_then_bots_finish_and_the_replay_steps_back(
    server: LiveServer, browser: Any, game: str
) -> None:
    made = server.create(game, ["human", "greedy", "greedy"], options=OPTIONS[game])
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(server.url + made["seats"]["0"])
    page.wait_for_selector("#banner:not(:empty)")
    use_buttons(page)  # this test plays through the buttons; the drawn tables have tests of their own
    played = 0
    for _ in range(3):
        # The person alone asked, not a pass the table makes for them: the buttons stay until the click
        # (a bot's offer or an auto-pass could redraw them, and a click on a stale one is refused).
        seen = wait_for_my_move(page)
        page.click("#actions button >> nth=0")
        wait_past(page, seen)
        played += 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{game}-table.png"))
    page.click("#hand-to-bot")
    wait_for_results(page)
    assert "Winner" in page.text_content("#results")
    assert page.locator("#score-plot polyline").count() == 3  # one line a seat
    assert page.locator(".card[title]").count() > 0  # card texts on hover, in the log at least
    page.click("button.replay-step[data-label='« start']")
    page.wait_for_function("() => document.getElementById('replay-at').textContent.startsWith('Action 0 of')")
    page.click("button.replay-step[data-label='next ▶']")
    page.wait_for_function("() => document.getElementById('replay-at').textContent.startsWith('Action 1 of')")
    page.select_option("#replay-seat", "1")  # the replay as seat 1 saw it
    page.click("button.replay-step[data-label='next ▶']")
    page.wait_for_function("() => document.getElementById('replay-at').textContent.startsWith('Action 2 of')")
    lobby = browser.new_page()
    lobby.goto(server.url + "/")
    lobby.click(f"a.results-link[href='/t/{made['table']}']")  # a finished game is open to everyone
    lobby.wait_for_selector("#results-box:not([hidden])")
    page.screenshot(path=str(ARTIFACTS / f"{game}-results.png"))
    assert played == 3


def test_two_people_see_each_others_moves_live_and_a_reload_resumes(server: LiveServer, browser: Any) -> None:
    made = server.create("venture", ["human", "human"])
    pages = []
    for seat in ("0", "1"):
        page = browser.new_context().new_page()
        page.goto(server.url + made["seats"][seat])
        page.wait_for_selector("#banner:not(:empty)")
        use_buttons(page)
        pages.append(page)
    view = server.get(f"/api/tables/{made['table']}", made["spectator_token"])
    mover = pages[view["deciders"][0]]
    other = pages[1 - view["deciders"][0]]
    first = mover.locator("#actions button").first.get_attribute("data-action")
    # Pushed to the other page, no reload: within LIVE_S even on a busy machine (two test workers, the
    # server and Chromium on two shared cores), where 5 s ran out now and then.
    started = time.monotonic()
    mover.click("#actions button >> nth=0")
    other.wait_for_selector("#log .entry[data-number='1']", timeout=LIVE_S * 1000)
    assert time.monotonic() - started < LIVE_S
    assert first is not None and first.split()[-1] in other.text_content("#log")
    other.reload()
    other.wait_for_selector("#log .entry[data-number='1']")
    assert "here" in other.text_content("#seats")


def test_a_server_killed_mid_game_loses_no_accepted_move(tmp_path: Path) -> None:
    db = tmp_path / "parlour.db"
    live = LiveServer(db, think=0.01).start()
    made = live.create("venture", ["greedy", "greedy", "greedy"])
    path = f"/api/tables/{made['table']}"
    while live.get(path, made["spectator_token"])["version"] < 20:
        time.sleep(0.05)
    seen = live.get(path, made["spectator_token"])
    live.kill()
    again = LiveServer(db, think=0.01)
    again.port = live.port
    again.start()
    try:
        after = again.get(path, made["spectator_token"])
        assert after["version"] >= seen["version"]
        assert [e["action"] for e in after["log"][: seen["version"]]] == [e["action"] for e in seen["log"]]
        end = time.time() + 120
        while not (final := again.get(path, made["spectator_token"]))["over"] and time.time() < end:
            time.sleep(0.2)
        assert final["over"], "play goes on after the restart, to the end"
    finally:
        again.stop()


def test_hot_seat_at_one_screen_hides_each_hand_until_its_person_confirms(
    server: LiveServer, browser: Any
) -> None:
    """Created from the front page with two people; the hot-seat link holds both seats; when the turn
    passes to the other person a curtain hides the table until they say they are at the screen."""
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value='venture']", state="attached")
    page.select_option("#game", "venture")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "human")
    page.click("#create-button")
    page.click("a.hot-seat-link")
    page.wait_for_url("**/t/**")
    # Whether the curtain goes up is settled once both seats' views came (a second was a guess).
    page.wait_for_function("() => mine.length === 2 && mine.every(s => s.view)")
    if curtain_up(page):  # the second person moves first: the screen goes to them first
        page.click("#curtain-button")
    use_buttons(page)
    page.wait_for_selector("#actions button")
    first = page.text_content("#title")
    page.click("#actions button[data-action^='discard'] >> nth=0")  # a turn's end: the other person's turn
    page.wait_for_function("() => document.getElementById('curtain').className === 'shown'")
    assert "Pass the screen to" in page.text_content("#curtain-text")
    assert page.locator("main").is_hidden(), "the next hand is not on screen before its person confirms"
    page.click("#curtain-button")
    page.wait_for_selector("#actions button")
    assert page.text_content("#title") != first


def curtain_up(page: Any) -> bool:
    return "shown" in (page.get_attribute("#curtain", "class") or "")


def test_a_clock_running_out_makes_the_auto_policy_act_and_the_log_says_so(
    server: LiveServer, browser: Any
) -> None:
    made = server.create("venture", ["human", "greedy"], move_seconds=1)
    page = browser.new_page()
    page.goto(server.url + made["seats"]["0"])
    page.wait_for_selector("#log .entry:has-text('the clock ran out')")
    assert "seat 0: the clock ran out" in page.text_content("#log")
