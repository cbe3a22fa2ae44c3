"""What the accounts' tests share: a client with chosen limits and mail, registering, signing in."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from parlour.server.accounts.counters import AccountLimits, Limit
from parlour.server.accounts.mail import MailSettings
from parlour.server.app import create_app
from parlour.server.botaccounts.answers import BotLimits

from .conftest import database_sql, quick_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PASSWORD = "correct horse battery"
ROOMY = AccountLimits(
    login_per_user=Limit(1000, 900.0),
    login_per_address=Limit(1000, 900.0),
    register_per_address=Limit(1000, 3600.0),
    mail_per_address=Limit(1000, 3600.0),
)
"""Limits no test reaches unless it means to."""


def account_client(
    db: Path,
    limits: AccountLimits = ROOMY,
    mail: MailSettings | None = None,
    base_url: str = "http://testserver",
    bot_limits: BotLimits | None = None,
) -> TestClient:
    """Returns a test client (not yet started) of a server on ``db`` with these limits and mail."""
    settings = quick_settings(
        db,
        **({} if bot_limits is None else {"bot_limits": bot_limits}),
        account_limits=limits,
        mail=mail,
        public_url="http://testserver",
        http_rate=1e6,
        http_burst=1e6,
    )
    return TestClient(create_app(settings), base_url=base_url)


def register(client: TestClient, username: str, password: str = PASSWORD, **extra: Any) -> str:
    """Registers (and so signs in) an account; returns its CSRF token."""
    reply = client.post("/api/register", json={"username": username, "password": password, **extra})
    assert reply.status_code == 201, reply.text
    csrf: str = reply.json()["csrf"]
    return csrf


def login(client: TestClient, username: str, password: str = PASSWORD) -> Any:
    """Signs in; returns the reply."""
    return client.post("/api/login", json={"username": username, "password": password})


def rows(db: Path, query: str, *args: object) -> list[tuple[Any, ...]]:
    """Runs a query (``?`` parameters) on the test's database, committed; returns its rows."""
    return database_sql(db, query, *args)


def one_line_error(reply: Any, status: int) -> str:
    """Asserts a refusal: its status and one JSON line {"type": "error", "status", "error"}; returns it."""
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["type"] == "error" and body["status"] == status
    assert "\n" not in reply.text and isinstance(body["error"], str) and len(body["error"]) <= 300
    error: str = body["error"]
    return error
