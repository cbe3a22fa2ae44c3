"""Storage behind a small interface: tables, seats, accepted moves and chat, in SQL (SQLite by default).

Every accepted action is committed before anyone hears of it, so a server killed at any moment loses
no accepted action and a restart replays every table from its seed and moves. The schema is created
and upgraded by Alembic (``migrations/``); the database URL is a setting (PostgreSQL can replace SQLite).
The seeds of games in play are stored sealed with a key kept apart from the database (``sealing.py``);
a SQLite file and its -wal and -shm are private to the user (0600).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
import zlib
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ColumnElement,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    bindparam,
    column,
    create_engine,
    event,
    false,
    func,
    insert,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy import table as sql_table
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.sql.dml import Update

from parlour.core.errors import ParlourError
from parlour.core.positions import JSONObject, JSONValue
from parlour.server.sealing import (
    SeedKeyError,
    default_key_path,
    key_check,
    load_or_create_key,
    private_database,
    seal,
    sqlite_file,
    unseal,
)

if TYPE_CHECKING:
    from alembic.config import Config

T = TypeVar("T")


class Stale(Exception):
    """A table's write refused: its stored row moved on since this copy read it (another node of a
    cluster wrote it); nothing was stored."""


class Base(DeclarativeBase):
    """The tables' common base."""


