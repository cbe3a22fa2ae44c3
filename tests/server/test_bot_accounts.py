"""Server bot accounts (issue 36): made by a person, a token stored hashed, no sign-in, the seat's
rules, the answers refused as hostile input, rate limits, and the WebSocket fuzzed."""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from parlour.server.accounts.counters import Limit
from parlour.server.app import create_app
from parlour.server.botaccounts.answers import BotLimits

from .accounts_helpers import PASSWORD, account_client, login, register, rows
from .conftest import quick_settings, stored_bytes

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def make_bot(client: TestClient, csrf: str, name: str) -> Any:
    """Makes a bot account with the signed-in person's session; returns the reply."""
    return client.post("/api/bot/accounts", json={"name": name}, headers={"x-csrf-token": csrf})


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_person_makes_a_bot_whose_token_is_shown_once_and_stored_hashed(db: Path) -> None:
    with account_client(db) as client:
        csrf = register(client, "ana")
        made = make_bot(client, csrf, "anabot")
        assert made.status_code == 201, made.text
        token = made.json()["token"]
        assert token.startswith("pbt_") and len(token) > 40
        listed = client.get("/api/bot/accounts").json()["bots"]
        assert listed == [
            {"name": "anabot", "created": listed[0]["created"], "revoked": False, "online": False}
        ]
        assert "token" not in json.dumps(listed)
        digest = hashlib.sha256(token.encode()).hexdigest()
        assert rows(db, "SELECT token_hash FROM bot_accounts") == [(digest,)]
        assert token.encode() not in stored_bytes(db)
        assert make_bot(client, csrf, "anabot").status_code == 409  # the name is taken
        assert make_bot(client, csrf, "x").status_code == 400
        assert (
            client.post(
                "/api/bot/accounts", json={"name": "b0t", "extra": 1}, headers={"x-csrf-token": csrf}
            ).status_code
            == 400
        )
        assert client.post("/api/bot/accounts", json={"name": "nocsrf"}).status_code == 403
        client.post("/api/logout", headers={"x-csrf-token": csrf})
        assert make_bot(client, csrf, "other").status_code == 401
        assert client.get("/api/bot/accounts").status_code == 401


def test_a_bot_account_never_signs_in_and_its_revoked_token_opens_nothing(db: Path) -> None:
    with account_client(db) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        for password in ("", "correct horse battery", token):
            assert login(client, "anabot", password).status_code in (400, 401)
        assert client.get("/api/bot/tables/nothing/request", headers=bearer(token)).status_code == 404
        revoked = client.post("/api/bot/accounts/anabot/revoke", headers={"x-csrf-token": csrf})
        assert revoked.status_code == 200, revoked.text
        refused = client.get("/api/bot/tables/nothing/request", headers=bearer(token))
        assert refused.status_code == 401 and refused.json()["error"].startswith(
            "a bot's API token is needed"
        )
        again = client.post("/api/bot/accounts/anabot/revoke", headers={"x-csrf-token": csrf})
        assert again.status_code == 404


def test_the_bot_api_refuses_without_a_token_in_one_line(client: TestClient) -> None:
    for method, path in (
        ("GET", "/api/bot/stream"),
        ("GET", "/api/bot/tables/t/request"),
        ("POST", "/api/bot/tables/t/answer"),
    ):
        for headers in ({}, bearer("pbt_nothing"), bearer("x" * 5000), {"authorization": "Basic abc"}):
            reply = client.request(method, path, headers=headers)
            assert reply.status_code == 401, (path, reply.text)
            assert reply.json()["error"].count("\n") == 0


def test_an_offline_or_unknown_bot_is_no_seat_and_cmd_bots_stay_refused(client: TestClient) -> None:
    for bot in ("account:nobody", "account:", "account:" + "x" * 40, "cmd:python3 bot.py"):
        reply = client.post(
            "/api/tables", json={"game": "embers", "seats": [{"kind": "bot", "bot": bot}, {"kind": "human"}]}
        )
        assert reply.status_code == 400, reply.text
        assert "\n" not in reply.json()["error"]
    assert client.get("/api/bots").json() == {"bots": []}


def test_answers_beyond_the_bots_rate_are_refused_with_429(db: Path) -> None:
    limits = BotLimits(answers_per_bot=Limit(5, 60.0))
    settings_ = quick_settings(db, bot_limits=limits, http_rate=1e6, http_burst=1e6)
    with TestClient(create_app(settings_)) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        codes = [
            client.post(
                "/api/bot/tables/nothing/answer", json={"id": 1, "action": 0}, headers=bearer(token)
            ).status_code
            for _ in range(7)
        ]
        assert codes == [404] * 5 + [429, 429]


def wait_listed(client: TestClient) -> None:
    """Waits (up to 200 reads of the list) until a bot account is listed online: its socket said hello."""
    for _ in range(200):
        if client.get("/api/bots").json()["bots"]:
            return
    raise AssertionError("the bot account was never listed online")


