"""The table server's HTTP requests and WebSocket messages fuzzed at a size for every ``make test``;
the checks shown to catch broken promises; the server bugs the fuzzer found, as regression tests.

``make fuzz`` runs the same surfaces with many more inputs (tests/fuzz/run.py --surfaces http,ws).
"""

from __future__ import annotations

import json
import random
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.server import tables
from parlour.server.app import Settings, create_app
from parlour.server.storage import Store
from parlour.server.tables import Refusal, Timing

from .guards import Tally
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
