"""Accounts (issue 32): registration, sign-in and out, CSRF, session fixation, rate limits counted in the
database, no account enumeration (the same answer and time), validation, seat binding, deletion, and no
e-mail address of another player in anything sent."""

from __future__ import annotations

import contextlib
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.server.accounts.cookie import COOKIE
from parlour.server.accounts.counters import AccountLimits, Limit

from .accounts_helpers import PASSWORD, ROOMY, account_client, login, one_line_error, register, rows
from .conftest import bearer, column_names, create, database_sql, table_names
from .migrating import downgrade


@pytest.fixture
def client(db: Path) -> Any:
    with account_client(db) as found:
        yield found


def browser_of(client: TestClient, cookies: dict[str, str] | None = None) -> Any:
    """Another browser on the same server (its own cookies; the server's life is ``client``'s)."""
    return contextlib.nullcontext(TestClient(client.app, cookies=cookies or {}))


def csrf(token: str) -> dict[str, str]:
    return {"x-csrf-token": token}


def me(client: TestClient) -> Any:
    return client.get("/api/me").json()["account"]


def test_register_sign_out_and_sign_in_with_the_username_in_any_case(client: TestClient, db: Path) -> None:
    reply = client.post("/api/register", json={"username": "Ana", "password": PASSWORD})
    assert reply.status_code == 201
    cookie = reply.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie  # plain http here
    assert me(client)["username"] == "Ana" and me(client)["display_name"] == "Ana"
    assert client.post("/api/logout", headers=csrf(reply.json()["csrf"])).json() == {"account": None}
    assert me(client) is None
    assert login(client, "aNA").status_code == 200 and me(client)["username"] == "Ana"
    stored = rows(db, "SELECT password_hash FROM accounts")
    assert stored[0][0].startswith("$argon2id$") and PASSWORD not in stored[0][0]


def test_a_session_cookie_over_https_is_secure(db: Path) -> None:
    with account_client(db, base_url="https://testserver") as client:
        reply = client.post("/api/register", json={"username": "ana", "password": PASSWORD})
        assert "Secure" in reply.headers["set-cookie"]


def test_only_hashes_of_session_tokens_are_stored(client: TestClient, db: Path) -> None:
    register(client, "ana")
    token = client.cookies[COOKIE]
    stored = [h for (h,) in rows(db, "SELECT token_hash FROM sessions")]
    assert len(stored) == 1 and token not in stored[0] and len(stored[0]) == 64


def test_a_changing_request_without_its_csrf_token_is_refused_and_changes_nothing(client: TestClient) -> None:
    token = register(client, "ana")
    made = create(client, "venture", ["human", "human"])
    for path, body, extra in [
        ("/api/me", {"display_name": "Mallory"}, {}),
        ("/api/me/delete", {"password": PASSWORD}, {}),
        ("/api/me/password", {"password": PASSWORD, "new_password": "x" * 10}, {}),
        ("/api/logout", {}, {}),
        (f"/api/tables/{made['table']}/bind", {}, bearer(made["tokens"][0])),
    ]:
        for headers in ({}, csrf("0" * 64), csrf(token[:-1]), {"x-csrf-token": b"\xe9"}):
            reply = client.post(path, json=body, headers={**headers, **extra})
            assert "X-CSRF-Token" in one_line_error(reply, 403), path
    assert me(client)["display_name"] == "ana"
    assert client.get("/api/me/data").json()["seats"] == []
    # another site's page, even knowing the token, is refused by its Origin
    evil = {**csrf(token), "origin": "https://evil.example"}
    assert "another site" in one_line_error(
        client.post("/api/me", json={"display_name": "M"}, headers=evil), 403
    )
    assert one_line_error(client.post("/api/login", json={}, headers={"origin": "null"}), 403)
    ours = {**csrf(token), "origin": "http://testserver"}
    assert client.post("/api/me", json={"display_name": "Ana B"}, headers=ours).status_code == 200


def test_session_fixation_is_impossible(client: TestClient) -> None:
    register(client, "ana")
    planted = "planted-by-an-attacker-0123456789"
    with browser_of(client, cookies={COOKIE: planted}) as victim:
        reply = login(victim, "ana")
        first = reply.cookies[COOKIE]
        assert reply.status_code == 200 and first != planted
        again = login(TestClient(client.app, cookies={COOKIE: first}), "ana")
        second = again.cookies[COOKIE]
        assert second != first  # a new token at every sign-in
    with browser_of(client, cookies={COOKIE: first}) as old:
        assert me(old) is None  # the session the browser held before signing in again is over
    with browser_of(client, cookies={COOKIE: planted}) as attacker:
        assert me(attacker) is None
    with browser_of(client, cookies={COOKIE: second}) as signed:
        assert me(signed)["username"] == "ana"


