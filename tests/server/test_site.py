"""The site around the tables (issue 31): compressed responses (WebSockets untouched), each table's
public status and "my tables" saying whose turn it is without sending a link, the lobby's list naming
its players, and the replay's heading following the step shown (with screenshots of each)."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.server.app import STATIC

from .browsing import LAPTOP, needs_chromium, screenshot
from .conftest import bearer, create
from .live_server import LiveServer
from .test_live import hello
from .test_replay_viewer import OPTIONS, finished_table, wait_shown


def raw_get(client: TestClient, path: str, encoding: str) -> tuple[dict[str, str], bytes]:
    """Returns a response's headers and its body as sent (not decoded), asked with ``encoding``."""
    with client.stream("GET", path, headers={"accept-encoding": encoding}) as reply:
        assert reply.status_code == 200, path
        return dict(reply.headers), b"".join(reply.iter_raw())


@pytest.mark.parametrize("name", ["table.js", "lobby.js", "style.css", "index.html", "lobby.json"])
def test_a_static_file_is_gzipped_when_asked_and_unzips_to_the_same_bytes(
    client: TestClient, name: str
) -> None:
    path = "/" if name == "index.html" else f"/static/{name}"
    headers, body = raw_get(client, path, "gzip")
    assert headers["content-encoding"] == "gzip"
    assert "accept-encoding" in headers["vary"].lower()
    assert gzip.decompress(body) == (STATIC / name).read_bytes()
    assert len(body) < (STATIC / name).stat().st_size / 2
    plain_headers, plain = raw_get(client, path, "identity")
    assert "content-encoding" not in plain_headers and plain == (STATIC / name).read_bytes()


def test_a_range_of_a_file_is_sent_as_it_is(client: TestClient) -> None:
    reply = client.get("/static/table.js", headers={"accept-encoding": "gzip", "range": "bytes=0-99"})
    assert reply.status_code == 206 and "content-encoding" not in reply.headers
    assert reply.content == (STATIC / "table.js").read_bytes()[:100]


def test_json_answers_are_gzipped_and_tiny_ones_are_not(client: TestClient) -> None:
    headers, body = raw_get(client, "/api/games", "gzip")
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body).startswith(b"[")
    made = create(client, "venture", ["human", "greedy", "greedy"])
    reply = client.get(
        f"/api/tables/{made['table']}", headers={**bearer(made["tokens"][0]), "accept-encoding": "gzip"}
    )
    assert reply.headers["content-encoding"] == "gzip" and reply.json()["seat"] == 0
    small = client.get("/no/such/page", headers={"accept-encoding": "gzip"})
    assert small.status_code == 404 and "content-encoding" not in small.headers  # under 500 bytes
    assert small.headers["referrer-policy"] == "no-referrer"


