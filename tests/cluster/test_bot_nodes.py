"""Server bot accounts on a cluster (issue 36): a bot streaming from one node is online at the others
(its presence is in the database), is seated at a table another node owns, and plays it to the end
(its answers carried to the owner)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from server.bot_api import REFERENCE_RANDOM, Person, bridge, create_with_bot, wait_online, wait_over

from .nodes import start_nodes


@pytest.mark.slow
def test_a_bot_streaming_from_one_node_plays_a_table_another_node_owns(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    alpha, beta = start_nodes(pg_url, redis_url, tmp_path, ["alpha", "beta"])
    running = None
    try:
        token = Person(alpha, "owner").make_bot("roaming")
        running = bridge(beta, token, [sys.executable, str(REFERENCE_RANDOM)])
        wait_online(alpha, "roaming")  # its stream is at beta
        table = create_with_bot(alpha, "embers", ["account:roaming", "random"], spectators=False)
        status = wait_over(alpha, table, 120)
        assert status["over"] and status["seats"][0]["name"] == "roaming"
        assert running.wait(30) == 0
    finally:
        if running is not None and running.poll() is None:
            running.kill()
            running.wait()
        for node in (alpha, beta):
            node.stop()
