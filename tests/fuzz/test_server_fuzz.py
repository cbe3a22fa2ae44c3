"""The table server's HTTP requests, WebSocket messages and connections fuzzed at a size for every
``make test``; the checks shown to catch broken promises; the server bugs the fuzzer found, as
regression tests.

``make fuzz`` runs the same surfaces with many more inputs (tests/fuzz/run.py --surfaces http,ws,net).
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from parlour.server import tables
from parlour.server.app import Settings, create_app
from parlour.server.storage import Store
from parlour.server.tables import Refusal, Timing

from . import net_surface
from .guards import Tally
from .net_surface import (
    CATALOGUE,
    NET_TABLES,
    NetServer,
    NetTable,
    Slow,
    check_http,
    check_refused_hello,
    crowd_address,
    disperse,
    fuzz_net,
)
from .server_surface import (
    Refused,
    Server,
    check_error,
    check_reply,
    fuzz_http,
    fuzz_ws,
    run_prepared,
    seeds_in,
)
from .wire import Reply, Wire

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path) as running:
        yield running


@pytest.mark.slow
@pytest.mark.parametrize(("surface", "fuzz"), [("http", fuzz_http), ("ws", fuzz_ws)])
def test_requests_and_messages(server: Server, surface: str, fuzz: Callable[..., None]) -> None:
    tally = Tally()
    fuzz(tally, server, random.Random(surface), 300)
    tally.check()
    # Both outcomes occur: tables made and moves taken, and many more requests refused.
    assert tally.refused[surface] > 120 and tally.accepted[surface] > 40, tally.summary()


@pytest.mark.slow
def test_attacks_over_the_network(tmp_path: Path) -> None:
    """A real server process (net_surface.py): every kind of attack, then at random, known defects left
    out (test_a_text_frame_that_is_not_utf8_costs_no_traceback, test_a_crowd_that_vanishes_...)."""
    tally = Tally()
    fuzz_net(tally, tmp_path, random.Random("net"), 24)
    tally.check()
    assert tally.refused["net"] > 8 and tally.accepted["net"] > 4, tally.summary()
    for name, *_ in CATALOGUE:
        assert f"{name} " in tally.notes[0], tally.notes


# --------------------------------------------------------------------- the checks can fail
def _verdict(reply: Any) -> Tally:
    """Runs one fake reply (status, text) through the HTTP reply check; returns the tally."""
    tally = Tally()

    def body() -> bool:
        check_reply(*reply)
        return True

    tally.run("http", "fake", body)
    return tally


@pytest.mark.parametrize(
    "reply",
    [
        (500, "Internal Server Error"),
        (503, json.dumps({"type": "error", "status": 503, "error": "busy"})),
        (200, "Traceback (most recent call last):"),
        (400, "bad request"),
        (400, json.dumps({"type": "error", "status": 422, "error": "wrong status"})),
        (400, json.dumps({"type": "error", "status": 400, "error": "two\nlines"})),
        (400, json.dumps({"type": "error", "status": 400, "error": " "})),
        (400, json.dumps({"type": "error", "status": 400, "error": "x" * 600})),
        (404, json.dumps({"status": 404, "error": "no type"})),
    ],
)
def test_the_reply_check_catches_a_broken_promise(reply: Any) -> None:
    assert _verdict(reply).broken == 1


def test_the_reply_check_passes_a_clean_refusal_and_an_answer() -> None:
    clean = _verdict((409, json.dumps({"type": "error", "status": 409, "error": "moved on", "version": 3})))
    assert clean.refused["http"] == 1 and not clean.broken
    assert _verdict((200, "{}")).accepted["http"] == 1


def test_the_seed_check_finds_a_seed_anywhere_in_a_reply() -> None:
    seeds = {"abc": "4611686018427387903", "def": "123456789012345678"}
    assert seeds_in('{"results": {"seed": 4611686018427387903}}', seeds) == ["abc"]
    assert seeds_in('"x": "99123456789012345678999"', seeds) == ["def"]
    assert seeds_in('{"now": 1718000000.123456, "version": 12}', seeds) == []


def test_a_broken_promise_met_while_preparing_counts() -> None:
    tally = Tally()

    def prepare() -> Any:
        raise AssertionError("table t never settled")

    run_prepared(tally, "ws", prepare)
    assert tally.broken == 1 and "never settled" in tally.failures[0]


def test_the_fuzzer_catches_a_refused_move_that_was_kept(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sabotaged server that stores and adopts a move, then answers that it was refused."""
    act = tables.LiveTable.act

    async def keeps_and_refuses(self: Any, seat: int, text: Any, *args: Any, **kwargs: Any) -> int:
        version = await act(self, seat, text, *args, **kwargs)
        if kwargs.get("automatic"):
            return version  # bots still play
        raise Refusal(422, "refused (but kept)")

    monkeypatch.setattr(tables.LiveTable, "act", keeps_and_refuses)
    tally = Tally()
    fuzz_http(tally, server, random.Random("sabotage"), 60)
    assert any("changed the table" in line for line in tally.failures), tally.summary()


