"""Two owners of one table at once (issue 34's review): an old owner that has not noticed its lost
lease never wedges the table nor writes over the new owner's, a takeover never writes a table back,
a stalled owner refuses writes, idle copies of other nodes' tables neither pile up nor fill the
server, and a failed takeover gives its lease up. In-process halls over one SQLite file."""

from __future__ import annotations

import asyncio
import functools
import secrets
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from parlour.server import cluster
from parlour.server import hall as hall_module
from parlour.server.clock import Clock
from parlour.server.cluster import Node
from parlour.server.hall import IDLE_COPY_SECONDS, Hall
from parlour.server.leases import LEASE, owner_of, take
from parlour.server.storage import Stale, Store, TableRecord, sqlite_url
from parlour.server.tables import LiveTable, Refusal

from .nodes import first_legal_move

TWO_PEOPLE = {"game": "embers", "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def halls(tmp_path: Path) -> Iterator[tuple[Hall, Hall]]:
    """Nodes A and B (clocks apart by nothing yet) over one database."""
    url, key = sqlite_url(tmp_path / "db.sqlite"), secrets.token_bytes(32)
    pool = ThreadPoolExecutor(2)
    made = []
    for node in ("A", "B"):
        hall = Hall(Store(url, key), pool, clock=Clock())
        hall.node = hall.store.node = node  # as Node.open makes them
        made.append(hall)
    yield made[0], made[1]
    for hall in made:
        hall.close()
        hall.store.close()
    pool.shutdown()


def in_loop(test: Callable[..., Coroutine[None, None, None]]) -> Callable[..., None]:
    """Runs an async test in an event loop of its own (its fixtures as the test names them)."""

    @functools.wraps(test)
    def run(*args: object, **kwargs: object) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


async def _new(hall: Hall) -> tuple[str, LiveTable]:
    """Makes a table of two people at ``hall`` (its owner); returns its id and the hall's table."""
    table_id = (await hall.create(TWO_PEOPLE)).table
    return table_id, hall.get(table_id)


def _lapse_and_take(b: Hall, table_id: str) -> None:
    """A's lease ran out (A paused, B's clock past it): B takes the table's lease."""
    b.clock = Clock(LEASE + 20)
    assert take(b.store.engine, table_id, "B", b.clock.now())


def _stored(hall: Hall, table_id: str) -> tuple[int, int]:
    """Returns the stored version and number of moves of a table."""
    record = hall.store.load(table_id)
    assert record is not None
    return record.version, len(record.moves)


@in_loop
async def test_a_move_by_the_old_owner_during_a_takeover_never_wedges_the_table(
    halls: tuple[Hall, Hall],
) -> None:
    a, b = halls
    tid, old = await _new(a)
    _lapse_and_take(b, tid)  # B takes the table and reads it...
    read = b.store.load(tid)
    with pytest.raises(Refusal) as refused:  # ...while A, not aware yet, tries a move: refused
        await first_legal_move(old)
    assert refused.value.status == 503 and _stored(a, tid) == (0, 0)
    a.store.node = None  # without the lease's check, the version's alone must hold
    await first_legal_move(old)  # the move A commits then
    real, calls = b.store.load, []

    def first_read_is_the_old_one(table_id: str) -> TableRecord | None:
        calls.append(table_id)
        return read if len(calls) == 1 else real(table_id)

    b.store.load = first_read_is_the_old_one  # type: ignore[method-assign]
    mine = await b.take_over(tid)
    del b.store.load
    assert mine is not None and mine.record.version == 1 and len(calls) >= 2
    assert _stored(b, tid) == (1, 1)  # not written back to version 0 with a move stored
    assert await first_legal_move(mine) == 2  # the table goes on
    assert _stored(b, tid) == (2, 2)


@in_loop
async def test_an_old_owner_cannot_write_over_the_new_owners_table(halls: tuple[Hall, Hall]) -> None:
    a, b = halls
    tid, old = await _new(a)
    _lapse_and_take(b, tid)
    mine = await b.take_over(tid)
    assert mine is not None
    await first_legal_move(mine)
    with pytest.raises(Refusal) as refused:  # A still thinks it owns the table: a move...
        await first_legal_move(old)
    assert refused.value.status == 409 and "version 1" in refused.value.message
    assert old.record.version == 1  # ...is refused, and A's copy read again
    with pytest.raises(Refusal) as refused:  # a change without a move: refused, nothing written
        await old.set_name(0, "Mallory")
    assert refused.value.status == 503
    stored = b.store.load(tid)
    assert stored is not None and stored.seats[0].name is None
    assert _stored(b, tid) == (1, 1)
    assert await first_legal_move(mine) == 2


@in_loop
async def test_an_update_over_a_newer_stored_version_is_refused(halls: tuple[Hall, Hall]) -> None:
    a, _b = halls
    tid, table = await _new(a)
    behind = a.store.load(tid)
    await first_legal_move(table)
    assert behind is not None
    with pytest.raises(Stale):
        a.store.update(behind)
    assert _stored(a, tid) == (1, 1)


@in_loop
async def test_an_owner_whose_last_renewal_is_old_refuses_writes(halls: tuple[Hall, Hall]) -> None:
    a, _b = halls
    _tid, table = await _new(a)
    a.renewed = a.clock.now() - LEASE * 0.9  # its renewals stalled: another node may take it soon
    with pytest.raises(Refusal) as refused:
        await first_legal_move(table)
    assert refused.value.status == 503
    a.renewed = a.clock.now()
    assert await first_legal_move(table) == 1


@in_loop
async def test_idle_copies_of_other_nodes_tables_neither_fill_the_server_nor_stay(
    halls: tuple[Hall, Hall], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = halls
    monkeypatch.setattr(hall_module, "MAX_PLAYING", 1)
    tid, table = await _new(a)
    copy = b.get(tid)  # a spectator's page, once
    assert copy.passive
    made = await b.create(TWO_PEOPLE)  # the copy is not B's game in play
    await first_legal_move(table)
    await b.refresh(tid)  # what B does on hearing the move
    assert tid in b.stale
    b.drop_idle_copies()
    assert tid in b.tables  # asked for a moment ago (a connection's hello may hold it)
    b.clock.advance(IDLE_COPY_SECONDS + 1)
    assert b.drop_idle_copies() == 1
    assert tid not in b.tables and tid not in b.stale and made.table in b.tables
    assert b.get(tid).record.version == 1  # read again when asked


@in_loop
async def test_losing_a_table_refuses_the_passes_waiting_there(halls: tuple[Hall, Hall]) -> None:
    a, _b = halls
    tid, table = await _new(a)
    waiting = asyncio.get_running_loop().create_future()
    table.queued[1] = waiting  # a typed pass waiting for its window's answers
    a.lose(tid)
    with pytest.raises(Refusal) as refused:
        await asyncio.wait_for(waiting, 1.0)
    assert "another server" in refused.value.message and not table.queued


@in_loop
async def test_a_failed_takeover_gives_its_lease_up_and_the_tick_goes_on(halls: tuple[Hall, Hall]) -> None:
    a, b = halls
    (first, _), (second, _) = await _new(a), await _new(a)
    b.clock = Clock(LEASE + 20)  # A stopped renewing
    node = Node(b, "redis://unused", "B", b.clock, holder="B")
    node.id_held = asyncio.get_running_loop().time()  # as if its id were claimed
    b.node = "B"
    real = b.take_over

    async def broken(table_id: str) -> LiveTable | None:
        if table_id == first:
            raise RuntimeError("a table that cannot be read")
        return await real(table_id)

    b.take_over = broken  # type: ignore[method-assign]
    assert await node.tick() == 1
    now = b.clock.now()
    assert owner_of(b.store.engine, first, now) is None and first not in b.owned
    assert owner_of(b.store.engine, second, now) == "B" and second in b.owned


@in_loop
async def test_the_outgoing_queue_is_bounded(
    halls: tuple[Hall, Hall], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _b = halls
    monkeypatch.setattr(cluster, "MAX_OUTGOING", 3)
    _tid, table = await _new(a)
    node = Node(a, "redis://unused", "A", a.clock, holder="A")
    node.id_held = asyncio.get_running_loop().time()  # as if its id were claimed
    for _ in range(5):
        node.changed(table)  # Redis away: nothing is published
    assert node._outgoing.qsize() == 3 and node.dropped == 2


@in_loop
async def test_a_long_takeover_never_lets_the_nodes_own_leases_lapse(halls: tuple[Hall, Hall]) -> None:
    a, b = halls
    node = Node(b, "redis://unused", "B", b.clock, holder="B")
    node.id_held = asyncio.get_running_loop().time()  # as if its id were claimed
    mine, _ = await _new(b)  # B's own table, its lease from now
    orphaned = [(await _new(a))[0] for _ in range(4)]
    b.clock.advance(LEASE - 1)  # A's leases (made a moment later) still run: B's is nearly out
    real = b.take_over

    async def slow(table_id: str) -> LiveTable | None:
        assert owner_of(b.store.engine, mine, b.clock.now()) == "B"  # B's own lease runs on throughout
        b.clock.advance(2 * node.poll)  # each takeover takes two renewals' time
        return await real(table_id)

    b.take_over = slow  # type: ignore[method-assign]
    with b.store.engine.begin() as connection:  # A died and its leases are gone
        connection.exec_driver_sql("DELETE FROM table_leases WHERE owner = 'A'")
    assert await node.tick() == 4
    now = b.clock.now()
    assert owner_of(b.store.engine, mine, now) == "B" and mine in b.owned and b.lease_held()
    assert all(owner_of(b.store.engine, t, now) == "B" for t in orphaned)
