"""Delivery: a background task (like the scheduler) that polls the outbox for due messages, claims each
with one compare-and-set (of several servers on one database exactly one sends it) and sends it by its
channel in a thread, never in a move's way: ``AT_ONCE`` (8) at a time, each exchange bounded by pinned.py's
``DEADLINE`` (10 s: connect, send and read together), so a slow receiver holds up only its own message.
A failure is logged, kept on the row (``last_error``, shown
by ``GET /api/me/notifications``) and tried again after ``BACKOFF`` (1, 5, 30 minutes), then given up.
Before each try the ask is checked again (recheck.py): a person no longer asked, or with a tab of the
seat open now, gets nothing (the row is ``dropped``).
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
from dataclasses import dataclass

from sqlalchemy import ColumnElement, or_, select, update

from parlour.server.accounts.mail import MailSettings
from parlour.server.accounts.rows import AccountRow
from parlour.server.clock import Clock
from parlour.server.notify import email, push, recheck, webhook
from parlour.server.notify.outbox import NotificationRow
from parlour.server.notify.pinned import Resolver, system_resolver
from parlour.server.polling import Poller
from parlour.server.storage import Store

LOG = logging.getLogger("parlour.server.notify")
POLL = 1.0
"""How often the outbox is asked for due messages (seconds)."""
LEASE = 60.0
"""How long a claim keeps other workers off a message (seconds): longer than any one delivery takes."""
BATCH = 50
AT_ONCE = 8
"""Deliveries one worker runs at once (each bounded by pinned.DEADLINE or the SMTP timeout), so a slow
receiver holds up only its own message."""
BACKOFF = (60.0, 300.0, 1800.0)
"""The waits before the retries (seconds): after the fourth failure a message is given up."""
MAX_ERROR = 300


@dataclass
class Channels:
    """How messages leave: the SMTP settings (None: e-mail is off), the server's address for links, the
    unsubscribe tokens' key, the VAPID ``sub`` claim (a mailto: or https: address), whether webhooks
    and push endpoints may be private addresses, and how their hosts are resolved."""

    mail: MailSettings | None
    public_url: str
    unsubscribe_key: bytes
    push_subject: str = push.DEFAULT_CONTACT
    private_hosts: bool = False
    """Whether webhooks and push endpoints may be private addresses (tests, closed networks)."""
    resolver: Resolver = system_resolver
    """How a webhook's or push endpoint's host is resolved (once per delivery; a test gives its own)."""


def due(store: Store, now: float, lease: float, limit: int = BATCH) -> list[int]:
    """Returns the ids of pending messages due now that no worker holds a claim on, oldest first."""
    with store.session() as s:
        return list(
            s.scalars(
                select(NotificationRow.id)
                .where(
                    NotificationRow.status == "pending", NotificationRow.due <= now, _unclaimed(now, lease)
                )
                .order_by(NotificationRow.due)
                .limit(limit)
            )
        )


def _unclaimed(now: float, lease: float) -> ColumnElement[bool]:
    return or_(NotificationRow.claimed_at.is_(None), NotificationRow.claimed_at < now - lease)


def claim(store: Store, notification: int, now: float, lease: float) -> bool:
    """Claims a due message for this worker (one compare-and-set); returns whether this one got it."""
    with store.engine.begin() as connection:
        done = connection.execute(
            update(NotificationRow)
            .where(
                NotificationRow.id == notification,
                NotificationRow.status == "pending",
                NotificationRow.due <= now,
                _unclaimed(now, lease),
            )
            .values(claimed_at=now)
        )
        return done.rowcount == 1


def drop(store: Store, notification: int) -> None:
    """Records a message not sent because nobody it was for is asked any more."""
    with store.session() as s:
        row = s.get(NotificationRow, notification)
        if row is not None:
            row.status, row.claimed_at, row.last_error = "dropped", None, None


def finish(store: Store, notification: int, now: float, error: str | None) -> None:
    """Records a delivery: sent, or failed (retried after the backoff, or given up)."""
    with store.session() as s:
        row = s.get(NotificationRow, notification)
        if row is None:
            return
        row.claimed_at = None
        row.attempts += 1
        if error is None:
            row.status, row.sent_at, row.last_error = "sent", now, None
            return
        row.last_error = error[:MAX_ERROR]
        if row.attempts > len(BACKOFF):
            row.status = "failed"
        else:
            row.due = now + BACKOFF[row.attempts - 1]


class Deliverer(Poller):
    """Polls the outbox and delivers the messages it claims (see the module)."""

    what = "the notifications' poll"

    def __init__(
        self,
        store: Store,
        channels: Channels,
        clock: Clock,
        poll: float = POLL,
        lease: float = LEASE,
        asked_now: recheck.AskedNow | None = None,
    ) -> None:
        super().__init__()
        self.store, self.channels, self.clock, self.poll, self.lease = store, channels, clock, poll, lease
        self.asked_now = asked_now
        """Who is asked now (None: messages are sent without the check, as a tool's worker would)."""
        self.sent = 0
        self.failed = 0
        self.dropped = 0

    async def tick(self) -> int:
        """Claims every due message it can and delivers them, ``AT_ONCE`` at a time; returns how many
        were sent."""
        store, now = self.store, self.clock.now()
        found = await asyncio.to_thread(due, store, now, self.lease)
        places = asyncio.Semaphore(AT_ONCE)
        results = await asyncio.gather(
            *(self._one(places, notification, now) for notification in found), return_exceptions=True
        )
        sent = sum(r for r in results if isinstance(r, int))
        self.sent += sent
        for result in results:
            if isinstance(result, BaseException):
                raise result  # after every other delivery of the tick is done (the poll logs it)
        return sent

    async def _one(self, places: asyncio.Semaphore, notification: int, now: float) -> int:
        """Claims and delivers one message (once one of the ``AT_ONCE`` places is free); returns 1 if sent."""
        async with places:
            store = self.store
            if not await store.write(claim, store, notification, now, self.lease):
                return 0
            kept = await self._still_asked(notification)
            if kept == []:
                await store.write(drop, store, notification)
                self.dropped += 1
                return 0
            error = await asyncio.to_thread(self._deliver, notification, kept)
            if error is not None:
                LOG.warning("notification %s not delivered: %s", notification, error)
                self.failed += 1
            await store.write(finish, store, notification, self.clock.now(), error)
            return 1 if error is None else 0

    async def _still_asked(self, notification: int) -> list[str] | None:
        """Returns the message's tables that still ask its person (None: no check is made)."""
        if self.asked_now is None:
            return None
        found = await asyncio.to_thread(recheck.places, self.store, notification)
        try:
            return recheck.still_asked(found, self.asked_now)
        except Exception:  # a table that cannot be read must not stop the outbox: sent as queued
            LOG.exception("notification %s could not be checked again", notification)
            return None

    def _deliver(self, notification: int, kept: list[str] | None = None) -> str | None:
        """Sends one claimed message (blocking; a digest only with the ``kept`` tables, if given);
        returns None, or what went wrong in one line."""
        with self.store.session() as s:
            row = s.get(NotificationRow, notification)
            account = s.get(AccountRow, row.account_id) if row is not None else None
            if row is None or account is None or account.deleted:
                return "the account is gone"
            channel, payload, account_id = row.channel, dict(row.payload), account.id
            if kept is not None:
                payload = recheck.narrowed(payload, kept)
            address = account.email if account.notify_email and account.email_confirmed else None
            hook = account.webhook_url
        base = self.channels.public_url.rstrip("/")
        try:
            if channel == "email":
                if self.channels.mail is None:
                    return "e-mail is not configured on this server"
                if address is None:
                    return "e-mail notifications are off for this account"
                token = email.unsubscribe_token(self.channels.unsubscribe_key, account_id)
                email.send(self.channels.mail, address, payload, base, token)
            elif channel == "webhook":
                if hook is None:
                    return "the account has no webhook"
                webhook.post(
                    hook, str(payload.get("text")), self.channels.private_hosts, self.channels.resolver
                )
            elif channel == "push":
                push.send(
                    self.store,
                    account_id,
                    payload,
                    base,
                    self.channels.push_subject,
                    self.channels.private_hosts,
                    self.channels.resolver,
                )
            else:
                return f"no channel {channel!r}"
        except (OSError, smtplib.SMTPException, ValueError) as err:
            return described(err, channel)
        return None


def described(err: Exception, channel: str) -> str:
    """Returns a failure in one line: for e-mail only its type and SMTP codes (an SMTP server's text may
    name the recipient's address), for the other channels its own message too."""
    if channel == "email" or isinstance(err, smtplib.SMTPException):
        codes: list[object] = []
        if isinstance(err, smtplib.SMTPResponseException):
            codes.append(err.smtp_code)
        if isinstance(err, smtplib.SMTPRecipientsRefused):
            codes.extend(answer[0] for answer in err.recipients.values())
        if isinstance(err, OSError) and err.errno is not None:
            codes.append(f"errno {err.errno}")
        shown = ", ".join(str(c) for c in dict.fromkeys(codes) if isinstance(c, int | str))
        return type(err).__name__ + (f" ({shown})" if shown else "")
    return f"{type(err).__name__}: {err}".replace("\n", " ")
