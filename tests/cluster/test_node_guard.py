"""A node against hostile messages from Redis (too long, too deep, not an object, a forged chat line, a
flood of forwarded orders), a takeover that fails under a forwarded order, and a node id that only one
running node may hold. Real Redis and real nodes: in-process over one SQLite file, and ``parlour serve``
processes over PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from server.live_server import free_port
from sqlalchemy import update

from parlour.server import cluster
from parlour.server.clock import Clock
from parlour.server.cluster import (
    ALIVE_SECONDS,
    MAX_MESSAGE,
    UPDATES,
    Node,
    NodeIdTaken,
    alive_key,
    former_life_gone,
    instance_token,
    node_channel,
    taken_line,
)
from parlour.server.hall import Hall
from parlour.server.leases import owner_of
from parlour.server.storage import LeaseRow, Store, sqlite_url
from parlour.server.tables import Listener, LiveTable, Refusal

from .nodes import first_legal_move, start_nodes

TWO_PEOPLE = {"game": "embers", "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def database(tmp_path: Path) -> Iterator[tuple[str, bytes, ThreadPoolExecutor]]:
    """One SQLite file the in-process nodes share, its key and their thread pool."""
    pool = ThreadPoolExecutor(2)
    yield sqlite_url(tmp_path / "db.sqlite"), secrets.token_bytes(32), pool
    pool.shutdown()


@asynccontextmanager
async def opened(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str, name: str, **options: float
) -> AsyncIterator[Node]:
    """An in-process node over the shared database and the real Redis, closed at the end."""
    url, key, pool = database
    store = Store(url, key)
    clock = Clock()
    node = Node(Hall(store, pool, clock=clock), redis_url, name, clock, **options)  # type: ignore[arg-type]
    try:
        await node.open()
        yield node
    finally:
        await node.close()
        node.hall.close()
        store.close()


@asynccontextmanager
async def redis_client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    """A client of the nodes' Redis, as anyone reaching it has, closed at the end."""
    client = aioredis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


async def publish(redis_url: str, channel: str, *messages: str | bytes) -> None:
    """Publishes raw messages on a channel, as anyone reaching the nodes' Redis may."""
    async with redis_client(redis_url) as client:
        for message in messages:
            assert await client.publish(channel, message) >= 1


async def until(check: object, seconds: float, what: str) -> None:
    """Waits until ``check()`` is true, failing with ``what`` after ``seconds``."""
    end = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < end, what
        await asyncio.sleep(0.02)


def outbox(listener: Listener) -> list[dict[str, object]]:
    """Takes every message queued for a connection."""
    taken = []
    while not listener.outbox.empty():
        taken.append(json.loads(listener.outbox.get_nowait()))
    return taken


