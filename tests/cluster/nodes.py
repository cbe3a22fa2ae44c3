"""Helpers of the cluster tests: ``parlour serve`` nodes over one PostgreSQL and one Redis, and a seat's
WebSocket client that keeps the views it was sent."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any, cast

from server.live_server import LiveServer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from parlour.server.tables import LiveTable, Refusal

RATE, BURST = 18.0, 30.0
"""A client's moves a second on average and in a burst: within a connection's budget (limits.RATE and
BURST, 20 and 40 messages, with room for its other messages); beyond it the server drops messages with
one refusal a second, so a faster client would wait for ever for an answer."""


def start_nodes(pg_url: str, redis_url: str, folder: Path, names: list[str]) -> list[LiveServer]:
    """Starts one node per name (test hooks on: the clock moves), one after the other; the nodes share
    the database, the Redis and the seed key (one HOME)."""
    nodes = []
    for name in names:
        extra = ["--redis-url", redis_url, "--node-id", name, "--test-hooks", "--analysis-workers", "0"]
        node = LiveServer(folder / "unused.db", database_url=pg_url, extra=extra, log=folder / f"{name}.log")
        nodes.append(node.start())
    return nodes


def advance(node: LiveServer, seconds: float) -> None:
    """Moves a node's clock forward (its test hook)."""
    request = urllib.request.Request(
        node.url + "/api/test/clock", data=json.dumps({"advance": seconds}).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        reply.read()


class Client:
    """One WebSocket at a table on a node: a seat's (its token) or a spectator's."""

    def __init__(self, node: LiveServer, table: str, token: str) -> None:
        self.node, self.table, self.token = node, table, token
        self.view: dict[str, Any] | None = None
        self.versions: list[int] = []
        """Every table version this connection was sent, in order."""
        self.log: list[dict[str, Any]] = []
        """The log as this connection built it from its updates."""
        self.errors: list[dict[str, Any]] = []
        self.accepted: list[int] = []
        self.arrived: list[int] = []
        """The number of every log entry this connection was sent, in the order they came."""
        self.windows: list[list[int]] = []
        """The seats still asked in each view that showed a reaction window open."""
        self.budget, self.counted = BURST, time.monotonic()
        self.ws: ClientConnection = self._open()

    def _open(self) -> ClientConnection:
        ws = connect(f"ws://127.0.0.1:{self.node.port}/ws/{self.table}", open_timeout=10, legacy=True)
        ws.send(json.dumps({"type": "hello", "token": self.token}))
        return ws

    def reopen(self, node: LiveServer) -> None:
        """Connects again (to another node), as a browser whose node went away."""
        self.node = node
        self.ws = self._open()

    def drain(self, wait: float = 0.0) -> bool:
        """Reads what has come (waiting up to ``wait`` seconds for the first message); returns whether
        the connection is still open."""
        timeout: float | None = wait
        while True:
            try:
                text = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return True
            except ConnectionClosed:
                return False
            timeout = 0
            self._take(json.loads(text))

    def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table":
            since = message["log_since"]
            self.log = [e for e in self.log if e["number"] <= since] + message["log"]
            self.arrived += [e["number"] for e in message["log"]]
            if message.get("window"):
                self.windows.append(message["window"]["waiting"])
            self.versions.append(message["version"])
            self.view = message
        elif kind == "error":
            self.errors.append(message)
        elif kind == "accepted":
            self.accepted.append(message["version"])

    def act(self, action: str) -> None:
        """Sends a move against the version this connection shows (waiting, if need be, to stay within
        RATE and BURST)."""
        assert self.view is not None
        now = time.monotonic()
        self.budget = min(BURST, self.budget + (now - self.counted) * RATE)
        if self.budget < 1:
            wait = (1 - self.budget) / RATE
            time.sleep(wait)
            self.budget, now = 1.0, now + wait
        self.budget, self.counted = self.budget - 1, now
        self.ws.send(json.dumps({"type": "act", "action": action, "version": self.view["version"]}))

    def close(self) -> None:
        """Closes the connection."""
        self.ws.close()


async def first_legal_move(table: LiveTable) -> int:
    """Makes a legal move of the first seat asked at an in-process table (its owner); returns the new
    version."""
    seat = table.state.deciders()[0]
    for legal in cast(list[Any], table.view(seat)["legal"]):
        text = legal if isinstance(legal, str) else legal.get("action", legal.get("text"))
        try:
            return await table.act(seat, text, automatic=True)
        except Refusal as refusal:
            if refusal.status != 422:
                raise
    raise AssertionError("no legal move landed")


def wait_for(check: Any, seconds: float, what: str) -> None:
    """Waits until ``check()`` is true, failing with ``what`` after ``seconds``."""
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, what
        time.sleep(0.05)
