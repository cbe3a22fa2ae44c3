"""The accounts' HTTP surface fuzzed (issue 32): registration, sign-in and out, the account's fields,
deletion, e-mail links, a seat kept in an account, the notification settings and push subscriptions,
with bent bodies (fields mutated, strings spoiled with invalid Unicode) and CSRF tokens and origins
right, wrong or missing.

Every reply is held to docs/server.md: never a 5xx or a traceback; a refusal the one JSON line with its
status; invalid Unicode refused with 400; a refused request changes no account and no seat's account
(the rows compared before and after); the fuzzing account's password is never the one a mutation could
produce by chance, so it is never deleted nor its password changed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from parlour.server.accounts.counters import AccountLimits, Limit

from .hostile import spoil_strings
from .mutate import mutate
from .server_surface import Refused, Request, Server, check_reply, run_prepared, send

ROOMY = AccountLimits(*(Limit(100_000, 3600.0),) * 4)
"""Limits the fuzzer does not reach (a 429 would hide what lies behind it)."""
PASSWORD = "the fuzzer's own password 0123456789"
USERNAME = "fuzzer"
STATE = (
    "SELECT id, username, display_name, email, email_confirmed, password_hash, deleted FROM accounts "
    "ORDER BY id"
)
SEATS = "SELECT table_id, seat, account_id FROM seats ORDER BY table_id, seat"


def _templates(server: Server, rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Returns each endpoint with a body it takes (the fuzzing account's real password only to sign in)."""
    name = f"u{rng.randrange(10**6)}"
    return [
        ("/api/register", {"username": name, "password": "a password of " + name, "display_name": name}),
        ("/api/login", {"username": USERNAME, "password": rng.choice([PASSWORD, "not the password"])}),
        ("/api/logout", {}),
        ("/api/me", {"display_name": "Fuzzer", "email": rng.choice(["f@example.org", None, ""])}),
        ("/api/me/delete", {"password": "not the password"}),
        ("/api/me/password", {"password": "not the password", "new_password": "another password"}),
        ("/api/confirm", {"token": "t" * 43}),
        ("/api/reset/ask", {"email": "f@example.org"}),
        ("/api/reset", {"token": "t" * 43, "password": "another password"}),
        (f"/api/tables/{rng.choice(server.tables).id}/bind", {}),
        ("/api/me/notifications", {"email": True, "digest": False, "webhook_url": "https://example.org/h"}),
        (
            "/api/me/push",
            {"endpoint": "https://push.example.org/s", "keys": {"p256dh": "BAAA", "auth": "AAAA"}},
        ),
    ]


def _signed_in(server: Server) -> str:
    """Signs the fuzzing account in when it is not (a fuzzed sign-out may have ended it); returns its
    CSRF token."""
    me = server.client.get("/api/me").json()
    if me["account"] is None:
        reply = server.client.post("/api/login", json={"username": USERNAME, "password": PASSWORD})
        assert reply.status_code == 200, reply.text
        me = reply.json()
    token: str = me["csrf"]
    return token


def _account_input(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """One bent request to an accounts' endpoint, and its check."""
    csrf = _signed_in(server)
    path, body = rng.choice(_templates(server, rng))
    headers: dict[str, bytes] = {"content-type": b"application/json", "x-csrf-token": csrf.encode()}
    roll = rng.random()
    invalid = False
    if roll < 0.45:
        data = json.dumps(mutate(body, rng)).encode()
    elif roll < 0.7:
        spoiled = spoil_strings(body, rng)
        data, invalid = spoiled.encode(rng.random() < 0.5), spoiled.invalid
    else:
        data = json.dumps(body).encode()
        headers[rng.choice(["x-csrf-token", "origin", "authorization"])] = rng.choice(
            [b"", b"0" * 64, csrf[:-1].encode(), b"https://evil.example", b"null", b"Bearer x", b"\xff"]
        )
    if path.endswith("/bind") and "authorization" not in headers:
        table = next(t for t in server.tables if path.endswith(f"/{t.id}/bind"))
        token = rng.choice([*table.tokens.values(), table.spectator, "x" * 30])
        headers["authorization"] = f"Bearer {token}".encode()
    request = Request("POST", path, data, headers)

    def check() -> bool:
        before, seats = server.sql(STATE), server.sql(SEATS)
        status, text = send(server, request, set())
        try:
            check_reply(status, text)
        except Refused:
            assert server.sql(STATE) == before, "a refused request changed an account"
            assert server.sql(SEATS) == seats, "a refused request changed a seat's account"
            raise
        assert not invalid, f"invalid Unicode was taken ({status})"
        return True

    return request, check


def fuzz_accounts(tally: Any, server: Server, rng: random.Random, count: int) -> None:
    """Sends ``count`` bent requests to the accounts' endpoints, each held to the promises above."""
    if server.sql("SELECT count(*) FROM accounts WHERE username = ?", USERNAME) == [(0,)]:
        reply = server.client.post("/api/register", json={"username": USERNAME, "password": PASSWORD})
        assert reply.status_code == 201, reply.text
    for _ in range(count):

        def prepare() -> tuple[str, Callable[[], bool]]:
            request, body = _account_input(server, rng)
            return request.describe(), body

        run_prepared(tally, "accounts", prepare)