def test_an_error_is_checked_against_its_own_status() -> None:
    assert check_error({"type": "error", "status": 413, "error": "too big"}, 413) == "too big"
    with pytest.raises(AssertionError):
        check_error({"type": "error", "status": 413, "error": "too big"}, 400)
    assert issubclass(Refused, Exception)


# the net surface's checks, on fakes and on a real server made to break its promises
def _idle(tmp_path: Path) -> NetServer:
    """Returns a NetServer that is never started: its checks run on fakes."""
    server = NetServer(tmp_path)
    server.log.write_text("")
    return server


def test_the_log_check_counts_a_traceback_once(tmp_path: Path) -> None:
    server = _idle(tmp_path)
    with server.log.open("a") as log:
        log.write("WARNING:  Invalid HTTP request received.\nERROR:    Exception in ASGI application\n")
        log.write('Traceback (most recent call last):\n  File "x.py", line 1, in f\nValueError: boom\n')
    tally = Tally()

    def look() -> bool:
        server.check_log()
        return True

    for _ in range(2):
        tally.run("net", "fake", look)
    assert tally.tracebacks == 1 and tally.accepted["net"] == 1, tally.summary()
    assert "Exception in ASGI application ... ValueError: boom" in tally.failures[0]


def test_the_log_check_catches_a_log_that_grows_and_a_half_written_line_waits(tmp_path: Path) -> None:
    server = _idle(tmp_path)
    server.log.write_text("socket.send() raised exception.\n" * 150 + "half a li")
    server.check_log()
    assert server.log_lines == 150
    with server.log.open("a") as log:
        log.write("ne\n" + "socket.send() raised exception.\n" * 60)
    with pytest.raises(AssertionError, match="211 lines"):
        server.check_log()


def _faked(server: NetServer, monkeypatch: pytest.MonkeyPatch, views: list[dict[str, Any]]) -> None:
    """Gives an idle server one table whose views are ``views`` in turn (the last one for ever)."""
    server.tables = [NetTable("t", "venture", 2, {0: "a", 1: "b"}, "s")]
    server.before = {"t": (4, 4)}
    monkeypatch.setattr(server, "view", lambda *args, **kwargs: views.pop(0) if len(views) > 1 else views[0])
    monkeypatch.setattr(server, "moves", lambda table: 4)
    monkeypatch.setattr(net_surface, "GHOST_SECONDS", 0.2)


def _seats(*connected: bool) -> list[dict[str, Any]]:
    return [{"seat": n, "kind": "human", "connected": c} for n, c in enumerate(connected)]


def test_the_ghost_check_catches_a_seat_left_connected_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = _idle(tmp_path)
    _faked(server, monkeypatch, [{"version": 4, "seats": _seats(False, True)}])
    with pytest.raises(AssertionError, match="seat 1 of t connected"):
        server._no_ghosts()
    server._no_ghosts()  # told once


