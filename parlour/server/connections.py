"""Connection limits uvicorn lacks: header and body timeouts, per-address and total caps, quiet logs.

uvicorn closes an idle keep-alive connection but never one that is slow to send its request, so a
client that opens connections and sends a few bytes on each holds them for ever, and enough of them
use up the process's file descriptors (then every accept() fails, and asyncio logs each failure with
a traceback). The protocol classes here, given to ``uvicorn.run(http=..., ws=...)`` by ``parlour
serve``, close a connection whose request headers or body are late, turn away a connection beyond an
address's cap or the process's, and log each kind of trouble in one line at most once a minute
(docs/server.md, "Hostile connections and a reverse proxy").
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from parlour.server.limits import address_key

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers (from connecting, or from the last response)."""
BODY_TIMEOUT = 20.0
"""Seconds a client has to send a request's body once its headers are in."""
KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open (uvicorn's own timer)."""
PER_ADDRESS = 64
"""Connections (HTTP and WebSocket) one client address may hold open at once."""
MOST_CONNECTIONS = 4096
"""Connections the process holds at once however many file descriptors it may open."""
RESERVE = 64
"""File descriptors kept for the database, the bots' pipes, logs and the like."""
BACKLOG = 128
"""The listen queue, and so how many connections asyncio accepts in one pass of its loop."""
MAX_HEADERS = 16 * 1024
"""The most bytes of request line and headers h11 buffers (more: 400)."""
LOG_INTERVAL = 60.0
"""Seconds between two log lines about the same address (or the same trouble)."""
LOG_KEYS = 10_000
"""Addresses whose last log line is remembered (the least recently logged are forgotten first)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
logger = logging.getLogger("uvicorn.error")


STALL_SECONDS = 30.0
"""How long a WebSocket's unsent bytes may wait without the client reading any, or a closing socket
wait for its goodbye, before the connection is cut (a client that stops reading pins kernel memory)."""


@dataclass(frozen=True)
class Limits:
    """What a connection may take: timeouts, caps per address and in all, the listen backlog."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    per_address: int = PER_ADDRESS
    total: int = MOST_CONNECTIONS
    backlog: int = BACKLOG
    trusted: tuple[Network, ...] = ()
    """Proxies (``--forwarded-allow-ips``): exempt from the per-address cap, not from the total."""
    stall_timeout: float = STALL_SECONDS

    @property
    def concurrency(self) -> int:
        """uvicorn's ``limit_concurrency``: above the caps, a backstop that the caps keep unreached."""
        return self.total + 3 * self.backlog


def budget(soft_limit: int) -> tuple[int, int]:
    """Returns the connections a process allowed ``soft_limit`` open files may hold, and its backlog.

    asyncio accepts up to a backlog of connections a pass and closes a refused one two passes later,
    so three backlogs of sockets may be open beyond the cap: they come out of the budget first, then
    half of what remains goes to connections (each may open a file or a database handle of its own).
    """
    if soft_limit < 0:  # RLIM_INFINITY
        return MOST_CONNECTIONS, BACKLOG
    backlog = max(8, min(BACKLOG, soft_limit // 16))
    return max(1, min(MOST_CONNECTIONS, (soft_limit - RESERVE - 3 * backlog) // 2)), backlog


def raise_open_files() -> int:
    """Raises the soft limit of open files to the hard limit; returns the soft limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or hard > soft):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an unlimited hard limit above the kernel's nr_open
            return soft
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def parse_networks(text: str) -> tuple[Network, ...]:
    """Returns the addresses or networks of a comma-separated list (``*``: every address; empty: none)."""
    found: list[Network] = []
    for item in (part.strip() for part in text.split(",") if part.strip()):
        if item == "*":
            found += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
            continue
        try:
            found.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address, a network (10.0.0.0/8) or *") from None
    return tuple(found)


class QuietLog:
    """Logs a line for a key at most once an interval, telling how many like it were held back."""

    def __init__(self, interval: float = LOG_INTERVAL, keys: int = LOG_KEYS) -> None:
        self.interval, self.keys = interval, keys
        self.seen: OrderedDict[str, tuple[float, int]] = OrderedDict()

    def admit(self, key: str) -> int | None:
        """Returns None to hold a line for ``key`` back (one went less than an interval ago), else
        how many were held back since the last one."""
        now = time.monotonic()
        at, held = self.seen.pop(key, (-self.interval, 0))
        if now - at < self.interval:
            self.seen[key] = (at, held + 1)
            return None
        self.seen[key] = (now, 0)
        while len(self.seen) > self.keys:
            self.seen.popitem(last=False)
        return held

    def log(self, level: int, key: str, line: str) -> None:
        """Logs ``line`` unless a line for ``key`` went less than an interval ago."""
        held = self.admit(key)
        if held is not None:
            logger.log(level, "%s%s", line, held_back(held))


def held_back(count: int) -> str:
    """Returns the note on lines held back, if any."""
    return f" ({count} more like it held back)" if count else ""


class Gate:
    """The connections open now, by address, and the ones waiting for a request (evicted first)."""

    def __init__(self, limits: Limits, log: QuietLog | None = None) -> None:
        self.limits, self.log = limits, log or QuietLog()
        self.open: dict[object, str] = {}
        self.by_address: Counter[str] = Counter()
        self.waiting: OrderedDict[object, Callable[[], None]] = OrderedDict()

    def admit(self, key: object, host: str) -> bool:
        """Counts a new connection in, evicting the longest waiting one when the process is full;
        returns False (and logs) when the address is at its cap or nothing can be evicted."""
        address = address_key(host)
        if self.by_address[address] >= self.limits.per_address and not self.trusts(host):
            self.log.log(
                logging.WARNING,
                f"address {address}",
                f"turned away connections from {address}: {self.limits.per_address} open from that "
                "address (--max-connections-per-address)",
            )
            return False
        if len(self.open) >= self.limits.total:
            if not self.waiting:
                self.log.log(
                    logging.WARNING,
                    "full",
                    f"turned away connections: {self.limits.total} open, every one busy "
                    "(the cap follows the open-files limit, ulimit -n)",
                )
                return False
            self.evict_oldest()
        self.open[key] = address
        self.by_address[address] += 1
        return True

    def evict_oldest(self) -> None:
        """Closes the connection that has waited longest for a request."""
        key, close = self.waiting.popitem(last=False)
        self.release(key)
        close()
        self.log.log(
            logging.WARNING,
            "evicted",
            f"closed connections waiting for a request: {self.limits.total} open at once "
            "(the cap follows the open-files limit, ulimit -n)",
        )

    def wait(self, key: object, close: Callable[[], None] | None) -> None:
        """Marks a connection as waiting for a request (``close`` evicts it) or, with None, as busy."""
        if close is None:
            self.waiting.pop(key, None)
        elif key in self.open and key not in self.waiting:
            self.waiting[key] = close

    def release(self, key: object) -> None:
        """Counts a connection out (again: nothing)."""
        self.waiting.pop(key, None)
        address = self.open.pop(key, None)
        if address is not None:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]

    def trusts(self, host: str) -> bool:
        """Returns whether ``host`` is a trusted proxy."""
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in network for network in self.limits.trusted)


class GuardedHttp(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers and body, behind a Gate."""

    gate: ClassVar[Gate]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.phase: str | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Counts the connection in, or closes it at once when its address or the process is full."""
        super().connection_made(transport)
        if not self.gate.admit(transport, self.client[0] if self.client else "unknown"):
            transport.abort()
            return
        self.watch()

    def connection_lost(self, exc: Exception | None) -> None:
        """Counts the connection out."""
        self.set_phase(None)
        if not self.upgraded:
            self.gate.release(self.transport)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        """Handles what the client sent, then sets the deadline of the part of a request now due."""
        super().handle_events()
        self.watch()

    def on_response_complete(self) -> None:
        """After a response, the next request's headers are due (and the keep-alive timer runs)."""
        super().on_response_complete()
        self.watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """Hands the connection to the WebSocket protocol, which counts it out when it closes."""
        self.set_phase(None)
        self.upgraded = True
        self.gate.wait(self.transport, None)
        super().handle_websocket_upgrade(event)

    def watch(self) -> None:
        """Sets the phase from h11's state: waiting for headers, for a body, or neither."""
        if self.upgraded or self.transport.is_closing():
            self.set_phase(None)
            return
        state = self.conn.their_state
        self.set_phase("headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None)

    def set_phase(self, phase: str | None) -> None:
        """Starts the deadline of a new phase (a phase going on keeps its deadline)."""
        if phase == self.phase:
            return
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.phase = phase
        if self.transport is not None and not self.upgraded:
            self.gate.wait(self.transport, self.evict if phase == "headers" else None)
        if phase == "headers":
            self.deadline = self.loop.call_later(self.gate.limits.header_timeout, self.headers_late)
        elif phase == "body":
            self.deadline = self.loop.call_later(self.gate.limits.body_timeout, self.body_late)

    def evict(self) -> None:
        """Closes the connection, which is waiting for a request (the process is full)."""
        self.transport.abort()

    def headers_late(self) -> None:
        """Closes a connection whose request headers did not all come in time."""
        self.deadline = None
        self.log_late("request headers", self.gate.limits.header_timeout)
        self.transport.abort()

    def body_late(self) -> None:
        """Answers 408 to a request whose body did not all come in time (unless answered) and closes."""
        self.deadline = None
        self.log_late("request body", self.gate.limits.body_timeout)
        cycle = self.cycle
        if cycle is not None and not cycle.response_started and self.conn.our_state is h11.SEND_RESPONSE:
            cycle.response_started = True
            headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
            reply = h11.Response(status_code=408, headers=headers, reason=b"Request Timeout")
            self.transport.write(self.conn.send(reply) or b"")
            body = b"the request body came too slowly\n"
            self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
            self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        if cycle is not None:
            cycle.disconnected = True  # the application's receive() gets http.disconnect at once
            cycle.message_event.set()
        self.transport.close()

    def log_late(self, part: str, seconds: float) -> None:
        """Logs (at info level, once a minute an address) a connection closed for a late part."""
        host = self.client[0] if self.client else "unknown"
        line = f"closed connections from {host} whose {part} took over {seconds:g} s"
        self.gate.log.log(logging.INFO, f"late {address_key(host)}", line)


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that counts its connection out of the Gate when it closes, and cuts
    one whose client stopped reading (its replies unread, or its close never finished) for STALL_SECONDS."""

    gate: ClassVar[Gate]
    stall: ClassVar[float] = STALL_SECONDS

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Starts watching the connection."""
        super().connection_made(transport)
        self.stalled_since: float | None = None
        self.watchdog = self.loop.call_later(self.stall / 3, self.check_stall)

    def check_stall(self) -> None:
        """Cuts the connection if nothing it owes the client has left for STALL_SECONDS."""
        transport = self.transport
        stuck = transport.is_closing() or transport.get_write_buffer_size() > 0
        now = self.loop.time()
        if not stuck:
            self.stalled_since = None
        elif self.stalled_since is None:
            self.stalled_since = now
        elif now - self.stalled_since >= self.stall:
            transport.abort()
            return
        self.watchdog = self.loop.call_later(self.stall / 3, self.check_stall)

    def connection_lost(self, exc: Exception | None) -> None:
        """Counts the connection out."""
        self.watchdog.cancel()
        self.gate.release(self.transport)
        super().connection_lost(exc)


def guarded_protocols(limits: Limits) -> tuple[type[GuardedHttp], type[GuardedWebSocket]]:
    """Returns the HTTP and WebSocket protocol classes for ``uvicorn.run``, sharing one new Gate."""
    shared = Gate(limits)

    class Http(GuardedHttp):
        gate = shared

    class WebSocket(GuardedWebSocket):
        gate = shared
        stall = limits.stall_timeout

    return Http, WebSocket


CLIENT_MESSAGES = (
    "Invalid HTTP request received.",
    "Unsupported upgrade request.",
    "Exceeded concurrency limit.",
    "Invalid UTF-8 sequence received from client.",
    "socket.send() raised exception.",
)
"""uvicorn's and asyncio's log lines that any client can cause as often as it likes (a text frame that
is not UTF-8, closed with 1007; a write to a socket its client reset, before the server let it go)."""
QUIET_LOGGERS = ("uvicorn.error", "asyncio")
"""The loggers whose client-caused lines QuietFilter holds back."""


class QuietFilter(logging.Filter):
    """Lets each of uvicorn's client-caused log lines through at most once an interval."""

    def __init__(self, log: QuietLog | None = None) -> None:
        super().__init__()
        self.quiet = log or QuietLog()

    def filter(self, record: logging.LogRecord) -> bool:
        """Holds back a client-caused line logged less than an interval ago."""
        message = record.getMessage()
        if message not in CLIENT_MESSAGES:
            return True
        held = self.quiet.admit(message)
        if held:
            record.msg, record.args = message + held_back(held), ()
        record.exc_info, record.exc_text = None, None  # one line: the client's fault has no traceback
        return held is not None


ACCEPT_FAILED = "socket.accept() out of system resource"


def event_loop() -> asyncio.AbstractEventLoop:
    """uvicorn's loop factory (``loop="parlour.server.connections:event_loop"``): asyncio's loop,
    which logs its "accept() out of system resource" errors in one line once a minute."""
    quiet = QuietLog()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        if context.get("message") != ACCEPT_FAILED:
            loop.default_exception_handler(context)
            return
        quiet.log(logging.ERROR, "accept", f"{ACCEPT_FAILED}: {context.get('exception')}")

    loop = asyncio.SelectorEventLoop()
    loop.set_exception_handler(handle)
    return loop
