"""The store's hot paths for several nodes (issue 34): a node reads only the moves it does not hold yet
(``Store.load_new``), and writes go through writer threads where a table's writes keep their order
while, on PostgreSQL, another table's go on beside them (``Store.write``'s lanes)."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from databases import database_url, on_postgres
from sqlalchemy import insert

from parlour.server.storage import WRITERS, MoveRecord, MoveRow, SeatRecord, Store, TableRecord


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    opened = Store(database_url(db))
    yield opened
    opened.close()


def stored_table(store: Store, moves: int) -> TableRecord:
    """Stores a table of two seats with ``moves`` moves numbered 1 to ``moves``."""
    table = TableRecord(
        secrets.token_hex(8),
        "embers",
        2,
        {},
        7,
        "",
        seats=[SeatRecord(0, "human", token_hash="a" * 64, name="Ana"), SeatRecord(1, "bot", bot="random")],
    )
    store.create(table)
    for number in range(1, moves + 1):
        table.version = number
        table.seats[0].time_left = 100.0 - number
        store.add_move(table, MoveRecord(number, number % 2, f"move {number}", [], time.time(), None))
    return table


def test_a_node_reads_only_the_moves_after_those_it_holds(store: Store) -> None:
    table = stored_table(store, 5)
    newer = store.load_new(table.id, 3)
    assert newer is not None
    assert [m.action for m in newer.moves] == ["move 4", "move 5"]
    assert newer.version == 5 and newer.seed == 7  # the rest of the record is whole and current
    assert [s.name for s in newer.seats] == ["Ana", None] and newer.seats[0].time_left == 95.0
    whole = store.load_new(table.id, None)
    assert whole is not None and [m.number for m in whole.moves] == [1, 2, 3, 4, 5]
    assert whole == store.load(table.id)
    nothing = store.load_new(table.id, 5)
    assert nothing is not None and nothing.moves == []
    assert store.load_new("no such table", 0) is None
    assert store.load_new("bad\x00id", 0) is None


def test_a_read_while_a_move_commits_never_holds_a_move_its_version_does_not_count(store: Store) -> None:
    # Each statement of a node's read sees the database as it is then: the table's row may be read
    # before a move commits and its moves after. As if so: a move row beyond the row's version.
    table = stored_table(store, 3)
    with store.engine.begin() as connection:
        connection.execute(
            insert(MoveRow).values(table_id=table.id, number=4, seat=0, action="move 4", forced=[], at=0.0)
        )
    newer = store.load_new(table.id, 1)
    assert newer is not None and newer.version == 3 and [m.number for m in newer.moves] == [2, 3]
    whole = store.load(table.id)
    assert whole is not None and [m.number for m in whole.moves] == [1, 2, 3]


def other_lane(table: str) -> str:
    """Returns a table id whose writes take another writer thread than ``table``'s on PostgreSQL."""
    while True:
        found = secrets.token_hex(8)
        if zlib.crc32(found.encode()) % WRITERS != zlib.crc32(table.encode()) % WRITERS:
            return found


async def held_and_next(store: Store, first: str, second: str) -> bool:
    """Starts a write of table ``first`` that waits until released, then one of table ``second``;
    returns whether the second finished while the first was still held."""
    release = threading.Event()
    held = asyncio.ensure_future(store.write(release.wait, 10.0, table=first))
    await asyncio.sleep(0.05)
    following = asyncio.ensure_future(store.write(time.time, table=second))
    done, _ = await asyncio.wait({following}, timeout=1.0)
    release.set()
    await asyncio.gather(held, following)
    return bool(done)


def test_a_tables_writes_wait_for_each_other(store: Store) -> None:
    assert not asyncio.run(held_and_next(store, "table-a", "table-a"))


def test_another_tables_write_goes_on_beside_it_on_postgres_only(store: Store) -> None:
    # SQLite's one writer at a time: one thread, in order. PostgreSQL's row locks: several.
    assert asyncio.run(held_and_next(store, "table-a", other_lane("table-a"))) is on_postgres()


def test_one_tables_chat_lines_are_stored_in_the_order_written(store: Store) -> None:
    table = stored_table(store, 0)

    async def write_all() -> None:
        await asyncio.gather(
            *(store.write(store.add_chat, table.id, None, f"line {n}", table=table.id) for n in range(40))
        )

    asyncio.run(write_all())
    assert [text for _, text, _ in store.chat(table.id)] == [f"line {n}" for n in range(40)]