def test_the_ghost_check_waits_for_a_seat_that_is_leaving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = _idle(tmp_path)
    _faked(
        server,
        monkeypatch,
        [{"version": 4, "seats": _seats(True, False)}, {"version": 4, "seats": _seats(False, False)}],
    )
    server._no_ghosts()


def test_the_table_check_catches_a_refused_input_that_moved_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = _idle(tmp_path)
    _faked(server, monkeypatch, [{"version": 5, "seats": _seats(False, False)}])
    with pytest.raises(AssertionError, match=r"from version 4 .* to 5"):
        server._unchanged()


def _reply(status: int, body: str | bytes, kind: str = "application/json") -> Reply:
    data = body.encode() if isinstance(body, str) else body
    return Reply(status, {"content-type": kind}, data, 0.0)


@pytest.mark.parametrize(
    ("reply", "plain"),
    [
        (_reply(0, b""), False),
        (_reply(500, "Internal Server Error", "text/plain"), True),
        (_reply(200, "Traceback (most recent call last):", "text/plain"), False),
        (_reply(400, "Invalid HTTP request received.", "text/plain"), False),
        (_reply(400, "two\nlines", "text/plain"), True),
        (_reply(403, json.dumps({"type": "error", "status": 404, "error": "wrong status"})), False),
    ],
)
def test_the_http_check_catches_a_broken_reply(reply: Reply, plain: bool) -> None:
    tally = Tally()
    tally.run("net", "fake", lambda: check_http(reply, plain) is None)
    assert tally.broken == 1, tally.summary()


def test_the_http_check_takes_clean_refusals_and_answers() -> None:
    with pytest.raises(Refused):
        check_http(_reply(408, "the request body came too slowly\n", "text/plain"), plain=True)
    with pytest.raises(Refused):
        check_http(
            _reply(409, json.dumps({"type": "error", "status": 409, "error": "moved on", "version": 3}))
        )
    assert check_http(_reply(200, "[1]")) == [1]
    assert check_http(_reply(200, "<html>", "text/html")) is None


class _FakeWire:
    """What check_refused_hello reads of a connection: its next message and its close code."""

    def __init__(self, code: int | None) -> None:
        self.close_code = code

    def receive(self) -> None:
        return None


@pytest.mark.parametrize(
    ("first", "code"),
    [
        (None, 4403),
        ({"type": "table", "seat": 0}, 4403),
        ({"type": "error", "status": 403, "error": "no"}, 1000),
        ({"type": "error", "status": 400, "error": "no"}, 4400),
        ({"type": "error", "status": 403, "error": "two\nlines"}, 4403),
    ],
)
def test_the_hello_check_catches_a_refusal_out_of_form(first: Any, code: int) -> None:
    with pytest.raises(AssertionError):
        check_refused_hello(cast(Wire, _FakeWire(code)), first, (403,))


def test_the_slow_check_catches_a_connection_held_open_or_answered(tmp_path: Path) -> None:
    server = _idle(tmp_path)
    with socket.socket() as sock:
        with pytest.raises(AssertionError, match="left open"):
            net_surface._check_slow(server, Slow("trickled headers", sock, 0.0))
        with pytest.raises(AssertionError, match="were answered"):
            net_surface._check_slow(
                server, Slow("headers", sock, 0.0, got=b"HTTP/1.1 200 OK\r\n\r\n", closed=1.0)
            )
        with pytest.raises(AssertionError, match="not 408"):
            net_surface._check_slow(
                server, Slow("body", sock, 0.0, got=b"HTTP/1.1 400 Bad\r\n\r\nx", closed=1.0)
            )
        net_surface._check_slow(
            server, Slow("body", sock, 0.0, got=b"HTTP/1.1 408 Late\r\n\r\nlate\n", closed=1.0)
        )


@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NetServer]:
    """A real server with one table of people (and a bot) and a finished table."""
    with NetServer(tmp_path_factory.mktemp("net"), tables=NET_TABLES[6:7]) as running:
        yield running


