""" "My games" at scale (issue 32): 10,000 accounts and 5,000 turn-based tables in one database, a real
server on it.

The accounts are inserted straight into the database with **one precomputed Argon2id hash** for all of
them (hashing 10,000 passwords takes minutes and is not what is measured), each with a session (the
cookie's token kept here, its SHA-256 stored, as a sign-in stores it). The tables are turn-based Venture
tables of four people, a day a move, their deadlines 2 to 48 hours ahead; every seat is kept in a random
account (four distinct ones a table), so each account is in two tables on average (0 to 9). The server
is ``parlour serve`` on that file (it resumes 2,000 of the tables at start, the hall's limit; the
others are read at their first opening).

Measured over many requests, each on its own connection, for random signed-in accounts: ``GET
/api/me/tables``; the page ``/games``; the table page ``GET /t/T`` and the first view of one of the
account's seats there over the WebSocket (from opening the socket to the whole first view, through the
account's hello: the cookie, the Origin, the seat looked up). p50 and p99 in milliseconds; the goal is a
p99 under 50 ms. The first views are also given apart: of tables the server holds in memory, and of
tables it reads from storage (and replays) at their first opening. Run alone: ``python
bench/accounts_bench.py [--accounts 10000] [--tables 5000] [--requests 2000]``.
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
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # as under pytest: server.live_server

from argon2 import PasswordHasher
from server.live_server import LiveServer
from serving import print_figures, start_filled
from sqlalchemy import bindparam, insert, update
from websockets.sync.client import connect

from parlour.core.registry import load_game
from parlour.server.accounts.cookie import COOKIE
from parlour.server.accounts.rows import AccountRow, SessionRow
from parlour.server.accounts.service import SESSION_SECONDS
from parlour.server.hall import MAX_PLAYING, TABLE_ID_BYTES
from parlour.server.storage import SeatRecord, SeatRow, Store, TableRecord, sqlite_url
from parlour.server.tables import hash_token, new_token

HOUR = 3600.0
PEOPLE = 4
"""People at each table (every seat kept in an account)."""


def fill(store: Store, accounts: int, tables: int, start: float) -> tuple[list[str], dict[int, list[str]]]:
    """Writes the accounts (one shared password hash), a session each, and the tables with their seats
    kept in random accounts; returns each account's session token (by account index) and the tables
    of each account (by account id)."""
    rng = random.Random(32)
    digest = PasswordHasher().hash("a bench password")  # once: what is measured is not hashing
    tokens = [secrets.token_urlsafe(32) for _ in range(accounts)]
    with store.engine.begin() as connection:
        connection.execute(
            insert(AccountRow),
            [
                {
                    "id": number + 1,
                    "username": f"player{number}",
                    "username_key": f"player{number}",
                    "display_name": f"Player {number}",
                    "password_hash": digest,
                    "email": None,
                    "email_confirmed": False,
                    "created": start,
                    "deleted": False,
                }
                for number in range(accounts)
            ],
        )
        connection.execute(
            insert(SessionRow),
            [
                {
                    "token_hash": hash_token(token),
                    "account_id": number + 1,
                    "created": start,
                    "expires": start + SESSION_SECONDS,
                }
                for number, token in enumerate(tokens)
            ],
        )
    options = dict(load_game("venture").options({}))
    kept: list[dict[str, Any]] = []
    of_account: dict[int, list[str]] = {}
    for _ in range(tables):
        record = TableRecord(
            id=secrets.token_urlsafe(TABLE_ID_BYTES),
            game="venture",
            players=PEOPLE,
            options=options,
            seed=secrets.randbits(62),
            spectator_hash=hash_token(new_token()),
            seats=[SeatRecord(s, "human", token_hash=hash_token(new_token())) for s in range(PEOPLE)],
            created=start,
            move_seconds=24 * HOUR,
            deadline=start + rng.uniform(2, 48) * HOUR,
            pace="turn-based",
            window_seconds=2 * HOUR,
        )
        store.create(record)
        for seat, account in enumerate(rng.sample(range(1, accounts + 1), PEOPLE)):
            kept.append({"t": record.id, "s": seat, "a": account})
            of_account.setdefault(account, []).append(record.id)
    with store.engine.begin() as connection:
        connection.execute(
            update(SeatRow)
            .where(SeatRow.table_id == bindparam("t"), SeatRow.seat == bindparam("s"))
            .values(account_id=bindparam("a")),
            kept,
        )
    return tokens, of_account


def timed_get(url: str, cookie: str | None = None) -> tuple[float, bytes]:
    """Returns a GET's time (ms, to the whole body read) and its body."""
    request = urllib.request.Request(url)
    if cookie is not None:
        request.add_header("cookie", f"{COOKIE}={cookie}")
    sent = time.perf_counter()
    with urllib.request.urlopen(request, timeout=10) as reply:
        body = reply.read()
    return (time.perf_counter() - sent) * 1000, body


