"""What the notifications' tests share: a server with quick delivery and a test clock, tables whose
seats are bound to accounts, a real local HTTP receiver for webhooks and push messages."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from parlour.server.accounts.mail import MailSettings
from parlour.server.app import create_app
from parlour.server.clock import Clock
from parlour.server.hall import Hall
from parlour.server.notify.deliver import Deliverer

from .accounts_helpers import register
from .conftest import bearer, create, database_sql, quick_settings
from .live_server import free_port

PUBLIC = "http://testserver"


@contextmanager
def notify_client(
    db: Path, mail: MailSettings | None = None, clock: Clock | None = None, notify_poll: float = 0.05
) -> Iterator[TestClient]:
    """A test client whose outbox is polled every ``notify_poll`` seconds (0.05; a test that sends
    itself, with ``deliver_now``, gives an hour), on ``clock`` (moved by the tests)."""
    settings = quick_settings(
        db,
        mail=mail,
        public_url=PUBLIC,
        clock=clock or Clock(),
        poll=0.05,
        notify_poll=notify_poll,
        notify_private_hosts=True,  # the receivers are on 127.0.0.1
        http_rate=1e6,
        http_burst=1e6,
    )
    with TestClient(create_app(settings), base_url=PUBLIC) as client:
        yield client


def deliver_now(client: TestClient) -> int:
    """Runs one poll of the app's own delivery worker in the app's event loop; returns how many it sent."""
    deliverer: Deliverer = client.app.state.deliverer  # type: ignore[attr-defined]
    assert client.portal is not None
    return client.portal.call(deliverer.tick)


def hall_of(client: TestClient) -> Hall:
    found: Hall = client.app.state.hall  # type: ignore[attr-defined]
    return found


def sql(db: Path, query: str, *args: object) -> list[tuple[Any, ...]]:
    """Runs a query (``?`` parameters) on the test's database, committed; returns its rows."""
    return database_sql(db, query, *args)


def bound_table(
    client: TestClient, db: Path, game: str = "venture", players: int = 2, move_hours: float = 24
) -> dict[str, Any]:
    """Creates a turn-based table of people, each seat bound to its own account ``<table>-<seat>`` with a
    confirmed address; ``made["csrf"][seat]`` is the CSRF token of the session that account's
    registration left (the last one is signed in)."""
    made = create(client, game, ["human"] * players, pace="turn-based", move_hours=move_hours)
    return bind_seats(client, db, made)


def bind_seats(client: TestClient, db: Path, made: dict[str, Any]) -> dict[str, Any]:
    """Binds each seat of a table ``create`` made to its own account (see ``bound_table``)."""
    made["csrf"], made["accounts"] = {}, {}
    for seat in range(len(made["tokens"])):
        name = f"p{made['table'][:8]}{seat}".lower().replace("-", "_")
        csrf = register(client, name)
        reply = client.post(
            f"/api/tables/{made['table']}/bind",
            headers={**bearer(made["tokens"][seat]), "x-csrf-token": csrf},
        )
        assert reply.status_code == 200, reply.text
        made["csrf"][seat] = csrf
        (account,) = sql(db, "SELECT id FROM accounts WHERE username_key = ?", name)[0]
        made["accounts"][seat] = account
        sql(
            db,
            "UPDATE accounts SET email = ?, email_confirmed = true WHERE id = ?",
            f"{name}@example.org",
            account,
        )
    return made


def set_for(db: Path, account: int, **columns: object) -> None:
    """Sets an account's notification columns straight in the database."""
    for name, value in columns.items():
        sql(db, f"UPDATE accounts SET {name} = ? WHERE id = ?", value, account)


def asked(client: TestClient, table: str) -> list[int]:
    return list(hall_of(client).get(table).state.deciders())


def move(client: TestClient, made: dict[str, Any]) -> int:
    """Makes the last legal moves of the (first) asked seat over HTTP until another seat is asked;
    returns the seat that moved."""
    table = made["table"]
    seat = asked(client, table)[0]
    for _ in range(60):
        view = client.get(f"/api/tables/{table}", headers=bearer(made["tokens"][seat])).json()
        reply = client.post(
            f"/api/tables/{table}/actions",
            json={"action": view["legal"][-1], "version": view["version"]},
            headers=bearer(made["tokens"][seat]),
        )
        assert reply.status_code == 200, reply.text
        if asked(client, table) != [seat]:
            return seat
    raise AssertionError("the seat is still asked after 60 moves")


def payload(row: tuple[Any, ...]) -> Any:
    """Returns an outbox row's payload (JSON: text as SQLite gives it, decoded by PostgreSQL's driver)."""
    value = row[5]
    return json.loads(value) if isinstance(value, str | bytes) else value


def outbox(db: Path, account: int | None = None) -> list[tuple[Any, ...]]:
    """Returns the outbox's rows (id, account, channel, table, kind, payload, status, attempts, error)."""
    query = (
        "SELECT id, account_id, channel, table_id, kind, payload, status, attempts, last_error"
        " FROM notifications"
    )
    if account is None:
        return sql(db, query + " ORDER BY id")
    return sql(db, query + " WHERE account_id = ? ORDER BY id", account)


def wait_until(test: Any, seconds: float = 10.0) -> Any:
    end = time.time() + seconds
    while time.time() < end:
        found = test()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("waited in vain")


class Receiver:
    """A real HTTP server on a free local port (a thread) keeping every POST: path, headers, body;
    ``status`` is what it answers (a test makes it fail)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 200
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(size)
                receiver.posts.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(receiver.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.port = free_port()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def json(self) -> list[Any]:
        return [json.loads(body) for _, _, body in self.posts]

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *args: object) -> None:
        self.server.shutdown()
        self.server.server_close()
