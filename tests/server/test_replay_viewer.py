"""The replay viewer on the drawn table, in Chromium: a finished table of bots of each game drawn at a
middle step by the game's own drawing, jumps to the turns' starts (buttons and keys), a dragged slider
fetching only where it rests, another seat's view, play/pause, and no console error."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .browsing import LAPTOP, PHONE, needs_chromium, screenshot, wait_for_results
from .live_server import LiveServer

OPTIONS = {"venture": {}, "im-the-boss": {"length": "short"}, "venus-needs-men": {"length": "short"}}
DRAWING = {"venture": ".vt", "im-the-boss": ".itb", "venus-needs-men": ".vnm"}
"""Each game's drawn table, as its drawing file makes it inside #board."""

pytestmark = [needs_chromium, pytest.mark.slow]


def finished_table(server: LiveServer, game: str) -> tuple[str, int]:
    """Returns a finished table of bots (its id and number of moves), played by the server."""
    bots = ["random", "random", "random"] if game == "embers" else ["random", "greedy", "greedy"]
    made = server.create(game, bots, options=OPTIONS.get(game, {}))
    table, token = made["table"], made["spectator_token"]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        view = server.get(f"/api/tables/{table}", token)
        if view["over"]:
            return table, int(view["version"])
        time.sleep(0.5)
    raise AssertionError(f"the {game} table of bots did not finish")


def shown(page: Any) -> int:
    """Returns the step the replay viewer shows."""
    return int(page.get_attribute("#replay-box", "data-version"))


def wait_shown(page: Any, step: int) -> None:
    """Waits until the viewer shows ``step``, drawn."""
    page.wait_for_selector(f"#replay-box[data-version='{step}']")
    page.wait_for_selector(f"#board[data-replay='{step}']")


def test_the_replay_api_tells_where_turns_start_and_sends_the_drawings_content_once_asked(
    server: LiveServer,
) -> None:
    table, moves = finished_table(server, "im-the-boss")
    start = server.get(f"/api/tables/{table}/replay?at=0&seat=all&content=1")
    assert start["table_content"] and "card_texts" in start
    turns = start["turns"]
    assert turns[0]["step"] == 0 and [t["step"] for t in turns] == sorted({t["step"] for t in turns})
    for turn in turns[1:4]:
        at = server.get(f"/api/tables/{table}/replay?at={turn['step']}&seat=all")
        before = server.get(f"/api/tables/{table}/replay?at={turn['step'] - 1}&seat=all")
        assert at["turn"] == turn["turn"] != before["turn"]
        assert "table_content" not in at  # only when asked
    middle = server.get(f"/api/tables/{table}/replay?at={moves // 2}&seat=1")
    assert middle["legal"] == [] and middle["asked"] is False and "revealed" not in middle
    revealed = server.get(f"/api/tables/{table}/replay?at={moves // 2}&seat=all")["revealed"]
    assert len(revealed) == 3 and all(isinstance(text, str) and text for text in revealed)


