"""The throwaway Redis (issue 34): it answers, and the ``redis`` package's asyncio client publishes to a
subscriber (the pub/sub between nodes is built on this), and a node's client, with timeouts, still
hears its subscription after a long silence."""

from __future__ import annotations

import asyncio
import json
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from parlour.server import cluster
from parlour.server.clock import Clock
from parlour.server.cluster import Node, node_channel
from parlour.server.hall import Hall
from parlour.server.storage import Store, sqlite_url


def test_a_message_published_on_the_throwaway_redis_reaches_its_subscriber(redis_url: str) -> None:
    async def exchange() -> list[bytes]:
        client = aioredis.from_url(redis_url)
        try:
            assert await client.ping()
            pubsub = client.pubsub()
            await pubsub.subscribe("table:abc")
            got = await pubsub.get_message(ignore_subscribe_messages=False, timeout=5.0)
            assert got is not None and got["type"] == "subscribe"
            received = []
            for version in (1, 2):
                assert await client.publish("table:abc", f'{{"version": {version}}}') == 1
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
                assert message is not None
                received.append(message["data"])
            await pubsub.aclose()
            return received
        finally:
            await client.aclose()

    assert asyncio.run(exchange()) == [b'{"version": 1}', b'{"version": 2}']


def test_a_node_hears_redis_after_a_silence_longer_than_its_socket_timeout(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(cluster, "REDIS_TIMEOUT", 0.5)
    store = Store(sqlite_url(tmp_path / "db.sqlite"), secrets.token_bytes(32))
    pool = ThreadPoolExecutor(1)

    async def silence() -> None:
        node = Node(Hall(store, pool), redis_url, "quiet", Clock())
        await node.open()
        try:
            kwargs = node.redis.connection_pool.connection_kwargs
            assert kwargs["socket_timeout"] == kwargs["socket_connect_timeout"] == 0.5  # a dead Redis fails
            await asyncio.sleep(2.0)  # four timeouts of silence on the subscription
            future: asyncio.Future[dict[str, object]] = asyncio.get_running_loop().create_future()
            node._waiting["ask"] = future
            other = aioredis.from_url(redis_url)
            try:
                answer = json.dumps({"k": "r", "id": "ask", "ok": True})
                await other.publish(node_channel(node.holder), answer)
            finally:
                await other.aclose()
            assert (await asyncio.wait_for(future, 3.0))["ok"] is True
        finally:
            await node.close()

    try:
        asyncio.run(silence())
    finally:
        store.close()
        pool.shutdown()
    assert "lost Redis" not in caplog.text  # the subscription was never cut meanwhile