def test_a_websocket_works_beside_compression(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human", "human"])  # nothing moves by itself
    with client.websocket_connect(f"/ws/{made['table']}", headers={"accept-encoding": "gzip"}) as ws:
        view = hello(ws, made["tokens"][0])
        assert view["type"] == "table" and view["seat"] == 0
        ws.send_text('{"type": "ping"}')
        assert json.loads(ws.receive_text()) == {"type": "pong"}


def test_a_tables_status_says_whose_turn_it_is_and_nothing_secret(client: TestClient) -> None:
    reply = client.post(
        "/api/tables",
        json={
            "game": "venus-needs-men",
            "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}, {"kind": "human"}],
        },
    )
    table = reply.json()["table"]
    # People only, but the seats' automatic passes may still be landing (their writes are slower on
    # PostgreSQL): the two requests are compared at one version, read again until it holds still.
    for _ in range(100):
        status = client.get(f"/api/tables/{table}/status").json()  # no token: what a spectator sees
        spectator = client.get(
            f"/api/tables/{table}", headers=bearer(reply.json()["spectator"].split("#k=")[1])
        ).json()
        if client.get(f"/api/tables/{table}/status").json()["version"] == status["version"]:
            break
    assert status["table"] == table and status["over"] is False and status["winners"] == []
    assert status["deciders"] == spectator["deciders"] and status["turn_player"] == spectator["turn_player"]
    assert [s["called"] for s in status["seats"]] == spectator["names"]  # the planets
    assert [s["name"] for s in status["seats"]] == ["Ana", None, None]
    assert {s["kind"] for s in status["seats"]} == {"human"}
    assert set(status) == {
        "table",
        "game",
        "status",
        "over",
        "version",
        "turn",
        "turn_player",
        "deciders",
        "seats",
        "winners",
        "pace",  # the clock, as public as the spectator's (issue 32)
        "move_seconds",
        "deadline",
        "time_left",
        "now",
        "rated",  # whether the table was made rated (issue 32, ratings)
        "waiting_for",  # a rematch's seats still to accept (ruling S-3)
        "declined_by",
    }
    assert (
        status["pace"] == spectator["clock"]["pace"] and status["deadline"] == spectator["clock"]["deadline"]
    )
    assert "seed" not in str(status) and "token" not in str(status)
    assert client.get("/api/tables/nope/status").status_code == 404


def test_a_finished_tables_status_names_its_winners(client: TestClient) -> None:
    made = create(client, "embers", ["random", "random", "random"])
    end = time.time() + 30
    while not (status := client.get(f"/api/tables/{made['table']}/status").json())["over"]:
        assert time.time() < end, "the table of bots did not finish"
        time.sleep(0.05)
    final = client.get(f"/api/tables/{made['table']}", headers=bearer(made["spectator_token"])).json()
    assert status["winners"] == final["results"]["winners"] and status["deciders"] == []


def test_the_lobbys_list_names_each_seat(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    client.post("/api/tables", json={"game": "venus-needs-men", "seats": seats})
    listed = client.get("/api/tables").json()[0]["seats"]
    assert [s["name"] for s in listed] == ["Ana", None, None]
    assert all(s["called"] and not s["called"].startswith("seat ") for s in listed)  # planets


# --------------------------------------------------------------------- in Chromium
@needs_chromium
@pytest.mark.slow
def test_my_tables_says_whose_turn_it_is_without_sending_a_link(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport=LAPTOP)
    sent: list[str] = []
    page.on(
        "request", lambda request: sent.append(f"{request.url} {request.headers.get('authorization', '')}")
    )
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-0")
    page.fill("#name-0", "Ana")
    page.select_option("#seat-1", "human")
    page.fill("#name-1", "Bo")
    # The status the list was drawn from, not one read later: the bots may have moved on meanwhile.
    with page.expect_response(lambda reply: reply.url.endswith("/status")) as answered:
        page.click("#create-button")
    page.wait_for_selector("#my-tables .my-turn[data-turn]")
    entry = page.locator("#my-tables li.my-table").first
    table = entry.get_attribute("data-table")
    assert answered.value.url == f"{server.url}/api/tables/{table}/status"
    status = answered.value.json()
    turn = status["turn_player"] if status["turn_player"] is not None else status["deciders"][0]
    names = ["you", "Bo", "greedy", "greedy"]  # as my tables calls the seats, mine "you"
    expected = "your turn" if 0 in status["deciders"] or turn == 0 else f"{names[turn]}'s turn"
    assert expected in entry.locator(".my-turn").text_content()
    assert "Ana" in page.text_content("#tables") and "Bo" in page.text_content("#tables")
    screenshot(page, "lobby-my-tables")
    links = page.eval_on_selector_all("#my-tables a.seat-link", "links => links.map(a => a.href)")
    tokens = [link.split("#k=")[1] for link in links]
    assert tokens and not [line for line in sent for token in tokens if token in line]
    # A finished table of this browser's (joined as a spectator) names its winner.
    over, _ = finished_table(server, "embers")
    page.evaluate("t => MyTables.remember({ table: t, game: 'embers', seat: null, links: {} })", over)
    page.reload()  # kept in the browser, asked again
    page.wait_for_selector(f"#my-tables li[data-table='{table}'] .my-turn[data-turn]")
    done = page.locator(f"#my-tables li[data-table='{over}'] .my-turn[data-turn='over']")
    winners = server.get(f"/api/tables/{over}/status")["winners"]
    assert f"finished, winner{'s' if len(winners) > 1 else ''} " in done.text_content()
    status = {"over": True, "winners": [1], "seats": [{"kind": "human"}, {"name": "Bo", "called": "Venus"}]}
    assert page.evaluate("s => MyTables.turnText(s, 0)", status) == "finished, winner Bo (Venus)"
    assert page.evaluate("s => MyTables.turnText({ ...s, winners: [0] }, 0)", status) == "finished, you won"


@needs_chromium
@pytest.mark.slow
@pytest.mark.parametrize("game", list(OPTIONS))
def test_the_replays_heading_follows_the_step_shown(server: LiveServer, browser: Any, game: str) -> None:
    table, moves = finished_table(server, game)
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server.url}/t/{table}")
    wait_shown(page, moves)  # the viewer opens at the end
    for step in (moves, 0, moves // 2, moves):
        page.evaluate(
            """step => { const s = document.getElementById('replay-slider'); s.value = String(step);
                         s.dispatchEvent(new Event('input', { bubbles: true })); }""",
            step,
        )
        wait_shown(page, step)
        turn = server.get(f"/api/tables/{table}/replay?at={step}&seat=all")["turn"]
        page.wait_for_function(f"() => document.getElementById('banner').dataset.replayTurn === '{turn}'")
        banner = page.text_content("#banner")
        assert banner.startswith(f"Replay · turn {turn} · ") or (turn == 0 and banner.startswith("Replay · "))
        assert f"(turn {turn})" not in banner  # said once
        assert page.title().startswith(f"Replay, turn {turn}")
        if step == 0:
            screenshot(page, f"replay-{game}-start")


@pytest.mark.slow
def test_the_page_weight_script_measures_every_page(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from page_weight import page_weights

    weights = page_weights(tmp_path / "parlour.db")
    assert {w["page"] for w in weights} >= {"lobby", "venture", "im-the-boss", "venus-needs-men"}
    for w in weights:
        assert 0 < w["gzip"] < w["plain"], w
