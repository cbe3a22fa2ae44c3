"""The accounts' logic: register, sign in and out, the account's fields and data, deletion, e-mail links,
and binding a seat to an account. Everything lives in the database (sessions and rate-limit counts
included), so several server processes on one database agree; writes go through the store's writer."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.server.accounts import counters
from parlour.server.accounts.counters import AccountLimits, Limit
from parlour.server.accounts.mail import MailSettings, send
from parlour.server.accounts.rows import AccountRow, AccountTokenRow, SessionRow, username_key
from parlour.server.accounts.rules import (
    DELETED_NAME,
    check_display_name,
    check_email,
    check_fields,
    check_password,
    check_username,
)
from parlour.server.botaccounts.rows import BotAccountRow
from parlour.server.notify.outbox import NotificationRow, PushSubscriptionRow
from parlour.server.ratings import RatingHistoryRow, RatingRow
from parlour.server.storage import SeatRow, Store, TableRow
from parlour.server.tables import Refusal, hash_token

LOG = logging.getLogger("parlour.server.accounts")
SESSION_SECONDS = 30 * 86_400.0
"""How long a sign-in lasts (then the person signs in again)."""
CONFIRM_SECONDS = 7 * 86_400.0
RESET_SECONDS = 3_600.0
"""How long an e-mail's confirmation and password-reset links work (each once)."""
WRONG = "wrong username or password"
"""The one answer to a failed sign-in, whether the username exists or not."""
RESET_ANSWER = "if an account has this confirmed address, a link to choose a new password is on its way"
HASHING_AT_ONCE = 2
"""Argon2 hashes computed at once (each takes 64 MiB and a core for tens of milliseconds)."""


@dataclass(frozen=True)
class Account:
    """A signed-in account as the server uses it (never its password hash)."""

    id: int
    username: str
    display_name: str
    email: str | None
    email_confirmed: bool
    created: float

    def to_json(self) -> dict[str, object]:
        """Returns what the account's own pages may show (sent to its own sessions only)."""
        return {
            "username": self.username,
            "display_name": self.display_name,
            "email": self.email,
            "email_confirmed": self.email_confirmed,
            "created": self.created,
        }


@dataclass
class SignedIn:
    """A new session: its account and the token for the cookie (shown once, stored hashed)."""

    account: Account
    token: str


def csrf_of(token: str) -> str:
    """Returns the CSRF token of a session: an HMAC of its cookie's token (nothing more is stored)."""
    return hmac.new(token.encode("utf-8", "surrogatepass"), b"parlour-csrf", hashlib.sha256).hexdigest()


def _account(row: AccountRow) -> Account:
    """Returns the account of a row."""
    return Account(row.id, row.username, row.display_name, row.email, row.email_confirmed, row.created)


