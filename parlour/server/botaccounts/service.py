"""Bot accounts in the database: made and revoked by their owner, found by token, their presence lease.

Every function here is plain blocking work on the store (run off the event loop: ``Store.write`` or a
thread). A bot account is an ``accounts`` row with no password (nobody signs in to it: the sign-in
verifies against a hash of nothing) and a ``bot_accounts`` row holding its token's SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import func, select, update

from parlour.server.accounts.rows import AccountRow, username_key
from parlour.server.accounts.rules import check_username
from parlour.server.botaccounts.rows import BotAccountRow
from parlour.server.storage import SeatRow, Store, TableRow
from parlour.server.tables import Refusal

MAX_BOTS = 10
"""Bot accounts one person may hold at once (revoked ones do not count)."""
TOKEN_PREFIX = "pbt_"
"""How a bot's API token begins (so a leaked one is recognisable in a scan)."""
MAX_TOKEN = 100
"""The longest token looked up (characters); a longer one opens nothing."""


@dataclass(frozen=True)
class Bot:
    """A bot account as the API uses it: its account's id and its name."""

    account_id: int
    name: str


def token_digest(token: str) -> str:
    """Returns the stored form of an API token (its SHA-256; any text hashes, a lone surrogate included)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_bot_token() -> str:
    """Returns a new unguessable API token."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def create_bot(store: Store, owner_id: int, name: object, now: float) -> tuple[Bot, str]:
    """Makes a bot account named ``name`` for the person ``owner_id``; returns it and its token (shown
    once). Refuses a bad name (400), a taken one (409), a bot's owner that is a bot or too many bots (403)."""
    username = check_username(name)
    token = new_bot_token()
    with store.session() as s:
        if s.get(BotAccountRow, owner_id) is not None:
            raise Refusal(403, "a bot account cannot make bot accounts")
        owned = s.scalars(
            select(BotAccountRow.account_id).where(
                BotAccountRow.owner_id == owner_id, BotAccountRow.revoked.is_(False)
            )
        ).all()
        if len(owned) >= MAX_BOTS:
            raise Refusal(403, f"an account may hold at most {MAX_BOTS} bot accounts: revoke one first")
        if s.scalar(select(AccountRow.id).where(AccountRow.username_key == username_key(username))):
            raise Refusal(409, "that username is taken")
        row = AccountRow(
            username=username,
            username_key=username_key(username),
            display_name=username,
            password_hash="",  # no password: nobody signs in to a bot account
            email=None,
            email_confirmed=False,
            created=now,
            deleted=False,
        )
        s.add(row)
        s.flush()
        s.add(
            BotAccountRow(account_id=row.id, owner_id=owner_id, token_hash=token_digest(token), created=now)
        )
        return Bot(row.id, username), token


def revoke_bot(store: Store, owner_id: int, name: object) -> None:
    """Revokes the owner's bot named ``name``: its token opens nothing, its stream stops (404: none)."""
    if not isinstance(name, str) or len(name) > 24:
        raise Refusal(404, "you have no bot account of that name")
    with store.session() as s:
        found = s.execute(
            select(BotAccountRow)
            .join(AccountRow, AccountRow.id == BotAccountRow.account_id)
            .where(
                AccountRow.username_key == username_key(name),
                BotAccountRow.owner_id == owner_id,
                BotAccountRow.revoked.is_(False),
            )
        ).scalar_one_or_none()
        if found is None:
            raise Refusal(404, "you have no bot account of that name")
        found.revoked, found.stream, found.online_until = True, None, None


def bots_of(store: Store, owner_id: int, now: float) -> list[dict[str, object]]:
    """Returns the owner's bot accounts (never their tokens): name, made, revoked, online."""
    with store.session() as s:
        rows = s.execute(
            select(AccountRow.username, BotAccountRow)
            .join(AccountRow, AccountRow.id == BotAccountRow.account_id)
            .where(BotAccountRow.owner_id == owner_id)
            .order_by(BotAccountRow.created)
        ).all()
        return [
            {
                "name": name,
                "created": bot.created,
                "revoked": bot.revoked,
                "online": bot.online_until is not None and bot.online_until > now,
            }
            for name, bot in rows
        ]


