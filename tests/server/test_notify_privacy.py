"""The review's privacy and robustness fixes: deletion clears the notification data and the download
holds it; a slow receiver holds up only its own message, given up at the deadline; a reset's request
writes nothing before it answers; a refused recipient's address is neither stored nor logged."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from parlour.server.accounts.mail import MailSettings
from parlour.server.accounts.service import Accounts
from parlour.server.notify import pinned

from .accounts_helpers import PASSWORD
from .live_server import free_port
from .notify_helpers import (
    PUBLIC,
    Receiver,
    asked,
    bound_table,
    deliver_now,
    hall_of,
    move,
    notify_client,
    outbox,
    set_for,
    sql,
    wait_until,
)
from .test_account_mail import Inbox
from .test_notify_push import browser_keys

HOUR = 3600.0
SECRET_HOOK = "https://hooks.example.org/services/T0/B0/very-secret-part"


def test_deletion_clears_the_notification_data_and_the_download_holds_it_first(db: Path) -> None:
    with notify_client(db, notify_poll=HOUR) as client:
        made = bound_table(client, db)
        account = made["accounts"][1]  # the signed-in account holds seat 1
        csrf = {"x-csrf-token": made["csrf"][1]}
        reply = client.post(
            "/api/me/notifications", json={"webhook_url": SECRET_HOOK, "email": True}, headers=csrf
        )
        assert reply.status_code == 200
        _, _, keys = browser_keys()
        endpoint = "https://push.example.org/send/secret-endpoint"
        subscription = {"endpoint": endpoint, "keys": keys}
        assert client.post("/api/me/push", json=subscription, headers=csrf).status_code == 201
        sql(db, "UPDATE seats SET ask = 'always' WHERE account_id = ?", account)
        move(client, made)
        if asked(client, made["table"]) != [1]:
            move(client, made)
        assert asked(client, made["table"]) == [1]  # its e-mail, webhook and push messages wait
        wait_until(lambda: {r[2] for r in outbox(db, account)} == {"email", "webhook", "push"})
        identity = f"account:{account}"
        sql(db, "INSERT INTO ratings VALUES (?, 'venture', 2, 27.5, 7.1, 1, 1, 5.0)", identity)
        sql(
            db,
            "INSERT INTO rating_history (identity, game, players, table_id, at, mu, sigma, ordinal, place)"
            " VALUES (?, 'venture', 2, ?, 5.0, 27.5, 7.1, 6.2, 1)",
            identity,
            made["table"],
        )

        data = client.get("/api/me/data").json()
        assert data["notifications"] == {"email": True, "digest": False, "webhook_url": SECRET_HOOK}
        assert data["push_subscriptions"] == [
            {
                "endpoint": endpoint,
                "p256dh": keys["p256dh"],
                "auth": keys["auth"],
                "created": pytest.approx(time.time(), abs=60),
            }
        ]
        assert sorted(d["channel"] for d in data["deliveries"]) == ["email", "push", "webhook"]
        assert {d["status"] for d in data["deliveries"]} == {"pending"}
        assert [s["ask"] for s in data["seats"]] == ["always"]
        assert data["ratings"] == [
            {"game": "venture", "players": 2, "mu": 27.5, "sigma": 7.1, "games": 1, "wins": 1, "updated": 5.0}
        ]
        assert [(h["table"], h["place"]) for h in data["rating_history"]] == [(made["table"], 1)]

        reply = client.post("/api/me/delete", json={"password": PASSWORD}, headers=csrf)
        assert reply.status_code == 200
        assert sql(
            db, "SELECT notify_email, notify_digest, webhook_url, email FROM accounts WHERE id = ?", account
        ) == [(0, 0, None, None)]
        assert sql(db, "SELECT count(*) FROM push_subscriptions WHERE account_id = ?", account) == [(0,)]
        assert outbox(db, account) == []
        for table in ("accounts", "push_subscriptions", "notifications"):
            assert SECRET_HOOK not in json.dumps(sql(db, f"SELECT * FROM {table}"))
            assert endpoint not in json.dumps(sql(db, f"SELECT * FROM {table}"))
        # The ratings stay, anonymous: the leaderboard says "deleted player", the profile is gone.
        board = client.get("/api/leaderboard", params={"game": "venture", "players": 2}).json()["board"]
        assert [(row["name"], row["username"]) for row in board] == [("deleted player", None)]
        assert sql(db, "SELECT count(*) FROM rating_history WHERE identity = ?", identity) == [(1,)]


@contextmanager
def trickler(interval: float = 0.2, lasting: float = 30.0) -> Iterator[str]:
    """A real TCP server that reads a request, then answers one byte every ``interval`` seconds (a
    status line, then headers that never end) for ``lasting`` seconds; yields its webhook URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    stop = threading.Event()

    def serve(connection: socket.socket) -> None:
        with connection:
            connection.recv(65536)
            end = time.monotonic() + lasting
            answer = b"HTTP/1.1 200 OK\r\n" + b"x-slow: y\r\n" * 10_000
            for byte in answer:
                if stop.is_set() or time.monotonic() > end:
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    return
                time.sleep(interval)

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    finally:
        stop.set()
        thread.join()
        listener.close()


