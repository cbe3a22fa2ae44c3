"""Accounts' e-mail (issue 32): a real SMTP server (aiosmtpd, started by the test) receives the
confirmation and password-reset messages; their links work once; a reset's answer does not tell whether
the address has an account."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from starlette.testclient import TestClient

from parlour.server.accounts.cookie import COOKIE
from parlour.server.accounts.mail import MailSettings

from .accounts_helpers import PASSWORD, account_client, login, one_line_error, register, rows
from .conftest import database_sql
from .live_server import free_port


class Inbox:
    """An aiosmtpd handler keeping every message it receives."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 Message accepted for delivery"

    def wait(self, count: int, seconds: float = 10.0) -> list[tuple[list[str], Message]]:
        """Returns the messages once ``count`` have come (fails after ``seconds``)."""
        end = time.time() + seconds
        while len(self.messages) < count and time.time() < end:
            time.sleep(0.02)
        assert len(self.messages) >= count, self.messages
        return self.messages


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, MailSettings]]:
    """A real SMTP server on a free local port, and the settings that send to it."""
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, MailSettings("127.0.0.1", port, sender="parlour@example.org", security="none", timeout=5)
    controller.stop()


@pytest.fixture
def mailing(db: Path, inbox: tuple[Inbox, MailSettings]) -> Iterator[TestClient]:
    with account_client(db, mail=inbox[1]) as client:
        yield client


def link_token(message: Message, kind: str) -> str:
    body = message.get_payload(decode=True)
    assert isinstance(body, bytes)
    found = re.search(rf"http://testserver/account#{kind}=([A-Za-z0-9_-]+)", body.decode())
    assert found, body
    return found.group(1)


def test_a_registration_with_an_address_sends_a_confirmation_link_that_works_once(
    mailing: TestClient, inbox: tuple[Inbox, MailSettings]
) -> None:
    register(mailing, "ana", email="ana@example.org", display_name="Ana")
    (to, message), *_ = inbox[0].wait(1)
    assert to == ["ana@example.org"] and message["From"] == "parlour@example.org"
    assert "Confirm" in message["Subject"]
    token = link_token(message, "confirm")
    assert mailing.get("/account").status_code == 200  # the link's page
    assert mailing.get("/api/me").json()["account"]["email_confirmed"] is False
    reply = mailing.post("/api/confirm", json={"token": token})
    assert reply.status_code == 200 and reply.json() == {"confirmed": True, "username": "ana"}
    assert mailing.get("/api/me").json()["account"]["email_confirmed"] is True
    assert "does not work" in one_line_error(mailing.post("/api/confirm", json={"token": token}), 400)


def test_a_changed_address_voids_the_old_link(mailing: TestClient, inbox: tuple[Inbox, MailSettings]) -> None:
    csrf = register(mailing, "ana", email="ana@example.org")
    old = link_token(inbox[0].wait(1)[0][1], "confirm")
    mailing.post("/api/me", json={"email": "ana@elsewhere.org"}, headers={"x-csrf-token": csrf})
    (to, message) = inbox[0].wait(2)[1]
    assert to == ["ana@elsewhere.org"]
    assert one_line_error(mailing.post("/api/confirm", json={"token": old}), 400)
    assert mailing.post("/api/confirm", json={"token": link_token(message, "confirm")}).status_code == 200


def test_a_password_reset_by_email_and_an_answer_that_tells_nothing(
    mailing: TestClient, inbox: tuple[Inbox, MailSettings], db: Path
) -> None:
    register(mailing, "ana", email="ana@example.org")
    mailing.post("/api/confirm", json={"token": link_token(inbox[0].wait(1)[0][1], "confirm")})
    signed_in = mailing.cookies[COOKIE]
    known = mailing.post("/api/reset/ask", json={"email": "ANA@example.org"})
    unknown = mailing.post("/api/reset/ask", json={"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 200 and known.text == unknown.text
    (to, message) = inbox[0].wait(2)[1]
    assert to == ["ANA@example.org"] and "new password" in message["Subject"]
    time.sleep(0.3)
    assert len(inbox[0].messages) == 2  # nothing was sent to the unknown address
    token = link_token(message, "reset")
    assert one_line_error(mailing.post("/api/reset", json={"token": token, "password": "short"}), 400)
    reply = mailing.post("/api/reset", json={"token": token, "password": "a brand new password"})
    assert reply.status_code == 200 and reply.json() == {"account": None}
    assert rows(db, "SELECT count(*) FROM sessions") == [(0,)]  # every session ended
    old = TestClient(mailing.app, cookies={COOKIE: signed_in})  # not entered: the server is mailing's
    assert old.get("/api/me").json()["account"] is None
    assert one_line_error(login(mailing, "ana", PASSWORD), 401)
    assert login(mailing, "ana", "a brand new password").status_code == 200
    again = mailing.post("/api/reset", json={"token": token, "password": "yet another password"})
    assert "does not work" in one_line_error(again, 400)
    assert rows(db, "SELECT count(*) FROM account_tokens") == [(0,)]


def test_no_reset_goes_to_an_unconfirmed_address(
    mailing: TestClient, inbox: tuple[Inbox, MailSettings]
) -> None:
    register(mailing, "ana", email="ana@example.org")
    inbox[0].wait(1)
    assert mailing.post("/api/reset/ask", json={"email": "ana@example.org"}).status_code == 200
    time.sleep(0.3)
    assert len(inbox[0].messages) == 1


def test_without_a_mail_server_nothing_is_sent_and_a_reset_says_so(db: Path) -> None:
    with account_client(db) as client:
        register(client, "ana", email="ana@example.org")
        assert "no e-mail" in one_line_error(
            client.post("/api/reset/ask", json={"email": "ana@example.org"}), 409
        )


def test_an_expired_link_does_not_work(
    mailing: TestClient, inbox: tuple[Inbox, MailSettings], db: Path
) -> None:
    register(mailing, "ana", email="ana@example.org")
    token = link_token(inbox[0].wait(1)[0][1], "confirm")
    database_sql(db, "UPDATE account_tokens SET expires = 0")
    assert one_line_error(mailing.post("/api/confirm", json={"token": token}), 400)
    assert mailing.get("/api/me").json()["account"]["email_confirmed"] is False


def test_serve_takes_the_smtp_settings_and_the_password_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from parlour.cli.main import build_parser
    from parlour.cli.serve import mail_settings
    from parlour.core.errors import OptionError

    args = build_parser().parse_args(
        [
            "serve",
            "--smtp-host",
            "mail.example.org",
            "--smtp-user",
            "parlour",
            "--smtp-sender",
            "p@example.org",
        ]
    )
    monkeypatch.setenv("PARLOUR_SMTP_PASSWORD", "s3cret")
    found = mail_settings(
        args.smtp_host, args.smtp_port, args.smtp_user, args.smtp_sender, args.smtp_security
    )
    assert found == MailSettings("mail.example.org", 587, "parlour", "s3cret", "p@example.org", "starttls")
    assert mail_settings(None, 587, None, "p@example.org", "starttls") is None  # no host: no e-mail
    with pytest.raises(OptionError, match="--smtp-port"):
        mail_settings("mail.example.org", 0, None, "p@example.org", "none")
    with pytest.raises(OptionError, match="--smtp-sender"):
        mail_settings("mail.example.org", 25, None, "nobody", "none")
