"""The outbox: one row per message to deliver (``notifications``), the accounts' push subscriptions and
the server's VAPID keys (migration 0009), and the one door the tables call when someone is asked.

A message says only that a person is asked, where, and in which game: "Parlour: table abc (Venture) is
waiting for you", the same words for a turn, a reaction window and a negotiation (a window asks some
people only when they hold a card that answers it: ruling S-4). Never a card, a hand, a score or
anything else from the table (docs/security.md).

Batching: at most one e-mail per table and account an hour (an ask within the hour after one adds
nothing); with the daily digest, one e-mail a day per account lists the tables that asked. A webhook or
push message waits at most once per table and account (a second ask before it is delivered adds nothing).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import JSON, Float, Integer, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from parlour.server.accounts.rows import AccountRow
from parlour.server.storage import Base, SeatRow, Store

LOG = logging.getLogger("parlour.server.notify")
CHANNELS = ("email", "webhook", "push")
HOUR = 3600.0
"""The least time between two e-mails of one table to one account (seconds)."""
DAY = 86_400.0
"""A digest's period (seconds): the first ask after one was sent opens the next, sent a day later."""
TEXT = "Parlour: table {table} ({title}) is waiting for you"
"""Every message's text, whatever asks (a turn, a window, a negotiation): the table's id and the game's
title, nothing else; the kind is kept on the row, never put in a message (ruling S-4)."""


class NotificationRow(Base):
    """A message to deliver (or delivered, or given up): its account, channel, table, text and tries."""

    __tablename__ = "notifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(8))
    """"email", "webhook" or "push"."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The table that asks (None: a digest, whose payload lists its tables)."""
    kind: Mapped[str] = mapped_column(String(16))
    """"turn", "window" or "digest"."""
    payload: Mapped[dict[str, object]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)
    due: Mapped[float] = mapped_column(Float)
    """When it is to be sent next (a retry's backoff moves it)."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(8), default="pending")
    """"pending", "sent", "failed" (given up after the last retry) or "dropped" (nobody asked any more
    when it was to be sent)."""
    sent_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    claimed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a delivery worker claimed it (others keep off it for the lease)."""


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription of an account: its push service's endpoint and its keys."""

    __tablename__ = "push_subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    endpoint: Mapped[str] = mapped_column(String(500), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created: Mapped[float] = mapped_column(Float)


class VapidRow(Base):
    """The server's VAPID key pair (one row, made on first start): push services know the server by it."""

    __tablename__ = "vapid_keys"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text)
    public_key: Mapped[str] = mapped_column(String(200))
    """The public key as browsers take it (``applicationServerKey``: the uncompressed point, base64url)."""


@dataclass(frozen=True)
class Asked:
    """Persons asked at a table with no connection of their seat open."""

    table_id: str
    title: str
    seats: tuple[int, ...]
    kind: str
    """"turn" or "window"."""


def text_of(title: str, table_id: str) -> str:
    """Returns a message's one line: the table's id and the game's title, whatever asks."""
    return TEXT.format(title=title, table=table_id)


_PENDING: set[asyncio.Task[None]] = set()


def notify_asked(store: Store, asked: Asked, now: float) -> None:
    """Queues the messages for ``asked`` in the background (the tables' hook): it never waits for the
    database nor fails a move; a failure is logged."""
    task = asyncio.get_running_loop().create_task(_enqueue_logged(store, asked, now))
    _PENDING.add(task)
    task.add_done_callback(_PENDING.discard)


async def _enqueue_logged(store: Store, asked: Asked, now: float) -> None:
    try:
        await store.write(enqueue, store, asked, now)
    except Exception:
        LOG.exception("could not queue the notifications of table %s", asked.table_id)


