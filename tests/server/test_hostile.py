"""Hostile clients (issue 30): ghosts that say hello and vanish, crowds of spectators, chat floods,
invalid Unicode, bot settings the server will not run, clients gone mid-body, and the order in which a
reaction window's passes land (it must not tell who held a card)."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.server import tables
from parlour.server.connections import Limits, guarded_protocols
from parlour.server.tables import Timing

from .conftest import bearer, create, make_client
from .live_server import LiveServer
from .raw_socket import STEPS, frame, ghost, reset, upgrade_request
from .test_live import hello


def seats_connected(server: LiveServer, table: str, token: str) -> list[bool]:
    return [s["connected"] for s in server.get(f"/api/tables/{table}", token)["seats"]]


def live_hello(server: LiveServer, table: str, token: str) -> dict[str, Any]:
    """Opens a real WebSocket, says hello, returns the first message."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        found: dict[str, Any] = json.loads(ws.recv(timeout=5))
        return found


def no_tracebacks(log: Path) -> None:
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert len(text.splitlines()) < 50, text[-3000:]


@pytest.mark.slow
def test_ghosts_that_vanish_at_any_step_leave_nothing_behind(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = LiveServer(tmp_path / "parlour.db", log=log).start()
    try:
        made = server.create("venture", ["human", "human"])
        table, seat_token = made["table"], made["seats"]["1"].split("#k=")[1]
        for step in STEPS:
            for _ in range(3):
                ghost(server.port, table, seat_token, step)
        for _ in range(105):  # more than a table's spectators, all from one address
            ghost(server.port, table, made["spectator_token"], "hello")
        end = time.time() + 5
        while seats_connected(server, table, made["spectator_token"])[1] and time.time() < end:
            time.sleep(0.1)
        assert seats_connected(server, table, made["spectator_token"]) == [False, False]
        assert live_hello(server, table, made["spectator_token"])["type"] == "table"
        assert live_hello(server, table, made["seats"]["0"].split("#k=")[1])["type"] == "table"
    finally:
        server.stop()
    no_tracebacks(log)


@pytest.mark.slow
def test_a_client_gone_in_the_middle_of_its_body_is_one_line_at_most(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = LiveServer(tmp_path / "parlour.db", log=log).start()
    try:
        for _ in range(5):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(b'POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"game": ')
            time.sleep(0.05)
            reset(sock)
        assert server.get("/api/games")
    finally:
        server.stop()
    no_tracebacks(log)


def test_a_spectator_crowd_never_locks_the_seats_out(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "MAX_SPECTATORS", 3)
    monkeypatch.setattr(tables, "MAX_SEAT_CONNECTIONS", 2)
    made = create(client, "venture", ["human", "human"])
    table, token = made["table"], made["tokens"][0]
    with (
        client.websocket_connect(f"/ws/{table}") as a,
        client.websocket_connect(f"/ws/{table}") as b,
        client.websocket_connect(f"/ws/{table}") as c,
    ):
        for ws in (a, b, c):
            hello(ws, made["spectator_token"])
        with client.websocket_connect(f"/ws/{table}") as d:
            assert hello(d, made["spectator_token"])["status"] == 503
        with (
            client.websocket_connect(f"/ws/{table}") as first,
            client.websocket_connect(f"/ws/{table}") as second,
        ):
            hello(first, token)
            hello(second, token)
            with client.websocket_connect(f"/ws/{table}") as third:
                assert hello(third, token)["type"] == "table"  # the seat's oldest connection makes room
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        first.receive_text()
                assert closed.value.code == 4409


def finished_table(client: TestClient) -> dict[str, Any]:
    made = create(client, "embers", ["random", "random"])
    end = time.time() + 30
    while not client.get(f"/api/tables/{made['table']}", headers=bearer(made["spectator_token"])).json()[
        "over"
    ]:
        assert time.time() < end
        time.sleep(0.05)
    return made


def chat(ws: Any, text: str) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "chat", "text": text}))
    found: dict[str, Any] = json.loads(ws.receive_text())
    return found