def test_a_trickling_receiver_is_cut_off_at_the_deadline() -> None:
    with trickler() as url:
        started = time.monotonic()
        with pytest.raises(TimeoutError, match="within 1 seconds"):
            pinned.post(url, b"{}", {}, private=True, resolver=lambda host, port: [host], deadline=1.0)
        assert 0.9 < time.monotonic() - started < 2.5


def test_a_slow_webhook_holds_up_only_its_own_message(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pinned, "DEADLINE", 2.0, raising=False)
    with trickler() as slow, Receiver() as fast, notify_client(db, notify_poll=HOUR) as client:
        first, second = bound_table(client, db), bound_table(client, db)
        for made, url in ((first, slow), (second, fast.url)):
            for seat in (0, 1):
                set_for(db, made["accounts"][seat], webhook_url=url)
        move(client, first)  # the slow receiver's message is the older one: before the fast one's
        wait_until(lambda: len(outbox(db)) == 1)
        move(client, second)
        wait_until(lambda: len(outbox(db)) == 2)
        results: list[int] = []
        started = time.monotonic()
        worker = threading.Thread(target=lambda: results.append(deliver_now(client)))
        worker.start()
        wait_until(lambda: fast.posts, seconds=1.5)  # delivered while the slow one still trickles
        assert worker.is_alive()
        worker.join(10)
        took = time.monotonic() - started
        assert results == [1] and 1.9 < took < 4.0, took
        slow_row, fast_row = outbox(db)
        assert fast_row[6] == "sent" and slow_row[6] == "pending" and slow_row[7] == 1
        assert "within 2 seconds" in slow_row[8]


def test_a_reset_request_writes_no_token_before_it_answers(db: Path) -> None:
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    mail = MailSettings("127.0.0.1", port, sender="parlour@example.org", security="none", timeout=5)
    try:
        with notify_client(db, mail=mail, notify_poll=HOUR) as client:
            made = bound_table(client, db)  # each account has a confirmed address
            known = sql(db, "SELECT email FROM accounts WHERE id = ?", made["accounts"][0])[0][0]
            accounts = Accounts(hall_of(client).store, mail=mail, public_url=PUBLIC)  # as the app's

            async def ask(address: str) -> int:
                await accounts.ask_reset({"email": address}, "198.51.100.7")
                return len(sql(db, "SELECT 1 FROM account_tokens WHERE purpose = 'reset'"))

            assert client.portal is not None
            assert client.portal.call(ask, "nobody@example.org") == 0
            assert client.portal.call(ask, known) == 0  # the same path as for an unknown address
            ((to, message),) = handler.wait(1)
            assert to == [known] and "new password" in message["Subject"]
            assert sql(db, "SELECT account_id FROM account_tokens WHERE purpose = 'reset'") == [
                (made["accounts"][0],)
            ]
    finally:
        controller.stop()


class Refusing:
    """An aiosmtpd handler refusing every recipient with a text naming the address (as servers do)."""

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"


def test_a_refused_recipients_address_is_neither_stored_nor_logged(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    controller = Controller(Refusing(), hostname="127.0.0.1", port=port)
    controller.start()
    mail = MailSettings("127.0.0.1", port, sender="parlour@example.org", security="none", timeout=5)
    try:
        with notify_client(db, mail=mail, notify_poll=HOUR) as client:
            made = bound_table(client, db)
            for seat in (0, 1):
                set_for(db, made["accounts"][seat], notify_email=True)
            move(client, made)
            wait_until(lambda: len(outbox(db)) == 1)
            account = outbox(db)[0][1]
            address = sql(db, "SELECT email FROM accounts WHERE id = ?", account)[0][0]
            with caplog.at_level(logging.INFO):
                assert deliver_now(client) == 0
            (row,) = outbox(db)
            assert row[8] == "SMTPRecipientsRefused (550)"
            ours = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("parlour"))
            assert "not delivered: SMTPRecipientsRefused (550)" in ours  # (aiosmtpd's own log names it)
            local = address.split("@")[0]
            assert local not in row[8] and local not in ours
    finally:
        controller.stop()
