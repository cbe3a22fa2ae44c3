"""Hostile connections against a real server: late headers and bodies, too many connections from one
address or in all, a small open-files limit, and X-Forwarded-For from an untrusted peer (issue 30)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect as ws_connect

from parlour.cli.serve import Guards, serve
from parlour.core.errors import OptionError
from parlour.server.connections import Gate, Limits, QuietLog, budget, parse_networks
from parlour.server.limits import address_key

from .live_server import LiveServer

PARTIAL = b"GET / HTTP/1.1\r\nHost: x"
"""A request line and half a header: what a slowloris client sends, then nothing."""


@pytest.fixture
def started(tmp_path: Path) -> Iterator[list[LiveServer]]:
    """The servers a test starts (stopped after it)."""
    servers: list[LiveServer] = []
    yield servers
    for server in servers:
        try:
            server.stop()
        except subprocess.TimeoutExpired:  # it would not stop: a request is still under way
            server.kill()


def start(
    started: list[LiveServer], tmp_path: Path, *extra: str, open_files: int | None = None
) -> LiveServer:
    name = f"s{len(started)}"
    server = LiveServer(
        tmp_path / f"{name}.db", extra=extra, open_files=open_files, log=tmp_path / f"{name}.log"
    )
    started.append(server)
    return server.start()


def log_of(server: LiveServer) -> str:
    assert server.log is not None
    return server.log.read_text(errors="replace")


def partial(port: int, source: str = "127.0.0.1", data: bytes = PARTIAL) -> socket.socket:
    """Opens a connection from ``source`` and sends ``data`` (and then nothing)."""
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(data)
    return s


def many(port: int, count: int, source: str = "127.0.0.1", wait: float = 20) -> list[socket.socket]:
    """Opens ``count`` connections at once (non-blocking: a full listen queue only delays some) and
    sends each PARTIAL as soon as it is connected; returns them all."""
    found, selector = [], selectors.DefaultSelector()
    for _ in range(count):
        s = socket.socket()
        s.bind((source, 0))
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        selector.register(s, selectors.EVENT_WRITE)
        found.append(s)
    end, pending = time.monotonic() + wait, count
    while pending and time.monotonic() < end:
        for key, _ in selector.select(0.5):
            ready = key.fileobj
            assert isinstance(ready, socket.socket)
            s = ready
            selector.unregister(s)
            pending -= 1
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                with contextlib.suppress(OSError):  # turned away already
                    s.send(PARTIAL)
    selector.close()
    return found


def closed_within(s: socket.socket, seconds: float) -> tuple[float, bytes] | None:
    """Waits up to ``seconds`` for the server to close ``s``; returns when it did and what it sent,
    or None if it is still open."""
    start, got = time.monotonic(), b""
    s.setblocking(True)
    while (left := start + seconds - time.monotonic()) > 0:
        s.settimeout(left)
        try:
            data = s.recv(4096)
        except TimeoutError:
            return None
        except OSError:  # reset
            return time.monotonic() - start, got
        if not data:
            return time.monotonic() - start, got
        got += data
    return None


def is_open(s: socket.socket) -> bool:
    """Returns whether the server has left ``s`` open (nothing to read, no end)."""
    s.setblocking(False)
    try:
        return bool(s.recv(1))  # data would be a reply: open for now
    except BlockingIOError:
        return True
    except OSError:
        return False


def sockets_of(server: LiveServer) -> int:
    """Returns how many sockets the server's process has open (Linux)."""
    assert server.process is not None
    found = 0
    for fd in Path(f"/proc/{server.process.pid}/fd").iterdir():
        with contextlib.suppress(FileNotFoundError):  # closed since
            found += os.readlink(fd).startswith("socket:")
    return found


def get(port: int, path: str = "/api/games", source: str = "127.0.0.1", extra: bytes = b"") -> bytes:
    """Sends one GET from ``source`` and returns the whole reply (empty if the connection was closed)."""
    with socket.socket() as s:
        s.bind((source, 0))
        s.settimeout(10)
        s.connect(("127.0.0.1", port))
        s.sendall(
            b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra + b"\r\n"
        )
        reply = b""
        try:
            while data := s.recv(65536):
                reply += data
        except ConnectionResetError:
            pass
        return reply