class TableRow(Base):
    """A table: its game, options, seed (secret until the end: sealed while in play), version and clock."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[JSONObject] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    created: Mapped[float] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer, default=0)
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How often the row was written since its making (``version`` counts moves only): a node's
    catch-up compares it, so a change without a move (a name, a stand-in) is not missed."""
    move_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    game_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    scores: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    spectator_hash: Mapped[str] = mapped_column(String(64))
    sealed: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether ``seed`` holds the seed sealed (sealing.seal) rather than in clear."""
    spectators: Mapped[bool] = mapped_column(Boolean, default=True)
    """Whether the table has a spectators' link (without one, only its seats' links open it in play)."""
    next_table: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The table its players went on to ("play again"; public)."""
    pace: Mapped[str] = mapped_column(String(16), default="live", server_default="live")
    """"live" or "turn-based" (a move's time in hours, docs/server.md "Turn-based tables")."""
    window_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    """A turn-based table's time for a reaction window (its moves have ``move_seconds``)."""
    away_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    """A turn-based table's reserve of time each person may be away, spent beyond a move's time."""
    claimed_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The version whose due deadline a scheduler claimed (scheduler.py), at ``claimed_at``."""
    claimed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the table was made rated (ratings.py decides at its end whether it counts)."""
    rated_done: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the ratings took its end into account (set once, in the rating's transaction)."""
    ranks: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    """Each seat's final place (1 is best; ties share), stored with the game's end."""
    declined_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat whose person declined the rematch (status "declined"; rematch.py)."""
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a rematch's last person accepted and its game began (null: at ``created``)."""
    asked: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    """The seats whose decision the game waits for, written with each commit of the table (a waiting
    rematch: those asked once it starts; finished: none; null: unknown, stored before 0012 and not
    loaded since), so "My games" knows whose turn it is without the table in memory."""
    expires: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    """When a rematch still waiting for its accepts is declined (rematch.EXPIRES after its making;
    null: any other table). Set at its making only: ``Store.update`` never writes it."""


class MetaRow(Base):
    """A fact about the database itself, by name (the seed key's check value)."""

    __tablename__ = "meta"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


WRITERS = 4
"""Writer threads on PostgreSQL (Store.write): a table's writes in order, several tables' at once."""
KEY_CHECK = "seed_key_check"
"""The meta row holding the check value of the key the seeds are sealed with."""


class SeatRow(Base):
    """A seat: a person (with a hashed token) or a bot; a person's seat may be taken over by a bot."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    ask: Mapped[str] = mapped_column(String(4000), default="playable")
    """When its person is asked in reaction windows (asking.AskMe's text)."""
    stand_in: Mapped[str | None] = mapped_column(String(64), nullable=True)
    time_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The name its person gave the seat (public)."""
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account its person bound the seat to (accounts.id; null: none). Kept by the accounts alone:
    ``Store.update`` never writes it."""
    timeouts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How often its person's clock ran out (public)."""
    away_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    """What is left of a turn-based table's away reserve (seconds; public)."""
    votes: Mapped[list[int]] = mapped_column(JSON, default=list, server_default="[]")
    """The seats whose persons voted to replace its person by a bot (public)."""
    replaced: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the others' vote gave the seat to a bot for the rest of the game (public)."""
    accepted: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether its person accepted the rematch the table is (always true elsewhere). Kept by the
    accepts alone (rematch.py): ``Store.update`` never writes it."""
    bot_account: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the seat is a server bot account's (kind human, bound to it; public). Set at creation."""


class MoveRow(Base):
    """An accepted move, in the order accepted: enough, with the seed, to replay the table exactly."""

    __tablename__ = "moves"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    forced: Mapped[list[JSONValue]] = mapped_column(JSON, default=list)
    at: Mapped[float] = mapped_column(Float)
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)


class LeaseRow(Base):
    """The lease of a table in play at a cluster's node (leases.py): who owns it, until when (server
    clock); a single server keeps none."""

    __tablename__ = "table_leases"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    expires: Mapped[float] = mapped_column(Float, index=True)


class ChatRow(Base):
    """A line of table chat."""

    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[float] = mapped_column(Float)


@dataclass
class SeatRecord:
    """A seat as stored."""

    seat: int
    kind: str
    bot: str | None = None
    token_hash: str | None = None
    ask: str = "playable"
    """When its person is asked in reaction windows (asking.AskMe's text; "playable" by default)."""
    stand_in: str | None = None
    time_left: float | None = None
    name: str | None = None
    """The name its person gave the seat (public; tables.check_name)."""
    timeouts: int = 0
    """How often its person's clock ran out (public)."""
    away_left: float | None = None
    """What is left of a turn-based table's away reserve (seconds; None: the table has none)."""
    votes: list[int] = field(default_factory=list)
    """The seats whose persons voted to replace its person by a bot (votes.py; public)."""
    replaced: bool = False
    """Whether the others' vote gave the seat to a bot for the rest of the game (public)."""
    accepted: bool = True
    """Whether its person accepted the rematch (a bot's seat and any other table's: true)."""
    bot_account: bool = False
    """Whether the seat is a server bot account's (kind human, no link; botaccounts/seating.py)."""


@dataclass
class MoveRecord:
    """A move as stored."""

    number: int
    seat: int
    action: str
    forced: list[JSONValue] = field(default_factory=list)
    at: float = 0.0
    note: str | None = None


@dataclass
class TableRecord:
    """A table as stored, with its seats and moves."""

    id: str
    game: str
    players: int
    options: JSONObject
    seed: int
    spectator_hash: str
    seats: list[SeatRecord]
    moves: list[MoveRecord] = field(default_factory=list)
    status: str = "playing"
    created: float = 0.0
    version: int = 0
    revision: int = 0
    """How often the table's row was written (the stored column; a node's copy reads it)."""
    move_seconds: float | None = None
    game_seconds: float | None = None
    deadline: float | None = None
    scores: list[float] | None = None
    spectators: bool = True
    """Whether the table has a spectators' link (``spectator_hash`` is empty without one)."""
    next_table: str | None = None
    """The table its players went on to ("play again"; public)."""
    pace: str = "live"
    """"live" or "turn-based"."""
    window_seconds: float | None = None
    """A turn-based table's time for a reaction window."""
    away_seconds: float | None = None
    """A turn-based table's away reserve per person (seconds)."""
    rated: bool = False
    """Whether the table was made rated (docs/server.md "Ratings")."""
    ranks: list[int] | None = None
    """Each seat's final place (1 is best), once the game is over."""
    declined_by: int | None = None
    """The seat whose person declined the rematch (status "declined")."""
    started: float | None = None
    """When a rematch's game began, on its last accept (None: at ``created``)."""
    asked: list[int] | None = None
    """The seats whose decision the game waits for (LiveTable keeps it; None: not known yet)."""
    expires: float | None = None
    """When a rematch still waiting for its accepts is declined (None: any other table)."""


class Store:
    """The server's storage: a SQLAlchemy engine on the configured URL, migrated on open.

    ``seed_key`` seals the seeds of games in play (None: the key in ``default_key_path(url)``, made if
    new); records come and go with clear seeds, only the stored column is sealed.

    Writes from the event loop go through ``write``: on SQLite one writer thread, so transactions
    queue in order instead of waiting on the database's lock (SQLite's lock waits in coarse sleeps);
    reads never wait for a writer (WAL). On PostgreSQL, WRITERS threads, a table's writes in order.
    """

    def __init__(self, url: str, seed_key: bytes | None = None) -> None:
        self.url = url
        file = sqlite_file(url)
        if file is not None:
            private_database(file)
        self.seed_key = seed_key if seed_key is not None else load_or_create_key(default_key_path(url))
        self.node: str | None = None
        """A cluster's node id (cluster.py): a table's row is written only while its lease is this
        node's (None: a single server, which writes every table)."""
        # A server's connections to PostgreSQL may be ended under it (a restart, a failover, an idle
        # timeout): each is checked when the pool hands it out, so the next query opens a new one.
        self.engine: Engine = create_engine(
            url, json_serializer=_dumps, pool_pre_ping=not url.startswith("sqlite")
        )
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            migrate(self.engine, self.seed_key)
        except BaseException:
            self.engine.dispose()
            raise
        # One writer on SQLite (its lock admits one anyway); on PostgreSQL several, each a thread of
        # its own: a table's writes always take the same one (``write``'s ``table``), so they stay
        # in order, while other tables' commits go on beside them.
        lanes = 1 if url.startswith("sqlite") else WRITERS
        self._writers = [ThreadPoolExecutor(1, thread_name_prefix=f"parlour-db{n}") for n in range(lanes)]
        # A cluster's node reads a table at every move another node made (``load_new``): on
        # PostgreSQL through connections of their own, unchecked and without a transaction (each
        # statement sees what is committed, as in any transaction at READ COMMITTED): three round
        # trips instead of six. A read on a connection ended under it fails once and is made again
        # by the node's catch-up.
        self.reader: Engine = self.engine
        if not url.startswith("sqlite"):
            self.reader = create_engine(url, isolation_level="AUTOCOMMIT", pool_pre_ping=False)

    async def write(self, method: Callable[..., T], *args: object, table: str | None = None) -> T:
        """Runs one of the store's writing methods in a writer thread and returns its result: the
        thread of ``table`` for a write of that table's rows (its writes keep their order), else the
        first."""
        writers = self._writers
        lane = 0 if table is None else zlib.crc32(table.encode()) % len(writers)
        return await asyncio.get_running_loop().run_in_executor(writers[lane], method, *args)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """Yields a session committed at the end (rolled back on an error)."""
        with Session(self.engine) as session, session.begin():
            yield session

    def create(
        self, table: TableRecord, previous: str | None = None, lease: tuple[str, float] | None = None
    ) -> str:
        """Stores a new table with its seats and returns its id; with ``previous``, links that finished
        table to it (its "play again") in the same transaction, by a compare-and-set on an empty
        ``next_table``: if another process linked one first, nothing is stored and that table's id is
        returned (several processes on one database make one rematch). With ``lease`` (a cluster node's
        id, the lease's end), the table's lease is that node's from the same transaction: no other
        node ever sees it without an owner."""
        with self.session() as s:
            if previous is not None:
                linked = s.connection().execute(
                    update(TableRow)
                    .where(TableRow.id == previous, TableRow.next_table.is_(None))
                    .values(next_table=table.id, revision=TableRow.revision + 1)
                )
                if linked.rowcount != 1:
                    winner = s.scalar(select(TableRow.next_table).where(TableRow.id == previous))
                    if winner is None:
                        raise LookupError(f"no table {previous}")
                    return winner
            s.add(_table_row(table, self.seed_key))
            s.flush()  # the table row first: the seats refer to it
            s.add_all(_seat_row(table.id, seat) for seat in table.seats)
            if lease is not None:
                s.add(LeaseRow(table_id=table.id, owner=lease[0], expires=lease[1]))
            if previous is not None:
                s.execute(_carry_accounts(previous, table.id))
        return table.id

    def deleted_seats(self, table_id: str) -> set[int]:
        """Returns the seats of a table kept in an account that was deleted since."""
        accounts = sql_table(
            "accounts", column("id", Integer), column("deleted", Boolean)
        )  # accounts/rows.py
        with self.engine.connect() as connection:
            found = connection.execute(
                select(SeatRow.seat)
                .join(accounts, accounts.c.id == SeatRow.account_id)
                .where(SeatRow.table_id == table_id, accounts.c.deleted.is_(True))
            ).scalars()
            return set(found)

    def add_move(self, table: TableRecord, move: MoveRecord, clocks: Collection[int] | None = None) -> None:
        """Stores an accepted move and the table's new version, status and clocks, in one transaction;
        raises Stale (nothing stored) unless the stored version is the one before the move's.
        ``clocks``: the seats whose clocks the move changed (None: every seat's is written)."""
        try:
            with self.engine.begin() as connection:
                _update_table(connection, table, table.version - 1, self.node)  # over: seed in clear
                connection.execute(_INSERT_MOVE, {"table_id": table.id, **_fields(move)})
                changed = [
                    {"t": table.id, "s": s.seat, "left": s.time_left, "away": s.away_left, "out": s.timeouts}
                    for s in table.seats
                    if clocks is None or s.seat in clocks
                ]
                if changed:  # a bot's move changes none: one round trip less
                    connection.execute(_UPDATE_CLOCK, changed)
        except IntegrityError:  # the move's number is stored already (written by another node)
            raise Stale(f"table {table.id} has a move {move.number} already") from None

    def update(self, table: TableRecord) -> None:
        """Stores a table's status, clocks and seats (a stand-in bot, auto-pass) without a move; raises
        Stale (nothing stored) if the stored version is not the record's (another node moved it)."""
        with self.engine.begin() as connection:
            _update_table(connection, table, table.version, self.node)
            for seat in table.seats:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table.id, SeatRow.seat == seat.seat)
                    .values(**_columns(seat, SEAT_COLUMNS))
                )

    def add_chat(self, table_id: str, seat: int | None, text: str) -> float:
        """Stores a chat line; returns its time."""
        at = time.time()
        with self.session() as s:
            s.add(ChatRow(table_id=table_id, seat=seat, text=text, at=at))
        return at

    def chat(self, table_id: str, last: int = 100) -> list[tuple[int | None, str, float]]:
        """Returns the table's last chat lines (seat, text, time), oldest first."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(last)
            ).all()
            return [(r.seat, r.text, r.at) for r in reversed(rows)]

    def chat_count(self, table_id: str) -> int:
        """Returns how many chat lines the table has stored."""
        with Session(self.engine) as s:
            found = s.scalar(select(func.count()).select_from(ChatRow).where(ChatRow.table_id == table_id))
            return int(found or 0)

    def load(self, table_id: str) -> TableRecord | None:
        """Returns a stored table with its seats and moves, or None (also for an id no table can have:
        one with a NUL, which PostgreSQL refuses in a text, or another unprintable character)."""
        return self._load(self.engine, table_id, None)

    def load_new(self, table_id: str, after: int | None) -> TableRecord | None:
        """Returns a stored table as ``load`` does but with only the moves numbered above ``after``
        (moves are only ever appended, numbered upwards: a node holding those up to ``after`` reads
        what is new), on the reader's connections (see ``__init__``)."""
        return self._load(self.reader, table_id, after)

    def _load(self, engine: Engine, table_id: str, after: int | None) -> TableRecord | None:
        """Reads a table's record through ``engine`` (Core rows: no ORM objects on this hot path)."""
        if not table_id.isprintable():
            return None
        with engine.connect() as connection:
            row = connection.execute(_READ_TABLE, {"t": table_id}).first()
            if row is None:
                return None
            return _record(connection, row, self.seed_key, after=after)

    def tables(
        self, status: str | None = None, limit: int = 200, pace: str | None = None
    ) -> list[TableRecord]:
        """Returns stored tables (newest first; of one status, of one pace), without their moves."""
        with Session(self.engine) as s:
            query = select(TableRow).order_by(TableRow.created.desc()).limit(limit)
            if status is not None:
                query = query.where(TableRow.status == status)
            if pace is not None:
                query = query.where(TableRow.pace == pace)
            return [_record(s, row, self.seed_key, moves=False) for row in s.scalars(query).all()]

    def due(
        self, now: float, lease: float, limit: int = 100, owner: str | None = None
    ) -> list[tuple[str, int]]:
        """Returns the tables in play whose deadline has passed and that no scheduler holds a claim on
        (none, one for an older version, or one older than ``lease`` seconds), soonest first, with
        their versions; with ``owner`` (a cluster's node), only the tables whose lease it holds."""
        query = (
            select(TableRow.id, TableRow.version)
            .where(TableRow.deadline <= now, TableRow.status == "playing", _unclaimed(now, lease))
            .order_by(TableRow.deadline)
            .limit(limit)
        )
        if owner is not None:
            query = query.where(TableRow.id.in_(select(LeaseRow.table_id).where(LeaseRow.owner == owner)))
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [(table_id, version) for table_id, version in rows]

    def claim(self, table_id: str, version: int, now: float, lease: float) -> bool:
        """Claims a due deadline of a table at ``version`` for this scheduler: one compare-and-set, so
        of several schedulers (processes, nodes) on one database exactly one gets it. Returns whether
        this one did."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(TableRow)
                .where(
                    TableRow.id == table_id,
                    TableRow.version == version,
                    TableRow.status == "playing",
                    TableRow.deadline <= now,
                    _unclaimed(now, lease),
                )
                .values(claimed_version=version, claimed_at=now)
            )
            return done.rowcount == 1

    def release(self, table_id: str, version: int) -> None:
        """Gives back a claim on a table's version (its scheduler did not act on it)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.claimed_version == version)
                .values(claimed_version=None, claimed_at=None)
            )

    def close(self) -> None:
        """Finishes the queued writes and closes the database connections."""
        for writer in self._writers:
            writer.shutdown(wait=True)
        self.engine.dispose()
        self.reader.dispose()