def test_an_expired_session_signs_nobody_in(client: TestClient, db: Path) -> None:
    register(client, "ana")
    assert me(client) is not None
    database_sql(db, "UPDATE sessions SET expires = 0")
    assert me(client) is None
    assert one_line_error(client.post("/api/me", json={}), 401) == "sign in first"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ([], "is a JSON object"),
        ({"username": "ab", "password": PASSWORD}, "a username is 3 to 24"),
        ({"username": "a" * 25, "password": PASSWORD}, "a username is 3 to 24"),
        ({"username": "<script>", "password": PASSWORD}, "a username is 3 to 24"),
        ({"username": "ana bo", "password": PASSWORD}, "a username is 3 to 24"),
        ({"username": "ánа", "password": PASSWORD}, "a username is 3 to 24"),
        ({"username": 7, "password": PASSWORD}, "a username is 3 to 24"),
        ({"username": "ana", "password": "short"}, "a password is 8 to 200"),
        ({"username": "ana", "password": "x" * 201}, "a password is 8 to 200"),
        ({"username": "ana", "password": ["x"] * 9}, "a password is 8 to 200"),
        ({"username": "ana", "password": PASSWORD, "display_name": "x" * 25}, "a name is 1 to 24"),
        ({"username": "ana", "password": PASSWORD, "display_name": "A\u202eB"}, "a name is 1 to 24"),
        ({"username": "ana", "password": PASSWORD, "email": "not-an-address"}, "not an e-mail address"),
        ({"username": "ana", "password": PASSWORD, "email": "a@b.c\r\nBcc: x@y.z"}, "not an e-mail"),
        ({"username": "ana", "password": PASSWORD, "email": "a" * 250 + "@b.cd"}, "at most 254"),
        ({"username": "ana", "password": PASSWORD, "admin": True}, "unknown field 'admin'"),
    ],
)
def test_bad_registrations_are_refused_with_one_line_and_make_nothing(
    client: TestClient, db: Path, body: Any, reason: str
) -> None:
    assert reason in one_line_error(client.post("/api/register", json=body), 400)
    assert rows(db, "SELECT count(*) FROM accounts") == [(0,)] and COOKIE not in client.cookies


def test_a_username_is_taken_whatever_its_case(client: TestClient, db: Path) -> None:
    register(client, "Ana")
    assert one_line_error(client.post("/api/register", json={"username": "aNa", "password": PASSWORD}), 409)
    assert rows(db, "SELECT count(*) FROM accounts") == [(1,)]


def test_sign_in_attempts_are_limited_per_username_and_per_address_in_the_database(db: Path) -> None:
    limits = AccountLimits(
        login_per_user=Limit(3, 900.0),
        login_per_address=Limit(6, 900.0),
        register_per_address=Limit(2, 3600.0),
    )
    with account_client(db, limits) as client:
        register(client, "ana")
        register(client, "bob")
        assert "too many" in one_line_error(
            client.post("/api/register", json={"username": "cyd", "password": PASSWORD}), 429
        )
        for _ in range(3):
            assert one_line_error(login(client, "ana", "wrong password"), 401)
        assert "this username" in one_line_error(login(client, "ana"), 429)  # even the right password now
        assert login(client, "bob").status_code == 200  # another username goes on
        assert login(client, "nobody", "x" * 8).status_code == 401  # the address's 6th attempt
        assert "sign-in attempts" in one_line_error(login(client, "bob"), 429)  # the address's 7th
    # the counts are in the database: another server process on it (a restart, a second node) sees them
    with account_client(db, limits) as again:
        assert one_line_error(login(again, "bob"), 429)


def test_an_unknown_username_and_a_wrong_password_get_the_same_answer_in_the_same_time(
    client: TestClient,
) -> None:
    register(client, "ana")
    register(client, "warmup")
    login(client, "warmup")
    answers = set()
    medians: list[tuple[float, float]] = []
    for round_ in range(4):  # a round on a quiet moment is enough: a real difference shows in every one
        known: list[float] = []
        unknown: list[float] = []
        for attempt in range(20):
            pair = [("ana", known), (f"nobody{round_}x{attempt}", unknown)]
            for username, times in pair if attempt % 2 else reversed(pair):  # neither always first
                start = time.perf_counter()
                reply = login(client, username, "not the password")
                times.append(time.perf_counter() - start)
                answers.add((reply.status_code, reply.text, reply.headers.get("set-cookie")))
        a, b = statistics.median(known), statistics.median(unknown)
        medians.append((a, b))
        print(f"sign-in medians: wrong password {a * 1000:.1f} ms, unknown username {b * 1000:.1f} ms")
        if abs(a - b) <= max(0.15 * max(a, b), 0.005):
            break
    refusal = {"type": "error", "status": 401, "error": "wrong username or password"}
    assert answers == {(401, json.dumps(refusal, separators=(",", ":")), None)}
    assert abs(a - b) <= max(0.15 * max(a, b), 0.005), medians


