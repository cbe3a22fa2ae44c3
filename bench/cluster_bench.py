"""Several nodes (issue 34, docs/cluster.md): how long a move takes to reach a spectator on another node,
against one server alone, and how long a killed node's tables wait for another.

A throwaway PostgreSQL and Redis (tests/cluster/services.py) and real ``parlour serve`` processes. Each
of ``--tables`` Embers tables of two people is played by a thread of its own, all at once: the person
asked sends a random legal move, and the time until the table's spectator has the new version is one
sample. In the cluster the table is owned by node 1, its people are connected to nodes 2 and 3 (every
move is forwarded to the owner through Redis) and its spectator to node 3 (the update is fanned out);
alone, everything is on one node over the same PostgreSQL. Then ``--tables`` more tables are made on
node 1, which is killed (SIGKILL); the clocks of nodes 2 and 3 are moved past the lease (their test
hook) and the time until every table has a new owner is measured: in real time a takeover takes the
lease (10 s) plus up to one renewal (3 s) more. p50 and p99 in milliseconds. Run alone: ``python
bench/cluster_bench.py [--tables 20]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cluster.nodes import Client, advance, start_nodes  # noqa: E402
from cluster.services import postgres_cluster, redis_server  # noqa: E402
from server.live_server import LiveServer  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from parlour.server.leases import LEASE  # noqa: E402


def _play(table: str, made: dict[str, Any], players: list[LiveServer], watcher: LiveServer) -> list[float]:
    """Plays one table to its end; returns each move's time until the spectator had it (seconds)."""
    tokens = [made["seats"][str(seat)].split("#k=")[1] for seat in (0, 1)]
    clients = [Client(node, table, token) for node, token in zip(players, tokens, strict=True)]
    spectator = Client(watcher, table, made["spectator_token"])
    rng, times = random.Random(table), []
    end = time.monotonic() + 300
    try:
        while time.monotonic() < end:
            spectator.drain(0.2)
            for client in clients:
                client.drain(0.0)
            shown = spectator.view
            if shown is None or shown["over"]:
                if shown is not None:
                    return times
                continue
            now = shown["version"]
            asked = [c for c in clients if c.view and c.view["asked"] and c.view["version"] == now]
            if not asked:
                for client in clients:
                    client.drain(0.05)
                continue
            version = shown["version"]
            began = time.perf_counter()
            asked[0].act(rng.choice(asked[0].view["legal"]))  # type: ignore[index]
            while spectator.view is not None and spectator.view["version"] <= version:
                if time.monotonic() > end or not spectator.drain(1.0):
                    return times
                asked[0].drain(0.0)
                if asked[0].errors:
                    asked[0].errors.clear()
                    break  # refused (another move came first): no sample
            else:
                times.append(time.perf_counter() - began)
        return times
    finally:
        for client in (*clients, spectator):
            client.close()


def _run(nodes: list[LiveServer], tables: int) -> list[float]:
    """Plays ``tables`` tables at once (owner node 0, people on nodes 1 and 2, spectator on 2)."""
    owner, first, second = nodes[0], nodes[1 % len(nodes)], nodes[2 % len(nodes)]
    made = [owner.create("embers", ["human", "human"]) for _ in range(tables)]
    samples: list[float] = []
    lock = threading.Lock()

    def one(m: dict[str, Any]) -> None:
        found = _play(m["table"], m, [first, second], second)
        with lock:
            samples.extend(found)

    threads = [threading.Thread(target=one, args=(m,)) for m in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples


def _figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "moves": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 1),
    }


def _takeover(nodes: list[LiveServer], pg_url: str, tables: int) -> float:
    """Makes tables on node 0, kills it, moves the others' clocks past the lease; returns the seconds
    until every table has another owner."""
    made = [nodes[0].create("embers", ["human", "human"])["table"] for _ in range(tables)]
    nodes[0].kill()
    for node in nodes[1:]:
        advance(node, LEASE + 1)
    began = time.perf_counter()
    engine = create_engine(pg_url)
    try:
        while True:
            with engine.connect() as connection:
                owners = connection.execute(
                    text("SELECT owner FROM table_leases WHERE table_id = ANY(:t)"), {"t": made}
                ).scalars()
                moved = sum(owner != "n1" for owner in owners)
            if moved == tables:
                return time.perf_counter() - began
            time.sleep(0.05)
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    with postgres_cluster() as pg, redis_server() as redis_url:
        folder = Path(tempfile.mkdtemp(prefix="parlour-cluster-bench-"))
        alone_url = pg.create_database()
        single = LiveServer(folder / "unused.db", database_url=alone_url, extra=["--analysis-workers", "0"])
        single.start()
        try:
            alone = _figures(_run([single], args.tables))
        finally:
            single.stop()
        url = pg.create_database()
        nodes = start_nodes(url, redis_url, folder, ["n1", "n2", "n3"])
        try:
            cluster = _figures(_run(nodes, args.tables))
            takeover = _takeover(nodes, url, args.tables)
        finally:
            for node in nodes:
                node.stop()
    print(
        json.dumps(
            {
                "tables": args.tables,
                "one server (PostgreSQL)": alone,
                "three nodes (forwarded, fanned out)": cluster,
                "takeover_seconds_after_the_lease": round(takeover, 2),
                "lease_seconds": LEASE,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