def open_store(url: str, key_file: Path | None = None) -> Store:
    """Opens the store with the seed key in ``key_file`` (None: ``default_key_path(url)``, made if new);
    a key that is not the database's is refused with one line naming its file."""
    path = key_file if key_file is not None else default_key_path(url)
    key = load_or_create_key(path)
    try:
        return Store(url, key)
    except SeedKeyError:
        raise SeedKeyError(
            f"{path} is not this database's seed key: its games in play were sealed with another one "
            "(give that file with --seed-key-file)"
        ) from None


class SchemaError(ParlourError):
    """A database whose schema this Parlour cannot open: migrated by a newer release."""


MIGRATION_LOCK = 0x7061726C6F7572
"""The PostgreSQL advisory lock a migration holds for its transaction ("parlour" in ASCII): several
processes opening one new database at once take turns, and the later ones find it migrated."""


def migrate(engine: Engine, seed_key: bytes | None = None) -> None:
    """Creates or upgrades the schema to the newest Alembic revision; with a key, then checks it is the
    database's and seals the seeds of games in play stored in clear (all in one transaction)."""
    from alembic import command
    from alembic.config import Config
    from alembic.util.exc import CommandError

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":  # nodes starting together migrate one after the other
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, "head")
        except CommandError as err:  # a revision this release does not know: a newer one migrated it
            raise SchemaError(
                f"the database's schema is newer than this Parlour's ({_stored_revision(connection)}; this "
                f"release knows up to {_newest_revision(config)}): run the newer release, or restore a backup"
            ) from err
        sealed = _adopt_key(connection, seed_key) if seed_key is not None else 0
    if sealed and engine.dialect.name == "sqlite":
        _scrub(engine)