def bot_of(store: Store, token: str) -> Bot | None:
    """Returns the bot account an API token opens (None: no such token, or revoked)."""
    if not token or len(token) > MAX_TOKEN or not token.isascii():
        return None
    digest = token_digest(token)
    with store.session() as s:
        found = s.execute(
            select(BotAccountRow.account_id, BotAccountRow.token_hash, AccountRow.username)
            .join(AccountRow, AccountRow.id == BotAccountRow.account_id)
            .where(BotAccountRow.token_hash == digest, BotAccountRow.revoked.is_(False))
        ).first()
    if found is None or not hmac.compare_digest(found[1], digest):
        return None
    return Bot(found[0], found[2])


def online_bots(store: Store, now: float) -> list[str]:
    """Returns the names of the bots online now (a stream open and its lease running), by name."""
    with store.session() as s:
        names = s.scalars(
            select(AccountRow.username)
            .join(BotAccountRow, AccountRow.id == BotAccountRow.account_id)
            .where(BotAccountRow.online_until > now, BotAccountRow.revoked.is_(False))
            .order_by(AccountRow.username_key)
        ).all()
    return list(names)


def online_bot(store: Store, name: str, now: float) -> Bot | None:
    """Returns the bot account called ``name`` if it is online now (None otherwise)."""
    if len(name) > 24:
        return None
    with store.session() as s:
        found = s.execute(
            select(AccountRow.id, AccountRow.username)
            .join(BotAccountRow, AccountRow.id == BotAccountRow.account_id)
            .where(
                AccountRow.username_key == username_key(name),
                BotAccountRow.online_until > now,
                BotAccountRow.revoked.is_(False),
            )
        ).first()
    return None if found is None else Bot(found[0], found[1])


def is_bot_account(store: Store, account_id: int) -> bool:
    """Returns whether an account is a bot account (it never signs in, nor uses a person's pages)."""
    with store.session() as s:
        return s.get(BotAccountRow, account_id) is not None


def bind_bot_seats(store: Store, table_id: str, seats: dict[int, int]) -> None:
    """Binds a new table's bot-account seats to their accounts (seat → account id)."""
    with store.session() as s:
        for seat, account_id in seats.items():
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(account_id=account_id)
            )


def owner_and_tables(store: Store, account_id: int) -> tuple[int, int]:
    """Returns the bot's owner (their account id) and how many tables in play seat the bot."""
    with store.session() as s:
        owner = s.get_one(BotAccountRow, account_id).owner_id
        tables = s.scalar(
            select(func.count(func.distinct(SeatRow.table_id)))
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(SeatRow.account_id == account_id, TableRow.status == "playing")
        )
    return owner, tables or 0


def seats_in_play(store: Store, account_id: int) -> list[tuple[str, int, int]]:
    """Returns the bot's seats at tables in play: (table, seat, the table's stored version)."""
    with store.session() as s:
        rows = s.execute(
            select(SeatRow.table_id, SeatRow.seat, TableRow.version)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(SeatRow.account_id == account_id, TableRow.status == "playing")
            .order_by(SeatRow.table_id, SeatRow.seat)
        ).all()
    return [(table, seat, version) for table, seat, version in rows]


def seats_at(store: Store, account_id: int, table_id: str) -> list[int]:
    """Returns the seats the bot holds at one table."""
    with store.session() as s:
        found = s.scalars(
            select(SeatRow.seat).where(SeatRow.account_id == account_id, SeatRow.table_id == table_id)
        ).all()
    return sorted(found)


def claim_stream(store: Store, account_id: int, stream: str, until: float) -> None:
    """Makes ``stream`` the bot's one stream (a previous one notices at its next heartbeat and stops)."""
    with store.session() as s:
        s.execute(
            update(BotAccountRow)
            .where(BotAccountRow.account_id == account_id)
            .values(stream=stream, online_until=until)
        )


def renew_stream(store: Store, account_id: int, stream: str, until: float) -> bool:
    """Renews the stream's presence lease; returns False if another stream replaced it (or revoked)."""
    with store.session() as s:
        done = s.execute(
            update(BotAccountRow)
            .where(
                BotAccountRow.account_id == account_id,
                BotAccountRow.stream == stream,
                BotAccountRow.revoked.is_(False),
            )
            .values(online_until=until)
        )
        return bool(getattr(done, "rowcount", 0))


def release_stream(store: Store, account_id: int, stream: str) -> None:
    """Ends the stream's presence (if it is still the bot's stream): the bot is offline at once."""
    with store.session() as s:
        s.execute(
            update(BotAccountRow)
            .where(BotAccountRow.account_id == account_id, BotAccountRow.stream == stream)
            .values(stream=None, online_until=None)
        )