def first_view(server: LiveServer, table: str, cookie: str) -> float:
    """Returns the time (ms) from opening a table's WebSocket to its first view, by an account's hello."""
    sent = time.perf_counter()
    uri = f"ws://127.0.0.1:{server.port}/ws/{table}"
    headers = {"Cookie": f"{COOKIE}={cookie}", "Origin": server.url}
    with connect(uri, additional_headers=headers, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "account": True}))
        view = json.loads(ws.recv(timeout=10))
        took = (time.perf_counter() - sent) * 1000
    if view.get("type") != "table" or view.get("seat") is None:
        raise AssertionError(f"the account's hello was not given its seat: {str(view)[:200]}")
    return took


def percentiles(times: list[float]) -> tuple[float | None, float | None]:
    """Returns the median and the 99th percentile of some times (ms), rounded (None: no times)."""
    if not times:
        return None, None
    ordered = sorted(times)
    return round(statistics.median(ordered), 2), round(ordered[int(0.99 * (len(ordered) - 1))], 2)


def accounts_figures(accounts: int = 10_000, tables: int = 5_000, requests: int = 2_000) -> dict[str, Any]:
    """Returns the figures (see the module)."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "parlour.db"
        store = Store(sqlite_url(db))
        began = time.perf_counter()
        tokens, of_account = fill(store, accounts, tables, time.time())
        filled = time.perf_counter() - began
        resumed = {  # as the server: the newest MAX_PLAYING of each pace
            record.id
            for pace in ("live", "turn-based")
            for record in store.tables(status="playing", limit=MAX_PLAYING, pace=pace)
        }
        store.close()
        server, started = start_filled(db)
        rng = random.Random(7)
        players = sorted(of_account)
        mine, games, page, views, listed = [], [], [], [], []
        # first views of tables in memory, and of tables read at their first opening
        warm: list[float] = []
        cold: list[float] = []
        opened = set(resumed)
        try:
            for _ in range(requests):
                account = rng.choice(players)
                took, body = timed_get(server.url + "/api/me/tables", tokens[account - 1])
                mine.append(took)
                listed.append(len(json.loads(body)["tables"]))
            for _ in range(requests):
                games.append(timed_get(server.url + "/games")[0])
            for _ in range(requests):
                account = rng.choice(players)
                table = rng.choice(of_account[account])
                page.append(timed_get(f"{server.url}/t/{table}")[0])
                views.append(first_view(server, table, tokens[account - 1]))
                (warm if table in opened else cold).append(views[-1])
                opened.add(table)
        finally:
            server.stop()
    figures: dict[str, Any] = {
        "accounts": accounts,
        "tables": tables,
        "seats_per_table": PEOPLE,
        "fill_seconds": round(filled, 1),
        "server_start_seconds": round(started, 1),
        "requests": requests,
        "tables_listed_mean": round(statistics.mean(listed), 2),
        "first_views_from_storage": len(cold),
    }
    measured = {
        "me_tables": mine,
        "games_page": games,
        "table_page": page,
        "first_view": views,
        "first_view_in_memory": warm,
        "first_view_from_storage": cold,
    }
    for name, times in measured.items():
        figures[f"{name}_p50_ms"], figures[f"{name}_p99_ms"] = percentiles(times)
    return figures


def main() -> None:
    """Prints the figures as JSON."""
    print_figures(__doc__, accounts_figures, accounts=10_000, tables=5_000, requests=2_000)


if __name__ == "__main__":
    main()