def test_hostile_messages_are_dropped_and_the_node_goes_on_serving(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str
) -> None:
    async def scenario() -> None:
        async with opened(database, redis_url, "ha") as a, opened(database, redis_url, "hb") as b:
            tid = (await a.hall.create(TWO_PEOPLE)).table
            owned = a.hall.get(tid)
            copy = b.hall.get(tid)
            assert copy.passive
            watcher = Listener(seat=None)
            copy.listeners.add(watcher)

            def chat(line: object) -> str:
                return json.dumps({"k": "c", "t": tid, "n": "ha", "l": line})

            good = {"type": "chat", "seat": 1, "text": "hello there", "at": 1765000000.5}
            bad: list[str | bytes] = [
                b"{" + b" " * MAX_MESSAGE + b"}",  # over the cap: never parsed
                "[" * 30_000 + "]" * 30_000,  # under the cap, too deep for the parser
                "[1, 2]",
                '"k"',
                "null",
                "not json",
                b"\xff\xfe{}",
                json.dumps({"k": "P", "n": "x", "m": [1]}),
                json.dumps({"k": "o", "from": ["x"], "id": 1}),
                json.dumps({"k": "v"}),
                chat("<script>alert(1)</script>"),
                chat(7),
                chat(json.dumps({"type": "table", "version": 99, "view": {}})),
                chat(json.dumps({**good, "seat": 2})),
                chat(json.dumps({**good, "seat": True})),
                chat(json.dumps({**good, "text": "x" * 301})),
                chat(json.dumps({**good, "text": ""})),
                chat(json.dumps({**good, "text": "a\nb"})),
                chat(json.dumps({**good, "text": " padded"})),
                chat(json.dumps({**good, "at": "now"})),
                chat(json.dumps({**good, "secret": "seed"})),
                chat("[" * 30_000 + "]" * 30_000),
            ]
            await publish(redis_url, UPDATES, *bad)
            await publish(redis_url, UPDATES, chat(json.dumps(good)))
            await until(lambda: not watcher.outbox.empty(), 5.0, "the good chat line never came")
            await asyncio.sleep(0.2)
            assert outbox(watcher) == [good]  # only the good line reached the connection, re-encoded
            assert b.rejected == len(bad)
            assert all(not task.done() for task in b._tasks)  # still listening
            assert await b.forward(tid, 0, "name", {"text": "Ada"}) is None  # an order still served
            assert owned.record.seats[0].name == "Ada"
            version = await first_legal_move(owned)  # and an update still reaches the connection
            await until(
                lambda: copy.record.version == version and not watcher.outbox.empty(), 5.0, "no update"
            )
            assert any(m.get("type") == "table" and m.get("version") == version for m in outbox(watcher))

    asyncio.run(scenario())


def test_forwarded_orders_beyond_the_bound_are_refused_at_once(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "MAX_SERVING", 2)

    async def scenario() -> None:
        async with opened(database, redis_url, "oa") as a:
            tid = (await a.hall.create(TWO_PEOPLE)).table
            table = a.hall.get(tid)
            client = aioredis.from_url(redis_url)
            pubsub = client.pubsub()
            await pubsub.subscribe(node_channel("asker"))
            replies: dict[str, dict[str, object]] = {}

            async def hear(seconds: float) -> None:
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    got = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    if got is not None:
                        reply = json.loads(got["data"])
                        replies[reply["id"]] = reply

            def order(ask: str) -> str:
                fields = {"action": "nonsense", "version": 0}
                return json.dumps(
                    {"k": "o", "id": ask, "from": "asker", "t": tid, "s": 0, "kind": "act", "m": fields}
                )

            try:
                async with table.lock:  # the owner busy with the table: the orders wait for it
                    await publish(redis_url, node_channel(a.holder), order("q1"), order("q2"), order("q3"))
                    await hear(1.0)
                    assert a.serving == 2
                    assert list(replies) == ["q3"]
                    assert replies["q3"]["e"] == {
                        "status": 503,
                        "error": "the table's server is busy: try again",
                    }
                await hear(2.0)
                assert sorted(replies) == ["q1", "q2", "q3"]
                for ask in ("q1", "q2"):  # carried out once the table was free: refused by the rules
                    error = replies[ask]["e"]
                    assert isinstance(error, dict) and error["status"] == 422
                assert a.serving == 0
            finally:
                await pubsub.aclose()
                await client.aclose()

    asyncio.run(scenario())


def test_a_takeover_that_fails_under_a_forwarded_order_is_a_503_and_the_lease_is_given_up(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str
) -> None:
    async def scenario() -> None:
        async with opened(database, redis_url, "fa") as a, opened(database, redis_url, "fb") as b:
            tid = (await a.hall.create(TWO_PEOPLE)).table
            await a.stop()  # A stops renewing, and its lease runs out
            with a.hall.store.engine.begin() as connection:
                connection.execute(update(LeaseRow).where(LeaseRow.table_id == tid).values(expires=0))
            assert owner_of(b.hall.store.engine, tid, b.clock.now()) is None
            real = b.hall.take_over

            async def broken(table_id: str) -> LiveTable | None:
                raise RuntimeError("a table that cannot be read")

            b.hall.take_over = broken  # type: ignore[method-assign]
            with pytest.raises(Refusal) as refused:
                await b.forward(tid, 0, "name", {"text": "Ada"})
            assert (refused.value.status, refused.value.message) == (
                503,
                "the table is changing servers: try again",
            )
            assert tid not in b.hall.owned and owner_of(b.hall.store.engine, tid, b.clock.now()) is None
            b.hall.take_over = real  # type: ignore[method-assign]
            assert await b.forward(tid, 0, "name", {"text": "Ada"}) is None  # the next try takes it
            assert tid in b.hall.owned

    asyncio.run(scenario())


