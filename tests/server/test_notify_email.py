"""Notifications by e-mail (issue 32): an aiosmtpd server started by the test receives them; the link
opens the table; the unsubscribe link shows a button (a scanner's GET changes nothing) whose POST, or a
mail program's one-click POST (RFC 8058), unsubscribes without signing in; at most one e-mail per table
an hour; the daily digest; nothing when SMTP is not configured."""

from __future__ import annotations

import re
import time
from email.message import Message
from pathlib import Path

from parlour.server.accounts.mail import MailSettings
from parlour.server.clock import Clock
from parlour.server.notify.email import check_unsubscribe, unsubscribe_key, unsubscribe_token
from parlour.server.notify.outbox import DAY, HOUR

from . import test_account_mail
from .notify_helpers import (
    PUBLIC,
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

inbox = test_account_mail.inbox
"""The accounts' e-mail tests' fixture: a real SMTP server (aiosmtpd) on a free local port."""


def body_of(message: Message) -> str:
    body = message.get_payload(decode=True)
    assert isinstance(body, bytes)
    return body.decode()


def test_an_email_names_the_table_its_link_opens_it_and_its_unsubscribe_page_posts(
    db: Path, inbox: tuple[Inbox, MailSettings]
) -> None:
    with notify_client(db, mail=inbox[1]) as client:
        made = bound_table(client, db)
        table = made["table"]
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], notify_email=True)
        move(client, made)
        (other,) = asked(client, table)
        ((to, message),) = inbox[0].wait(1)
        name = sql(db, "SELECT email FROM accounts WHERE id = ?", made["accounts"][other])[0][0]
        assert to == [name] and message["Subject"] == f"Parlour: table {table} (Venture) is waiting for you"
        body = body_of(message)
        link = re.search(rf"{PUBLIC}/t/[A-Za-z0-9_-]+", body)
        assert link and link.group(0) == f"{PUBLIC}/t/{table}"
        page = client.get(link.group(0))
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert client.get(f"/api/tables/{table}/status").status_code == 200  # the table the page shows
        assert "#k=" not in body  # no seat token: the server does not keep them
        unsubscribe = re.search(rf"{PUBLIC}(/api/notify/unsubscribe\?token=[0-9]+\.[0-9a-f]+)", body)
        assert unsubscribe and message["List-Unsubscribe"] == f"<{PUBLIC}{unsubscribe.group(1)}>"
        client.cookies.clear()  # nobody signed in
        good = unsubscribe.group(1)
        cut = good.index(".") + 1
        forged = good[:cut] + ("1" if good[cut] == "0" else "0") + good[cut + 1 :]  # one digit changed
        assert forged != good
        assert client.get(forged).status_code == 400
        assert client.post(forged).status_code == 400
        account = made["accounts"][other]
        assert sql(db, "SELECT notify_email FROM accounts WHERE id = ?", account) == [(1,)]
        assert client.head(unsubscribe.group(1)).status_code == 200
        for _ in range(2):  # a mail scanner's prefetch, a preview: nothing changes
            page = client.get(unsubscribe.group(1))
            assert page.status_code == 200 and '<form method="post"' in page.text
        assert sql(db, "SELECT notify_email FROM accounts WHERE id = ?", account) == [(1,)]
        token = re.search(r'name="token" value="([^"]+)"', page.text)
        assert token and token.group(1) == unsubscribe.group(1).split("=")[1]
        bad = client.post(
            "/api/notify/unsubscribe", data={"token": forged.split("=")[1]}, headers={"origin": PUBLIC}
        )
        assert bad.status_code == 400
        assert sql(db, "SELECT notify_email FROM accounts WHERE id = ?", account) == [(1,)]
        reply = client.post(
            "/api/notify/unsubscribe", data={"token": token.group(1)}, headers={"origin": PUBLIC}
        )
        assert reply.status_code == 200 and "no more e-mails" in reply.text
        assert sql(db, "SELECT notify_email FROM accounts WHERE id = ?", account) == [(0,)]