def test_a_display_name_with_html_is_kept_as_text(client: TestClient) -> None:
    name = "<img src=x onerror=alert(1)>"
    register(client, "ana", display_name=name[:24])
    assert me(client)["display_name"] == name[:24]
    assert "<img" not in client.get("/account").text  # the page holds no name: its script writes text


def test_changing_the_display_name_and_the_address(client: TestClient) -> None:
    token = register(client, "ana")
    reply = client.post(
        "/api/me", json={"display_name": " Ana B ", "email": "ana@example.org"}, headers=csrf(token)
    )
    assert reply.status_code == 200 and reply.json()["account"]["display_name"] == "Ana B"
    assert me(client)["email"] == "ana@example.org" and me(client)["email_confirmed"] is False
    assert one_line_error(client.post("/api/me", json={"email": "nope"}, headers=csrf(token)), 400)
    assert one_line_error(client.post("/api/me", json={"password": "x"}, headers=csrf(token)), 400)
    assert me(client)["email"] == "ana@example.org"
    assert (
        client.post("/api/me", json={"email": None}, headers=csrf(token)).json()["account"]["email"] is None
    )


def test_a_seat_is_kept_in_the_account_of_the_person_holding_its_link(client: TestClient, db: Path) -> None:
    made = create(client, "venture", ["human", "human", "greedy"])
    table, tokens = made["table"], made["tokens"]
    url = f"/api/tables/{table}/bind"
    assert one_line_error(client.post(url, headers=bearer(tokens[0])), 401)  # nobody signed in
    token = register(client, "ana")
    headers = {**csrf(token), **bearer(tokens[0])}
    reply = client.post(url, headers=headers)
    assert reply.status_code == 200 and reply.json() == {"table": table, "seat": 0, "account": "ana"}
    assert client.post(url, headers=headers).status_code == 200  # again: still ana's
    assert one_line_error(client.post(url, headers={**csrf(token), **bearer(made["spectator_token"])}), 403)
    assert one_line_error(client.post(url, headers={**csrf(token), **bearer("x" * 32)}), 403)
    assert one_line_error(client.post(url, headers=csrf(token)), 403)
    assert one_line_error(client.post("/api/tables/nope/bind", headers=headers), 404)
    seats = client.get("/api/me/data").json()["seats"]
    assert [(s["table"], s["seat"], s["game"]) for s in seats] == [(table, 0, "venture")]
    # Bo holds the same link (it was shared): the seat stays Ana's
    with browser_of(client) as other:
        bo = register(other, "bob")
        assert "another account" in one_line_error(
            other.post(url, headers={**csrf(bo), **bearer(tokens[0])}), 409
        )
        assert other.post(url, headers={**csrf(bo), **bearer(tokens[1])}).status_code == 200
    assert rows(db, "SELECT seat, account_id FROM seats WHERE table_id = ? ORDER BY seat", table) == [
        (0, 1), (1, 2), (2, None)
    ]  # fmt: skip


def test_a_nameless_seat_takes_its_accounts_display_name_and_a_named_one_keeps_its_own(
    client: TestClient,
) -> None:
    made = create(client, "venture", ["human", "human"])
    table, tokens = made["table"], made["tokens"]
    with browser_of(client) as other:  # Bo names his seat first
        with other.websocket_connect(f"/ws/{table}") as socket:
            socket.send_json({"type": "hello", "token": tokens[1]})
            socket.receive_json()
            socket.send_json({"type": "name", "text": "Bobby"})
            while socket.receive_json().get("seats", [{}, {}])[1].get("name") != "Bobby":
                pass
        bo = register(other, "bob", display_name="Bo")
        other.post(f"/api/tables/{table}/bind", headers={**csrf(bo), **bearer(tokens[1])})
    ana = register(client, "ana", display_name="Ana <b>")
    client.post(f"/api/tables/{table}/bind", headers={**csrf(ana), **bearer(tokens[0])})
    seats = client.get(f"/api/tables/{table}/status").json()["seats"]
    assert [s["name"] for s in seats] == ["Ana <b>", "Bobby"]


