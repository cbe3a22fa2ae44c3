"""The databases tests run on: the throwaway PostgreSQL and Redis fixtures (tests/cluster and tests/server
import them from here), and the server suite's choice of database by one switch.

``PARLOUR_TEST_DATABASE=postgres`` runs tests/server on PostgreSQL: each test's database path (the ``db``
fixture, or any path a test hands to ``database_url``, ``make_client`` or ``LiveServer``) names a fresh
database on one throwaway cluster per test process, made the first time the path is asked for and
dropped after the test. Unset (or ``sqlite``), the path is the SQLite file, as always. Tests about the
SQLite file itself carry ``@pytest.mark.sqlite_only("why")`` and are skipped on PostgreSQL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import Any, TypeVar

import pytest
from cluster.services import Missing, PostgresCluster, postgres_cluster, redis_server
from sqlalchemy import create_engine, inspect, text

SWITCH = "PARLOUR_TEST_DATABASE"
"""The environment variable choosing the server suite's database: ``sqlite`` (default) or ``postgres``."""
BACKENDS = ("sqlite", "postgres")

T = TypeVar("T")


def backend() -> str:
    """Returns the server suite's database kind (``sqlite`` or ``postgres``); refuses anything else."""
    found = os.environ.get(SWITCH, "sqlite").strip().lower() or "sqlite"
    if found in ("postgresql", "pg"):
        found = "postgres"
    if found not in BACKENDS:
        raise pytest.UsageError(f"{SWITCH}={found!r}: expected one of {', '.join(BACKENDS)}")
    return found


def on_postgres() -> bool:
    """Whether the server suite runs on PostgreSQL."""
    return backend() == "postgres"


class Databases:
    """The PostgreSQL databases standing for a test's database paths (one test at a time)."""

    def __init__(self) -> None:
        self.cluster: PostgresCluster | None = None
        self.made: dict[Path, str] = {}

    def url(self, db: Path) -> str:
        """Returns the database of path ``db``: the SQLite file, or a fresh PostgreSQL database made on
        the first request for that path in this test."""
        if self.cluster is None:
            return f"sqlite:///{db}"
        key = Path(os.path.abspath(db))
        if key not in self.made:
            self.made[key] = self.cluster.create_database()
        return self.made[key]

    def drop_all(self) -> None:
        """Drops the databases made during the test (their connections closed first)."""
        made, self.made = self.made, {}
        if self.cluster is not None:
            for url in made.values():
                self.cluster.drop_database(url)


DATABASES = Databases()


def database_url(db: Path) -> str:
    """Returns the SQLAlchemy URL of the test database named by the path ``db`` (see the module)."""
    return DATABASES.url(db)


def sql(db: Path, query: str, *args: object) -> list[tuple[Any, ...]]:
    """Runs one statement with ``?`` parameters on the test database named by ``db``, straight (not
    through the server's store), committed; returns its rows (none for a statement without any)."""
    parts = query.split("?")
    named = parts[0] + "".join(f":p{i}{part}" for i, part in enumerate(parts[1:]))
    engine = create_engine(database_url(db))
    try:
        with engine.begin() as connection:
            result = connection.execute(text(named), {f"p{i}": arg for i, arg in enumerate(args)})
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()


def table_names(db: Path) -> set[str]:
    """Returns the names of the tables in the test database named by ``db`` (any database)."""
    engine = create_engine(database_url(db))
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def column_names(db: Path, table: str) -> set[str]:
    """Returns the names of a table's columns in the test database named by ``db`` (any database)."""
    engine = create_engine(database_url(db))
    try:
        return {column["name"] for column in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def stored_bytes(db: Path) -> bytes:
    """Returns what the test database named by ``db`` holds, to search for something that must not be
    there: a SQLite file's bytes and its WAL's (as a leaked copy would hold them); on PostgreSQL every
    row of every table as text."""
    if DATABASES.cluster is None:
        wal = Path(f"{db}-wal")
        return db.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            names = inspect(engine).get_table_names()
            rows = [
                connection.execute(text(f'SELECT t::text FROM "{name}" t')).scalars().all() for name in names
            ]
    finally:
        engine.dispose()
    return "\n".join(row for table in rows for row in table).encode()


def _started(stack: ExitStack, server: AbstractContextManager[T]) -> T:
    """Enters a server's context on ``stack``; skips the test if its binaries are not installed."""
    try:
        return stack.enter_context(server)
    except Missing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster for the session (skipped only if PostgreSQL is not installed)."""
    with ExitStack() as stack:
        yield _started(stack, postgres_cluster())


@pytest.fixture
def pg_url(postgres: PostgresCluster) -> Iterator[str]:
    """The URL of a new empty database on the session's cluster, dropped after the test."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a throwaway Redis for the session (skipped only if Redis is not installed)."""
    with ExitStack() as stack:
        yield _started(stack, redis_server())


@pytest.fixture(autouse=True)
def server_database(request: pytest.FixtureRequest) -> Iterator[None]:
    """On PostgreSQL: skips a test marked ``sqlite_only``, points DATABASES at the session's cluster and
    HOME at the test's folder (where a server not on a SQLite file keeps its seed key), and drops the
    test's databases after it. On SQLite: nothing."""
    if not on_postgres():
        yield
        return
    marker = request.node.get_closest_marker("sqlite_only")
    if marker is not None:
        pytest.skip(f"SQLite only: {marker.args[0] if marker.args else 'about the SQLite file'}")
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    monkeypatch: pytest.MonkeyPatch = request.getfixturevalue("monkeypatch")
    monkeypatch.setenv("HOME", str(request.getfixturevalue("tmp_path")))
    DATABASES.cluster = cluster
    try:
        yield
    finally:
        DATABASES.drop_all()
        DATABASES.cluster = None
