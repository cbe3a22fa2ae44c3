"""Rate limits: a token bucket per WebSocket connection, and one per client address for HTTP requests."""

from __future__ import annotations

import json
import time
from collections import OrderedDict

from starlette.types import ASGIApp, Receive, Scope, Send

RATE = 20.0
"""Messages a second a WebSocket connection may send on average (bursts up to BURST)."""
BURST = 40.0
HTTP_RATE = 50.0
"""HTTP requests a second one client address may make on average (bursts up to HTTP_BURST: a page
and its files)."""
HTTP_BURST = 200.0
ADDRESSES = 10_000
"""Client addresses remembered at once (the least recently seen are forgotten first)."""


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


class HttpRateLimit:
    """ASGI middleware: refuses an address's HTTP requests and WebSocket connects beyond its rate
    with 429 and a JSON error (a connection's messages have their own per-connection limit)."""

    def __init__(self, app: ASGIApp, rate: float = HTTP_RATE, burst: float = HTTP_BURST) -> None:
        self.app, self.rate, self.burst = app, rate, burst
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Passes the request on, or answers 429 (a WebSocket connect beyond the rate: closed, 4429)."""
        if scope["type"] not in ("http", "websocket") or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4429})
            return
        body = json.dumps({"type": "error", "status": 429, "error": "too many requests: slow down"}).encode()
        headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json"), (b"retry-after", b"1")]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _allowed(self, scope: Scope) -> bool:
        """Takes a token from the client address's bucket."""
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        bucket = self.buckets.pop(address, None) or Bucket(self.rate, self.burst)
        self.buckets[address] = bucket  # most recently seen last
        while len(self.buckets) > ADDRESSES:
            self.buckets.popitem(last=False)
        return bucket.take()