@pytest.mark.slow
def test_the_net_checks_catch_a_real_server_breaking_its_promises(
    net: NetServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attack that leaves a seat's connection open (the server must then show it connected: the
    check takes it for a ghost) and one that makes a move behind the fuzzer's back, each run as the
    campaign runs them: both counted as broken promises, the server's other promises kept."""
    monkeypatch.setattr(net_surface, "GHOST_SECONDS", 0.5)
    table = net.tables[0]
    seat, seen = net.asked(table)
    assert seat is not None
    held: list[Wire] = []

    def leaves_a_seat_open(server: NetServer, rng: random.Random) -> tuple[str, Callable[[], bool]]:
        def body() -> bool:
            wire = Wire(server.port, f"/ws/{table.id}")
            held.append(wire)
            return wire.hello(table.tokens[seat]) is not None

        return "a seat held open", body

    def moves_behind_its_back(server: NetServer, rng: random.Random) -> tuple[str, Callable[[], bool]]:
        def body() -> bool:
            data = json.dumps({"action": seen["legal"][0], "version": seen["version"]}).encode()
            headers = [("authorization", f"Bearer {table.tokens[seat]}")]
            reply = server.request("POST", f"/api/tables/{table.id}/actions", data, headers)
            assert reply.status == 200, reply.text
            raise Refused("said to be refused, but moved")

        return "a move said to be refused", body

    tally = Tally()
    net_surface._throw(tally, net, "ghost", leaves_a_seat_open, random.Random(1))
    held[0].end()
    net.resync()
    net_surface._throw(tally, net, "unicode", moves_behind_its_back, random.Random(2))
    net.resync()
    assert tally.broken == 2 and not tally.tracebacks, tally.summary()
    assert f"seat {seat} of {table.id} connected" in tally.failures[0]
    assert "went from version" in tally.failures[1] and "though nothing was accepted" in tally.failures[1]
    assert "GET /api/games" not in " ".join(tally.failures)


@pytest.mark.slow
def test_a_text_frame_that_is_not_utf8_costs_no_traceback(net: NetServer) -> None:
    """Found by the net surface (_bad_frame): the connection is failed with 1007, as it should, and
    uvicorn's "Invalid UTF-8 sequence received from client." was logged with the traceback of its
    UnicodeDecodeError for every such frame; now one line at most once a minute (QuietFilter)."""
    table = net.tables[0]
    net.read_log()
    with Wire(net.port, f"/ws/{table.id}") as wire:
        assert (wire.hello(table.spectator) or {}).get("type") == "table"
        wire.send(b'{"type": "chat", "text": "\xff"}')
        assert wire.receive() is None and wire.close_code == net_surface.BAD_STATUS
    time.sleep(0.5)
    net.check_log()


@pytest.mark.slow
def test_a_crowd_that_vanishes_costs_a_few_log_lines(net: NetServer) -> None:
    """Found by the net surface (_crowd): a hundred spectators that vanish (most reset at once, the rest
    one every half millisecond) leave the server broadcasting each departure to sockets already reset
    and not yet closed; asyncio then logs "socket.send() raised exception." for every send after the
    fifth: a couple of thousand lines from one crowd; now one line at most once a minute (QuietFilter)."""
    table = net.tables[0]
    net.read_log()
    rng = random.Random(5)
    with contextlib.ExitStack() as stack:
        crowd = [
            stack.enter_context(Wire(net.port, f"/ws/{table.id}", crowd_address(rng))) for _ in range(100)
        ]
        for wire in crowd:
            assert (wire.hello(table.spectator) or {}).get("type") == "table"
            wire.drain()
        disperse(crowd, "waves", rng)
    time.sleep(1.0)
    lines = net.read_log()
    assert len(lines) <= 10, f"{len(lines)} lines, such as {lines[:1]}"


# --------------------------------------------------------------------- server bugs found (regressions)
def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _hello(ws: Any, token: str) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    found: dict[str, Any] = json.loads(ws.receive_text())
    return found


