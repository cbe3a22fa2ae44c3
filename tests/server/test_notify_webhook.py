"""Notifications by webhook (issue 32): a real local HTTP receiver gets the JSON Discord and Slack take;
a failing receiver is tried again after the backoff; two delivery workers on one database send a
message once; nothing goes to a seat that is connected; the URL is checked."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from parlour.server.clock import Clock
from parlour.server.notify.deliver import BACKOFF, Channels, Deliverer
from parlour.server.notify.outbox import Asked, enqueue
from parlour.server.notify.webhook import WebhookError, check_url, post
from parlour.server.storage import Store

from .accounts_helpers import one_line_error
from .conftest import database_url
from .notify_helpers import (
    Receiver,
    asked,
    bound_table,
    move,
    notify_client,
    outbox,
    set_for,
    sql,
    wait_until,
)
from .test_live import hello


def test_the_asked_persons_webhook_gets_a_json_line_without_anything_of_the_table(db: Path) -> None:
    with Receiver() as receiver, notify_client(db) as client:
        made = bound_table(client, db)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], webhook_url=receiver.url)
        moved = move(client, made)
        other = asked(client, made["table"])[0]
        assert other != moved
        wait_until(receiver.json)
        time.sleep(0.3)
        (body,) = receiver.json()
        text = f"Parlour: table {made['table']} (Venture) is waiting for you"
        assert body == {"content": text, "text": text}
        path, headers, _ = receiver.posts[0]
        assert path == "/hook" and headers["content-type"] == "application/json"
        wait_until(lambda: outbox(db, made["accounts"][other])[0][6] == "sent")
        # The account page shows the delivery.
        client.post("/api/logout", headers={"x-csrf-token": made["csrf"][1]})
        shown = client.get("/api/me/notifications")
        assert shown.status_code == 401


def test_a_failing_receiver_is_tried_again_after_the_backoff_and_the_error_is_shown(db: Path) -> None:
    clock = Clock()
    with Receiver() as receiver, notify_client(db, clock=clock) as client:
        receiver.status = 500
        made = bound_table(client, db)
        csrf = made["csrf"][1]  # the last registration is signed in: seat 1's account
        set_for(db, made["accounts"][1], webhook_url=receiver.url)
        if asked(client, made["table"])[0] == 1:
            move(client, made)
        move(client, made)
        assert asked(client, made["table"]) == [1]
        wait_until(lambda: [r[7] for r in outbox(db)] == [1])
        row = outbox(db)[0]
        assert row[6] == "pending" and "500" in row[8]
        shown = client.get("/api/me/notifications").json()
        assert shown["deliveries"][0]["status"] == "pending" and "500" in shown["deliveries"][0]["last_error"]
        clock.advance(BACKOFF[0] + 1)
        wait_until(lambda: [r[7] for r in outbox(db)] == [2])
        receiver.status = 204
        clock.advance(BACKOFF[1] + 1)
        wait_until(lambda: outbox(db)[0][6] == "sent")
        assert len(receiver.posts) == 3
        shown = client.get("/api/me/notifications").json()
        assert shown["deliveries"][0]["status"] == "sent" and shown["deliveries"][0]["attempts"] == 3
        assert (
            client.post(
                "/api/me/notifications", json={"webhook_url": None}, headers={"x-csrf-token": csrf}
            ).json()["webhook_url"]
            is None
        )


def test_a_message_failing_four_times_is_given_up(db: Path) -> None:
    clock = Clock()
    with Receiver() as receiver, notify_client(db, clock=clock) as client:
        receiver.status = 503
        made = bound_table(client, db)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], webhook_url=receiver.url)
        move(client, made)
        for attempt, wait in enumerate((*BACKOFF, 0.0), start=1):
            wait_until(lambda attempt=attempt: [r[7] for r in outbox(db)] == [attempt])
            clock.advance(wait + 1)
        wait_until(lambda: outbox(db)[0][6] == "failed")
        assert len(receiver.posts) == 4


def test_nothing_is_sent_to_a_seat_with_a_connection_open(db: Path) -> None:
    with Receiver() as receiver, notify_client(db) as client:
        made = bound_table(client, db)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], webhook_url=receiver.url)
        first = asked(client, made["table"])[0]
        other = 1 - first
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, made["tokens"][other])
            move(client, made)
            assert asked(client, made["table"]) == [other]
            move(client, made)
        assert outbox(db, made["accounts"][other]) == []
        wait_until(lambda: len(receiver.posts) == 1)  # the first seat's account, asked again, unconnected
        assert outbox(db, made["accounts"][first])[0][3] == made["table"]


def test_two_delivery_workers_on_one_database_send_each_message_once(db: Path) -> None:
    with notify_client(db) as client:
        made = bound_table(client, db)
    table, accounts = made["table"], made["accounts"]
    stores = [Store(database_url(db)), Store(database_url(db))]
    with Receiver() as receiver:
        try:
            clock = Clock()
            for seat in (0, 1):
                set_for(db, accounts[seat], webhook_url=receiver.url)
            for number in range(20):  # each ask waits for its own delivery: 20 messages
                sql(db, "UPDATE notifications SET status = 'sent'")
                assert enqueue(stores[0], Asked(table, "Venture", (number % 2,), "turn"), clock.now()) == 1
            sql(db, "UPDATE notifications SET status = 'pending'")
            channels = Channels(None, "http://x", b"k", private_hosts=True)
            workers = [Deliverer(store, channels, clock) for store in stores]
            start = threading.Barrier(2)

            def work(worker: Deliverer) -> None:
                start.wait()
                asyncio.run(worker.tick())

            threads = [threading.Thread(target=work, args=(w,)) for w in workers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert len(receiver.posts) == 20
            assert workers[0].sent + workers[1].sent == 20
            assert all(row[6] == "sent" and row[7] == 1 for row in outbox(db))
        finally:
            for store in stores:
                store.close()


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/x",
        "http://user:secret@example.org/x",
        "http://@example.org/",
        "javascript:alert(1)",
        "https:///nohost",
        "http://example.org/" + "x" * 500,
        "http://exämple.org/",
        " http://example.org/",
        "http://example.org:99999/",
        17,
    ],
)
def test_a_webhook_url_is_http_or_https_without_credentials_and_short(url: object) -> None:
    with pytest.raises(WebhookError):
        check_url(url)


def test_the_settings_refuse_a_bad_url_and_need_the_csrf_token(db: Path) -> None:
    with notify_client(db) as client:
        made = bound_table(client, db)
        csrf = {"x-csrf-token": made["csrf"][1]}
        one_line_error(
            client.post("/api/me/notifications", json={"webhook_url": "http://a:b@c/"}, headers=csrf), 400
        )
        one_line_error(
            client.post("/api/me/notifications", json={"webhook_url": "https://example.org/h"}), 403
        )
        one_line_error(client.post("/api/me/notifications", json={"email": "yes"}, headers=csrf), 400)
        reply = client.post(
            "/api/me/notifications",
            json={"webhook_url": "https://example.org/h", "email": True},
            headers=csrf,
        )
        assert reply.status_code == 200 and reply.json()["webhook_url"] == "https://example.org/h"
        assert client.get("/api/me/notifications").json()["email"] is True


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9/x", "http://localhost/x", "http://10.1.2.3/", "http://[::1]/"]
)
def test_a_webhook_to_a_private_address_is_refused_by_default(url: str) -> None:
    with pytest.raises(OSError, match="not a public address"):
        post(url, "Your turn")
