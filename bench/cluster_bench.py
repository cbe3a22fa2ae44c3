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

The bots mode (``--bots [--tables 150] [--seconds 30]``, ``make bench ONLY=cluster``): tables of four
random bots at the server's own pace (PACE), a spectator each, on one server on SQLite, then spread
over three nodes on PostgreSQL and Redis with each spectator on a node that does not own its table:
the update latency from a move's stored time to its spectator's receipt (one machine clock), the moves
stored per second, then the takeover of node 1's tables after it is killed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cluster.nodes import Client, advance, start_nodes  # noqa: E402
from cluster.services import postgres_cluster, redis_server  # noqa: E402
from server.live_server import LiveServer  # noqa: E402
from server_bench import GAMES, watch  # noqa: E402
from serving import UNLIMITED  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from parlour.server.leases import LEASE, RENEW  # noqa: E402


def _play(table: str, made: dict[str, Any], players: list[LiveServer], watcher: LiveServer) -> list[float]:
    """Plays one table to its end; returns each move's time until the spectator had it (seconds)."""
    tokens = [made["seats"][str(seat)].split("#k=")[1] for seat in (0, 1)]
    clients = [Client(node, table, token) for node, token in zip(players, tokens, strict=True)]
    spectator = Client(watcher, table, made["spectator_token"])
    rng = random.Random(table)
    times: list[float] = []
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
    """Makes tables on node 0 (beside any it already owns), kills it, moves the others' clocks past the
    lease; returns the seconds until none of its tables is still its own."""
    made = [nodes[0].create("embers", ["human", "human"])["table"] for _ in range(tables)]
    engine = create_engine(pg_url)
    try:
        with engine.connect() as connection:
            query = text("SELECT table_id FROM table_leases WHERE owner LIKE 'n1~%'")  # its holder name
            owned = connection.execute(query).scalars()
            made = sorted({*made, *owned})
        nodes[0].kill()
        for node in nodes[1:]:
            advance(node, LEASE + 1)
        began = time.perf_counter()
        while True:
            with engine.connect() as connection:
                left = connection.execute(
                    text("SELECT count(*) FROM table_leases WHERE owner LIKE 'n1~%' AND table_id = ANY(:t)"),
                    {"t": made},
                ).scalar_one()
            if left == 0:
                return time.perf_counter() - began
            time.sleep(0.05)
    finally:
        engine.dispose()


PACE = {"think": 2.0, "pass_delay": 1.5, "bot_workers": 0}
"""The bots' pace in the bots mode: a bot's move lands ``think`` seconds after its turn opened (the
server's own pace, as people see it), passes in windows after ``pass_delay``; random bots think in
threads. server_bench's think is 0.6 s at 50 tables; at 150 tables 1 s saturated the two CPUs with
three nodes, PostgreSQL and the spectators on them (``--think`` changes it)."""


def _cpu_seconds(pid: int) -> float:
    """Returns a process's CPU time so far (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_of(pids: list[int]) -> dict[int, float]:
    """Returns the CPU time so far of each process still there."""
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            found[pid] = _cpu_seconds(pid)
    return found


def _cpu_since(before: dict[int, float], pids: list[int]) -> float:
    """Returns the CPU seconds ``pids`` used since ``before`` (a process new since then: all of its)."""
    return round(sum(now - before.get(pid, 0.0) for pid, now in _cpu_of(pids).items()), 1)


def _postgres_pids(folder: Path) -> list[int]:
    """Returns the throwaway PostgreSQL's processes: the postmaster (data/postmaster.pid) and its
    children."""
    main = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    return [main, *(pid for pid in _pids() if _parent(pid) == main)]


def _redis_pids(url: str) -> list[int]:
    """Returns the redis-server processes on ``url``'s port (by its arguments or its title)."""
    port = url.rsplit(":", 1)[1].split("/")[0]
    found = []
    for pid in _pids():
        with contextlib.suppress(OSError):
            line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            if "redis-server" in line and (f"--port {port}" in line or f":{port}" in line):
                found.append(pid)
    return found