def test_a_second_node_under_a_running_nodes_id_is_refused_and_a_clean_stop_frees_the_id(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str
) -> None:
    async def scenario() -> None:
        async with redis_client(redis_url) as client:
            async with opened(database, redis_url, "twin", alive=1.0, renew_every=0.3) as first:
                assert await client.get(alive_key("twin")) == first.token.encode()
                started = time.monotonic()
                with pytest.raises(NodeIdTaken) as refused:
                    async with opened(database, redis_url, "twin", alive=1.0, renew_every=0.3):
                        raise AssertionError("a second node started under the id")
                assert str(refused.value) == "another node runs as twin on this Redis"
                assert time.monotonic() - started >= 1.0  # it waited for a former life's claim first
                await asyncio.sleep(1.5)  # renewed meanwhile, or it would have run out
                assert await client.get(alive_key("twin")) == first.token.encode()
            assert await client.get(alive_key("twin")) is None  # a clean stop lets the id go at once
            async with opened(database, redis_url, "twin", alive=1.0, renew_every=0.3):
                pass

    asyncio.run(scenario())


def test_a_node_whose_id_another_instance_took_gives_its_tables_up(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str
) -> None:
    async def scenario() -> None:
        async with redis_client(redis_url) as client:
            async with opened(database, redis_url, "usurped", renew_every=0.2) as node:
                tid = (await node.hall.create(TWO_PEOPLE)).table
                assert tid in node.hall.owned
                await client.set(alive_key("usurped"), "someone else", px=5000)  # as a twin that started
                await until(lambda: node.ousted, 3.0, "the node never noticed")
                assert not node.hall.owned and node.hall.tables[tid].passive
                with pytest.raises(Refusal) as refused:
                    await node.forward(tid, 0, "name", {"text": "Ada"})
                assert refused.value.status == 503
            assert await client.get(alive_key("usurped")) == b"someone else"  # the other's, kept
            assert owner_of(node.hall.store.engine, tid, time.time()) is None  # its own leases freed at once

    asyncio.run(scenario())