def _stored_revision(connection: Connection) -> str:
    """Returns the Alembic revision the database says it is at (printable, at most 40 characters)."""
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    shown = "".join(c for c in str(found) if c.isprintable())[:40]
    return f"revision {shown!r}"


def _newest_revision(config: Config) -> str:
    """Returns the newest revision among this release's migrations."""
    from alembic.script import ScriptDirectory

    return str(ScriptDirectory.from_config(config).get_current_head())


def _adopt_key(connection: Connection, key: bytes) -> int:
    """Checks the key against the database's check value (storing it if there is none yet), then seals
    the seed of every game in play stored in clear; returns how many were sealed."""
    check = key_check(key)
    stored = connection.execute(select(MetaRow.value).where(MetaRow.name == KEY_CHECK)).scalar()
    if stored is None:
        connection.execute(insert(MetaRow).values(name=KEY_CHECK, value=check))
    elif not hmac.compare_digest(stored, check):
        raise SeedKeyError("the seed key is not this database's: its games in play were sealed with another")
    clear = connection.execute(
        select(TableRow.id, TableRow.seed).where(TableRow.status != "over", TableRow.sealed.is_(False))
    ).all()
    if clear:
        sealed = [{"t": t, "seed": seal(seed, key, t), "sealed": True} for t, seed in clear]
        connection.execute(_SET_SEED, sealed)
    return len(clear)


