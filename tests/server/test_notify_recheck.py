"""A queued notification is checked again when it is sent (issue 32): a person who moved meanwhile, or
who has a tab of the seat open now, gets nothing (the row is dropped), while a message still due goes
out; a real local HTTP receiver and a real SMTP server (aiosmtpd) receive them."""

from __future__ import annotations

from pathlib import Path

from parlour.server.accounts.mail import MailSettings

from . import test_account_mail
from .notify_helpers import (
    Receiver,
    asked,
    bound_table,
    deliver_now,
    move,
    notify_client,
    outbox,
    set_for,
    sql,
    wait_until,
)
from .test_account_mail import Inbox
from .test_live import hello

inbox = test_account_mail.inbox
HOUR = 3600.0
"""The app's own poll, so that only the test's ``deliver_now`` sends."""


def test_a_message_for_a_person_who_moved_before_it_was_sent_is_dropped(db: Path) -> None:
    with Receiver() as receiver, notify_client(db, notify_poll=HOUR) as client:
        made = bound_table(client, db)
        accounts = made["accounts"]
        for seat in (0, 1):
            set_for(db, accounts[seat], webhook_url=f"http://127.0.0.1:{receiver.port}/seat{seat}")
        first = move(client, made)
        other = asked(client, made["table"])[0]
        wait_until(lambda: len(outbox(db)) == 1)  # the other's message waits
        assert move(client, made) == other  # they moved before it was sent
        wait_until(lambda: len(outbox(db)) == 2)  # the first's, still due
        assert deliver_now(client) == 1
        assert [path for path, _, _ in receiver.posts] == [f"/seat{first}"]
        status = {row[1]: row[6] for row in outbox(db)}
        assert status == {accounts[other]: "dropped", accounts[first]: "sent"}
        assert deliver_now(client) == 0 and len(receiver.posts) == 1  # a dropped message stays dropped


def test_an_email_is_dropped_when_a_tab_of_the_seat_is_open_when_it_is_sent(
    db: Path, inbox: tuple[Inbox, MailSettings]
) -> None:
    with notify_client(db, mail=inbox[1], notify_poll=HOUR) as client:
        made = bound_table(client, db)
        accounts, table = made["accounts"], made["table"]
        for seat in (0, 1):
            set_for(db, accounts[seat], notify_email=True)
        first = move(client, made)
        other = asked(client, table)[0]
        wait_until(lambda: len(outbox(db)) == 1)
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, made["tokens"][other])
            assert deliver_now(client) == 0
            assert [row[6] for row in outbox(db)] == ["dropped"]
            move(client, made)  # the other moves from their tab: the first, with no tab, is asked
            wait_until(lambda: len(outbox(db)) == 2)
            assert deliver_now(client) == 1
        ((to, message),) = inbox[0].wait(1)
        address = sql(db, "SELECT email FROM accounts WHERE id = ?", accounts[first])[0][0]
        assert (
            to == [address] and message["Subject"] == f"Parlour: table {table} (Venture) is waiting for you"
        )


def test_a_message_of_a_table_that_ended_before_it_was_sent_is_dropped(db: Path) -> None:
    with Receiver() as receiver, notify_client(db, notify_poll=HOUR) as client:
        made = bound_table(client, db)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], webhook_url=receiver.url)
        move(client, made)
        wait_until(lambda: len(outbox(db)) == 1)
        sql(db, "UPDATE tables SET status = 'over' WHERE id = ?", made["table"])  # as another server ends it
        assert deliver_now(client) == 0
        assert [row[6] for row in outbox(db)] == ["dropped"] and receiver.posts == []