def test_parlour_serve_under_a_running_nodes_id_is_one_line_and_no_start(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    (running,) = start_nodes(pg_url, redis_url, tmp_path, ["n1"])
    try:
        port = free_port()
        args = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--database-url", pg_url]
        args += ["--redis-url", redis_url, "--node-id", "n1"]
        started = time.monotonic()
        done = subprocess.run(
            args, capture_output=True, text=True, timeout=60, env={**os.environ, "HOME": str(tmp_path)}
        )
        waited = time.monotonic() - started
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("parlour: ") and taken_line("n1") in done.stderr
        assert "Parlour at" not in done.stdout  # it never listened
        assert waited >= ALIVE_SECONDS  # it waited for a former life's claim to run out first
        running.get("/api/games")  # the running node is untouched
    finally:
        running.stop()


def test_a_node_killed_and_started_again_under_its_id_starts(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    (node,) = start_nodes(pg_url, redis_url, tmp_path, ["phoenix"])
    node.kill()  # no clean stop: its claim stays, but its process is gone from this machine
    (again,) = start_nodes(pg_url, redis_url, tmp_path, ["phoenix"])
    try:
        again.get("/api/games")
    finally:
        again.stop()


def test_a_served_node_whose_id_another_instance_took_stops_cleanly(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    (node,) = start_nodes(pg_url, redis_url, tmp_path, ["usurped"])
    try:

        async def usurp() -> None:
            client = aioredis.from_url(redis_url)
            try:
                assert await client.get(alive_key("usurped")) is not None
                await client.set(alive_key("usurped"), "someone else", px=60_000)
            finally:
                await client.aclose()

        asyncio.run(usurp())
        assert node.process is not None
        status = node.process.wait(3 * 3 + 10)  # noticed at its next renewal
        assert status in (0, -signal.SIGTERM, 128 + signal.SIGTERM)  # as stopped by SIGTERM: clean
        log = (tmp_path / "usurped.log").read_text()
        assert f"{taken_line('usurped')}: this one gives its tables up and stops" in log
        assert "Traceback" not in log
    finally:
        node.stop()


def test_a_former_life_is_gone_only_for_a_dead_process_of_this_machine() -> None:
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        machine = instance_token().split("/")[0]
        assert former_life_gone(f"{machine}/{ended.pid}/ab")
        assert not former_life_gone(f"{machine}/{running.pid}/ab")  # it runs: a twin
        assert not former_life_gone(f"{machine}/{os.getpid()}/ab")  # this very process
        assert not former_life_gone(f"0123456789abcdef/{ended.pid}/ab")  # another machine's
        assert not former_life_gone(secrets.token_hex(16))  # an older Parlour's token
        assert not former_life_gone(f"{machine}/x{ended.pid}/ab")
    finally:
        running.kill()
        running.wait()


def test_a_node_started_again_on_its_machine_does_not_wait_for_its_former_life(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str
) -> None:
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    former = f"{instance_token().split('/')[0]}/{ended.pid}/ab"

    async def scenario() -> None:
        async with redis_client(redis_url) as client:
            await client.set(alive_key("again"), former, px=60_000)  # a killed node's claim
            started = time.monotonic()
            async with opened(database, redis_url, "again", alive=60.0, renew_every=0.3) as node:
                assert time.monotonic() - started < 30  # not the claim's 60 s
                assert await client.get(alive_key("again")) == node.token.encode()

    asyncio.run(scenario())


def test_a_node_cut_off_from_redis_loses_its_tables_to_the_instance_that_took_its_id(
    database: tuple[str, bytes, ThreadPoolExecutor], redis_url: str
) -> None:
    async def scenario() -> None:
        async with (
            redis_client(redis_url) as client,
            opened(database, redis_url, "cut", alive=1.0, renew_every=0.2) as first,
        ):
            tid = (await first.hall.create(TWO_PEOPLE)).table
            keeping = first._tasks[-1]  # its id's claim: Redis no longer answers it (cut off)
            keeping.cancel()
            await client.delete(alive_key("cut"))  # so the claim ran out
            await until(lambda: not first.sure_of_id(), 3.0, "the node never doubted its id")
            with pytest.raises(Refusal) as refused:  # it takes no table nobody owns meanwhile
                await first.forward("no-such-table", 0, "name", {"text": "Ada"})
            assert refused.value.status == 503
            async with opened(database, redis_url, "cut", alive=1.0, renew_every=0.2) as second:
                assert second.holder != first.holder
                await until(lambda: tid in second.hall.owned, 3.0, "the id's new instance never took it")
                await until(lambda: tid not in first.hall.owned, 3.0, "the cut-off node kept renewing")
                assert first.hall.tables[tid].passive
                await asyncio.sleep(1.0)  # five more of its looks: it never takes the table back
                assert tid not in first.hall.owned and tid in second.hall.owned
                engine = second.hall.store.engine
                assert owner_of(engine, tid, second.clock.now()) == second.holder
                version = await first_legal_move(second.hall.get(tid))  # the new owner plays on
                assert owner_of(engine, tid, second.clock.now()) == second.holder and version > 0

    asyncio.run(scenario())
