"""The throwaway Redis (issue 34): it answers, and the ``redis`` package's asyncio client publishes to a
subscriber (the pub/sub between nodes is built on this later)."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis


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
