"""Rate limits: token buckets per WebSocket connection, per table and per client address, and the count of
a client address's open WebSockets."""

from __future__ import annotations

import ipaddress
import json
import time
from collections import Counter, OrderedDict

from starlette.types import ASGIApp, Receive, Scope, Send

RATE = 20.0
"""Messages a second a WebSocket connection may send on average (bursts up to BURST)."""
BURST = 40.0
HTTP_RATE = 50.0
"""HTTP requests a second one client address may make on average (bursts up to HTTP_BURST: a page
and its files)."""
HTTP_BURST = 200.0
SOCKETS_PER_ADDRESS = 128
"""WebSocket connections one client address may hold open at once (a club behind one router)."""
CHAT_RATE = 1.0
"""Chat lines a second one client address may write on average (bursts up to CHAT_BURST)."""
CHAT_BURST = 10.0
TABLE_CHAT_RATE = 2.0
"""Chat lines a second one table takes on average from everyone (bursts up to TABLE_CHAT_BURST)."""
TABLE_CHAT_BURST = 30.0
ADDRESSES = 10_000
"""Client addresses remembered at once (the least recently seen are forgotten first)."""


def address_key(host: str) -> str:
    """Returns what per-address limits count a client by: its IPv4 address, or its IPv6 /64 (one host
    holds a whole /64)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Bucket:
    """A token bucket: ``rate`` a second on average, bursts up to ``burst``."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        """Returns whether one more message is allowed now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """A token bucket per key (a client address), the least recently seen forgotten past ADDRESSES."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, key: str) -> bool:
        """Takes a token from the key's bucket; returns whether there was one."""
        bucket = self.buckets.pop(key, None) or Bucket(self.rate, self.burst)
        self.buckets[key] = bucket  # most recently seen last
        while len(self.buckets) > ADDRESSES:
            self.buckets.popitem(last=False)
        return bucket.take()


class Crowd:
    """Open connections per client address, at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    def enter(self, address: str) -> bool:
        """Counts a new connection from ``address``; False (and not counted) beyond the limit."""
        if self.open[address] >= self.limit:
            return False
        self.open[address] += 1
        return True

    def leave(self, address: str) -> None:
        """Forgets a connection that ended."""
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


class HttpRateLimit:
    """ASGI middleware: refuses an address's HTTP requests and WebSocket connects beyond its rate
    with 429 and a JSON error (a connection's messages have their own per-connection limit)."""

    def __init__(self, app: ASGIApp, rate: float = HTTP_RATE, burst: float = HTTP_BURST) -> None:
        self.app = app
        self.buckets = Buckets(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Passes the request on, or answers 429 (a WebSocket connect beyond the rate: accepted, then
        closed with 4429, so the page's script sees why)."""
        if scope["type"] not in ("http", "websocket") or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 4429, "reason": "too many connections"})
            return
        body = json.dumps({"type": "error", "status": 429, "error": "too many requests: slow down"}).encode()
        headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json"), (b"retry-after", b"1")]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _allowed(self, scope: Scope) -> bool:
        """Takes a token from the client address's bucket."""
        client = scope.get("client")
        return self.buckets.take(address_key(str(client[0])) if client else "unknown")
