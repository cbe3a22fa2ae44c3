"""What the server bot accounts' tests share: a person making bots, a bot's stream and answers."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from .live_server import LiveServer

PASSWORD = "correct horse battery"
ROOT = Path(__file__).resolve().parents[2]
BRIDGE = ROOT / "bots" / "reference" / "server_bridge.py"
REFERENCE_RANDOM = ROOT / "bots" / "reference" / "random_bot.py"


class Person:
    """A signed-in person at a live server (a cookie jar and the session's CSRF token)."""

    def __init__(self, server: LiveServer, username: str) -> None:
        self.server = server
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        status, reply = self.call("POST", "/api/register", {"username": username, "password": PASSWORD})
        assert status == 201, reply
        self.csrf: str = reply["csrf"]

    def call(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        """Sends a request with the session; returns the status and the JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server.url + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if getattr(self, "csrf", None):
            request.add_header("x-csrf-token", self.csrf)
        try:
            with self.opener.open(request, timeout=10) as reply:
                return reply.status, json.load(reply)
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def make_bot(self, name: str) -> str:
        """Makes a bot account; returns its token."""
        status, reply = self.call("POST", "/api/bot/accounts", {"name": name})
        assert status == 201, reply
        token: str = reply["token"]
        return token


def bot_call(
    server: LiveServer, method: str, path: str, token: str, body: bytes | None = None
) -> tuple[int, Any]:
    """Sends a bot's request with its bearer token; returns the status and the JSON answer."""
    request = urllib.request.Request(server.url + path, data=body, method=method)
    request.add_header("authorization", f"Bearer {token}")
    request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


class Stream:
    """A bot's NDJSON stream, read line by line."""

    def __init__(self, server: LiveServer, token: str) -> None:
        address = urllib.parse.urlsplit(server.url)
        self.connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=30)
        self.connection.request("GET", "/api/bot/stream", headers={"Authorization": f"Bearer {token}"})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.raw: list[bytes] = []

    def next(self, kind: str | None = None, timeout: float = 20.0) -> dict[str, Any]:
        """Returns the next message (of type ``kind``, skipping others), keep-alives skipped."""
        end = time.time() + timeout
        while time.time() < end:
            line = self.response.readline(1 << 20)
            assert line, "the stream ended"
            self.raw.append(line)
            if not line.strip():
                continue
            message: dict[str, Any] = json.loads(line)
            if kind is None or message["type"] == kind:
                return message
        raise AssertionError(f"no {kind} message in {timeout} s")

    def close(self) -> None:
        """Closes the connection."""
        self.connection.close()


def wait_online(server: LiveServer, name: str, online: bool = True, timeout: float = 10.0) -> None:
    """Waits until the lobby lists the bot as online (or no longer, with ``online`` false)."""
    end = time.time() + timeout
    while time.time() < end:
        if (name in server.get("/api/bots")["bots"]) == online:
            return
        time.sleep(0.05)
    raise AssertionError(f"{name} is {'not ' if online else ''}online")


def wait_over(server: LiveServer, table: str, timeout: float = 120.0) -> dict[str, Any]:
    """Waits until the table's game is over; returns its status."""
    end = time.time() + timeout
    while time.time() < end:
        status: dict[str, Any] = server.get(f"/api/tables/{table}/status")
        if status["over"]:
            return status
        time.sleep(0.2)
    raise AssertionError(f"table {table} did not end in {timeout} s")


def create_with_bot(server: LiveServer, game: str, seats: list[str], **extra: Any) -> str:
    """Creates a table whose ``account:NAME`` seats are bot accounts; returns its id."""
    spec = {"game": game, "seats": [{"kind": "bot", "bot": s} for s in seats], **extra}
    request = urllib.request.Request(
        server.url + "/api/tables", data=json.dumps(spec).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        made: dict[str, Any] = json.load(reply)
    table: str = made["table"]
    return table


def bridge(server: LiveServer, token: str, command: list[str], games: int = 1) -> subprocess.Popen[bytes]:
    """Starts the reference bridge running ``command`` as the bot (its token in the environment).

    Its warnings (one a refused stale answer: many in a fast negotiation) go to a temporary file, not a
    pipe nobody reads: a full pipe would block the bridge mid-game and stall its table."""
    env = {**os.environ, "PARLOUR_BOT_TOKEN": token}
    args = [sys.executable, str(BRIDGE), "--server", server.url, "--games", str(games), "--", *command]
    with tempfile.TemporaryFile() as said:  # the child keeps its own handle open
        return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=said)