def test_a_visitor_without_a_link_cannot_write_a_finished_tables_chat(client: TestClient) -> None:
    made = finished_table(client)
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        assert hello(ws, "")["over"]
        refused = chat(ws, "spam")
    assert refused["status"] == 403
    assert client.app.state.hall.store.chat_count(made["table"]) == 0  # type: ignore[attr-defined]


def test_a_chat_flood_from_one_address_is_cut_to_its_budget(client: TestClient) -> None:
    made = finished_table(client)
    sent, refused = 0, 0
    for _ in range(4):  # several connections, one address
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, made["spectator_token"])
            for _ in range(10):
                reply = chat(ws, "spam")
                sent += reply["type"] == "chat"
                refused += reply.get("status") == 429
    assert sent <= 12 and refused >= 28, (sent, refused)
    assert client.app.state.hall.store.chat_count(made["table"]) == sent  # type: ignore[attr-defined]


def test_a_tables_stored_chat_is_bounded(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "MAX_STORED_CHAT", 3)
    made = create(client, "venture", ["human", "human"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, made["spectator_token"])
        replies = [chat(ws, f"line {n}") for n in range(5)]
    assert [r["type"] for r in replies] == ["chat"] * 3 + ["error"] * 2
    assert replies[-1]["status"] == 429 and "full" in replies[-1]["error"]
    with client.websocket_connect(f"/ws/{made['table']}") as ws:  # the players are never crowded out
        hello(ws, made["tokens"][0])
        assert chat(ws, "still here")["type"] == "chat"


@pytest.mark.parametrize("token", ["\ud800", "\udfff", "é" * 30, "\x00"])
def test_a_hello_with_invalid_unicode_is_refused_and_closed(client: TestClient, token: str) -> None:
    made = create(client, "venture", ["human", "human"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        ws.send_text(
            json.dumps({"type": "hello", "token": token})
        )  # "\ud800" travels escaped, as JSON allows
        refusal = json.loads(ws.receive_text())
        assert refusal["type"] == "error" and refusal["status"] in (400, 403)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4000 + refusal["status"]


def test_every_string_field_refuses_a_lone_surrogate(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    reply = client.post("/api/tables", content=b'{"game": "venture\\ud800", "seats": []}')
    assert reply.status_code == 400 and reply.json()["error"] == "the body is not JSON"
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, made["tokens"][0])
        for message in ('{"type": "chat", "text": "hi \\ud800"}', '{"type": "act", "action": "end\\udfff"}'):
            ws.send_text(message)
            assert json.loads(ws.receive_text())["status"] == 400


@pytest.mark.parametrize(
    "bot", ["ismcts:200ms::power=10000", "ismcts:200ms::explore=nan", "ismcts:200ms::horizon=-1"]
)
def test_a_bot_setting_out_of_range_is_refused_as_a_seat_and_as_a_stand_in(
    client: TestClient, bot: str
) -> None:
    setting = bot.rsplit(":", 1)[1].split("=")[0]
    reply = client.post("/api/tables", json={"game": "venture", "seats": [{"kind": "bot", "bot": bot}] * 2})
    assert reply.status_code == 400 and setting in reply.json()["error"], reply.text
    made = create(client, "venture", ["human", "human"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, made["tokens"][0])
        ws.send_text(json.dumps({"type": "stand_in", "seat": 0, "bot": bot}))
        refusal = json.loads(ws.receive_text())
    assert refusal["status"] == 400 and setting in refusal["error"]


def test_a_learned_policy_is_refused_at_a_table_it_cannot_read_as_a_seat_and_as_a_stand_in(
    client: TestClient,
) -> None:
    """I'm the Boss!'s shipped policy reads four-player tables only: at three players it is no seat and
    no stand-in (one line), at four it sits."""
    seats = [{"kind": "bot", "bot": "learned"}] * 3
    reply = client.post("/api/tables", json={"game": "im-the-boss", "seats": seats})
    assert reply.status_code == 400 and "does not fit a table of 3 players" in reply.json()["error"], (
        reply.text
    )
    assert "\n" not in reply.json()["error"]
    four = client.post("/api/tables", json={"game": "im-the-boss", "seats": [*seats, seats[0]]})
    assert four.status_code == 201, four.text
    made = create(client, "im-the-boss", ["human", "human", "human"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, made["tokens"][0])
        ws.send_text(json.dumps({"type": "stand_in", "seat": 0, "bot": "learned"}))
        refusal = json.loads(ws.receive_text())
    assert refusal["status"] == 400 and "does not fit" in refusal["error"]


# --------------------------------------------------------------------- the order passes land in
PEOPLE = (0, 1, 2)
"""The seats the test plays (auto-pass on); seat 3 is a random bot."""


def decline(client: TestClient, table: str, token: str, version: int) -> tuple[int, str, float]:
    """Declines a Stop; returns the status, the reply and when the request was sent."""
    sent = time.time()
    reply = client.post(
        f"/api/tables/{table}/actions", json={"action": "pass", "version": version}, headers=bearer(token)
    )
    return reply.status_code, reply.text, sent


IN_TIME = 0.2
"""How long before the window's answer time a decline must be sent to count as declined at once (on a
busy machine a thread may send it late: then it lands late, as a person's late answer does)."""


def play_windows(
    client: TestClient, made: dict[str, Any], rng: random.Random, seconds: float
) -> list[Window]:
    """Plays the people's seats of an I'm the Boss! table at random; in every Stop window asking several
    seats, each person holding a Stop card declines it at once (the others are auto-passed). Returns the
    windows: the seats asked, in order, those that held a card, and the order the passes landed in."""
    table, tokens = made["table"], made["tokens"]
    live = client.app.state.hall.get(table)  # type: ignore[attr-defined]
    found: list[Window] = []
    end = time.time() + seconds
    with ThreadPoolExecutor(len(PEOPLE)) as pool:
        while time.time() < end and not live.state.is_over():
            views = {s: client.get(f"/api/tables/{table}", headers=bearer(tokens[s])).json() for s in PEOPLE}
            window = views[0]["window"]
            if (
                window
                and len(window["waiting"]) > 1
                and views[0]["summary"]
                and "Stop window" in views[0]["text"]
            ):
                holders = [s for s in PEOPLE if views[s]["asked"] and "stop" in views[s]["legal"]]
                base = views[0]["version"]
                answers = [pool.submit(decline, client, table, tokens[s], base) for s in holders]
                statuses = [a.result() for a in answers]
                while live.state.passing_window() and live.record.version == base:
                    time.sleep(0.01)
                time.sleep(0.3)
                passes = [m for m in live.record.moves[base:] if m.action == "pass"][: len(window["waiting"])]
                landed = [m.seat for m in passes]
                after = {m.seat: m.at - window["answer_at"] for m in passes if m.seat in PEOPLE}
                # Each declined at once lands (200), or the bot's Stop closed the window first (409).
                assert all(code in (200, 409) for code, _, _ in statuses), statuses
                at_once = all(sent <= window["answer_at"] - IN_TIME for _, _, sent in statuses)
                if all(code == 200 for code, _, _ in statuses):
                    if at_once:  # a decline sent late is a late answer: no promise on its place
                        found.append(Window(window["waiting"], holders, landed, after))
                else:  # refused only because a Stop (the bot's) closed the window first
                    played = [m.action for m in live.record.moves[base:]]
                    assert any(action != "pass" for action in played), (statuses, played)
                continue
            asked = [
                s for s in PEOPLE if views[s]["asked"] and not (window and views[s]["legal"] == ["pass"])
            ]
            if not asked:
                time.sleep(0.01)
                continue
            seat = rng.choice(asked)
            legal = [a for a in views[seat]["legal"] if a not in ("stop", "undo", "cancel")] or views[seat][
                "legal"
            ]
            text = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
            client.post(
                f"/api/tables/{table}/actions",
                json={"action": text, "version": views[seat]["version"]},
                headers=bearer(tokens[seat]),
            )
    return found


@dataclass
class Window:
    asked: list[int]
    holders: list[int]
    landed: list[int]
    after: dict[int, float]
    """How long after the window's answer_at each person's pass landed (seconds)."""


def enough_windows(seen: list[Window]) -> bool:
    """Whether the windows seen let the timing test compare: six, three with a holder, and at least one
    pass of a person without a card (a run of windows where everyone asked held one compares nothing)."""
    others = any(s not in w.holders for w in seen for s in w.after)
    return len(seen) >= 6 and sum(bool(w.holders) for w in seen) >= 3 and others


@pytest.mark.slow
def test_a_stop_windows_passes_land_in_one_order_whoever_holds_a_card(db: Path) -> None:
    """Issue 30, defect 3: a person holding a Stop who declines at once lands where an auto-pass would: the
    bot first (at its pace), then the people in the asked order; the order tells nothing of who held one."""
    rng = random.Random(30)
    seen: list[Window] = []
    with make_client(db, Timing(think=0.0, pass_delay=0.6, grace=0.0, window_pause=0.0)) as client:
        end = time.time() + 240
        # Enough windows, three with a holder, and passes of people without a card to compare with.
        while not enough_windows(seen) and time.time() < end:
            made = create(
                client, "im-the-boss", ["human", "human", "human", "random"], options={"length": "short"}
            )
            seen += play_windows(client, made, rng, 30)
    held = [w for w in seen if w.holders]
    assert len(held) >= 3, seen
    for w in seen:
        expected = [s for s in w.asked if s not in PEOPLE] + [s for s in w.asked if s in PEOPLE]
        assert w.landed == [s for s in expected if s in w.landed], w
        assert all(0 <= late < 0.4 for late in w.after.values()), w  # holders and the others alike
    holders = [late for w in held for s, late in w.after.items() if s in w.holders]
    others = [late for w in seen for s, late in w.after.items() if s not in w.holders]
    assert holders and others and abs(statistics.median(holders) - statistics.median(others)) < 0.1


@pytest.mark.slow
def test_a_flood_of_bad_frames_gets_no_flood_back(tmp_path: Path) -> None:
    """A spectator that floods frames that are not JSON gets a refusal for each within its rate and then
    one 429 a second, not one per frame (before: a reply per frame, which a client that reads nothing
    turned into megabytes the server could not send, holding the socket open for good)."""
    server = LiveServer(tmp_path / "parlour.db").start()
    try:
        made = server.create("venture", ["human", "human"])
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(upgrade_request(server.port, made["table"]))
        assert b"101" in sock.recv(4096)
        sock.sendall(frame(json.dumps({"type": "hello", "token": made["spectator_token"]})))
        started = time.time()
        sock.sendall(frame("x") * 20_000)
        time.sleep(1.0)
        sock.settimeout(1.0)
        received = b""
        with contextlib.suppress(TimeoutError):
            while chunk := sock.recv(1 << 20):
                received += chunk
        seconds = time.time() - started
        reset(sock)
    finally:
        server.stop()
    refusals = received.count(b'"type":"error"')
    assert 40 <= refusals <= 41 + 21 * seconds, (refusals, seconds)


def test_a_websocket_that_stays_stuck_is_cut() -> None:
    """A WebSocket whose unsent bytes do not move (or whose close does not finish) for the stall timeout
    is aborted; one that drains in between is left alone."""
    clock = FakeLoop()
    socket_ = StuckTransport()
    guarded = object.__new__(guarded_protocols(Limits(stall_timeout=3.0))[1])
    guarded.loop, guarded.transport, guarded.stalled_since = clock, socket_, None  # type: ignore[assignment]
    for buffered in (100, 0, 100, 100, 100):
        socket_.buffered = buffered
        clock.now += 1.0
        guarded.check_stall()
    assert not socket_.aborted  # stuck since the third look: two seconds
    for _ in range(3):
        clock.now += 1.0
        guarded.check_stall()
    assert socket_.aborted


class FakeLoop:
    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Any) -> Any:
        return None


class StuckTransport:
    def __init__(self) -> None:
        self.buffered, self.aborted = 0, False

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def abort(self) -> None:
        self.aborted = True


def test_a_quick_pass_costs_a_persons_clock_what_an_auto_pass_does(db: Path) -> None:
    """With a game clock, a pass typed within the pass delay costs nothing, like an auto-pass: the public
    clocks do not tell who typed (and so who may have held a card)."""
    with make_client(db, Timing(think=0.0, pass_delay=0.3, grace=0.0, window_pause=0.0)) as client:
        made = create(
            client,
            "venus-needs-men",
            ["human", "human"],
            auto_pass=False,
            options={"length": "short"},
            game_seconds=600,
        )
        table = made["table"]
        live = client.app.state.hall.get(table)  # type: ignore[attr-defined]
        for _ in range(20):
            if not live.state.passing_window():
                break
            for token in made["tokens"].values():
                mine = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
                if mine["asked"] and "pass" in mine["legal"]:
                    client.post(
                        f"/api/tables/{table}/actions", json={"action": "pass"}, headers=bearer(token)
                    )
        passed = {m.seat for m in live.record.moves if m.action == "pass"}
        clocks = {s.seat: s.time_left for s in live.record.seats}
    assert passed and all(clocks[s] is not None and clocks[s] > 599.9 for s in passed), (passed, clocks)


def test_a_person_asked_and_silent_too_long_may_get_a_stand_in(db: Path) -> None:
    """Issue 31, item 5: at a table without a clock, a connected person who was asked and said nothing for
    ``Timing.away`` seconds may be given a bot by the others (not before); they take the seat back."""
    with make_client(db, Timing(think=0.0, pass_delay=0.0, grace=0.0, away=1.0, window_pause=0.0)) as client:
        made = create(client, "venture", ["human", "human"])
        table, tokens = made["table"], made["tokens"]
        asked = client.get(f"/api/tables/{table}", headers=bearer(tokens[0])).json()["deciders"][0]
        other = 1 - asked
        with client.websocket_connect(f"/ws/{table}") as away, client.websocket_connect(f"/ws/{table}") as ws:
            hello(away, tokens[asked])
            first = hello(ws, tokens[other])
            assert first["clock"]["away_after"] == 1.0
            ws.send_text(json.dumps({"type": "stand_in", "seat": asked, "bot": "greedy"}))
            while (early := json.loads(ws.receive_text()))["type"] != "error":
                pass
            assert early["status"] == 422 and "once it was asked" in early["error"]
            time.sleep(1.1)
            ws.send_text(json.dumps({"type": "stand_in", "seat": asked, "bot": "greedy"}))
            while (later := json.loads(ws.receive_text()))["type"] != "table" or not later["seats"][asked][
                "stand_in"
            ]:
                assert later["type"] != "error", later
            away.send_text(json.dumps({"type": "stand_in", "seat": asked, "bot": None}))
            while (back := json.loads(away.receive_text()))["type"] != "table" or back["seats"][asked][
                "stand_in"
            ]:
                assert back["type"] != "error", back


NUL_AND_FRIENDS = ("%00", "a%00b", "%ED%A0%80", "%FF", "%27%20OR%201=1--")
"""Path parameters a database may choke on: NUL (PostgreSQL refuses it in a text), invalid Unicode, SQL."""


def test_every_path_parameter_with_nul_or_invalid_unicode_is_a_clean_refusal(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    token = made["tokens"][0]
    for bad in NUL_AND_FRIENDS:
        for method, path in (
            ("GET", "/t/{}"),
            ("GET", "/api/tables/{}"),
            ("GET", "/api/tables/{}/status"),
            ("GET", "/api/tables/{}/record"),
            ("GET", "/api/tables/{}/replay"),
            ("POST", "/api/tables/{}/actions"),
            ("POST", "/api/tables/{}/again"),
            ("POST", "/api/tables/{}/accept"),
            ("POST", "/api/tables/{}/decline"),
            ("POST", "/api/tables/{}/bind"),
            ("GET", "/api/players/{}"),
        ):
            reply = client.request(method, path.format(bad), headers=bearer(token), json={})
            lowest = 400 if path.startswith("/api/") else 200  # the table's page is the same for any id
            assert lowest <= reply.status_code < 500, (method, path, bad, reply.status_code, reply.text[:200])
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{bad}") as ws:
            hello(ws, token)
            ws.receive_text()