def _pids() -> list[int]:
    """Returns every process id."""
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def _parent(pid: int) -> int | None:
    """Returns a process's parent id (None when it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


WARM_UP = 10.0
"""Seconds of the bots mode before its figures start: every table starts at once, so the first moves
of all of them land within the same second, a burst no site in play sees (reported apart)."""


def _machine_busy() -> tuple[float, float]:
    """Returns the machine's busy and total CPU time so far (jiffies, every CPU)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def _bot_server(
    folder: Path, name: str, url: str | None, extra: list[str], tables: int, pace: dict[str, float]
) -> LiveServer:
    """A server for the bots mode at ``pace`` (as PACE): on PostgreSQL (``url``) or SQLite (None)."""
    crowd = ["--max-connections-per-address", str(2 * tables + 16), "--analysis-workers", "0", *UNLIMITED]
    return LiveServer(
        folder / "parlour.db",
        pace["think"],
        int(pace["bot_workers"]),
        pace["pass_delay"],
        extra=[*extra, *crowd],
        log=folder / f"{name}.log",
        database_url=url,
    ).start()


def _bots(
    nodes: list[LiveServer],
    count_moves: Callable[[], int],
    tables: int,
    seconds: float,
    services: dict[str, Callable[[], list[int]]] | None = None,
) -> dict[str, Any]:
    """Makes ``tables`` tables of four random bots spread over the nodes (table i owned by node i mod n),
    each with a spectator on the next node (on the only one when alone); after WARM_UP, over ``seconds``,
    returns the update latency (the move's stored time ``moved_at`` to the spectator's receipt, one
    machine clock), the moves stored per second (rows counted in ``moves``) and the CPU the nodes used
    (and each of ``services``, by the processes its function lists at the end: a process ended
    meanwhile is missed)."""
    made = []
    for number in range(tables):
        game, options = GAMES[number % len(GAMES)]
        owner = nodes[number % len(nodes)]
        made.append((nodes[(number + 1) % len(nodes)], owner.create(game, ["random"] * 4, options=options)))
    latencies: list[float] = []
    stamps: list[float] = []
    pids = [node.process.pid for node in nodes if node.process is not None]
    started = time.time()
    steady = started + WARM_UP
    marks: dict[str, Any] = {}

    async def mark_steady() -> None:
        """At the warm-up's end: the counters the figures start from."""
        await asyncio.sleep(max(0.0, steady - time.time()))
        marks["cpu"], marks["busy"] = [_cpu_seconds(pid) for pid in pids], _machine_busy()
        marks["services"] = {name: _cpu_of(listed()) for name, listed in (services or {}).items()}
        marks["stored"], marks["at"] = await asyncio.to_thread(count_moves), time.time()

    async def run() -> None:
        until = steady + seconds
        await asyncio.gather(
            mark_steady(),
            *(
                watch(n.url, m["table"], m["spectator_token"], until, latencies, True, _address(n_), stamps)
                for n_, (n, m) in enumerate(made)
            ),
        )

    asyncio.run(run())
    elapsed, stored = time.time() - marks["at"], count_moves() - marks["stored"]
    cpu = [round(_cpu_seconds(pid) - before, 1) for pid, before in zip(pids, marks["cpu"], strict=True)]
    service_cpu = {
        name: _cpu_since(marks["services"][name], listed()) for name, listed in (services or {}).items()
    }
    busy_after = _machine_busy()
    busy = (busy_after[0] - marks["busy"][0]) / max(1, busy_after[1] - marks["busy"][1])
    kept = [latency for latency, at in zip(latencies, stamps, strict=True) if at >= steady]
    return {
        "tables": tables,
        "warm_up_seconds": WARM_UP,
        "seconds": round(elapsed, 1),
        "updates": len(kept),
        **_percentiles(kept),
        "with_the_warm_up": _percentiles(latencies),
        "moves_stored_per_second": round(stored / elapsed, 1),
        "node_cpu_seconds": cpu,
        "machine_cpu_busy_share": round(busy, 2),
        **({"services_cpu_seconds": service_cpu} if services else {}),
    }