@pytest.mark.parametrize("game", list(OPTIONS))
def test_the_replay_draws_any_step_with_the_games_table(server: LiveServer, browser: Any, game: str) -> None:
    table, moves = finished_table(server, game)
    turns = [t["step"] for t in server.get(f"/api/tables/{table}/replay?at=0&seat=all")["turns"]]
    assert len(turns) > 2, "a game of several turns"
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on(
        "console",
        lambda message: (
            errors.append(f"{message.text} ({message.location.get('url')})")
            if message.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/replay?" in request.url else None)
    page.goto(f"{server.url}/t/{table}")  # a finished table is open to everyone
    wait_shown(page, moves)  # the viewer opens at the end
    assert page.locator(f"#board {DRAWING[game]}").count() == 1
    assert page.locator("#observation-box[open]").count() == 0  # the drawing takes the data's place

    # The slider dragged (30 positions in half a second) asks only where it rests.
    before = len(asked)
    page.evaluate(
        """async moves => {
            const slider = document.getElementById('replay-slider');
            for (let i = 1; i <= 30; i++) {
                slider.value = String(Math.round(moves * (1 - i / 100)));
                slider.dispatchEvent(new Event('input', { bubbles: true }));
                await new Promise(done => setTimeout(done, 16));
            }
        }""",
        moves,
    )
    rested = int(page.input_value("#replay-slider"))
    wait_shown(page, rested)
    assert len(asked) - before <= 2, f"a dragged slider asked {len(asked) - before} positions"
    # A click in the middle of the slider draws the middle step.
    slider = page.locator("#replay-slider")
    box = slider.bounding_box()
    slider.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
    middle = int(page.input_value("#replay-slider"))
    assert 0 < middle < moves and abs(middle - moves / 2) <= moves / 10
    wait_shown(page, middle)
    assert page.locator(f"#board {DRAWING[game]}").count() == 1
    assert page.locator("#replay-log .entry").count() >= 1
    assert page.get_attribute("#replay-log .entry.replay-current", "data-number") == str(middle)
    screenshot(page, f"replay-{game}-middle")

    # Next and previous turn land on the turns' starts, by button and by key.
    page.click("#replay-next-turn")
    after = min(s for s in turns if s > middle)
    wait_shown(page, after)
    page.click("#replay-prev-turn")
    back = max(s for s in turns if s < after)
    wait_shown(page, back)
    page.locator("#replay-slider").focus()
    page.keyboard.press("PageDown")
    wait_shown(page, after)
    page.keyboard.press("ArrowRight")
    wait_shown(page, after + 1)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("PageUp")
    wait_shown(page, back)

    # Another seat's view: the same step, drawn differently (its own hand), then everything again.
    everything = page.inner_html("#board")
    page.select_option("#replay-seat", "1")
    page.wait_for_selector(f"#replay-box[data-seat='1'][data-version='{back}']")
    page.wait_for_function(f"() => document.querySelector('#board {DRAWING[game]}') !== null")
    assert page.inner_html("#board") != everything
    screenshot(page, f"replay-{game}-seat-1")
    page.select_option("#replay-seat", "all")
    page.wait_for_selector("#replay-box[data-seat='all']")
    assert page.locator("#replay-revealed-box").is_hidden() is False

    # Play, then pause: the steps follow each other.
    page.click("#replay-play")
    wait_shown(page, back + 2)
    page.click("#replay-play")
    stopped = shown(page)
    page.wait_for_timeout(1500)
    assert shown(page) <= stopped + 1  # at most the step already asked lands
    page.click("button.replay-step[data-label='end »']")
    wait_shown(page, moves)
    screenshot(page, f"replay-{game}-end")
    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{server.url}/t/{table}")
    wait_shown(phone, moves)
    phone.locator("#replay-box").scroll_into_view_if_needed()
    screenshot(phone, f"replay-{game}-phone")
    phone.close()
    # (The missing favicon is another item of the issue, item 12: its 404 is not this test's.)
    assert [e for e in errors if not e.endswith("/favicon.ico)")] == []


def test_a_game_without_a_drawing_is_replayed_as_text(server: LiveServer, browser: Any) -> None:
    table, moves = finished_table(server, "embers")
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector(f"#replay-box[data-version='{moves}']")
    page.click("button.replay-step[data-label='« start']")
    page.wait_for_selector("#replay-box[data-version='0']")
    assert page.is_visible("#replay-text") and page.is_hidden("#board-box")
    assert page.text_content("#replay-text")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-box[data-version='1']")
    assert page.locator("#replay-log .entry").count() >= 1
    screenshot(page, "replay-embers-text")


def test_a_players_page_replays_from_its_own_view(server: LiveServer, browser: Any) -> None:
    made = server.create("im-the-boss", ["human", "greedy", "greedy"], options=OPTIONS["im-the-boss"])
    page = browser.new_page(viewport=LAPTOP)
    page.goto(server.url + made["seats"]["0"])
    page.wait_for_selector("#hand-to-bot")
    page.click("#hand-to-bot")
    wait_for_results(page)
    moves = server.get(f"/api/tables/{made['table']}", made["spectator_token"])["version"]
    wait_shown(page, moves)
    assert page.input_value("#replay-seat") == "0" and page.get_attribute("#replay-box", "data-seat") == "0"
    assert page.locator("#board .itb-verb").count() == 0  # nothing to play in the replay


def test_the_replay_mounts_when_its_script_comes_after_the_view(server: LiveServer, browser: Any) -> None:
    """The finished table's view can come over the socket while the page still loads its scripts: the
    viewer (replay.js) and the analysis panel (analysis.js), arriving after it, mount all the same (once
    table.js had drawn the results without them, and never again: the viewer stayed empty)."""
    table, moves = finished_table(server, "embers")
    page = browser.new_page(viewport=LAPTOP)
    slow = ("/static/replay.js", "/static/analysis.js")

    def late(route: Any) -> None:
        time.sleep(1.5)  # the view arrives meanwhile (Playwright serves routes one at a time: both are late)
        route.continue_()

    for path in slow:
        page.route(f"**{path}", late)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector(f"#replay-box[data-version='{moves}']")  # Embers has no drawn table
    page.wait_for_selector("#analysis-box", state="attached")
