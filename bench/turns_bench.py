"""Turn-based tables at scale (issue 32): 5,000 of them in one database, a real server on it.

Measures the time from a deadline to its auto action (the scheduler's poll of the database, its claim,
the move stored; goal under 2 s) for ``--due`` tables whose deadlines fall a few seconds apart, and the
public status endpoint's latency (``GET /api/tables/T/status``, "My tables"; median and 99th
percentile) over random tables of the 5,000. The tables are written straight into the database (two
people at Venture, a day a move); the server is ``parlour serve --test-hooks``, whose clock is moved
forward to just before the due deadlines (no sleeping through a day).
Run alone: ``python bench/turns_bench.py [--tables 5000] [--due 100] [--requests 2000]``.
"""

from __future__ import annotations

import json
import random
import secrets
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serving import print_figures, start_filled

from parlour.core.registry import load_game
from parlour.server.hall import TABLE_ID_BYTES
from parlour.server.storage import SeatRecord, Store, TableRecord, sqlite_url
from parlour.server.tables import CLOCK_NOTE, hash_token, new_token

HOUR = 3600.0
SPREAD = 0.05
"""Seconds between two due deadlines (the due tables' deadlines fall over due × SPREAD seconds)."""


def fill(store: Store, tables: int, due: int, start: float) -> list[tuple[str, float]]:
    """Writes ``tables`` turn-based Venture tables of two people, their deadlines from 2 to 48 hours
    ahead but the first ``due`` ones', which fall an hour ahead, SPREAD seconds apart; returns those
    tables with their deadlines."""
    rng = random.Random(32)
    options = dict(load_game("venture").options({}))
    found = []
    for number in range(tables):
        seats = [SeatRecord(s, "human", token_hash=hash_token(new_token())) for s in range(2)]
        deadline = start + HOUR + number * SPREAD if number < due else start + rng.uniform(2, 48) * HOUR
        record = TableRecord(
            id=secrets.token_urlsafe(TABLE_ID_BYTES),
            game="venture",
            players=2,
            options=options,
            seed=secrets.randbits(62),
            spectator_hash=hash_token(new_token()),
            seats=seats,
            created=start,
            move_seconds=24 * HOUR,
            deadline=deadline,
            pace="turn-based",
            window_seconds=2 * HOUR,
        )
        store.create(record)
        if number < due:
            found.append((record.id, deadline))
    return found


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


def turns_figures(tables: int = 5000, due: int = 100, requests: int = 2000) -> dict[str, Any]:
    """Returns the figures (see the module)."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "parlour.db"
        store = Store(sqlite_url(db))
        began = time.perf_counter()
        due_tables = fill(store, tables, due, time.time())
        filled = time.perf_counter() - began
        store.close()
        server, started = start_filled(db, ["--test-hooks"])
        try:
            ids = [row.id for row in Store(sqlite_url(db)).tables(limit=tables)]
            rng = random.Random(7)
            latencies = []
            for _ in range(requests):
                table = rng.choice(ids)
                sent = time.perf_counter()
                server.get(f"/api/tables/{table}/status")
                latencies.append((time.perf_counter() - sent) * 1000)
            now = post(server.url + "/api/test/clock", {"advance": 0})["now"]
            first = min(deadline for _, deadline in due_tables)
            post(server.url + "/api/test/clock", {"advance": first - 1.0 - now})
            time.sleep(due * SPREAD + 5.0)  # the due deadlines pass in real time, one every SPREAD s
            delays, missed = [], 0
            check = Store(sqlite_url(db))
            for table, deadline in due_tables:
                record = check.load(table)
                moves = record.moves if record is not None else []
                if not moves or moves[0].note != CLOCK_NOTE:
                    missed += 1
                    continue
                delays.append(moves[0].at - deadline)
            check.close()
        finally:
            server.stop()
    latencies.sort()
    delays.sort()
    return {
        "tables": tables,
        "fill_seconds": round(filled, 1),
        "server_start_seconds": round(started, 1),
        "status_requests": requests,
        "status_p50_ms": round(statistics.median(latencies), 2),
        "status_p99_ms": round(latencies[int(0.99 * (len(latencies) - 1))], 2),
        "due": due,
        "acted": len(delays),
        "missed": missed,
        "deadline_to_action_median_s": round(statistics.median(delays), 3) if delays else None,
        "deadline_to_action_p99_s": round(delays[int(0.99 * (len(delays) - 1))], 3) if delays else None,
        "deadline_to_action_max_s": round(delays[-1], 3) if delays else None,
    }


def main() -> None:
    """Prints the figures as JSON."""
    print_figures(__doc__, turns_figures, tables=5000, due=100, requests=2000)


if __name__ == "__main__":
    main()
