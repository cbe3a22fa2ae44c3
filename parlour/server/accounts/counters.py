"""Rate limits counted in the database: attempts per key (a username, a client address) in fixed windows.

One statement counts an attempt and returns the count (``INSERT ... ON CONFLICT ... RETURNING``, which
SQLite 3.35+ and PostgreSQL both speak), so several server processes on one database share the counts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Engine, delete, text

from parlour.server.accounts.rows import CounterRow

_HIT = text(
    "INSERT INTO rate_counts (key, window_start, count) VALUES (:key, :now, 1) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_counts.window_start > :start THEN rate_counts.count + 1 ELSE 1 END, "
    "window_start = CASE WHEN rate_counts.window_start > :start THEN rate_counts.window_start ELSE :now END "
    "RETURNING count"
)


@dataclass(frozen=True)
class Limit:
    """At most ``count`` attempts per key in each window of ``seconds``."""

    count: int
    seconds: float


@dataclass(frozen=True)
class AccountLimits:
    """The accounts' rate limits (docs/security.md, "Accounts")."""

    login_per_user: Limit = Limit(10, 900.0)
    """Sign-in attempts for one username (known or not) from everywhere."""
    login_per_address: Limit = Limit(30, 900.0)
    """Sign-in attempts from one client address, whatever the usernames."""
    register_per_address: Limit = Limit(10, 3600.0)
    """Accounts made (or tried) from one client address."""
    mail_per_address: Limit = Limit(10, 3600.0)
    """Password resets asked, and addresses set, from one client address (each may send an e-mail)."""


def hit(engine: Engine, key: str, limit: Limit, now: float | None = None) -> bool:
    """Counts one attempt for ``key``; returns whether it is within the limit."""
    at = time.time() if now is None else now
    with engine.begin() as connection:
        count = connection.execute(_HIT, {"key": key[:160], "now": at, "start": at - limit.seconds}).scalar()
    return int(count or 0) <= limit.count


def forget(engine: Engine, key: str) -> None:
    """Forgets a key's count (a username's after a successful sign-in)."""
    with engine.begin() as connection:
        connection.execute(delete(CounterRow).where(CounterRow.key == key[:160]))
