"""A WebSocket client by hand, over a plain socket, that can stop or vanish at any step of the handshake."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct

STEPS = ("connected", "request line", "headers", "upgraded", "half a hello", "hello", "first view")
"""Where a ghost vanishes: after each step of a connection's handshake."""


def frame(text: str) -> bytes:
    """Returns a masked text frame (as a browser sends it)."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(data) < 126:
        head += bytes([0x80 | len(data)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(data))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def upgrade_request(port: int, table: str) -> bytes:
    """Returns the HTTP request that opens a WebSocket to a table."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def reset(sock: socket.socket) -> None:
    """Closes a socket with a TCP reset (no goodbye), as a client that vanishes."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def ghost(port: int, table: str, token: str, step: str) -> None:
    """Opens a WebSocket to a table, goes as far as ``step`` of STEPS, then resets the connection."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        _handshake(sock, port, table, token, step)
    finally:
        reset(sock)


def _handshake(sock: socket.socket, port: int, table: str, token: str, step: str) -> None:
    """Goes through the handshake up to ``step``."""
    if step == "connected":
        return
    request = upgrade_request(port, table)
    if step == "request line":
        sock.sendall(request[:12])
        return
    sock.sendall(request)
    if step == "headers":
        return
    _read_until(sock, b"\r\n\r\n")
    if step == "upgraded":
        return
    hello = frame(json.dumps({"type": "hello", "token": token}))
    if step == "half a hello":
        sock.sendall(hello[: len(hello) // 2])
        return
    sock.sendall(hello)
    if step == "first view":
        _read_until(sock, b"}")


def _read_until(sock: socket.socket, end: bytes) -> bytes:
    """Reads until ``end`` has arrived (or the server closed)."""
    seen = b""
    while end not in seen:
        chunk = sock.recv(65536)
        if not chunk:
            break
        seen += chunk
    return seen
