"""The lobby (issue 31): its default creates a playable table, options are proper controls, links stay
in "my tables", names typed at creation or on the table page reach every page; refused hostile names."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.server.tables import Refusal, check_name

from .browsing import needs_chromium, screenshot, wait_for_results
from .conftest import bearer, make_client
from .live_server import LiveServer
from .test_live import hello

HOSTILE_NAMES = [
    "",
    "   ",
    "x" * 25,
    "Ana\u202eevil",  # a right-to-left override: not printable
    "Ana\nBo",
    "Ana\x00",
    "\u200b",
    7,
    None,
    ["Ana"],
]
"""Names refused with one line (a lone surrogate is refused as JSON before: see the surrogate test)."""


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


def create_named(client: TestClient, names: list[object]) -> dict[str, Any]:
    """Creates a Venture table of people with these names plus a greedy bot; returns the reply."""
    seats: list[dict[str, object]] = [{"kind": "human", "name": name} for name in names]
    reply = client.post(
        "/api/tables", json={"game": "venture", "seats": [*seats, {"kind": "bot", "bot": "greedy"}]}
    )
    found: dict[str, Any] = reply.json()
    found["status"] = reply.status_code
    return found


def test_names_given_at_creation_are_stripped_public_and_stored(client: TestClient, tmp_path: Any) -> None:
    made = create_named(client, ["  Ana  ", "Zoë 🎲"])
    assert made["status"] == 201
    token = made["seats"]["1"].split("#k=")[1]
    view = client.get(f"/api/tables/{made['table']}", headers=bearer(token)).json()
    assert [s["name"] for s in view["seats"]] == ["Ana", "Zoë 🎲", None]


@pytest.mark.parametrize("name", [n for n in HOSTILE_NAMES if n is not None])
def test_hostile_names_are_refused_at_creation_with_one_line(client: TestClient, name: object) -> None:
    made = create_named(client, [name])
    assert made["status"] == 400 and made["error"].startswith("seat 0: a name is 1 to 24 printable")
    assert "\n" not in made["error"]


def test_a_bot_keeps_its_bots_name(client: TestClient) -> None:
    reply = client.post(
        "/api/tables",
        json={"game": "venture", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy", "name": "X"}]},
    )
    assert reply.status_code == 400 and "a bot keeps its bot's name" in reply.json()["error"]


def test_a_seat_names_itself_over_its_websocket_and_everyone_sees_it(client: TestClient) -> None:
    made = create_named(client, [None, None])
    table, tokens = made["table"], {int(s): u.split("#k=")[1] for s, u in made["seats"].items()}
    with client.websocket_connect(f"/ws/{table}") as mine, client.websocket_connect(f"/ws/{table}") as other:
        hello(mine, tokens[0])
        hello(other, tokens[1])
        for name in HOSTILE_NAMES:
            mine.send_text(json.dumps({"type": "name", "text": name}))
            refused = json.loads(mine.receive_text())
            while refused["type"] != "error":
                refused = json.loads(mine.receive_text())
            assert refused["status"] == 400 and refused["error"] == "a name is 1 to 24 printable characters"
        mine.send_text(json.dumps({"type": "name", "text": " Ana "}))
        seen = json.loads(other.receive_text())
        while seen["type"] != "table" or seen["seats"][0]["name"] is None:
            seen = json.loads(other.receive_text())
        assert seen["seats"][0]["name"] == "Ana" and seen["seats"][1]["name"] is None


def test_a_lone_surrogate_name_is_refused(client: TestClient) -> None:
    seats = '[{"kind": "human", "name": "Ana\\ud800"}, {"kind": "bot", "bot": "greedy"}]'
    body = '{"game": "venture", "seats": ' + seats + "}"
    reply = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 400
    for name in ("Ana\ud800", "\udfff"):  # refused by the name's own check too, whatever the door
        with pytest.raises(Refusal, match="a name is 1 to 24 printable characters"):
            check_name(name)


def test_names_survive_a_restart(tmp_path: Any) -> None:
    db = tmp_path / "names.db"
    with make_client(db) as client:
        made = create_named(client, ["Ana"])
    with make_client(db) as client:
        token = made["seats"]["0"].split("#k=")[1]
        view = client.get(f"/api/tables/{made['table']}", headers=bearer(token)).json()
    assert view["seats"][0]["name"] == "Ana"


def create_two_people(page: Any, names: tuple[str, str] = ("", "")) -> None:
    """Creates a Venture table for two people (with these names) from the lobby page."""
    page.select_option("#players", "2")
    page.select_option("#seat-1", "human")
    for seat, name in enumerate(names):
        page.fill(f"#name-{seat}", name)
    page.click("#create-button")
    page.wait_for_selector("#links a.seat-link[data-seat='1']")


@needs_chromium
@pytest.mark.slow
def test_seat_links_survive_back_and_reload_in_my_tables(server: LiveServer, browser: Any) -> None:
    page = open_lobby(browser, server)
    create_two_people(page)
    urls = page.eval_on_selector_all("#links input.link-url", "inputs => inputs.map(i => i.value)")
    assert len(urls) == 4 and all(
        u.startswith(server.url + "/t/") for u in urls
    )  # 2 seats, hot-seat, spectators
    assert page.locator("#links button.copy").count() == 4
    table = urls[0].split("/t/")[1].split("#")[0]
    page.click("#links a.seat-link[data-seat='0']")
    page.wait_for_selector("#banner:not(:empty)")
    page.go_back()
    page.wait_for_selector(f"#my-tables li[data-table='{table}'] a.seat-link[data-seat='1']")
    page.reload()
    page.wait_for_selector(f"#my-tables li[data-table='{table}'] input.link-url")  # drawn after the load
    kept = page.eval_on_selector_all(
        f"#my-tables li[data-table='{table}'] input.link-url", "inputs => inputs.map(i => i.value)"
    )
    assert kept == urls
    assert "your seat: Seat 0" in page.text_content(f"#my-tables li[data-table='{table}']")
    friend = browser.new_context().new_page()  # another browser: the seat link opened there is kept there
    friend.goto(urls[1])
    friend.wait_for_selector("#banner:not(:empty)")
    friend.goto(server.url + "/")
    friend.wait_for_selector(f"#my-tables li[data-table='{table}'] a.seat-link[data-seat='1']")
    assert friend.locator(f"#my-tables li[data-table='{table}'] a.seat-link").count() == 1
    assert "your seat: Seat 1" in friend.text_content(f"#my-tables li[data-table='{table}']")


@needs_chromium
@pytest.mark.slow
def test_names_reach_the_other_seat_the_banner_and_the_results(server: LiveServer, browser: Any) -> None:
    page = open_lobby(browser, server)
    create_two_people(page, ("Ana", ""))
    links = page.eval_on_selector_all("#links a.seat-link", "links => links.map(a => a.href)")
    ana = browser.new_context().new_page()
    ana.goto(links[0])
    bo = browser.new_context().new_page()
    bo.goto(links[1])
    bo.wait_for_selector("#name-form:not([hidden])")  # a seat without a name is asked once
    bo.fill("#name-input", "Bo")
    bo.click("#name-form button[type=submit]")
    bo.wait_for_selector("#name-form[hidden]", state="attached")
    ana.wait_for_function("() => document.getElementById('seats').textContent.includes('Bo')")
    assert ana.is_hidden("#name-form")
    assert "Ana" in bo.text_content("#seats") and "Ana (you)" in ana.text_content("#seats")
    asked = ana if "Your turn, Ana" in ana.text_content("#banner") else bo
    assert asked.text_content("#banner").startswith("Your turn, ")
    bo.click("#hand-to-bot")
    ana.click("#hand-to-bot")
    bo.wait_for_function("() => /\\bAna\\b/.test(document.getElementById('log').textContent)")
    assert "seat 0" not in bo.text_content("#log")
    wait_for_results(bo)
    results = bo.text_content("#results")
    assert "Ana" in results and "Bo" in results and "seat 0" not in results
    screenshot(bo, "names-results")