def _seat(client: TestClient, csrf: str = "", rated: bool = False) -> str:
    """Seats the online bot ``anabot`` at an Embers table against a random bot; returns the table."""
    wait_listed(client)
    seats = [{"kind": "bot", "bot": "account:anabot"}, {"kind": "bot", "bot": "random"}]
    spec = {"game": "embers", "seats": seats, "rated": rated}
    made = client.post("/api/tables", json=spec, headers={"x-csrf-token": csrf} if csrf else {})
    assert made.status_code == 201, made.text
    assert made.json()["seats"] == {}  # no link opens the bot's seat
    table: str = made.json()["table"]
    return table


GARBAGE = st.one_of(
    st.text(max_size=200),
    st.dictionaries(
        st.sampled_from(["type", "table", "id", "action", "values", "seat"]),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
            lambda inner: st.lists(inner, max_size=3),
            max_leaves=5,
        ),
    ).map(json.dumps),
)


def test_a_bot_plays_a_whole_game_over_its_websocket_and_the_socket_is_fuzzed(db: Path) -> None:
    with account_client(db, bot_limits=BotLimits(refused_frames=10**6)) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        with client.websocket_connect("/api/bot/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            table = _seat(client, csrf, rated=True)
            start = json.loads(socket.receive_text())
            assert start["type"] == "start" and start["table"] == table and start["seat"] == 0

            @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
            @given(GARBAGE)
            def garbage(text: str) -> None:
                before = client.get(f"/api/tables/{table}/status").json()["version"]
                socket.send_text(text)
                while True:
                    reply = json.loads(socket.receive_text())
                    if reply["type"] == "request":
                        pending.append(reply)  # the stream's, answered below
                    if reply["type"] in ("error", "answered"):
                        break
                assert reply["type"] == "error"
                assert "\n" not in reply["error"] and reply["status"] in (400, 404, 409, 413, 422)
                assert client.get(f"/api/tables/{table}/status").json()["version"] == before

            pending: list[dict[str, Any]] = []
            garbage()
            over = False
            for _ in range(2000):
                message = pending.pop() if pending else json.loads(socket.receive_text())
                if message["type"] == "request":
                    answer = {"type": "action", "table": table, "id": message["id"], "action": 0}
                    socket.send_text(json.dumps(answer))
                elif message["type"] == "end":
                    over = message["over"]
                    break
            assert over and client.get(f"/api/tables/{table}/status").json()["over"]
        # Rated like any player: the leaderboard and the profile show the bot account, marked a bot.
        board = client.get("/api/leaderboard?game=embers&players=2").json()["board"]
        mine = [entry for entry in board if entry["username"] == "anabot"]
        assert len(mine) == 1 and mine[0]["bot"] is True and mine[0]["games"] == 1
        shown = client.get("/api/players/anabot").json()
        assert shown["bot"] is True and shown["ratings"][0]["game"] == "embers"
        assert client.get("/api/players/ana").json()["bot"] is False


def test_post_answers_are_fuzzed_and_never_change_the_table(db: Path) -> None:
    with account_client(db) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        with client.websocket_connect("/api/bot/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            table = _seat(client)
            path = f"/api/bot/tables/{table}/answer"
            request = client.get(f"/api/bot/tables/{table}/request", headers=bearer(token)).json()[
                "requests"
            ][0]
            version = request["id"]

            @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
            @given(GARBAGE)
            def garbage(text: str) -> None:
                reply = client.post(
                    path, content=text.encode("utf-8", "surrogatepass"), headers=bearer(token)
                )
                assert reply.status_code in (400, 409, 413, 422), reply.text
                assert "\n" not in reply.json()["error"]
                assert client.get(f"/api/tables/{table}/status").json()["version"] == version

            garbage()
            n = len(request["actions"])
            refusals = {
                json.dumps({"id": version + 1, "action": 0}): 409,
                json.dumps({"id": "1", "action": 0}): 400,
                json.dumps({"id": version, "action": n}): 422,
                json.dumps({"id": version, "action": "play 99"}): 422,
                json.dumps({"id": version, "action": 0, "values": [float("nan")] * n}): 422,
                json.dumps({"id": version, "action": 0, "values": [1.0] * (n + 1)}): 422,
                json.dumps({"id": version, "action": 0, "seat": 1}): 400,
                json.dumps([1, 2]): 400,
                "x" * 100_000: 413,
            }
            for body, status in refusals.items():
                reply = client.post(path, content=body, headers=bearer(token))
                assert reply.status_code == status, (body[:80], reply.text)
            assert client.get(f"/api/tables/{table}/status").json()["version"] == version
            fine = client.post(
                path, json={"id": version, "action": request["actions"][0]["text"]}, headers=bearer(token)
            )
            assert fine.status_code == 200, fine.text
            assert fine.json()["version"] == version + 1


def test_deleting_the_owner_revokes_the_bots_tokens(db: Path) -> None:
    with account_client(db) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        with client.websocket_connect("/api/bot/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            wait_listed(client)
            assert client.get("/api/bots").json()["bots"] == ["anabot"]
            gone = client.post("/api/me/delete", json={"password": PASSWORD}, headers={"x-csrf-token": csrf})
            assert gone.status_code == 200, gone.text
            assert client.get("/api/bots").json()["bots"] == []
        refused = client.get("/api/bot/tables/nothing/request", headers=bearer(token))
        assert refused.status_code == 401
        assert rows(db, "SELECT revoked, stream, online_until FROM bot_accounts") == [(1, None, None)]


def test_a_bot_account_sits_once_at_a_table_rated_only_by_its_owner_and_at_most_max_tables(
    db: Path,
) -> None:
    with account_client(db) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        with client.websocket_connect("/api/bot/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            wait_listed(client)
            bot = {"kind": "bot", "bot": "account:anabot"}
            twice = client.post("/api/tables", json={"game": "embers", "seats": [bot, bot]})
            assert twice.status_code == 400 and "at most once" in twice.json()["error"]
            client.post("/api/logout", headers={"x-csrf-token": csrf})
            other = register(client, "bea")
            spec = {"game": "embers", "seats": [bot, {"kind": "bot", "bot": "random"}]}
            rated = client.post("/api/tables", json={**spec, "rated": True}, headers={"x-csrf-token": other})
            assert rated.status_code == 403 and "\n" not in rated.json()["error"]
            assert client.post("/api/tables", json=spec).status_code == 201  # unrated: anybody
            with patch("parlour.server.botaccounts.seating.MAX_TABLES", 1):
                busy = client.post("/api/tables", json=spec)
            assert busy.status_code == 409 and "already plays 1 tables" in busy.json()["error"]


def test_a_bot_accounts_seat_is_marked_in_every_view_and_is_no_voter(db: Path) -> None:
    with account_client(db) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        with client.websocket_connect("/api/bot/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            wait_listed(client)
            seats = [{"kind": "bot", "bot": "account:anabot"}, {"kind": "human"}, {"kind": "human"}]
            made = client.post("/api/tables", json={"game": "venture", "seats": seats})
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            links = {int(s): link.split("#k=")[1] for s, link in made.json()["seats"].items()}
            marks = [True, False, False]
            status = client.get(f"/api/tables/{table}/status").json()
            assert [s["bot_account"] for s in status["seats"]] == marks
            assert status["seats"][0]["name"] == "anabot" and status["seats"][0]["kind"] == "human"
            listed = [t for t in client.get("/api/tables").json() if t["table"] == table]
            assert [s["bot_account"] for s in listed[0]["seats"]] == marks
            view = client.get(f"/api/tables/{table}", headers=bearer(links[1])).json()
            assert [s["bot_account"] for s in view["seats"]] == marks
            live = client.app.state.hall.get(table)  # type: ignore[attr-defined]
            live.record.seats[2].timeouts = 3  # as if its clock ran out three times
            with client.websocket_connect(f"/ws/{table}") as person:
                person.send_text(json.dumps({"type": "hello", "token": links[1]}))
                person.send_text(json.dumps({"type": "replace", "seat": 2}))
                for _ in range(250):  # the one person's vote is enough: the bot account is no voter
                    if live.record.seats[2].replaced:
                        break
                    time.sleep(0.02)
                assert live.record.seats[2].replaced and live.record.seats[2].votes == [1]
            again = client.post(f"/api/tables/{table}/again", headers=bearer(links[1]))
            assert again.status_code == 409
            assert again.json()["error"] == "a table with a bot account is not played again: make a new table"
            # A table the bot is not seated at is refused as one that does not exist.
            others = [{"kind": "human"}, {"kind": "human"}]
            other = client.post("/api/tables", json={"game": "venture", "seats": others}).json()["table"]
            refusals = [
                client.get(f"/api/bot/tables/{t}/request", headers=bearer(token)) for t in (other, "nothing")
            ]
            assert [r.status_code for r in refusals] == [404, 404]
            assert refusals[0].json() == refusals[1].json()


def test_a_sockets_frames_are_counted_before_being_read_and_20_refusals_close_it(db: Path) -> None:
    limits = BotLimits(answers_per_bot=Limit(5, 60.0))
    with account_client(db, bot_limits=limits) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        with client.websocket_connect("/api/bot/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            statuses = []
            for _ in range(6):
                socket.send_text("not json at all")  # refused, but counted first
                statuses.append(json.loads(socket.receive_text())["status"])
            assert statuses == [400] * 5 + [429]
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
            assert closed.value.code == 4429
    with account_client(tmp_db(db), bot_limits=BotLimits()) as client:
        csrf = register(client, "ana")
        token = make_bot(client, csrf, "anabot").json()["token"]
        with client.websocket_connect("/api/bot/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token}))
            for n in range(19):
                socket.send_text(json.dumps({"type": "hello", "n": n}))  # not an answer
                assert "refused messages" not in json.loads(socket.receive_text())["error"]
            socket.send_text(json.dumps({"type": "hello", "n": 19}))
            last = json.loads(socket.receive_text())
            assert last["status"] == 400 and "20 refused messages" in last["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
            assert closed.value.code == 4400


def tmp_db(db: Path) -> Path:
    """Returns another database file beside ``db``."""
    return db.with_name("other-" + db.name)