@dataclass
class Accounts:
    """The accounts of one database; ``mail`` None: no e-mail is sent (and no link offered)."""

    store: Store
    limits: AccountLimits = field(default_factory=AccountLimits)
    mail: MailSettings | None = None
    public_url: str | None = None
    """The server's address as people reach it, for the links in e-mails (never the request's Host)."""
    hasher: PasswordHasher = field(default_factory=PasswordHasher)
    dummy: str = ""
    """A hash of nothing anyone knows, verified for an unknown username so it costs what a known one does."""
    sending: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        """Computes the dummy hash with the same parameters as every account's."""
        self.dummy = self.hasher.hash(secrets.token_urlsafe(24))
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)

    # ------------------------------------------------------------------ passwords
    async def _hash(self, password: str) -> str:
        """Returns a password's Argon2id hash, computed off the event loop."""
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        """Returns whether a password matches a hash (the dummy's for no account), off the event loop."""
        async with self._hashing:
            return await asyncio.to_thread(self._check, stored or self.dummy, password)

    def _check(self, stored: str, password: str) -> bool:
        """Verifies a password against a hash; False for a mismatch or a hash that is not one."""
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _within(self, key: str, limit: Limit, what: str) -> None:
        """Counts an attempt (in the database); refuses with 429 beyond the limit."""
        if not await self.store.write(counters.hit, self.store.engine, key, limit):
            raise Refusal(429, f"too many {what}: try again later")

    # ------------------------------------------------------------------ register, sign in, sign out
    async def register(self, body: object, address: str, old_token: str | None = None) -> SignedIn:
        """Makes an account from {username, password, display_name?, email?} and signs it in (the
        session the browser held, if any, ends); refuses a taken username (409), bad fields (400) and
        too many from one address (429)."""
        given = check_fields(body, {"username", "password", "display_name", "email"}, "an account")
        username = check_username(given.get("username"))
        password = check_password(given.get("password"))
        shown = given.get("display_name")
        display_name = username if shown is None or shown == "" else check_display_name(shown)
        email = check_email(given.get("email"))
        await self._within(f"register:{address}", self.limits.register_per_address, "new accounts")
        digest = await self._hash(password)
        row = AccountRow(
            username=username,
            username_key=username_key(username),
            display_name=display_name,
            password_hash=digest,
            email=email,
            email_confirmed=False,
            created=time.time(),
            deleted=False,
        )
        try:
            account = await self.store.write(self._insert, row)
        except IntegrityError:
            raise Refusal(409, "that username is taken") from None
        if email is not None:
            await self._send_confirmation(account)
        token = await self.store.write(self._new_session, account.id, old_token)
        return SignedIn(account, token)

    def _insert(self, row: AccountRow) -> Account:
        """Stores a new account; returns it."""
        with self.store.session() as s:
            s.add(row)
            s.flush()
            return _account(row)

    async def login(self, body: object, address: str, old_token: str | None) -> SignedIn:
        """Signs in with {username, password}: a new session (the one the browser held, if any, ends);
        the same answer (401) and work for an unknown username as for a wrong password."""
        given = check_fields(body, {"username", "password"}, "a sign-in")
        username = check_username(given.get("username"))
        password = check_password(given.get("password"))
        key = username_key(username)
        await self._within(f"login-address:{address}", self.limits.login_per_address, "sign-in attempts")
        await self._within(
            f"login-user:{key}", self.limits.login_per_user, "sign-in attempts for this username"
        )
        with Session(self.store.engine) as s:
            row = s.scalars(select(AccountRow).where(AccountRow.username_key == key)).first()
            stored = "" if row is None or row.deleted else row.password_hash
            found = None if row is None or row.deleted else _account(row)
        if not await self._verify(stored, password) or found is None:
            raise Refusal(401, WRONG)
        await self.store.write(counters.forget, self.store.engine, f"login-user:{key}")
        if self.hasher.check_needs_rehash(stored):
            await self._set_password(found.id, password)
        token = await self.store.write(self._new_session, found.id, old_token)
        return SignedIn(found, token)

    def _new_session(self, account_id: int, old_token: str | None) -> str:
        """Stores a new session (ending ``old_token``'s and every expired one); returns its token."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.store.session() as s:
            if old_token:
                s.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(old_token)))
            s.execute(delete(SessionRow).where(SessionRow.expires <= now))
            s.add(
                SessionRow(
                    token_hash=hash_token(token),
                    account_id=account_id,
                    created=now,
                    expires=now + SESSION_SECONDS,
                )
            )
        return token

    async def logout(self, token: str) -> None:
        """Ends a session."""
        await self.store.write(self._end_session, token)

    def _end_session(self, token: str) -> None:
        """Deletes a session's row."""
        with self.store.session() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(token)))

    def account_of(self, token: str) -> Account | None:
        """Returns the account a session's token is signed in to (None: no such session, or expired)."""
        with Session(self.store.engine) as s:
            row = s.scalars(
                select(AccountRow)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(
                    SessionRow.token_hash == hash_token(token),
                    SessionRow.expires > time.time(),
                    AccountRow.deleted.is_(False),
                )
            ).first()
            return None if row is None else _account(row)

    # ------------------------------------------------------------------ the account's own fields
    async def update(self, account: Account, body: object, address: str) -> Account:
        """Changes the display name and e-mail address ({display_name?, email?}); a new address is
        unconfirmed until its link is opened (sent when e-mail is on)."""
        given = check_fields(body, {"display_name", "email"}, "an account's change")
        display_name = account.display_name
        if "display_name" in given:
            display_name = check_display_name(given["display_name"])
        email = account.email
        if "email" in given:
            email = check_email(given["email"])
        changed_email = email != account.email
        if changed_email and email is not None and self.mail is not None:
            await self._within(f"mail:{address}", self.limits.mail_per_address, "e-mails asked")
        updated = await self.store.write(self._update, account.id, display_name, email, changed_email)
        if changed_email and email is not None:
            await self._send_confirmation(updated)
        return updated

    def _update(self, account_id: int, display_name: str, email: str | None, changed_email: bool) -> Account:
        """Stores an account's display name and address (a changed one unconfirmed, its old links void)."""
        with self.store.session() as s:
            row = s.get_one(AccountRow, account_id)
            row.display_name = display_name
            if changed_email:
                row.email, row.email_confirmed = email, False
                s.execute(
                    delete(AccountTokenRow).where(
                        AccountTokenRow.account_id == account_id, AccountTokenRow.purpose == "confirm"
                    )
                )
            s.flush()
            return _account(row)

    def data(self, account: Account) -> dict[str, object]:
        """Returns everything stored about an account, for its own download (docs/security.md)."""
        identity = f"account:{account.id}"
        with Session(self.store.engine) as s:
            row = s.get_one(AccountRow, account.id)
            settings = {
                "email": row.notify_email,
                "digest": row.notify_digest,
                "webhook_url": row.webhook_url,
            }
            seats = s.execute(
                select(
                    SeatRow.table_id,
                    SeatRow.seat,
                    SeatRow.name,
                    SeatRow.ask,
                    TableRow.game,
                    TableRow.status,
                    TableRow.created,
                )
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == account.id)
                .order_by(TableRow.created)
            ).all()
            sessions = s.execute(
                select(SessionRow.created, SessionRow.expires)
                .where(SessionRow.account_id == account.id)
                .order_by(SessionRow.created)
            ).all()
            pushes = s.scalars(
                select(PushSubscriptionRow)
                .where(PushSubscriptionRow.account_id == account.id)
                .order_by(PushSubscriptionRow.id)
            ).all()
            deliveries = s.scalars(
                select(NotificationRow)
                .where(NotificationRow.account_id == account.id)
                .order_by(NotificationRow.id)
            ).all()
            ratings = s.scalars(
                select(RatingRow).where(RatingRow.identity == identity).order_by(RatingRow.game)
            ).all()
            history = s.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.identity == identity)
                .order_by(RatingHistoryRow.at)
            ).all()
            return {
                "account": account.to_json(),
                "notifications": settings,
                "push_subscriptions": [
                    {"endpoint": p.endpoint, "p256dh": p.p256dh, "auth": p.auth, "created": p.created}
                    for p in pushes
                ],
                "deliveries": [
                    {
                        "channel": d.channel,
                        "table": d.table_id,
                        "kind": d.kind,
                        "payload": d.payload,
                        "created": d.created,
                        "status": d.status,
                        "attempts": d.attempts,
                        "sent_at": d.sent_at,
                        "last_error": d.last_error,
                    }
                    for d in deliveries
                ],
                "seats": [
                    {
                        "table": t,
                        "seat": seat,
                        "name": name,
                        "ask": ask,
                        "game": game,
                        "status": status,
                        "created": created,
                    }
                    for t, seat, name, ask, game, status, created in seats
                ],
                "ratings": [
                    {
                        "game": r.game,
                        "players": r.players,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                        "wins": r.wins,
                        "updated": r.updated,
                    }
                    for r in ratings
                ],
                "rating_history": [
                    {
                        "game": h.game,
                        "players": h.players,
                        "table": h.table_id,
                        "at": h.at,
                        "mu": h.mu,
                        "sigma": h.sigma,
                        "ordinal": h.ordinal,
                        "place": h.place,
                    }
                    for h in history
                ],
                "sessions": [{"created": created, "expires": expires} for created, expires in sessions],
                "exported": time.time(),
            }

    async def delete(self, account: Account, body: object) -> list[tuple[str, int]]:
        """Deletes an account, its password given again ({password}): what goes and what stays is
        docs/security.md's "Deletion". Returns the seats renamed (table, seat)."""
        given = check_fields(body, {"password"}, "a deletion")
        password = check_password(given.get("password"))
        with Session(self.store.engine) as s:
            stored = s.get_one(AccountRow, account.id).password_hash
        if not await self._verify(stored, password):
            raise Refusal(403, "wrong password: the account is kept")
        return await self.store.write(self._delete, account.id)

    def _delete(self, account_id: int) -> list[tuple[str, int]]:
        """Scrubs an account in one transaction; returns its seats (table, seat)."""
        with self.store.session() as s:
            row = s.get_one(AccountRow, account_id)
            row.deleted, row.display_name, row.password_hash = True, DELETED_NAME, ""
            row.email, row.email_confirmed = None, False
            row.notify_email, row.notify_digest, row.webhook_url = False, False, None
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            s.execute(delete(AccountTokenRow).where(AccountTokenRow.account_id == account_id))
            s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.account_id == account_id))
            s.execute(delete(NotificationRow).where(NotificationRow.account_id == account_id))
            s.execute(  # the owner's bots go with it: their tokens open nothing, their streams stop
                update(BotAccountRow)
                .where(BotAccountRow.owner_id == account_id)
                .values(revoked=True, stream=None, online_until=None)
            )
            seats = s.execute(
                select(SeatRow.table_id, SeatRow.seat).where(SeatRow.account_id == account_id)
            ).all()
            s.execute(update(SeatRow).where(SeatRow.account_id == account_id).values(name=DELETED_NAME))
            return [(t, seat) for t, seat in seats]

    async def change_password(self, account: Account, body: object) -> SignedIn:
        """Sets a new password, the current one given ({password, new_password}; the attempt counts
        against the username's sign-in limit); every session ends and a new one is made for this browser."""
        given = check_fields(body, {"password", "new_password"}, "a new password")
        current = check_password(given.get("password"))
        new = check_password(given.get("new_password"))
        key = f"login-user:{username_key(account.username)}"
        await self._within(key, self.limits.login_per_user, "password attempts for this username")
        with Session(self.store.engine) as s:
            stored = s.get_one(AccountRow, account.id).password_hash
        if not await self._verify(stored, current):
            raise Refusal(403, "wrong password: the password is unchanged")
        digest = await self._hash(new)
        token = await self.store.write(self._replace_password, account.id, digest)
        return SignedIn(account, token)

    def _replace_password(self, account_id: int, digest: str) -> str:
        """Stores a new password hash, ends every session and reset link of the account; returns the
        token of a new session."""
        with self.store.session() as s:
            s.get_one(AccountRow, account_id).password_hash = digest
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            s.execute(
                delete(AccountTokenRow).where(
                    AccountTokenRow.account_id == account_id, AccountTokenRow.purpose == "reset"
                )
            )
        return self._new_session(account_id, None)

    # ------------------------------------------------------------------ seats
    async def bind(self, account: Account, table_id: str, seat: int) -> None:
        """Binds a seat (its token already checked) to the account; refuses one bound to another (409)."""
        if not await self.store.write(self._bind, account.id, table_id, seat):
            raise Refusal(409, "this seat is kept in another account")

    def _bind(self, account_id: int, table_id: str, seat: int) -> bool:
        """Stores the binding unless the seat has another account; returns whether it is the account's."""
        with self.store.session() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.account_id.is_(None))
                .values(account_id=account_id)
            )
            owner = s.scalar(
                select(SeatRow.account_id).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            )
            return owner == account_id

    def seats_at(self, account: Account, table_id: str) -> list[int]:
        """Returns the seats of a table the account keeps, lowest first (by the index on the account)."""
        with Session(self.store.engine) as s:
            found = s.scalars(
                select(SeatRow.seat)
                .where(SeatRow.account_id == account.id, SeatRow.table_id == table_id)
                .order_by(SeatRow.seat)
            ).all()
        return list(found)

    def seats_of(self, account: Account) -> int:
        """Returns how many seats the account keeps."""
        with Session(self.store.engine) as s:
            return int(
                s.scalar(select(func.count()).select_from(SeatRow).where(SeatRow.account_id == account.id))
                or 0
            )

    # ------------------------------------------------------------------ e-mail links
    async def _send_confirmation(self, account: Account) -> None:
        """Sends a confirmation link for the account's address (when e-mail is on)."""
        if self.mail is None or account.email is None:
            return
        token = await self.store.write(self._new_link, account.id, "confirm", account.email, CONFIRM_SECONDS)
        self._mail(
            account.email,
            "Confirm your e-mail address for Parlour",
            f"Hello {account.display_name},\n\nopen this link to confirm this address for your Parlour "
            f"account {account.username}:\n\n{self.public_url}/account#confirm={token}\n\n"
            "It works once, for a week. If you did not ask for it, ignore this message.\n",
        )

    def _new_link(self, account_id: int, purpose: str, email: str | None, seconds: float) -> str:
        """Stores a single-use link's token (hashed); returns the token."""
        token = secrets.token_urlsafe(32)
        with self.store.session() as s:
            s.add(
                AccountTokenRow(
                    token_hash=hash_token(token),
                    account_id=account_id,
                    purpose=purpose,
                    email=email,
                    expires=time.time() + seconds,
                )
            )
        return token

    def _mail(self, to: str, subject: str, body: str) -> None:
        """Sends a message in the background: the request's answer never waits for (or tells of) it."""
        settings = self.mail
        if settings is None:
            return

        async def sending() -> None:
            await asyncio.to_thread(send, settings, to, subject, body)

        self._background(sending())

    def _background(self, work: Coroutine[object, object, None]) -> None:
        """Runs ``work`` in a task of its own (kept in ``sending``); a failure is logged by its type only."""

        async def logged() -> None:
            try:
                await work
            except Exception as err:  # a mail server's failure is logged, never a request's
                LOG.warning("an e-mail could not be sent: %s", type(err).__name__)

        task = asyncio.get_running_loop().create_task(logged())
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def confirm(self, body: object) -> Account:
        """Confirms an address with its link's token ({token}); the link works once, before it expires."""
        given = check_fields(body, {"token"}, "a confirmation")
        token = _link_token(given.get("token"))
        found = await self.store.write(self._confirm, token)
        if found is None:
            raise Refusal(400, "this link does not work (any more): ask for a new one")
        return found

    def _confirm(self, token: str) -> Account | None:
        """Uses a confirmation token; returns the account, its address confirmed (None: no such token)."""
        with self.store.session() as s:
            link = self._take(s, token, "confirm")
            if link is None:
                return None
            row = s.get_one(AccountRow, link.account_id)
            if row.deleted or row.email is None or row.email != link.email:
                return None
            row.email_confirmed = True
            s.flush()
            return _account(row)

    def _take(self, s: Session, token: str, purpose: str) -> AccountTokenRow | None:
        """Deletes a link's token and returns it, if it exists, is for ``purpose`` and has not expired."""
        link = s.get(AccountTokenRow, hash_token(token))
        if link is None or link.purpose != purpose:
            return None
        s.delete(link)
        s.flush()
        return link if link.expires > time.time() else None

    async def ask_reset(self, body: object, address: str) -> str:
        """Sends a password-reset link to every account whose confirmed address is ``email``; the
        answer is the same whether there is one or not (and the e-mail goes in the background)."""
        given = check_fields(body, {"email"}, "a password reset")
        email = check_email(given.get("email"))
        if email is None:
            raise Refusal(400, "give the e-mail address of the account")
        await self._within(f"mail:{address}", self.limits.mail_per_address, "e-mails asked")
        if self.mail is None:
            raise Refusal(409, "this server sends no e-mail, so it cannot send a link: ask its host")
        self._background(self._send_resets(email))
        return RESET_ANSWER

    async def _send_resets(self, email: str) -> None:
        """Finds the accounts whose confirmed address is ``email``, stores a reset link for each and
        mails it (in the background: the request's answer is the same, and as quick, either way)."""
        with Session(self.store.engine) as s:
            rows = s.scalars(
                select(AccountRow).where(
                    func.lower(AccountRow.email) == email.lower(),
                    AccountRow.email_confirmed.is_(True),
                    AccountRow.deleted.is_(False),
                )
            ).all()
            found = [_account(row) for row in rows]
        for account in found:
            token = await self.store.write(self._new_link, account.id, "reset", None, RESET_SECONDS)
            self._mail(
                email,
                "Choose a new password for Parlour",
                f"Hello {account.display_name},\n\nsomebody (you, we hope) asked to choose a new password "
                f"for the Parlour account {account.username}. Open this link to choose it:\n\n"
                f"{self.public_url}/account#reset={token}\n\n"
                "It works once, for an hour. If you did not ask, ignore this message: your password stays.\n",
            )

    async def reset(self, body: object) -> None:
        """Sets a new password with a reset link's token ({token, password}); every session ends."""
        given = check_fields(body, {"token", "password"}, "a new password")
        token = _link_token(given.get("token"))
        password = check_password(given.get("password"))
        digest = await self._hash(password)
        if not await self.store.write(self._reset, token, digest):
            raise Refusal(400, "this link does not work (any more): ask for a new one")

    def _reset(self, token: str, digest: str) -> bool:
        """Uses a reset token: the new hash stored, the account's sessions and reset links ended."""
        with self.store.session() as s:
            link = self._take(s, token, "reset")
            if link is None:
                return False
            row = s.get_one(AccountRow, link.account_id)
            if row.deleted:
                return False
            row.password_hash = digest
            s.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            s.execute(
                delete(AccountTokenRow).where(
                    AccountTokenRow.account_id == row.id, AccountTokenRow.purpose == "reset"
                )
            )
            return True

    async def _set_password(self, account_id: int, password: str) -> None:
        """Stores a password's new hash (after the hasher's parameters changed)."""
        digest = await self._hash(password)
        await self.store.write(self._store_hash, account_id, digest)

    def _store_hash(self, account_id: int, digest: str) -> None:
        """Writes an account's password hash."""
        with self.store.session() as s:
            s.get_one(AccountRow, account_id).password_hash = digest


def _link_token(value: object) -> str:
    """Returns an e-mail link's token as sent back, refusing anything that cannot be one."""
    if not isinstance(value, str) or not 20 <= len(value) <= 100 or not value.isascii():
        raise Refusal(400, "this link does not work (any more): ask for a new one")
    return value