# --------------------------------------------------------------------- headers and bodies
@pytest.mark.slow
def test_late_headers_are_closed_but_websockets_live_on(tmp_path: Path, started: list[LiveServer]) -> None:
    server = start(started, tmp_path, "--header-timeout", "1")
    first = partial(server.port)
    closed = closed_within(first, 8)
    assert closed is not None, "a connection that never finished its headers was left open"
    assert closed[0] > 0.5 and closed[1] == b""
    # On a keep-alive connection the next request's headers have the same time.
    kept = partial(server.port, data=b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    kept.settimeout(5)
    assert kept.recv(65536).startswith(b"HTTP/1.1 200")
    kept.sendall(PARTIAL)
    assert closed_within(kept, 8) is not None
    # A WebSocket is past its headers: it stays open however long it is quiet.
    made = server.create("venture", ["human", "random", "random"])
    with ws_connect(f"ws://127.0.0.1:{server.port}/ws/{made['table']}") as ws:
        time.sleep(2.5)
        ws.send(json.dumps({"type": "hello", "token": made["spectator_token"]}))
        assert json.loads(ws.recv(timeout=10))["table"] == made["table"]
    assert "Traceback" not in log_of(server)


@pytest.mark.slow
def test_a_slow_body_gets_408_and_a_dropped_one_no_traceback(
    tmp_path: Path, started: list[LiveServer]
) -> None:
    server = start(started, tmp_path, "--body-timeout", "1")
    head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    head += b"Content-Length: 1000\r\n\r\n"
    slow = partial(server.port, data=head + b'{"game": ')
    closed = closed_within(slow, 8)
    assert closed is not None, "a request body that never came was waited for"
    assert closed[0] > 0.5
    assert closed[1].startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    # A client that goes away in the middle of its body costs one closed connection, not a traceback.
    for _ in range(5):
        partial(server.port, data=head + b'{"game": ').close()
    time.sleep(1)
    assert get(server.port).startswith(b"HTTP/1.1 200")
    assert "Traceback" not in log_of(server)


# --------------------------------------------------------------------- caps
@pytest.mark.slow
def test_connections_beyond_an_address_cap_are_turned_away_at_once(
    tmp_path: Path, started: list[LiveServer]
) -> None:
    server = start(started, tmp_path, "--max-connections-per-address", "8")
    held = [partial(server.port) for _ in range(8)]
    extra = [partial(server.port) for _ in range(100)]
    assert all(closed_within(s, 3) is not None for s in extra), "connections beyond the cap were kept"
    assert all(is_open(s) for s in held)
    assert get(server.port, source="127.0.0.2").startswith(b"HTTP/1.1 200")
    assert get(server.port) == b""  # 127.0.0.1 is still at its cap
    for s in held:
        s.close()
    time.sleep(0.5)
    assert get(server.port).startswith(b"HTTP/1.1 200")
    log = log_of(server)
    assert log.count("turned away connections from 127.0.0.1") == 1, log  # one line, not 101


@pytest.mark.slow
def test_websockets_count_against_the_address_cap(tmp_path: Path, started: list[LiveServer]) -> None:
    server = start(started, tmp_path, "--max-connections-per-address", "3")
    made = server.create("venture", ["human", "random", "random"])
    url = f"ws://127.0.0.1:{server.port}/ws/{made['table']}"
    with contextlib.ExitStack() as stack:
        # Unbounded queues: these sockets read little while the bots play on, and websockets' client
        # pauses its reading thread when its queue is full, then never finishes closing (a hung test).
        sockets = [stack.enter_context(ws_connect(url, max_queue=None)) for _ in range(3)]
        for ws in sockets:
            ws.send(json.dumps({"type": "hello", "token": made["spectator_token"]}))
            ws.recv(timeout=10)
        assert get(server.port) == b""
        sockets[0].close()
        time.sleep(0.5)
        assert get(server.port).startswith(b"HTTP/1.1 200")


def test_websockets_beyond_the_apps_own_cap_are_refused_in_one_line(
    tmp_path: Path, started: list[LiveServer]
) -> None:
    server = start(started, tmp_path, "--max-sockets-per-address", "2")
    made = server.create("venture", ["human", "random", "random"])
    url = f"ws://127.0.0.1:{server.port}/ws/{made['table']}"
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(ws_connect(url, max_queue=None)) for _ in range(3)]
        refused = json.loads(sockets[2].recv(timeout=10))
        assert refused["status"] == 429 and refused["error"].endswith("(at most 2)"), refused
        sockets[0].send(json.dumps({"type": "hello", "token": made["spectator_token"]}))
        assert json.loads(sockets[0].recv(timeout=10))["type"] == "table"  # the first two are served


@pytest.mark.slow
@pytest.mark.parametrize("per_address", [None, "1000"])
def test_a_small_open_files_limit_is_never_exhausted(
    tmp_path: Path, started: list[LiveServer], per_address: str | None
) -> None:
    """300 slowloris connections from 127.0.0.1 at 256 open files: a GET still gets its answer, from
    another address while 127.0.0.1 is at its cap, or (no practical address cap) from 127.0.0.1 itself
    by evicting the connection that has waited longest for a request."""
    extra = ("--max-connections-per-address", per_address) if per_address else ()
    server = start(started, tmp_path, *extra, open_files=256)
    hostile = many(server.port, 300)
    time.sleep(1)
    source = "127.0.0.2" if per_address is None else "127.0.0.1"
    began = time.monotonic()
    assert get(server.port, source=source).startswith(b"HTTP/1.1 200")
    assert time.monotonic() - began < 9  # a SYN or two lost to the full listen queue at worst
    # The server holds at most its cap (72 at 256 open files), plus the sockets it has accepted and
    # not yet closed (three passes of its loop of 16 each); the others are closed at once.
    most = 0
    for _ in range(20):
        most = max(most, sockets_of(server))
        time.sleep(0.1)
    assert 0 < most <= 72 + 3 * 16 + 8
    for s in hostile:
        s.close()
    time.sleep(0.5)
    log = log_of(server)
    assert len(log.splitlines()) < 100 and "Traceback" not in log and "accept" not in log, log[:2000]