def test_a_deleted_account_leaves_its_games_with_deleted_player(client: TestClient, db: Path) -> None:
    made = create(client, "venture", ["human", "human"])
    table, tokens = made["table"], made["tokens"]
    client.post(f"/api/tables/{table}/actions", json={}, headers=bearer(tokens[0]))
    token = register(client, "ana", email="ana@example.org", display_name="Ana")
    client.post(f"/api/tables/{table}/bind", headers={**csrf(token), **bearer(tokens[0])})
    assert one_line_error(client.post("/api/me/delete", json={}, headers=csrf(token)), 400)
    assert one_line_error(
        client.post("/api/me/delete", json={"password": "wrong password"}, headers=csrf(token)), 403
    )
    assert me(client)["username"] == "ana"
    reply = client.post("/api/me/delete", json={"password": PASSWORD}, headers=csrf(token))
    assert reply.status_code == 200 and reply.json() == {"account": None}
    assert me(client) is None and one_line_error(login(client, "ana"), 401)
    status = client.get(f"/api/tables/{table}/status").json()
    assert status["seats"][0]["name"] == "deleted player" and status["seats"][1]["name"] is None
    assert (
        client.get(f"/api/tables/{table}", headers=bearer(tokens[1])).json()["seats"][0]["name"]
        == "deleted player"
    )
    assert [s["seats"][0]["name"] for s in client.get("/api/tables").json()] == ["deleted player"]
    assert rows(db, "SELECT email, password_hash, display_name, deleted FROM accounts") == [
        (None, "", "deleted player", 1)
    ]
    assert rows(db, "SELECT count(*) FROM sessions") == [(0,)]
    assert one_line_error(client.post("/api/register", json={"username": "ANA", "password": PASSWORD}), 409)
    # the game goes on: the seat's link still plays it
    assert client.get(f"/api/tables/{table}", headers=bearer(tokens[0])).status_code == 200


