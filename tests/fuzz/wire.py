"""Clients by hand for the network attacks: HTTP/1.1 requests and WebSocket frames over plain sockets,
from any loopback address, with any bytes anywhere (tests/server/raw_socket.py vanishes at each step
of a handshake; ``Wire`` goes on to talk)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

LOCAL = "127.0.0.1"
TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA
ABNORMAL = 1006
"""The close code of a connection that ended without a close frame."""
ANSWER = 5.0
"""How long a closing connection waits for the server's close frame."""


class Silent(AssertionError):
    """The server said nothing for longer than a promise allows."""


def connect(port: int, source: str = LOCAL, seconds: float = 10.0) -> socket.socket:
    """Returns a socket connected to the server from ``source`` (any 127.x.y.z address)."""
    sock = socket.socket()
    try:
        sock.bind((source, 0))
        sock.settimeout(seconds)
        sock.connect(("127.0.0.1", port))
    except BaseException:
        sock.close()
        raise
    return sock


def _bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")


# --------------------------------------------------------------------- HTTP
@dataclass
class Reply:
    """An HTTP reply: its status (0: the connection closed without one), headers, body and time."""

    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        """Returns the body read as JSON."""
        return json.loads(self.body)

    @property
    def text(self) -> str:
        """Returns the body as text (bytes that are not UTF-8 replaced)."""
        return self.body.decode("utf-8", "replace")


def parse_reply(data: bytes, seconds: float = 0.0) -> Reply:
    """Returns the reply in ``data`` (a chunked body put together)."""
    head, found, body = data.partition(b"\r\n\r\n")
    if not found or not head.startswith(b"HTTP/"):
        return Reply(0, {}, data, seconds)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        joined, rest = b"", body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if size == 0:
                break
            joined, rest = joined + rest[:size], rest[size + 2 :]
        body = joined
    return Reply(status, headers, body, seconds)


def read_all(sock: socket.socket, seconds: float) -> bytes:
    """Reads until the server closes (a reset counts as closing); Silent if it takes over ``seconds``."""
    end, data = time.monotonic() + seconds, b""
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise Silent(f"the connection stayed open {seconds:g} s after the request ({data[:100]!r})")
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:  # reset
            return data
        if not chunk:
            return data
        data += chunk


def exchange(port: int, data: bytes, source: str = LOCAL, seconds: float = 10.0) -> Reply:
    """Sends raw bytes (a whole request that asks to close) and returns the reply."""
    started = time.monotonic()
    with connect(port, source, seconds) as sock:
        with contextlib.suppress(OSError):  # closed before it all went: the reply says why
            sock.sendall(data)
        found = read_all(sock, seconds)
    return parse_reply(found, time.monotonic() - started)


