"""The table server under load: many tables of bots at once, a spectator socket on each.

Measures the time from an accepted move (its stored time) to its update reaching the connected client
(median and 99th percentile), the server's memory per table, and moves stored per second. The tables
play at the server's own pace (a bot's move lands 0.6 s after its turn opened, as people see it);
``--think 0.05 --pass-delay 0.05`` drives the server flat out instead (throughput, with queueing in
the latencies).
Run alone: ``python bench/server_bench.py --tables 50 --seconds 20 [--think 0.6] [--bot-workers 2]``.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # as under pytest: server.live_server

from command_line import settings
from server.live_server import LiveServer

GAMES = [("venture", {}), ("im-the-boss", {"length": "short"}), ("venus-needs-men", {"length": "short"})]


def rss_kib(pid: int) -> int:
    """Returns a process's resident memory in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def watch(
    url: str,
    table: str,
    token: str,
    until: float,
    latencies: list[float],
    skip_first: bool = False,
    local: str | None = None,
    stamps: list[float] | None = None,
) -> None:
    """Listens to one table as a spectator, noting each update's delay after its move was stored (with
    ``skip_first``, not the first view's: its last move may be older than the connection; ``local``:
    the loopback address to connect from, as another person would; ``stamps``: gets each noted
    update's move time, in the order of ``latencies``)."""
    import websockets

    where: dict[str, Any] = {"local_addr": (local, 0)} if local else {}
    async with websockets.connect(f"{url.replace('http', 'ws')}/ws/{table}", **where) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while time.time() < until:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.time())))
            except TimeoutError:
                break
            if message.get("type") == "table" and message.get("moved_at") and message.get("log"):
                if skip_first:
                    skip_first = False
                    continue
                latencies.append(time.time() - message["moved_at"])
                if stamps is not None:
                    stamps.append(message["moved_at"])


def server_figures(
    tables: int = 50, seconds: float = 20.0, think: float = 0.6, bot_workers: int = 2, pass_delay: float = 1.5
) -> dict[str, Any]:
    """Runs ``tables`` tables of bots for ``seconds`` (bots paced by ``think``, thinking in
    ``bot_workers`` processes, 0: threads; passes in windows by ``pass_delay``) and returns the figures."""
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        crowd = ["--max-connections-per-address", str(2 * tables + 16)]  # every socket comes from 127.0.0.1
        live = LiveServer(Path(folder) / "parlour.db", think, bot_workers, pass_delay, extra=crowd).start()
        try:
            assert live.process is not None
            before = rss_kib(live.process.pid)
            made = []
            for number in range(tables):
                game, options = GAMES[number % len(GAMES)]
                made.append(live.create(game, ["random"] * 4, options=options))
            started = time.time()
            latencies: list[float] = []

            async def run() -> None:
                until = started + seconds
                await asyncio.gather(
                    *(watch(live.url, m["table"], m["spectator_token"], until, latencies) for m in made)
                )

            asyncio.run(run())
            elapsed = time.time() - started
            after = rss_kib(live.process.pid)
            ours = {m["table"] for m in made}
            moves = sum(t["version"] for t in live.get("/api/tables") if t["table"] in ours)
        finally:
            live.stop()
    ordered = sorted(latencies)
    return {
        "tables": tables,
        "think_seconds": think,
        "bot_workers": bot_workers,
        "seconds": round(elapsed, 1),
        "updates": len(ordered),
        "latency_ms_median": round(1000 * statistics.median(ordered), 2) if ordered else None,
        "latency_ms_p99": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 2) if ordered else None,
        "memory_kib_per_table": round((after - before) / tables, 1),
        "moves_stored_per_second": round(moves / elapsed, 1),
    }


def main() -> None:
    """Prints the figures of one run."""
    args = settings(__doc__, tables=50, seconds=20.0, think=0.6, bot_workers=2, pass_delay=1.5)
    figures = server_figures(args.tables, args.seconds, args.think, args.bot_workers, args.pass_delay)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
