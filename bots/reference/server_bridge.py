#!/usr/bin/env python3
"""Plays a parlour-bot/1 program (stdin/stdout, docs/bot-protocol.md) at a Parlour server as a bot account.

Reads the bot's stream (``GET /api/bot/stream``, NDJSON) and, for every table the bot is seated at,
starts the program (one process a game, as ``parlour play`` does), passes it ``start``, each
``request`` and ``end``, and posts each answer to ``/api/bot/tables/TABLE/answer``. The API token comes
from the environment (``PARLOUR_BOT_TOKEN``), never the command line. Standard library only:

    PARLOUR_BOT_TOKEN=pbt_... python3 server_bridge.py --server http://127.0.0.1:8000 -- python3 random_bot.py
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

MAX_LINE = 65536
"""The longest line read from the program or the stream (bytes)."""


def main() -> int:
    """Runs the bridge until ``--games`` games ended (0: for ever), reconnecting a dropped stream."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the server's address, e.g. http://127.0.0.1:8000")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    parser.add_argument("command", nargs="+", help="the bot program and its arguments")
    args = parser.parse_args()
    token = os.environ.get("PARLOUR_BOT_TOKEN", "")
    if not token:
        print("server_bridge: set PARLOUR_BOT_TOKEN to the bot's API token", file=sys.stderr)
        return 2
    if urllib.parse.urlsplit(args.server).scheme not in ("http", "https"):
        print("server_bridge: --server must be an http:// or https:// address", file=sys.stderr)
        return 2
    bridge = Bridge(args.server.rstrip("/"), token, args.command, args.games)
    while not bridge.done.is_set():
        try:
            bridge.follow()
        except (OSError, http.client.HTTPException, ValueError) as err:
            print(f"server_bridge: stream lost ({err}); reconnecting", file=sys.stderr)
            time.sleep(1.0)
    return 0


class Game:
    """One table's program: its process and the queue of stream messages for it."""

    def __init__(self, bridge: Bridge, table: str) -> None:
        self.bridge, self.table = bridge, table
        self.inbox: queue.Queue[dict[str, object]] = queue.Queue()
        self.process = subprocess.Popen(
            bridge.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: killed with whatever it started
        )
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        """Passes the table's messages to the program and its answers to the server, until the end."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdout.readline(MAX_LINE)  # the hello (the server's start does not depend on it)
            while True:
                message = self.inbox.get()
                self.process.stdin.write((json.dumps(message) + "\n").encode())
                self.process.stdin.flush()
                if message.get("type") == "end":
                    break
                if message.get("type") == "request":
                    line = self.process.stdout.readline(MAX_LINE)
                    if not line:
                        break
                    self.bridge.post(self.table, line, message.get("id"))
        except OSError:
            pass
        finally:
            self.stop()

    def finish(self) -> None:
        """After the game's end: gives the program 2 s to take it, then kills it (a program stuck on
        an old request, or one that never reads, is not left behind)."""
        self.thread.join(2)
        if self.process.poll() is None:
            self.kill()

    def stop(self) -> None:
        """Closes the program's input and collects it (killed if it lingers)."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()

    def kill(self) -> None:
        """Kills the program's process group (the program and whatever it started) and collects it."""
        try:
            if hasattr(os, "killpg"):
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()
        except OSError:
            pass  # already gone
        self.process.wait()


class Bridge:
    """The stream's reader: a program per table, and the answers' poster."""

    def __init__(self, server: str, token: str, command: list[str], games: int) -> None:
        self.server, self.token, self.command, self.games = server, token, command, games
        self.tables: dict[str, Game] = {}
        self.ended = 0
        self.done = threading.Event()

    def follow(self) -> None:
        """Reads the stream line by line, handing each message to its table's program."""
        address = urllib.parse.urlsplit(self.server)
        host = address.hostname or "127.0.0.1"
        connection: http.client.HTTPConnection
        if address.scheme == "https":
            connection = http.client.HTTPSConnection(host, address.port or 443, timeout=60)
        elif address.scheme == "http":
            connection = http.client.HTTPConnection(host, address.port or 80, timeout=60)
        else:
            raise SystemExit("server_bridge: --server must be an http:// or https:// address")
        connection.request("GET", "/api/bot/stream", headers={"Authorization": f"Bearer {self.token}"})
        response = connection.getresponse()
        if response.status != 200:
            raise ValueError(f"the server answered {response.status}: {response.read(300)!r}")
        while not self.done.is_set():
            line = response.readline(MAX_LINE)
            if not line:
                raise ValueError("the stream ended")
            if not line.strip():
                continue  # a keep-alive
            message = json.loads(line)
            if isinstance(message, dict):
                self.hand(message)
            else:
                print(f"server_bridge: not a JSON object on the stream: {line[:80]!r}", file=sys.stderr)
        connection.close()

    def hand(self, message: dict[str, object]) -> None:
        """Gives a stream message to its table's program (started at the table's ``start``)."""
        table = message.get("table")
        if message.get("type") == "error":
            print(f"server_bridge: {message.get('message')}", file=sys.stderr)
            return
        if not isinstance(table, str):
            return
        game = self.tables.get(table)
        if message.get("type") == "start" and (game is None or not game.thread.is_alive()):
            game = self.tables[table] = Game(self, table)
        if game is None:
            return
        game.inbox.put(message)
        if message.get("type") == "end":
            del self.tables[table]
            self.ended += 1
            threading.Thread(target=game.finish, daemon=True).start()
            if self.games and self.ended >= self.games:
                game.thread.join(5)
                game.finish()
                self.done.set()

    def post(self, table: str, line: bytes, asked: object) -> None:
        """Posts the program's answer line to the request ``asked`` (its id); a refusal is reported (the
        next request comes anyway), but that of a right answer the table had moved past (409, the answer
        naming ``asked``: another seat acted first, a newer request is on its way), which a quick
        negotiation makes hundreds of times a game."""
        request = urllib.request.Request(
            f"{self.server}/api/bot/tables/{urllib.parse.quote(table)}/answer",
            data=line,
            method="POST",
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                reply.read()
        except urllib.error.HTTPError as err:
            if err.code == 409 and answered(line) == asked:
                return
            print(f"server_bridge: table {table}: {err.read(300).decode(errors='replace')}", file=sys.stderr)


def answered(line: bytes) -> object:
    """Returns the request id an answer line names (None if it names none)."""
    try:
        answer = json.loads(line)
    except ValueError:
        return None
    return answer.get("id") if isinstance(answer, dict) else None


if __name__ == "__main__":
    sys.exit(main())