def enqueue(store: Store, asked: Asked, now: float) -> int:
    """Adds the outbox rows for the accounts bound to the asked seats, per their settings and the
    batching rules (the module); returns how many rows were added."""
    added = 0
    with store.session() as s:
        bound = s.scalars(
            select(SeatRow.account_id).where(
                SeatRow.table_id == asked.table_id,
                SeatRow.seat.in_(asked.seats),
                SeatRow.account_id.is_not(None),
            )
        ).all()
        for account_id in sorted({a for a in bound if a is not None}):
            account = s.get(AccountRow, account_id)
            if account is None or account.deleted:
                continue
            added += _enqueue_account(s, account, asked, now)
    return added


def _enqueue_account(s: Session, account: AccountRow, asked: Asked, now: float) -> int:
    """Adds one account's rows (see ``enqueue``)."""
    payload: dict[str, object] = {
        "text": text_of(asked.title, asked.table_id),
        "table": asked.table_id,
        "title": asked.title,
        "kind": asked.kind,
    }
    added = 0
    if account.notify_email and account.email and account.email_confirmed:
        if account.notify_digest:
            added += _add_to_digest(s, account.id, payload, now)
        elif not _recent(s, account.id, "email", asked.table_id, now - HOUR):
            added += _add(s, account.id, "email", asked, payload, now)
    if account.webhook_url and not _waiting(s, account.id, "webhook", asked.table_id):
        added += _add(s, account.id, "webhook", asked, payload, now)
    subscribed = s.scalar(select(PushSubscriptionRow.id).where(PushSubscriptionRow.account_id == account.id))
    if subscribed is not None and not _waiting(s, account.id, "push", asked.table_id):
        added += _add(s, account.id, "push", asked, payload, now)
    return added


def _add(
    s: Session, account_id: int, channel: str, asked: Asked, payload: dict[str, object], now: float
) -> int:
    s.add(
        NotificationRow(
            account_id=account_id,
            channel=channel,
            table_id=asked.table_id,
            kind=asked.kind,
            payload=payload,
            created=now,
            due=now,
            attempts=0,
            status="pending",
        )
    )
    return 1


def _recent(s: Session, account_id: int, channel: str, table_id: str, since: float) -> bool:
    """Returns whether a message of the table went (or waits) to the account on the channel since then."""
    found = s.scalar(
        select(NotificationRow.id).where(
            NotificationRow.account_id == account_id,
            NotificationRow.channel == channel,
            NotificationRow.table_id == table_id,
            NotificationRow.created > since,
            NotificationRow.status.not_in(("failed", "dropped")),
        )
    )
    return found is not None


def _waiting(s: Session, account_id: int, channel: str, table_id: str) -> bool:
    """Returns whether a message of the table to the account on the channel waits to be delivered."""
    found = s.scalar(
        select(NotificationRow.id).where(
            NotificationRow.account_id == account_id,
            NotificationRow.channel == channel,
            NotificationRow.table_id == table_id,
            NotificationRow.status == "pending",
        )
    )
    return found is not None


def _add_to_digest(s: Session, account_id: int, entry: dict[str, object], now: float) -> int:
    """Adds the table to the account's waiting digest, or opens one sent a day from now."""
    digest = s.scalar(
        select(NotificationRow).where(
            NotificationRow.account_id == account_id,
            NotificationRow.channel == "email",
            NotificationRow.kind == "digest",
            NotificationRow.status == "pending",
            NotificationRow.attempts == 0,
        )
    )
    if digest is None:
        payload = {"text": "Tables waiting for you", "tables": [entry]}
        s.add(
            NotificationRow(
                account_id=account_id,
                channel="email",
                table_id=None,
                kind="digest",
                payload=payload,
                created=now,
                due=now + DAY,
                attempts=0,
                status="pending",
            )
        )
        return 1
    tables = list(_entries(digest.payload))
    if all(t.get("table") != entry["table"] for t in tables):
        digest.payload = {**digest.payload, "tables": [*tables, entry]}
    return 0


def _entries(payload: dict[str, object]) -> Sequence[dict[str, object]]:
    found = payload.get("tables")
    return [t for t in found if isinstance(t, dict)] if isinstance(found, list) else []


def entries(payload: dict[str, object]) -> Sequence[dict[str, object]]:
    """Returns a digest's tables (each a message's payload)."""
    return _entries(payload)
