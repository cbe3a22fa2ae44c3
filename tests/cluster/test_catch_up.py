"""A node's catch-up (issue 34): a copy of another node's table that missed a change without a move (a
name) reads it at the node's next look, as one that missed a move does; the owner of a table in play
never reads its own table back over what it holds. In-process halls over one SQLite file."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from parlour.server.clock import Clock
from parlour.server.cluster import Node
from parlour.server.hall import Hall
from parlour.server.rematch import DECLINED, WAITING, expire_due
from parlour.server.storage import SeatRecord, Store, TableRecord, sqlite_url
from parlour.server.tables import Listener

from .nodes import first_legal_move

TWO_PEOPLE = {"game": "embers", "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def owner_and_copy(tmp_path: Path) -> Iterator[tuple[Hall, Hall]]:
    """Node A (which makes the tables) and node B (which shows them), over one database."""
    url, key = sqlite_url(tmp_path / "db.sqlite"), secrets.token_bytes(32)
    pool = ThreadPoolExecutor(2)
    made = [Hall(Store(url, key), pool, clock=Clock()) for _ in range(2)]
    for hall, node in zip(made, ("A", "B"), strict=True):
        hall.node = hall.store.node = node  # as Node.open makes them
    yield made[0], made[1]
    for hall in made:
        hall.close()
        hall.store.close()
    pool.shutdown()


async def _settled(node: Node) -> None:
    """Waits until the node's background reads are done."""
    for _ in range(200):
        if not node._background:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the node's reads did not end")


def test_a_copy_that_missed_a_name_reads_it_at_the_next_look(owner_and_copy: tuple[Hall, Hall]) -> None:
    a, b = owner_and_copy

    async def scenario() -> None:
        tid = (await a.create(TWO_PEOPLE)).table
        copy = b.get(tid)
        assert copy.passive and copy.record.seats[0].name is None
        await a.get(tid).set_name(0, "Ada")  # A has no relay: B hears nothing of it
        assert b.get(tid).record.version == a.get(tid).record.version  # no move: the version is the same
        node = Node(b, "redis://unused", "B", b.clock, holder="B")
        node.id_held = asyncio.get_running_loop().time()  # as if its id were claimed
        await node.tick()
        await _settled(node)
        assert b.get(tid).record.seats[0].name == "Ada"

    asyncio.run(scenario())


def test_the_owner_never_reads_its_table_in_play_back(owner_and_copy: tuple[Hall, Hall]) -> None:
    a, _b = owner_and_copy

    async def scenario() -> None:
        tid = (await a.create(TWO_PEOPLE)).table
        table = a.get(tid)
        assert not table.passive
        table.opened = -1.0  # when its decision opened, as only the owner keeps it
        await a.refresh(tid)  # a late update about it (another node's, from before it took the table)
        assert table.opened == -1.0

    asyncio.run(scenario())


def test_a_read_that_a_takeover_overtook_is_not_adopted(owner_and_copy: tuple[Hall, Hall]) -> None:
    a, b = owner_and_copy

    async def scenario() -> None:
        tid = (await a.create(TWO_PEOPLE)).table
        copy = b.get(tid)
        copy.listeners.add(Listener(0))  # shown here: a refresh reads it
        read = b.store.load_new

        def taken_meanwhile(table_id: str, after: int | None) -> TableRecord | None:
            found = read(table_id, after)
            copy.passive, copy.opened = False, -1.0  # this node took the table over during the read
            return found

        b.store.load_new = taken_meanwhile  # type: ignore[method-assign]
        await b.refresh(tid)
        assert copy.opened == -1.0  # the owner's own clock, not the old read's

    asyncio.run(scenario())


def test_a_rematch_expired_by_the_scheduler_counts_as_a_change(owner_and_copy: tuple[Hall, Hall]) -> None:
    a, _b = owner_and_copy
    store = a.store
    table = TableRecord(
        "waiting1", "embers", 2, {}, 7, "", seats=[SeatRecord(0, "human"), SeatRecord(1, "human")]
    )
    table.status, table.expires = WAITING, 0.0
    store.create(table)
    before = store.load("waiting1")
    assert before is not None and before.status == WAITING
    assert expire_due(store.engine, 1.0, 10) == ["waiting1"]
    after = store.load("waiting1")
    assert after is not None and after.status == DECLINED and after.revision == before.revision + 1


def test_the_former_owner_of_a_finished_table_reads_what_another_node_changes(
    owner_and_copy: tuple[Hall, Hall],
) -> None:
    a, b = owner_and_copy

    async def scenario() -> None:
        tid = (await a.create(TWO_PEOPLE)).table
        owned = a.get(tid)
        while not owned.state.is_over():
            await first_legal_move(owned)
        node = Node(a, "redis://unused", "A", a.clock, holder="A")
        node.id_held = asyncio.get_running_loop().time()  # as if its id were claimed
        await node.tick()  # the finished table is nobody's now: A gives its lease up
        assert tid not in a.owned and owned.passive
        owned.listeners.add(Listener(seat=None))  # someone still looks at it on A
        made = await b.play_again(b.get(tid), 0)  # a person on B asks to play again
        await node.tick()
        await _settled(node)
        assert a.get(tid).record.next_table == made  # A's page offers the new table too

    asyncio.run(scenario())
