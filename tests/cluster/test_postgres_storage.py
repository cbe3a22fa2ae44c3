"""The storage on a real PostgreSQL (issue 34): the migrations up and down, a table's record with a
62-bit seed, and the scheduler's compare-and-set claim with two stores on one database."""

from __future__ import annotations

import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from server.migrating import insert_old_seats, insert_old_table
from sqlalchemy import Engine, create_engine, inspect, text

from parlour.server.accounts import counters
from parlour.server.storage import MoveRecord, SeatRecord, Stale, Store, TableRecord, migrate

MIGRATIONS = Path(__file__).parents[2] / "parlour" / "server" / "migrations"
BIG_SEED = (1 << 62) - 12345
"""A seed that needs all 62 bits (PostgreSQL's INTEGER holds 31)."""
SEED = text("SELECT seed, sealed FROM tables WHERE id = :t")


def alembic_config(connection: object) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def migrate_to(engine: Engine, revision: str, down: bool = False) -> None:
    with engine.begin() as connection:
        config = alembic_config(connection)
        (command.downgrade if down else command.upgrade)(config, revision)


def revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(alembic_config(None))
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def tables_of(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


@pytest.fixture
def engine(pg_url: str) -> Iterator[Engine]:
    found = create_engine(pg_url)
    yield found
    found.dispose()


@pytest.fixture
def key() -> bytes:
    return secrets.token_bytes(32)


@pytest.fixture
def store(pg_url: str, key: bytes) -> Iterator[Store]:
    opened = Store(pg_url, key)
    yield opened
    opened.close()


def table_record(seed: int = BIG_SEED, deadline: float | None = None, status: str = "playing") -> TableRecord:
    table_id = secrets.token_hex(8)
    seats = [SeatRecord(0, "human", token_hash="a" * 64, name="Ana"), SeatRecord(1, "bot", bot="random")]
    return TableRecord(
        table_id,
        "embers",
        2,
        {"chain": "on", "nested": {"list": [1, 2.5, None]}},
        seed,
        "s" * 64,
        seats,
        status=status,
        created=time.time(),
        deadline=deadline,
        scores=None,
    )


def test_the_migrations_run_up_to_head_down_to_base_and_up_again(engine: Engine) -> None:
    migrate_to(engine, "head")
    made = tables_of(engine)
    assert {"tables", "seats", "moves", "chat", "meta", "accounts", "ratings", "notifications"} <= made
    seed = next(c for c in inspect(engine).get_columns("tables") if c["name"] == "seed")
    assert seed["type"].python_type is int and "BIGINT" in str(seed["type"]).upper()
    migrate_to(engine, "base", down=True)
    assert tables_of(engine) == {"alembic_version"}
    migrate_to(engine, "head")
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert stored == revisions()[-1]


def test_every_migration_goes_down_and_up_again_on_its_own(engine: Engine) -> None:
    for revision in revisions():
        migrate_to(engine, revision)
        migrate_to(engine, "-1", down=True)
        migrate_to(engine, revision)


def test_the_store_migrates_once_when_two_processes_open_a_new_database_together(
    pg_url: str, key: bytes
) -> None:
    opening = (
        "import sys; from parlour.server.storage import Store; "
        "Store(sys.argv[1], bytes.fromhex(sys.argv[2])).close()"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", opening, pg_url, key.hex()], stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    for process in processes:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    with create_engine(pg_url).connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [
            revisions()[-1]
        ]


def test_a_table_with_a_62_bit_seed_and_its_moves_come_back_as_stored(store: Store, key: bytes) -> None:
    table = table_record()
    store.create(table)
    for number, (seat, action) in enumerate([(0, "play 3"), (1, "pass")], 1):
        table.version = number
        store.add_move(table, MoveRecord(number, seat, action, [[1, 2]] if seat else [], time.time(), None))
    loaded = store.load(table.id)
    assert loaded is not None
    assert loaded.seed == BIG_SEED and loaded.options == table.options and loaded.version == 2
    assert [(m.number, m.seat, m.action, m.forced) for m in loaded.moves] == [
        (1, 0, "play 3", []),
        (2, 1, "pass", [[1, 2]]),
    ]
    assert [(s.kind, s.name, s.bot, s.accepted, s.votes) for s in loaded.seats] == [
        ("human", "Ana", None, True, []),
        ("bot", None, "random", True, []),
    ]
    with store.engine.connect() as connection:
        stored = connection.execute(SEED, {"t": table.id}).one()
    assert stored.sealed and stored.seed != BIG_SEED and 0 <= stored.seed < 1 << 62  # sealed in play
    table.status, table.version, table.scores = "over", 3, [1.0, 0.0]
    store.add_move(table, MoveRecord(3, 0, "end", [], time.time(), None))
    with store.engine.connect() as connection:
        stored = connection.execute(SEED, {"t": table.id}).one()
    assert (stored.seed, stored.sealed) == (BIG_SEED, False)  # a finished game's seed is public
    with pytest.raises(Stale):  # a second writer of one move number is refused, nothing stored
        store.add_move(table, MoveRecord(3, 1, "again", [], time.time(), None))
    reopened = Store(store.url, key)
    try:
        again = reopened.load(table.id)
        assert again is not None and again.seed == BIG_SEED and again.scores == [1.0, 0.0]
    finally:
        reopened.close()


def test_the_store_gets_past_connections_the_database_closed(store: Store, pg_url: str) -> None:
    table = table_record()
    store.create(table)
    assert store.load(table.id) is not None  # a pooled connection, idle from now on
    admin = create_engine(pg_url)
    try:
        with admin.connect() as connection:  # as a PostgreSQL restart or an idle timeout ends them
            ended = connection.execute(
                text(
                    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).scalar()
    finally:
        admin.dispose()
    assert ended and ended >= 1
    again = store.load(table.id)  # the pool checks a connection before handing it out
    assert again is not None and again.seed == BIG_SEED


def test_a_rematch_is_linked_once_by_its_compare_and_set(store: Store) -> None:
    finished = table_record(status="over")
    store.create(finished)
    first, second = table_record(), table_record()
    assert store.create(first, previous=finished.id) == first.id
    assert store.create(second, previous=finished.id) == first.id
    assert store.load(second.id) is None


def test_of_two_stores_on_one_database_exactly_one_claims_each_due_deadline(pg_url: str, key: bytes) -> None:
    stores = [Store(pg_url, key), Store(pg_url, key)]
    try:
        now = time.time()
        made = [table_record(deadline=now - 1.0) for _ in range(30)]
        for table in made:
            stores[0].create(table)
        assert {t for t, _ in stores[1].due(now, 30.0, limit=100)} == {t.id for t in made}
        start = threading.Barrier(2)

        def claim_all(store: Store) -> set[str]:
            start.wait()
            return {t.id for t in made if store.claim(t.id, 0, now, 30.0)}

        with ThreadPoolExecutor(2) as pool:
            won = list(pool.map(claim_all, stores))
        assert won[0] | won[1] == {t.id for t in made} and not won[0] & won[1]
        assert stores[0].due(now, 30.0) == [] and stores[1].due(now, 30.0) == []
        table = made[0]
        assert not stores[0].claim(table.id, 0, now, 30.0) and not stores[1].claim(table.id, 0, now, 30.0)
        stores[1].release(table.id, 0)  # given back: due again, claimed again by one
        assert [t for t, _ in stores[0].due(now, 30.0)] == [table.id]
        assert stores[0].claim(table.id, 0, now, 30.0) and not stores[1].claim(table.id, 0, now, 30.0)
        later = now + 31.0  # a claim whose lease ran out (its process died) is taken over
        assert stores[1].claim(table.id, 0, later, 30.0) and not stores[0].claim(table.id, 0, later, 30.0)
        assert not stores[0].claim(made[1].id, 1, now, 30.0)  # not at the stored version
    finally:
        for opened in stores:
            opened.close()


def test_the_rate_limit_counts_with_one_upsert(store: Store) -> None:
    limit = counters.Limit(2, 60.0)
    assert [counters.hit(store.engine, "login-user:ana", limit, now=100.0) for _ in range(3)] == [
        True,
        True,
        False,
    ]
    assert counters.hit(store.engine, "login-user:ana", limit, now=200.0)  # a new window
    counters.forget(store.engine, "login-user:ana")
    assert counters.hit(store.engine, "login-user:ana", limit, now=200.0)


def test_migrate_is_a_no_op_on_a_migrated_database(store: Store, key: bytes) -> None:
    migrate(store.engine, key)
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM meta")).scalar() == 1


def test_a_downgrade_below_the_big_seeds_is_refused_while_a_seed_needs_them(engine: Engine) -> None:
    migrate_to(engine, "0002")
    with engine.begin() as connection:
        insert_old_table(connection, "big", "embers", seed=BIG_SEED)
    with pytest.raises(RuntimeError, match="1 tables have seeds wider than 32 bits"):
        migrate_to(engine, "0001", down=True)
    with engine.begin() as connection:
        connection.execute(text("UPDATE tables SET seed = 7"))
    migrate_to(engine, "0001", down=True)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT seed FROM tables")).scalar() == 7


def test_the_same_migrations_still_run_down_and_up_on_sqlite(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'parlour.db'}")
    try:
        migrate_to(engine, "head")
        migrate_to(engine, "base", down=True)
        assert tables_of(engine) == {"alembic_version"}
        migrate_to(engine, "head")
        assert "tables" in tables_of(engine)
    finally:
        engine.dispose()


def test_a_table_stored_at_the_first_revision_comes_through_every_migration_and_back(engine: Engine) -> None:
    migrate_to(engine, "0001")
    with engine.begin() as connection:
        insert_old_table(connection, "old", "venture", options='{"deck": "house"}', version=1)
        insert_old_seats(connection, "old", (True, False))
        connection.execute(
            text(
                "INSERT INTO moves (table_id, number, seat, action, forced, at) "
                "VALUES ('old', 1, 0, 'discard 16', '[]', 2.0)"
            )
        )
    migrate_to(engine, "head")
    with engine.connect() as connection:
        table = connection.execute(
            text("SELECT sealed, spectators, pace, rated, rated_done, options FROM tables")
        ).one()
        seats = connection.execute(
            text("SELECT ask, votes, timeouts, replaced, accepted FROM seats ORDER BY seat")
        ).all()
    assert tuple(table) == (False, True, "live", False, False, {"deck": "house"})
    assert [tuple(s) for s in seats] == [("playable", [], 0, False, True), ("always", [], 0, False, True)]
    migrate_to(engine, "0004", down=True)
    with engine.connect() as connection:
        auto = connection.execute(text("SELECT auto_pass FROM seats ORDER BY seat")).scalars().all()
        moves = connection.execute(text("SELECT action FROM moves")).scalars().all()
    assert auto == [True, False] and moves == ["discard 16"]
    migrate_to(engine, "base", down=True)
    assert tables_of(engine) == {"alembic_version"}