def test_a_binary_frame_is_refused(server: Server) -> None:
    table = server.tables[0]
    with server.client.websocket_connect(f"/ws/{table.id}") as ws:
        _hello(ws, table.tokens[0])
        ws.send_bytes(b'{"type": "ping"}')
        ws.send_text(json.dumps({"type": "ping"}))
        assert json.loads(ws.receive_text())["status"] == 400
        assert json.loads(ws.receive_text()) == {"type": "pong"}
    with server.client.websocket_connect(f"/ws/{table.id}") as ws:
        ws.send_bytes(json.dumps({"type": "hello", "token": table.tokens[0]}).encode())
        refusal = json.loads(ws.receive_text())
        assert refusal["type"] == "error" and refusal["status"] == 400
        assert ws.receive()["code"] == 4400


def test_an_unknown_field_is_named_briefly(server: Server) -> None:
    spec = {"game": "venture", "seats": [{"kind": "human"}] * 2, "k" * 5000: 1}
    reply = server.client.post("/api/tables", json=spec)
    assert reply.status_code == 400 and "unknown field" in reply.json()["error"]
    assert len(reply.json()["error"]) <= 300, len(reply.json()["error"])


def test_a_spectators_message_type_is_named_briefly(server: Server) -> None:
    table = server.tables[0]
    with server.client.websocket_connect(f"/ws/{table.id}") as ws:
        assert _hello(ws, table.spectator)["seat"] is None
        ws.send_text(json.dumps({"type": "x" * 5000}))
        refusal = json.loads(ws.receive_text())
    assert refusal["status"] == 403
    assert len(refusal["error"]) <= 300, len(refusal["error"])


def test_an_unreadable_action_is_refused_in_at_most_300_characters(server: Server) -> None:
    table = server.tables[0]
    seen = server.settle(table)
    seat = seen["deciders"][0]
    reply = server.client.post(
        f"/api/tables/{table.id}/actions",
        json={"action": "é" * 199, "version": seen["version"]},
        headers={"authorization": f"Bearer {table.tokens[seat]}"},
    )
    assert reply.status_code == 422
    assert len(reply.json()["error"]) <= 300, len(reply.json()["error"])


@pytest.mark.slow
def test_no_stand_in_moves_after_the_seat_is_taken_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store slow to write (2 s) holds the take-back while the stand-in's move falls due (1.5 s)."""
    slow = {"on": False}
    update = Store.update

    def slow_update(self: Store, table: Any) -> None:
        if slow["on"]:
            time.sleep(2.0)
        update(self, table)

    monkeypatch.setattr(Store, "update", slow_update)
    app = create_app(
        Settings(f"sqlite:///{tmp_path / 'race.db'}", bot_workers=0, timing=Timing(think=1.5, grace=0.0))
    )
    with TestClient(app) as client:
        made = client.post("/api/tables", json={"game": "venture", "seats": [{"kind": "human"}] * 2}).json()
        table = made["table"]
        tokens = {int(seat): link.split("#k=")[1] for seat, link in made["seats"].items()}
        asked = client.get(f"/api/tables/{table}", headers=bearer(tokens[0])).json()["deciders"][0]
        with client.websocket_connect(f"/ws/{table}") as other:
            _hello(other, tokens[1 - asked])
            other.send_text(json.dumps({"type": "stand_in", "seat": asked, "bot": "random"}))
            other.receive_text()
        with client.websocket_connect(f"/ws/{table}") as own:
            _hello(own, tokens[asked])
            slow["on"], asked_at = True, time.time()
            own.send_text(json.dumps({"type": "stand_in", "seat": asked, "bot": None}))
            own.send_text(json.dumps({"type": "ping"}))
            while json.loads(own.receive_text())["type"] != "pong":
                pass
            slow["on"] = False
        time.sleep(0.5)
        seen = client.get(f"/api/tables/{table}", headers=bearer(tokens[asked])).json()
    assert seen["seats"][asked]["stand_in"] is None
    moved = seen["moved_at"]
    assert moved is None or moved < asked_at, f"the stand-in moved after the take-back: {seen['log']}"
