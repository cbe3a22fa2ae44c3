"""My games (issue 32): a seat kept in an account opened without its link (the WebSocket's account
hello, refused from another site's page), and ``GET /api/me/tables``, the account's tables by urgency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.server.accounts.cookie import COOKIE

from .accounts_helpers import account_client, one_line_error, register
from .conftest import bearer, create, database_sql
from .test_play_again import play_out

OWN = {"origin": "http://testserver"}
"""The Origin header of the server's own pages (the test client's base URL)."""
TURN_BASED: dict[str, Any] = {"pace": "turn-based", "move_hours": 24}


@pytest.fixture
def client(db: Path) -> Any:
    with account_client(db) as found:
        yield found


def sign_up(client: TestClient, username: str) -> tuple[str, str]:
    """Registers an account in the client (signed in now); returns its session token and CSRF token."""
    client.cookies.clear()
    csrf = register(client, username)
    return client.cookies[COOKIE], csrf


def as_account(client: TestClient, session: str) -> TestClient:
    """Makes the client the browser of the account whose session token is ``session``."""
    client.cookies.clear()
    client.cookies.set(COOKIE, session)
    return client


def keep(client: TestClient, csrf: str, table: str, token: str) -> None:
    """Keeps a seat (by its link's token) in the signed-in account."""
    reply = client.post(f"/api/tables/{table}/bind", headers={**bearer(token), "x-csrf-token": csrf})
    assert reply.status_code == 200, reply.text


def account_hello(client: TestClient, table: str, headers: dict[str, str] | None = None, **extra: Any) -> Any:
    """Says an account's hello at a table; returns the first message and the close code (None: open)."""
    with client.websocket_connect(f"/ws/{table}", headers=OWN if headers is None else headers) as ws:
        ws.send_json({"type": "hello", "account": True, **extra})
        first = ws.receive_json()
        if first["type"] != "error":
            return first, None
        try:
            ws.receive_json()
        except WebSocketDisconnect as gone:
            return first, gone.code
    raise AssertionError("a refused hello was not closed")


def test_the_account_that_keeps_a_seat_plays_it_without_its_link(client: TestClient) -> None:
    _, csrf = sign_up(client, "ana")
    made = create(client, "venture", ["human", "human"], **TURN_BASED)
    keep(client, csrf, made["table"], made["tokens"][1])
    first, _ = account_hello(client, made["table"])
    assert first["type"] == "table" and first["seat"] == 1
    assert first["legal"] == [] or first["seat"] in first["deciders"]
    with client.websocket_connect(f"/ws/{made['table']}", headers=OWN) as ws:
        ws.send_json({"type": "hello", "account": True, "seat": 1})
        assert ws.receive_json()["seat"] == 1
        ws.send_json({"type": "name", "text": "Ana"})  # a seat's message, taken as from its link
        while (message := ws.receive_json())["type"] != "table" or message["seats"][1]["name"] != "Ana":
            pass
    assert client.get(f"/api/tables/{made['table']}/status").json()["seats"][1]["name"] == "Ana"


def test_an_account_hello_from_another_site_or_without_origin_is_refused(client: TestClient) -> None:
    sign_up(client, "ana")
    _, csrf = sign_up(client, "ana2")
    made = create(client, "venture", ["human", "human"], **TURN_BASED)
    keep(client, csrf, made["table"], made["tokens"][0])
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"}, {}):
        first, code = account_hello(client, made["table"], headers)
        assert (first["status"], code) == (403, 4403)
        assert "this site's own pages" in first["error"]


def test_another_account_gets_no_seat(client: TestClient) -> None:
    _, csrf = sign_up(client, "ana")
    open_table = create(client, "venture", ["human", "human"], **TURN_BASED)
    people = [{"kind": "human"}, {"kind": "human"}]
    spec = {"game": "venture", "seats": people, "spectators": False, **TURN_BASED}
    closed = client.post("/api/tables", json=spec).json()
    closed["tokens"] = {int(seat): link.split("#k=")[1] for seat, link in closed["seats"].items()}
    keep(client, csrf, open_table["table"], open_table["tokens"][0])
    keep(client, csrf, closed["table"], closed["tokens"][0])
    sign_up(client, "bob")
    watched, code = account_hello(client, open_table["table"])  # an account is no spectators' link
    assert (watched["status"], code) == (403, 4403) and "spectators' link" in watched["error"]
    refused, code = account_hello(client, closed["table"])
    assert (refused["status"], code) == (403, 4403)
    named, code = account_hello(client, open_table["table"], seat=0)  # ana's seat, named: still not bo's
    assert (named["status"], code) == (403, 4403)
    client.cookies.clear()
    anonymous, code = account_hello(client, open_table["table"])
    assert (anonymous["status"], code) == (401, 4401)


@pytest.mark.parametrize(
    "hello",
    [
        {"type": "hello", "account": 1},
        {"type": "hello", "account": "yes"},
        {"type": "hello", "account": False},
        {"type": "hello", "account": True, "token": ""},
        {"type": "hello", "account": True, "seat": "0"},
        {"type": "hello", "account": True, "seat": True},
        {"type": "hello", "account": True, "extra": 1},
    ],
)
def test_a_malformed_account_hello_is_refused(client: TestClient, hello: dict[str, Any]) -> None:
    _, csrf = sign_up(client, "ana")
    made = create(client, "venture", ["human", "human"], **TURN_BASED)
    keep(client, csrf, made["table"], made["tokens"][0])
    with client.websocket_connect(f"/ws/{made['table']}", headers=OWN) as ws:
        ws.send_json(hello)
        first = ws.receive_json()
        assert first["type"] == "error" and first["status"] == 400 and "\n" not in first["error"]
        with pytest.raises(WebSocketDisconnect) as gone:
            ws.receive_json()
        assert gone.value.code == 4400


def test_my_tables_lists_the_accounts_tables_your_turn_first(client: TestClient) -> None:
    one_line_error(client.get("/api/me/tables"), 401)
    _, csrf = sign_up(client, "ana")
    waiting = create(client, "venture", ["human", "human"], **TURN_BASED)
    asked = create(client, "venture", ["human", "human"], **TURN_BASED)
    create(client, "venture", ["human", "human"], **TURN_BASED)  # not ana's
    first_asked = client.get(f"/api/tables/{asked['table']}/status").json()["deciders"][0]
    other_asked = client.get(f"/api/tables/{waiting['table']}/status").json()["deciders"][0]
    keep(client, csrf, waiting["table"], waiting["tokens"][1 - other_asked])
    keep(client, csrf, asked["table"], asked["tokens"][first_asked])
    reply = client.get("/api/me/tables")
    assert reply.status_code == 200 and reply.headers["cache-control"] == "no-store"
    listed = reply.json()["tables"]
    assert [t["table"] for t in listed] == [asked["table"], waiting["table"]]
    mine = listed[0]
    assert mine["yours"] is True and mine["mine"] == [first_asked] and mine["deciders"] == [first_asked]
    assert mine["pace"] == "turn-based" and mine["title"] == "Venture" and not mine["over"]
    assert 23 * 3600 < mine["time_left"] <= 24 * 3600
    assert listed[1]["yours"] is False and listed[1]["mine"] == [1 - other_asked]
    assert [s["seat"] for s in mine["seats"]] == [0, 1]
    sign_up(client, "bob")
    assert client.get("/api/me/tables").json()["tables"] == []


def test_my_tables_from_storage_when_a_table_is_not_in_memory(client: TestClient, db: Path) -> None:
    _, csrf = sign_up(client, "ana")
    made = create(client, "venture", ["human", "human"], **TURN_BASED)
    keep(client, csrf, made["table"], made["tokens"][0])
    first = client.get(f"/api/tables/{made['table']}/status").json()["deciders"]
    hall = client.app.state.hall  # type: ignore[attr-defined]
    hall.tables.pop(made["table"]).close()  # as beyond the games a server holds in memory
    found = client.get("/api/me/tables").json()["tables"]
    assert len(found) == 1 and found[0]["deciders"] == first  # stored with the table (tables.asked)
    assert found[0]["yours"] is (0 in first)
    assert found[0]["time_left"] > 23 * 3600 and found[0]["mine"] == [0]
    # stored before migration 0012: unknown until loaded
    database_sql(db, "UPDATE tables SET asked = NULL WHERE id = ?", made["table"])
    found = client.get("/api/me/tables").json()["tables"]
    assert found[0]["deciders"] is None and found[0]["yours"] is None
    client.get(f"/api/tables/{made['table']}/status")  # loaded again: the hall fills it
    assert client.get("/api/me/tables").json()["tables"][0]["deciders"] == first


def test_my_tables_reads_storage_when_this_process_copy_is_stale(client: TestClient, db: Path) -> None:
    _, csrf = sign_up(client, "ana")
    made = create(client, "venture", ["human", "human"], **TURN_BASED)
    first = client.get(f"/api/tables/{made['table']}/status").json()["deciders"][0]
    keep(client, csrf, made["table"], made["tokens"][first])
    assert client.get("/api/me/tables").json()["tables"][0]["yours"] is True
    database_sql(  # another node moved the table on: the other seat is asked
        db, "UPDATE tables SET version = version + 1, asked = ? WHERE id = ?", f"[{1 - first}]", made["table"]
    )
    found = client.get("/api/me/tables").json()["tables"][0]
    assert found["version"] == 1 and found["deciders"] == [1 - first] and found["yours"] is False


def test_a_waiting_or_declined_rematch_asks_nobody_and_is_ordered_after_play(client: TestClient) -> None:
    ana_session, ana_csrf = sign_up(client, "ana")
    made = create(client, "embers", ["human", "human"])
    keep(client, ana_csrf, made["table"], made["tokens"][0])
    bo_session, bo_csrf = sign_up(client, "bob")
    keep(client, bo_csrf, made["table"], made["tokens"][1])
    play_out(client, made)
    as_account(client, ana_session)
    playing = create(client, "venture", ["human", "human"], **TURN_BASED)
    keep(client, ana_csrf, playing["table"], playing["tokens"][0])
    asked = client.post(f"/api/tables/{made['table']}/again", headers={**OWN, "x-csrf-token": ana_csrf})
    rematch = asked.json()["table"]
    listed = client.get("/api/me/tables").json()["tables"]
    assert [t["table"] for t in listed] == [playing["table"], rematch, made["table"]]
    waiting = listed[1]
    assert waiting["status"] == "waiting" and waiting["deciders"] == [] and waiting["yours"] is False
    assert waiting["waiting_for"] == [0] and waiting["declined_by"] is None and waiting["mine"] == [1]
    assert waiting["time_left"] is None
    as_account(client, bo_session)
    assert client.get("/api/me/tables").json()["tables"][0]["yours"] is False  # Bo's to accept, not to move
    declined = client.post(f"/api/tables/{rematch}/decline", headers={**OWN, "x-csrf-token": bo_csrf})
    assert declined.status_code == 200, declined.text
    as_account(client, ana_session)
    listed = client.get("/api/me/tables").json()["tables"]
    assert [t["table"] for t in listed] == [playing["table"], rematch, made["table"]]  # newest first
    gone = listed[1]
    assert gone["status"] == "declined" and gone["deciders"] == [] and gone["yours"] is False
    assert gone["declined_by"] == 0 and gone["waiting_for"] == [] and gone["time_left"] is None
    hall = client.app.state.hall  # type: ignore[attr-defined]
    hall.tables.pop(rematch).close()  # read back from storage: the same
    back = client.get("/api/me/tables").json()["tables"][1]
    keys = ("table", "status", "deciders", "yours", "declined_by", "waiting_for", "time_left", "mine")
    assert {k: back[k] for k in keys} == {k: gone[k] for k in keys}


def test_an_account_keeping_two_seats_asks_and_accepts_for_the_one_it_names(client: TestClient) -> None:
    _, csrf = sign_up(client, "ana")
    made = create(client, "embers", ["human", "human"])
    for seat in (0, 1):
        keep(client, csrf, made["table"], made["tokens"][seat])
    play_out(client, made)
    headers = {**OWN, "x-csrf-token": csrf}
    table = made["table"]
    for query, code in (("x", 400), ("2", 400), ("-1", 400), ("1" * 12, 400)):
        assert one_line_error(client.post(f"/api/tables/{table}/again?seat={query}", headers=headers), code)
    asked = client.post(f"/api/tables/{table}/again?seat=1", headers=headers)
    assert asked.status_code == 200, asked.text
    rematch = asked.json()["table"]
    # the old seat 1 asked: it is the new seat 0, accepted; the new seat 1 (the old seat 0) waits
    assert client.get(f"/api/tables/{rematch}/status").json()["waiting_for"] == [1]
    accepted = client.post(f"/api/tables/{rematch}/accept?seat=1", headers=headers)
    assert accepted.status_code == 200 and accepted.json()["status"] == "playing"
    _, other_csrf = sign_up(client, "bob")  # keeps no seat there: naming one is refused
    refused = client.post(
        f"/api/tables/{rematch}/decline?seat=0", headers={**OWN, "x-csrf-token": other_csrf}
    )
    assert one_line_error(refused, 403)


def test_finished_tables_come_last_newest_first_with_their_winners(client: TestClient, db: Path) -> None:
    _, csrf = sign_up(client, "ana")
    made = [create(client, "venture", ["human", "human"], **TURN_BASED) for _ in range(3)]
    for table in made:
        keep(client, csrf, table["table"], table["tokens"][1])
    hall = client.app.state.hall  # type: ignore[attr-defined]
    for created, ranks, table in ((100.0, "[2,1]", made[0]), (200.0, "[1,2]", made[1])):
        update = "UPDATE tables SET status = 'over', created = ?, ranks = ? WHERE id = ?"
        database_sql(
            db, update, created, ranks, table["table"]
        )  # two of them ended (as read back from storage)
        hall.tables.pop(table["table"]).close()
    listed = client.get("/api/me/tables").json()["tables"]
    assert [t["table"] for t in listed] == [made[2]["table"], made[1]["table"], made[0]["table"]]
    assert [t["over"] for t in listed] == [False, True, True]
    assert listed[1]["winners"] == [0] and listed[2]["winners"] == [1]
    assert listed[1]["time_left"] is None and listed[1]["deciders"] == []


def test_an_account_asks_for_a_rematch_and_accepts_it_without_the_seats_links(client: TestClient) -> None:
    ana_session, ana_csrf = sign_up(client, "ana")
    made = create(client, "embers", ["human", "human"])
    keep(client, ana_csrf, made["table"], made["tokens"][0])
    bo_session, bo_csrf = sign_up(client, "bob")
    keep(client, bo_csrf, made["table"], made["tokens"][1])
    play_out(client, made)
    table = made["table"]
    as_account(client, ana_session)
    assert one_line_error(client.post(f"/api/tables/{table}/again", headers=OWN), 403)  # no CSRF token
    asked = client.post(f"/api/tables/{table}/again", headers={**OWN, "x-csrf-token": ana_csrf})
    assert asked.status_code == 200, asked.text
    rematch = asked.json()["table"]
    assert client.get(f"/api/tables/{rematch}/status").json()["waiting_for"] == [0]  # Bo, seat 0 now
    as_account(client, bo_session)
    foreign = {"origin": "http://evil.example", "x-csrf-token": bo_csrf}
    assert one_line_error(client.post(f"/api/tables/{rematch}/accept", headers=foreign), 403)
    accepted = client.post(f"/api/tables/{rematch}/accept", headers={**OWN, "x-csrf-token": bo_csrf})
    assert accepted.status_code == 200 and accepted.json()["status"] == "playing"
    _, cy_csrf = sign_up(client, "cyd")  # an account keeping no seat there is nobody's seat
    cy = client.post(f"/api/tables/{rematch}/decline", headers={**OWN, "x-csrf-token": cy_csrf})
    assert one_line_error(cy, 403)