def test_the_one_click_post_of_rfc_8058_unsubscribes(db: Path, inbox: tuple[Inbox, MailSettings]) -> None:
    with notify_client(db, mail=inbox[1]) as client:
        made = bound_table(client, db)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], notify_email=True)
        move(client, made)
        (other,) = asked(client, made["table"])
        ((_, message),) = inbox[0].wait(1)
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        link = message["List-Unsubscribe"].strip("<>")
        client.cookies.clear()
        # What a mail provider sends (RFC 8058 section 3.2): a POST to the header's URL, no Origin, no cookie.
        reply = client.post(
            link.removeprefix(PUBLIC),
            content=b"List-Unsubscribe=One-Click",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert reply.status_code == 200
        assert sql(db, "SELECT notify_email FROM accounts WHERE id = ?", made["accounts"][other]) == [(0,)]
        assert sql(db, "SELECT notify_email FROM accounts WHERE id = ?", made["accounts"][1 - other]) == [
            (1,)
        ]


def test_at_most_one_email_per_table_an_hour(db: Path, inbox: tuple[Inbox, MailSettings]) -> None:
    clock = Clock()
    with notify_client(db, mail=inbox[1], clock=clock, notify_poll=HOUR) as client:
        made = bound_table(client, db)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], notify_email=True)
        for number in range(4):  # each seat asked twice within the hour: one e-mail each
            move(client, made)
            if number < 2:
                wait_until(lambda number=number: len(outbox(db)) == number + 1)
            else:
                time.sleep(0.3)  # time for a row that should not be written
            deliver_now(client)  # each sent before the person moves (or checked again, and dropped)
        assert len(inbox[0].messages) == 2
        assert [row[6] for row in outbox(db)] == ["sent", "sent"]
        clock.advance(HOUR + 1)
        move(client, made)
        wait_until(lambda: len(outbox(db)) == 3)
        assert deliver_now(client) == 1 and len(inbox[0].messages) == 3


def test_the_daily_digest_lists_the_tables_in_one_email_a_day(
    db: Path, inbox: tuple[Inbox, MailSettings]
) -> None:
    clock = Clock()
    with notify_client(db, mail=inbox[1], clock=clock) as client:
        first = bound_table(client, db, move_hours=72)  # no clock runs out when the day passes
        second = bound_table(client, db, move_hours=72)
        for made in (first, second):
            for seat in (0, 1):
                set_for(db, made["accounts"][seat], notify_email=True, notify_digest=True)
        # One account holds a seat at both tables: rebind the second table's seats to the first's accounts.
        for seat in (0, 1):
            sql(
                db,
                "UPDATE seats SET account_id = ? WHERE table_id = ? AND seat = ?",
                first["accounts"][seat],
                second["table"],
                seat,
            )
        for made in (first, second):
            for _ in range(2):
                move(client, made)
        time.sleep(0.3)
        assert inbox[0].messages == []
        digests = [row for row in outbox(db) if row[4] == "digest"]
        assert len(digests) == len({row[1] for row in digests}) == 2  # one a person
        # When the digests are sent, each lists only the tables that still ask its person (recheck.py).
        still = {
            first["accounts"][seat]: [
                m["table"] for m in (first, second) if asked(client, m["table"]) == [seat]
            ]
            for seat in (0, 1)
        }
        address = {a: sql(db, "SELECT email FROM accounts WHERE id = ?", a)[0][0] for a in still}
        clock.advance(DAY + 1)
        wait_until(lambda: all(row[6] != "pending" for row in outbox(db)))
        status = {row[1]: row[6] for row in outbox(db) if row[4] == "digest"}
        assert status == {a: "sent" if tables else "dropped" for a, tables in still.items()}
        got = {to[0]: body_of(message) for to, message in inbox[0].messages}
        assert len(got) == len(inbox[0].messages) == sum(bool(tables) for tables in still.values())
        for account, tables in still.items():
            if tables:
                links = re.findall(rf"{PUBLIC}/t/[A-Za-z0-9_-]+", got[address[account]])
                assert links == [f"{PUBLIC}/t/{table}" for table in tables]


def test_no_email_without_smtp_settings_and_the_page_says_so(db: Path) -> None:
    with notify_client(db) as client:
        made = bound_table(client, db)
        shown = client.get("/api/me/notifications").json()
        assert shown["email_available"] is False and shown["deliveries"] == []
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], notify_email=True)
        move(client, made)
        wait_until(lambda: [r[7] for r in outbox(db)] == [1])
        assert "not configured" in outbox(db)[0][8]


def test_an_unconfirmed_address_gets_nothing(db: Path, inbox: tuple[Inbox, MailSettings]) -> None:
    with notify_client(db, mail=inbox[1]) as client:
        made = bound_table(client, db)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], notify_email=True, email_confirmed=False)
        move(client, made)
        time.sleep(0.3)
        assert outbox(db) == [] and inbox[0].messages == []


def test_an_unsubscribe_token_is_the_accounts_own_and_nothing_else() -> None:
    key = unsubscribe_key(b"k" * 32)
    token = unsubscribe_token(key, 7)
    assert check_unsubscribe(key, token) == 7
    assert check_unsubscribe(unsubscribe_key(b"j" * 32), token) is None
    for bad in (token.replace("7.", "8."), "7", "7.", "x.y", "7.a.b", token + "0", None, 7, "٧." + token[2:]):
        assert check_unsubscribe(key, bad) is None