def test_another_players_address_is_in_nothing_sent(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    table, tokens = made["table"], made["tokens"]
    address = "ana.secret@example.org"
    with browser_of(client) as ana:
        token = register(ana, "ana", email=address)
        ana.post(f"/api/tables/{table}/bind", headers={**csrf(token), **bearer(tokens[0])})
        assert address in ana.get("/api/me").text  # her own page shows it
    bo = register(client, "bob")
    client.post(f"/api/tables/{table}/bind", headers={**csrf(bo), **bearer(tokens[1])})
    seen = [
        client.get("/api/me"),
        client.get("/api/me/data"),
        client.get("/api/tables"),
        client.get(f"/api/tables/{table}/status"),
        client.get(f"/api/tables/{table}", headers=bearer(tokens[1])),
        client.get("/account"),
        client.get("/"),
        login(client, "ana", "wrong password"),
        client.post("/api/register", json={"username": "ana", "password": PASSWORD}),
    ]
    for reply in seen:
        assert address not in reply.text and "ana.secret" not in reply.text, reply.url


def test_the_data_download_is_an_attachment_with_no_secret(client: TestClient) -> None:
    register(client, "ana", email="ana@example.org")
    reply = client.get("/api/me/data")
    assert reply.headers["content-disposition"] == 'attachment; filename="parlour-ana.json"'
    data = reply.json()
    assert data["account"]["email"] == "ana@example.org" and len(data["sessions"]) == 1
    assert reply.headers["cache-control"] == "no-store" == client.get("/api/me").headers["cache-control"]
    assert "argon2" not in reply.text and client.cookies[COOKIE] not in reply.text
    assert one_line_error(TestClient(client.app).get("/api/me/data"), 401)


def test_sign_in_and_registration_are_answered_quickly(client: TestClient) -> None:
    start = time.perf_counter()
    register(client, "ana")
    made = time.perf_counter() - start
    start = time.perf_counter()
    assert login(client, "ana").status_code == 200
    took = time.perf_counter() - start
    print(f"registration {made * 1000:.0f} ms, sign-in {took * 1000:.0f} ms")
    assert made < 2 and took < 2


BODIES: list[Any] = [None, 0, -1, 1e308, "", "x", [], {}, [{}], True, {"username": None}, {"password": {}}]
NASTY = [
    "",
    "\x00",
    "\u202e",
    "é" * 300,
    "x" * 20_000,
    "<b>",
    "a@b.c\nx",
    "../../etc/passwd",
    "ana",
    PASSWORD,
]


def _random_body(rng: random.Random) -> bytes:
    """A random request body: JSON of the endpoints' fields with nasty values, or bytes that are not JSON."""
    roll = rng.random()
    if roll < 0.1:
        return rng.choice([b"{", b"\xff\xfe", b'{"username": "\\ud800"}', b"[" * 5000, b"x" * 17_000])
    if roll < 0.3:
        return json.dumps(rng.choice(BODIES)).encode()
    fields = ["username", "password", "display_name", "email", "token", "evil"]
    body = {name: rng.choice([*NASTY, *BODIES]) for name in rng.sample(fields, rng.randint(0, 4))}
    return json.dumps(body).encode()


def test_random_bodies_get_one_line_refusals_and_change_nothing(db: Path) -> None:
    rng = random.Random(32)
    with account_client(db, ROOMY) as client:
        token = register(client, "ana", email="ana@example.org")
        made = create(client, "venture", ["human", "human"])
        before = rows(db, "SELECT username, display_name, email, password_hash FROM accounts")
        paths = ["/api/login", "/api/me", "/api/me/delete", "/api/confirm", "/api/reset/ask", "/api/reset"]
        paths.append(f"/api/tables/{made['table']}/bind")
        statuses: dict[int, int] = {}
        for _ in range(300):
            path = rng.choice(paths)
            headers = {"content-type": "application/json", **csrf(token)}
            if path.endswith("/bind"):
                headers["authorization"] = f"Bearer {rng.choice(['', 'a b', 'x' * 300, '%00'])}x"
            reply = client.post(path, content=_random_body(rng), headers=headers)
            statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1
            assert reply.status_code < 500, reply.text
            if reply.status_code >= 400:
                one_line_error(reply, reply.status_code)
        for _ in range(100):  # registrations: refused, or an account made from valid fields
            reply = TestClient(client.app).post("/api/register", content=_random_body(rng))
            assert reply.status_code in (201, 400, 409, 413), reply.text
            if reply.status_code != 201:
                one_line_error(reply, reply.status_code)
        after = rows(db, "SELECT username, display_name, email, password_hash FROM accounts")
        assert after[: len(before)] == before  # the fields of ana no random request could change
        assert me(client)["username"] == "ana"
        print("statuses", dict(sorted(statuses.items())))


def test_migration_0007_goes_down_and_up_and_the_games_stay(db: Path) -> None:
    with account_client(db) as client:
        made = create(client, "venture", ["human", "human"])
        register(client, "ana")
    downgrade(db, "0006")
    assert not table_names(db) & {"accounts", "sessions", "account_tokens", "rate_counts"}
    assert "account_id" not in column_names(db, "seats")
    with account_client(db) as client:  # opened: upgraded to 0007 again
        assert rows(db, "SELECT account_id FROM seats") == [(None,), (None,)]
        assert (
            client.get(f"/api/tables/{made['table']}", headers=bearer(made["tokens"][0])).status_code == 200
        )
        register(client, "ana")


def test_play_again_keeps_each_persons_seat_in_their_account(client: TestClient, db: Path) -> None:
    from .test_play_again import again, finished

    made = finished(client, ["human", "random", "human"])
    table, tokens = made["table"], made["tokens"]
    ana = register(client, "ana")
    client.post(f"/api/tables/{table}/bind", headers={**csrf(ana), **bearer(tokens[0])})
    new = again(client, table, tokens[2]).json()["table"]
    # the seats rotate by one: the new seat 2 is the old seat 0 (Ana's), seat 1 the old seat 2 (nobody's)
    assert rows(db, "SELECT seat, account_id FROM seats WHERE table_id = ? ORDER BY seat", new) == [
        (0, None), (1, None), (2, 1)
    ]  # fmt: skip
    assert [s["table"] for s in client.get("/api/me/data").json()["seats"]] == [table, new]


def test_changing_the_password_ends_every_other_session(client: TestClient) -> None:
    token = register(client, "ana")
    elsewhere = login(browser_of(client).__enter__(), "ana").cookies[COOKIE]
    url = "/api/me/password"
    wrong = {"password": "not the password", "new_password": "a brand new password"}
    assert one_line_error(client.post(url, json=wrong, headers=csrf(token)), 403)
    right = {"password": PASSWORD, "new_password": "a brand new password"}
    assert one_line_error(client.post(url, json=right), 403)  # no CSRF token
    assert login(client, "ana").status_code == 200  # unchanged so far
    token = client.get("/api/me").json()["csrf"]
    reply = client.post(url, json=right, headers=csrf(token))
    assert reply.status_code == 200 and reply.cookies[COOKIE]
    assert me(client)["username"] == "ana"  # this browser stays signed in, with a new session
    with browser_of(client, cookies={COOKIE: elsewhere}) as other:
        assert me(other) is None
    assert one_line_error(login(client, "ana"), 401)
    assert login(client, "ana", "a brand new password").status_code == 200
