"""Table leases on a real PostgreSQL (issue 34, leases.py): of nodes racing for one lease exactly one
wins, a lease that runs on is nobody else's, renewals tell a node what it still holds, and the options
of ``parlour serve --redis-url`` are checked in one line each."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from server.live_server import free_port

from parlour.cli.main import main
from parlour.cli.serve import _shown_redis
from parlour.server.leases import orphans, owner_of, release, renew, take
from parlour.server.storage import SeatRecord, Store, TableRecord

RACERS = 8


@pytest.fixture
def store(pg_url: str) -> Iterator[Store]:
    opened = Store(pg_url, secrets.token_bytes(32))
    yield opened
    opened.close()


def _table(store: Store, status: str = "playing", lease: tuple[str, float] | None = None) -> str:
    record = TableRecord(
        secrets.token_hex(8),
        "embers",
        2,
        {},
        1234,
        "s" * 64,
        [SeatRecord(0, "human", token_hash="a" * 64), SeatRecord(1, "human", token_hash="b" * 64)],
        status=status,
        created=time.time(),
    )
    return store.create(record, None, lease)


def _race(store: Store, table_id: str, now: float) -> list[str]:
    """Lets RACERS nodes try to take the table's lease at the same moment; returns the winners."""
    start = threading.Barrier(RACERS)

    def attempt(number: int) -> str | None:
        start.wait()
        return f"node{number}" if take(store.engine, table_id, f"node{number}", now) else None

    with ThreadPoolExecutor(RACERS) as pool:
        return [w for w in pool.map(attempt, range(RACERS)) if w is not None]


def test_of_nodes_racing_for_an_expired_lease_exactly_one_wins_and_owns_it(store: Store) -> None:
    now = time.time()
    for _round in range(5):
        table_id = _table(store, lease=("dead", now - 1))  # its node stopped renewing
        winners = _race(store, table_id, now)
        assert len(winners) == 1
        assert owner_of(store.engine, table_id, now) == winners[0]


def test_of_nodes_racing_for_a_table_without_a_lease_exactly_one_wins(store: Store) -> None:
    now = time.time()
    for _round in range(5):
        table_id = _table(store)  # stored before 0015, or by a single server
        winners = _race(store, table_id, now)
        assert len(winners) == 1 and owner_of(store.engine, table_id, now) == winners[0]


def test_a_lease_that_runs_on_is_nobody_elses_and_renewals_tell_a_node_what_it_holds(store: Store) -> None:
    now = time.time()
    mine = _table(store, lease=("alpha", now + 10))
    theirs = _table(store, lease=("beta", now + 10))
    assert not take(store.engine, mine, "beta", now)  # alpha's runs on
    assert take(store.engine, mine, "alpha", now)  # its owner takes it again (a renewal)
    assert renew(store.engine, "alpha", now) == {mine}
    assert set(orphans(store.engine, now)).isdisjoint({mine, theirs})
    later = now + 11  # beta stopped renewing: its table is free, alpha's too until alpha renews
    assert theirs in orphans(store.engine, later)
    assert take(store.engine, theirs, "gamma", later)
    assert renew(store.engine, "beta", later) == set()  # beta learns it lost it
    assert release(store.engine, "alpha") == 1 and owner_of(store.engine, mine, now) is None
    finished = _table(store, status="over")
    assert finished not in orphans(store.engine, later)  # a finished table needs no owner


def test_the_serve_options_of_a_node_are_checked_in_one_line_each(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = ["--seed-key-file", str(tmp_path / "seed.key")]
    cases = [
        (["--db", str(tmp_path / "x.db"), "--redis-url", "redis://127.0.0.1:1/0"], "--redis-url needs"),
        (["--db", str(tmp_path / "x.db"), "--node-id", "a"], "--node-id is for a node"),
        (["--database-url", pg_url, "--redis-url", "http://x"], "rediss:// or unix:// URL"),
        (["--database-url", pg_url, "--redis-url", "redis://127.0.0.1:1/0", "--node-id", "a b"], "--node-id"),
        (["--database-url", pg_url, "--redis-url", "redis://h/0", "--node-id", "n" * 56], "1 to 55"),
        (
            ["--database-url", pg_url, "--redis-url", f"redis://:hush@127.0.0.1:{free_port()}/0"],
            "cannot reach Redis at redis://***@127.0.0.1",
        ),
    ]
    for args, said in cases:
        assert main(["serve", *args, *key]) == 2, args
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and said in error, (args, error)
        assert "hush" not in error
    assert not (tmp_path / "x.db").exists()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:pa/ss@h:6379/0", "redis://***@h:6379/0"),
        ("redis://user:p@ss@h", "redis://***@h"),
        ("rediss://u:se/c?r@et@h:6380/1", "rediss://***@h:6380/1"),
        ("redis://h:6379/0?password=top&db=2", "redis://h:6379/0?password=***&db=2"),
        ("unix://:pw@/run/redis.sock?db=0", "unix://***@/run/redis.sock?db=0"),
        ("redis://h:6379/0", "redis://h:6379/0"),
    ],
)
def test_a_redis_password_is_never_shown(url: str, shown: str) -> None:
    assert _shown_redis(url) == shown
    assert all(secret not in shown for secret in ("ss@", "se/c", "top", "pw"))