def _scrub(engine: Engine) -> None:
    """Rewrites a SQLite file and empties its WAL, so no page keeps a seed from before it was sealed."""
    with engine.connect() as connection:
        connection.exec_driver_sql("VACUUM")
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def sqlite_url(path: Path) -> str:
    """Returns the URL of a SQLite file (its folder created, private to the user)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    return f"sqlite:///{path}"


def _sqlite_pragmas(connection: DBAPIConnection, _: object) -> None:
    """WAL journal: a commit survives the process being killed at once; readers never block."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _dumps(value: object) -> str:
    """JSON for the database: compact, no NaN."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


TABLE_COLUMNS = (
    "id", "game", "players", "options", "seed", "status", "created", "version",
    "move_seconds", "game_seconds", "deadline", "scores", "spectator_hash", "spectators", "next_table",
    "pace", "window_seconds", "away_seconds", "rated", "ranks", "declined_by", "started", "asked",
    "expires", "revision",
)  # fmt: skip
"""The TableRecord fields stored in a table's row (its seats and moves have rows of their own)."""
SEAT_COLUMNS = (
    "seat", "kind", "bot", "token_hash", "ask", "stand_in", "time_left", "name", "timeouts", "away_left",
    "votes", "replaced",
)  # fmt: skip
STORED_SEAT_COLUMNS = (*SEAT_COLUMNS, "accepted", "bot_account")
"""A seat's columns as created and read (``accepted`` changes only by the accepts: rematch.py;
``bot_account`` never changes)."""
MOVE_COLUMNS = ("number", "seat", "action", "forced", "at", "note")


