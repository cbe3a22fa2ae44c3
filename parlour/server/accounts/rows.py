"""The accounts' tables: accounts, sessions, e-mail tokens and rate-limit counters (migration 0007; the
notification settings, 0009)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.storage import Base


def username_key(username: str) -> str:
    """Returns what usernames are compared by: the name in lower case (``Ana`` and ``ana`` are one)."""
    return username.lower()


class AccountRow(Base):
    """An account: a unique username (compared by its lower-case key), a display name, a password hash."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(24))
    username_key: Mapped[str] = mapped_column(String(24), unique=True)
    """The username in lower case: two usernames differing only in case are the same account."""
    display_name: Mapped[str] = mapped_column(String(64))
    password_hash: Mapped[str] = mapped_column(String(200))
    """Argon2id (argon2-cffi's encoded form, its parameters and salt included); empty once deleted."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    notify_email: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the account is e-mailed when asked to act with no tab open (notify/, migration 0009)."""
    notify_digest: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether those e-mails come as one daily digest instead (at most one a table an hour otherwise)."""
    webhook_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    """Where the account's webhook messages go (notify/webhook.py checks it), if anywhere."""


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's token (never the token), its account, its expiry."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


class AccountTokenRow(Base):
    """A single-use e-mail link's token (its SHA-256): a confirmation of ``email`` or a password reset."""

    __tablename__ = "account_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    purpose: Mapped[str] = mapped_column(String(8))
    """"confirm" or "reset"."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """The address a confirmation confirms (a changed address makes the link worthless)."""
    expires: Mapped[float] = mapped_column(Float)


class CounterRow(Base):
    """A rate limit's count of attempts for one key (a username or a client address) in its window."""

    __tablename__ = "rate_counts"
    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    window_start: Mapped[float] = mapped_column(Float)
    count: Mapped[int] = mapped_column(Integer)