# --------------------------------------------------------------------- X-Forwarded-For
def refused_with_forwarded_for(server: LiveServer) -> int:
    """Sends 20 requests, each with another X-Forwarded-For address; returns how many got 429."""
    replies = [get(server.port, extra=f"X-Forwarded-For: 10.0.0.{n}\r\n".encode()) for n in range(20)]
    return sum(reply.startswith(b"HTTP/1.1 429") for reply in replies)


@pytest.mark.slow
def test_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path, started: list[LiveServer]) -> None:
    rate = ("--http-rate", "0.5", "--http-burst", "10")
    assert refused_with_forwarded_for(start(started, tmp_path, *rate)) >= 10  # one client, whatever it says
    behind_proxy = start(started, tmp_path, *rate, "--forwarded-allow-ips", "127.0.0.1")
    assert refused_with_forwarded_for(behind_proxy) == 0  # twenty clients behind the proxy, one request each


# --------------------------------------------------------------------- the parts
def test_the_budget_leaves_descriptors_for_what_is_accepted_but_not_yet_closed() -> None:
    assert budget(256) == (72, 16)
    assert budget(1024) == (384, 64)
    assert budget(1_048_576) == (4096, 128)
    assert budget(-1) == (4096, 128)
    for soft in (64, 256, 1024, 5000):
        total, backlog = budget(soft)
        assert total >= 1 and total + 3 * backlog + 64 <= max(soft, 64 + 3 * 8 + 1)


def test_addresses_and_networks() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") == "2001:db8::/64"
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1" and address_key("10.0.0.1") == "10.0.0.1"
    assert [str(n) for n in parse_networks("127.0.0.1, 10.0.0.0/8")] == ["127.0.0.1/32", "10.0.0.0/8"]
    assert len(parse_networks("*")) == 2 and parse_networks("") == ()
    with pytest.raises(ValueError, match="'nginx' is not an IP address"):
        parse_networks("127.0.0.1,nginx")


def test_the_gate_refuses_beyond_an_address_cap_and_evicts_the_longest_waiting() -> None:
    gate, closed = Gate(Limits(per_address=2, total=3, trusted=parse_networks("10.0.0.9"))), []
    assert gate.admit("a", "10.0.0.1") and gate.admit("b", "10.0.0.1")
    assert not gate.admit("c", "10.0.0.1")
    gate.wait("a", lambda: closed.append("a"))
    gate.wait("b", lambda: closed.append("b"))
    gate.wait("b", None)  # b's request came
    assert gate.admit("d", "10.0.0.2")
    assert gate.admit("e", "10.0.0.9") and closed == ["a"]  # full: a, waiting longest, went
    assert not gate.admit("f", "10.0.0.9")  # full, nobody waiting
    gate.release("e")
    gate.release("e")
    assert gate.admit("f", "10.0.0.9") and gate.admit("g", "10.0.0.9") is False
    assert gate.by_address == {"10.0.0.1": 1, "10.0.0.2": 1, "10.0.0.9": 1}


def test_the_quiet_log_says_a_thing_once_an_interval(caplog: pytest.LogCaptureFixture) -> None:
    quiet = QuietLog(interval=0.2, keys=2)
    with caplog.at_level(logging.INFO, logger="uvicorn.error"):
        for _ in range(50):
            quiet.log(logging.WARNING, "k", "trouble")
        time.sleep(0.25)
        quiet.log(logging.WARNING, "k", "trouble")
    assert [r.getMessage() for r in caplog.records] == ["trouble", "trouble (49 more like it held back)"]


@pytest.mark.parametrize(
    ("guards", "error"),
    [
        (Guards(header_timeout=0), "--header-timeout"),
        (Guards(body_timeout=-1), "--body-timeout"),
        (Guards(per_address=0), "--max-connections-per-address"),
        (Guards(sockets_per_address=0), "--max-sockets-per-address"),
        (Guards(forwarded_allow_ips="proxy"), "--forwarded-allow-ips: 'proxy' is not"),
        (Guards(forwarded_allow_ips=" "), "--forwarded-allow-ips: give at least one"),
        (Guards(http_rate=0), "--http-rate"),
        (Guards(http_burst=0.5), "--http-burst"),
    ],
)
def test_limits_out_of_range_are_refused_in_one_line(guards: Guards, error: str, tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=error):
        serve("127.0.0.1", 8000, str(tmp_path / "x.db"), None, 0, guards=guards)