TABLES, SEATS, MOVES = TableRow.__table__, SeatRow.__table__, MoveRow.__table__
"""The Core tables a table's record is read from (no ORM objects: reading is a node's hot path)."""
_READ_TABLE = select(TABLES).where(TABLES.c.id == bindparam("t"))
_READ_SEATS = select(SEATS).where(SEATS.c.table_id == bindparam("t")).order_by(SEATS.c.seat)
_READ_MOVES = (
    select(MOVES)
    .where(
        MOVES.c.table_id == bindparam("t"),
        MOVES.c.number > bindparam("after"),
        MOVES.c.number <= bindparam("upto"),
    )
    .order_by(MOVES.c.number)
)
"""The statements reading a table's record, built once: its moves numbered above ``after`` (-1 for all)
up to the row's version (a move's number is the version it made), so a record read while a move
commits never holds a move its version does not count (a node's reads are autocommit: each statement
sees the database as it is then)."""
_INSERT_MOVE = insert(MoveRow)
_UPDATE_TABLE = (
    update(TableRow)
    .where(TableRow.id == bindparam("t"), TableRow.version == bindparam("old"))
    .values(
        status=bindparam("st"),
        version=bindparam("v"),
        deadline=bindparam("d"),
        scores=bindparam("sc"),
        ranks=bindparam("rk"),
        asked=bindparam("ak"),
        revision=TableRow.revision + 1,
    )
)
_UPDATE_LEASED_TABLE = _UPDATE_TABLE.where(
    select(LeaseRow.table_id)
    .where(LeaseRow.table_id == bindparam("t"), LeaseRow.owner == bindparam("node"))
    .exists()
)
"""A cluster node's write of a table's row: only while the table's lease is the node's."""
_UPDATE_CLOCK = (
    update(SeatRow)
    .where(SeatRow.table_id == bindparam("t"), SeatRow.seat == bindparam("s"))
    .values(time_left=bindparam("left"), away_left=bindparam("away"), timeouts=bindparam("out"))
)
"""The statements of a move, built once (a move is the server's most frequent write)."""
_SET_SEED = (
    update(TableRow)
    .where(TableRow.id == bindparam("t"))
    .values(seed=bindparam("seed"), sealed=bindparam("sealed"))
)
"""A table's seed: sealed, or in clear once the game is over."""