def _percentiles(samples: list[float]) -> dict[str, float | None]:
    """Returns the samples' median and 99th percentile in milliseconds (None without samples)."""
    ordered = sorted(samples)
    if not ordered:
        return {"latency_ms_median": None, "latency_ms_p99": None}
    return {
        "latency_ms_median": round(1000 * statistics.median(ordered), 1),
        "latency_ms_p99": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1),
    }


def _address(number: int) -> str:
    """The loopback address spectator ``number`` connects from: 100 to an address, under a server's
    limit of open WebSockets per address (128, ``--max-sockets-per-address``)."""
    return f"127.0.0.{2 + number // 100}"


def _count(url: str) -> Callable[[], int]:
    """Returns a function counting the rows of ``moves`` in the database at ``url``."""
    engine = create_engine(url)

    def count() -> int:
        with engine.connect() as connection:
            return int(connection.execute(text("SELECT count(*) FROM moves")).scalar_one())

    return count


def bots_figures(
    tables: int = 150, seconds: float = 30.0, think: float | None = None, takeover: bool = True
) -> dict[str, Any]:
    """The bots mode (issue 34's "Done when"): ``tables`` tables of random bots with a spectator each,
    first on one server on SQLite, then on three nodes over PostgreSQL and Redis (each spectator on a
    node that does not own its table); then node 1 is killed and the time until its tables are
    another's is measured (clocks moved past the lease). ``think``: the bots' pace instead of PACE's."""
    pace = {**PACE, "think": PACE["think"] if think is None else think}
    results: dict[str, Any] = {"pace": pace, "load_average_before": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory(prefix="parlour-cluster-bots-") as name:
        folder = Path(name)
        (folder / "sqlite").mkdir()
        single = _bot_server(folder / "sqlite", "single", None, [], tables, pace)
        try:
            results["one server (SQLite)"] = _bots(
                [single], _count(f"sqlite:///{folder / 'sqlite' / 'parlour.db'}"), tables, seconds
            )
        finally:
            single.stop()
        with postgres_cluster() as pg, redis_server() as redis_url:
            url = pg.create_database()
            nodes = []
            try:
                for node_id in ("n1", "n2", "n3"):
                    hooks = ["--redis-url", redis_url, "--node-id", node_id, "--test-hooks"]
                    nodes.append(_bot_server(folder, node_id, url, hooks, tables, pace))
                results["three nodes (PostgreSQL, Redis)"] = _bots(
                    nodes,
                    _count(url),
                    tables,
                    seconds,
                    {
                        "postgresql": lambda: _postgres_pids(pg.folder),
                        "redis": lambda: _redis_pids(redis_url),
                    },
                )
                if takeover:
                    results["takeover_seconds_after_the_lease"] = round(_takeover(nodes, url, 0), 2)
            finally:
                for node in nodes:
                    node.stop()
    results["lease_seconds"], results["renew_seconds"] = LEASE, RENEW
    results["load_average_after"] = round(os.getloadavg()[0], 2)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, help="tables (default 20; in the bots mode 150)")
    parser.add_argument("--bots", action="store_true", help="the bots mode (default 150 tables, 30 s)")
    parser.add_argument("--seconds", type=float, default=30.0, help="the bots mode's window")
    parser.add_argument("--think", type=float, help=f"the bots mode's pace (default {PACE['think']:g} s)")
    args = parser.parse_args()
    if args.bots:
        print(json.dumps(bots_figures(args.tables or 150, args.seconds, args.think), indent=2))
        return
    args.tables = args.tables or 20
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
