"""A queued notification is checked again when it is sent (issue 32): a person who moved meanwhile, or
who has a tab of the seat open now, gets nothing (the row is dropped), while a message still due goes
out; a real local HTTP receiver and a real SMTP server (aiosmtpd) receive them."""

from __future__ import annotations

from pathlib import Path

from parlour.server.accounts.mail import MailSettings

from . import notify_helpers as helpers
from . import test_account_mail
from .test_account_mail import Inbox
from .test_live import hello

inbox = test_account_mail.inbox
HOUR = 3600.0
"""The app's own poll, so that only the test's ``deliver_now`` sends."""


def test_a_message_for_a_person_who_moved_before_it_was_sent_is_dropped(db: Path) -> None:
    with helpers.Receiver() as receiver, helpers.notify_client(db, notify_poll=HOUR) as client:
        made = helpers.bound_table(client, db)
        accounts = made["accounts"]
        for seat in (0, 1):
            helpers.set_for(db, accounts[seat], webhook_url=f"http://127.0.0.1:{receiver.port}/seat{seat}")
        first = helpers.move(client, made)
        other = helpers.asked(client, made["table"])[0]
        helpers.wait_until(lambda: len(helpers.outbox(db)) == 1)  # the other's message waits
        assert helpers.move(client, made) == other  # they moved before it was sent
        helpers.wait_until(lambda: len(helpers.outbox(db)) == 2)  # the first's, still due
        assert helpers.deliver_now(client) == 1
        assert [path for path, _, _ in receiver.posts] == [f"/seat{first}"]
        status = {row[1]: row[6] for row in helpers.outbox(db)}
        assert status == {accounts[other]: "dropped", accounts[first]: "sent"}
        # A dropped message stays dropped.
        assert helpers.deliver_now(client) == 0 and len(receiver.posts) == 1


def test_an_email_is_dropped_when_a_tab_of_the_seat_is_open_when_it_is_sent(
    db: Path, inbox: tuple[Inbox, MailSettings]
) -> None:
    with helpers.notify_client(db, mail=inbox[1], notify_poll=HOUR) as client:
        made = helpers.bound_table(client, db)
        accounts, table = made["accounts"], made["table"]
        for seat in (0, 1):
            helpers.set_for(db, accounts[seat], notify_email=True)
        first = helpers.move(client, made)
        other = helpers.asked(client, table)[0]
        helpers.wait_until(lambda: len(helpers.outbox(db)) == 1)
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, made["tokens"][other])
            assert helpers.deliver_now(client) == 0
            assert [row[6] for row in helpers.outbox(db)] == ["dropped"]
            helpers.move(client, made)  # the other moves from their tab: the first, with no tab, is asked
            helpers.wait_until(lambda: len(helpers.outbox(db)) == 2)
            assert helpers.deliver_now(client) == 1
        ((to, message),) = inbox[0].wait(1)
        address = helpers.sql(db, "SELECT email FROM accounts WHERE id = ?", accounts[first])[0][0]
        assert (
            to == [address] and message["Subject"] == f"Parlour: table {table} (Venture) is waiting for you"
        )


def test_a_message_of_a_table_that_ended_before_it_was_sent_is_dropped(db: Path) -> None:
    with helpers.Receiver() as receiver, helpers.notify_client(db, notify_poll=HOUR) as client:
        made = helpers.bound_table(client, db)
        for seat in (0, 1):
            helpers.set_for(db, made["accounts"][seat], webhook_url=receiver.url)
        helpers.move(client, made)
        helpers.wait_until(lambda: len(helpers.outbox(db)) == 1)
        # As another server ends it:
        helpers.sql(db, "UPDATE tables SET status = 'over' WHERE id = ?", made["table"])
        assert helpers.deliver_now(client) == 0
        assert [row[6] for row in helpers.outbox(db)] == ["dropped"] and receiver.posts == []