def _carry_accounts(previous: str, table_id: str) -> Update:
    """Returns the statement giving each seat of a "play again" table the account its person's seat of
    ``previous`` was kept in: the person is the one whose token (hash) the seat reuses."""
    seats: Table = SeatRow.__table__  # type: ignore[assignment]  # a declarative class's table is a Table
    old = seats.alias("old")
    kept = (
        select(old.c.account_id)
        .where(old.c.table_id == previous, old.c.token_hash == seats.c.token_hash)
        .scalar_subquery()
    )
    return (
        update(seats)
        .where(seats.c.table_id == table_id, seats.c.token_hash.is_not(None))
        .values(account_id=kept)
    )


def _unclaimed(now: float, lease: float) -> ColumnElement[bool]:
    """Returns the condition that no scheduler holds a live claim on a table's current version."""
    return or_(
        TableRow.claimed_version.is_(None),
        TableRow.claimed_version != TableRow.version,
        TableRow.claimed_at <= now - lease,
    )


def _columns(record: object, names: Sequence[str]) -> JSONObject:
    """Returns the named fields of a record, as a row's columns."""
    return {name: getattr(record, name) for name in names}


def _fields(move: MoveRecord) -> JSONObject:
    """Returns a move's columns."""
    return _columns(move, MOVE_COLUMNS)


def _table_row(table: TableRecord, key: bytes) -> TableRow:
    """Returns the row of a new table, its seed sealed unless the game is over."""
    row = TableRow(**_columns(table, TABLE_COLUMNS), sealed=table.status != "over")
    if row.sealed:
        row.seed = seal(table.seed, key, table.id)
    return row


def _seat_row(table_id: str, seat: SeatRecord) -> SeatRow:
    """Returns a seat's row."""
    return SeatRow(table_id=table_id, **_columns(seat, STORED_SEAT_COLUMNS))


def _update_table(connection: Connection, table: TableRecord, expected: int, node: str | None) -> None:
    """Copies a table's changing fields to its row if its stored version is ``expected`` and, in a
    cluster, the table's lease is ``node``'s (else raises Stale: a compare-and-set, so a node that
    lost the table never writes over the new owner's); a finished game's seed is public, in clear."""
    done = connection.execute(
        _UPDATE_TABLE if node is None else _UPDATE_LEASED_TABLE,
        {
            "node": node,
            "t": table.id,
            "old": expected,
            "st": table.status,
            "v": table.version,
            "d": table.deadline,
            "sc": table.scores,
            "rk": table.ranks,
            "ak": table.asked,
        },
    )
    if done.rowcount != 1:
        if connection.execute(select(TableRow.id).where(TableRow.id == table.id)).first() is None:
            raise LookupError(f"no table {table.id}")
        raise Stale(f"table {table.id} is no longer at version {expected}")
    table.revision += 1  # as stored (a copy in memory may lag other nodes' writes, never lead them)
    if table.status == "over":
        connection.execute(_SET_SEED, {"t": table.id, "seed": table.seed, "sealed": False})


def _record(
    s: Session | Connection, row: Any, key: bytes, moves: bool = True, after: int | None = None
) -> TableRecord:
    """Returns a table's record from its row (a TableRow or a Core row of ``tables``), with its clear
    seed (with ``after``: only the moves numbered above it)."""
    seats = s.execute(_READ_SEATS, {"t": row.id}).all()
    found: Sequence[Any] = ()
    if moves:
        bounds = {"after": -1 if after is None else after, "upto": row.version}
        found = s.execute(_READ_MOVES, {"t": row.id, **bounds}).all()
    table = _columns(row, TABLE_COLUMNS)
    table["options"] = dict(row.options)
    table["seed"] = unseal(row.seed, key, row.id) if row.sealed else row.seed
    return TableRecord(
        **table,
        seats=[SeatRecord(**{**_columns(r, STORED_SEAT_COLUMNS), "votes": list(r.votes)}) for r in seats],
        moves=[MoveRecord(**{**_columns(m, MOVE_COLUMNS), "forced": list(m.forced)}) for m in found],
    )