def request_bytes(
    method: str,
    path: str | bytes,
    body: bytes | None = None,
    headers: Iterable[tuple[str | bytes, str | bytes]] = (),
    close: bool = True,
) -> bytes:
    """Returns an HTTP/1.1 request as bytes (a Content-Length for any body)."""
    lines = [_bytes(method) + b" " + _bytes(path) + b" HTTP/1.1", b"Host: 127.0.0.1"]
    if close:
        lines.append(b"Connection: close")
    lines += [_bytes(name) + b": " + _bytes(value) for name, value in headers]
    if body is not None:
        lines.append(b"Content-Length: " + str(len(body)).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")


def request(
    port: int,
    method: str,
    path: str | bytes,
    body: bytes | None = None,
    headers: Iterable[tuple[str | bytes, str | bytes]] = (),
    source: str = LOCAL,
    seconds: float = 10.0,
) -> Reply:
    """Sends one request on a connection of its own and returns the reply."""
    return exchange(port, request_bytes(method, path, body, headers), source, seconds)


def bearer(token: str | bytes) -> list[tuple[str | bytes, str | bytes]]:
    """Returns the Authorization header for a token."""
    return [("authorization", b"Bearer " + _bytes(token))]


# --------------------------------------------------------------------- WebSockets
def frame_of(payload: bytes, opcode: int = TEXT, fin: bool = True) -> bytes:
    """Returns a masked frame (as a browser sends it) of any payload, valid UTF-8 or not."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", size)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", size)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Wire:
    """A WebSocket connection by hand: any frame out, every frame in, and how it ended.

    ``leave`` says how it goes when its ``with`` block ends: ``close`` (a close frame, then the socket
    closed at once, as a tab closed), ``handshake`` (a close frame, then the server's awaited), ``drop``
    (the socket closed without a close frame) or ``reset`` (a TCP reset, as a client that vanishes).
    """

    def __init__(
        self, port: int, path: str, source: str = LOCAL, extra: bytes = b"", seconds: float = 10.0
    ) -> None:
        self.sock = connect(port, source, seconds)
        self.close_code: int | None = None
        self.leave = "close"
        self.ended = False
        self.pending = bytearray()
        key = base64.b64encode(os.urandom(16)).decode()
        head = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        )
        try:
            self.sock.sendall(head.encode() + extra + b"\r\n")
            deadline = time.monotonic() + seconds
            while b"\r\n\r\n" not in self.pending and self._fill(deadline):
                pass
        except BaseException:
            self.sock.close()
            raise
        head_bytes, _, rest = bytes(self.pending).partition(b"\r\n\r\n")
        self.pending = bytearray(rest)
        self.reply = parse_reply(head_bytes + b"\r\n\r\n")
        if self.reply.status != 101:
            self.close_code = ABNORMAL

    def __enter__(self) -> Wire:
        return self

    def __exit__(self, *exc: object) -> None:
        self.end(self.leave)

    # ------------------------------------------------------------- out
    def send(self, payload: bytes, opcode: int = TEXT) -> None:
        """Sends one frame (a text frame's payload need not be UTF-8)."""
        self.sock.sendall(frame_of(payload, opcode))

    def send_json(self, value: Any, ascii: bool = True) -> None:
        """Sends a JSON message (a lone surrogate escaped, or with ``ascii`` off, as its raw bytes)."""
        self.send(json.dumps(value, ensure_ascii=ascii).encode("utf-8", "surrogatepass"))

    def hello(self, token: str, seconds: float = 10.0) -> dict[str, Any] | None:
        """Says hello with a token; returns the first answer (None: closed without one)."""
        self.send_json({"type": "hello", "token": token})
        return self.receive(seconds)

    def end(self, how: str = "close") -> None:
        """Ends the connection: ``close``, ``handshake``, ``drop`` or ``reset`` (see the class); once."""
        if self.ended:
            return
        self.ended = True
        if how == "reset":
            with contextlib.suppress(OSError):
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif how in ("close", "handshake") and self.close_code is None:
            with contextlib.suppress(OSError):
                self.send(struct.pack("!H", 1000), CLOSE)
            if how == "handshake":  # the server's close frame awaited: it has let the connection go
                with contextlib.suppress(OSError, AssertionError, ValueError):
                    while self.receive(ANSWER) is not None:
                        pass
        self.sock.close()

    # ------------------------------------------------------------- in
    def receive(self, seconds: float = 10.0) -> dict[str, Any] | None:
        """Returns the next message (a JSON object with a type); None once the connection ended, its
        close code kept (ABNORMAL without a close frame); Silent if nothing came within ``seconds``."""
        deadline = time.monotonic() + seconds
        parts: list[bytes] = []
        kind = TEXT
        while self.close_code is None:
            found = self._next_frame(deadline)
            if found is None:
                self.close_code = ABNORMAL
                break
            opcode, fin, payload = found
            if opcode == CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                break
            if opcode == PING:
                with contextlib.suppress(OSError):
                    self.send(payload, PONG)
                continue
            if opcode == PONG:
                continue
            kind = opcode or kind
            parts.append(payload)
            if not fin:
                continue
            assert kind == TEXT, f"the server sent a frame of opcode {kind}"
            message = json.loads(b"".join(parts).decode())
            assert isinstance(message, dict) and isinstance(message.get("type"), str), (
                f"not a message: {message}"
            )
            return message
        return None

    def until_pong(self, seconds: float = 10.0) -> list[dict[str, Any]]:
        """Sends a ping; returns every message that came before its pong (the server answers a
        connection's messages in order)."""
        self.send_json({"type": "ping"})
        found: list[dict[str, Any]] = []
        while (message := self.receive(seconds)) is not None:
            if message["type"] == "pong":
                return found
            found.append(message)
        raise AssertionError(f"the server closed the connection (code {self.close_code}) before the pong")

    def drain(self) -> None:
        """Reads whatever has come without waiting (a crowd that must not fill the server's outboxes),
        keeping only how the connection ended."""
        self.sock.setblocking(False)
        try:
            while self.close_code is None:
                try:
                    chunk = self.sock.recv(1 << 20)
                except BlockingIOError:
                    break
                except OSError:
                    chunk = b""
                if not chunk:
                    self.close_code = ABNORMAL
                    break
                self.pending += chunk
                while (found := self._parse()) is not None:
                    if found[0] == CLOSE:
                        payload = found[2]
                        self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
        finally:
            self.sock.setblocking(True)

    def _next_frame(self, deadline: float) -> tuple[int, bool, bytes] | None:
        """Returns the next frame (opcode, fin, payload), None once the connection ended."""
        while (found := self._parse()) is None:
            if not self._fill(deadline):
                return None
        return found

    def _fill(self, deadline: float) -> bool:
        """Reads more; returns False once the connection ended (closed or reset)."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise Silent("no message within the time allowed")
        self.sock.settimeout(left)
        try:
            chunk = self.sock.recv(1 << 20)
        except TimeoutError:
            raise Silent("no message within the time allowed") from None
        except OSError:
            return False
        self.pending += chunk
        return bool(chunk)

    def _parse(self) -> tuple[int, bool, bytes] | None:
        """Takes one whole frame off the bytes read, if there is one."""
        data = self.pending
        if len(data) < 2:
            return None
        fin, opcode, size, at = bool(data[0] & 0x80), data[0] & 0x0F, data[1] & 0x7F, 2
        if size == 126:
            if len(data) < 4:
                return None
            size, at = struct.unpack("!H", data[2:4])[0], 4
        elif size == 127:
            if len(data) < 10:
                return None
            size, at = struct.unpack("!Q", data[2:10])[0], 10
        mask = b""
        if data[1] & 0x80:
            mask, at = bytes(data[at : at + 4]), at + 4
        if len(data) < at + size:
            return None
        payload = bytes(data[at : at + size])
        del data[: at + size]
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return opcode, fin, payload
