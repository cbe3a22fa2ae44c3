"""A POST to a URL a stranger chose (a webhook, a push endpoint), safe from DNS rebinding: the host is
resolved once, every address it resolves to must be public (unless private addresses are allowed:
tests, closed networks), and the connection goes to the first address checked, with the Host header and
TLS's server name (SNI and the certificate's check) still the URL's host, so a second DNS answer cannot
send it elsewhere. No proxy, no redirect followed, at most ``limit`` bytes of the answer, a timeout on
each socket operation and ``DEADLINE`` for the whole exchange (connect, TLS, send, read): at the
deadline a timer shuts the socket down, so a receiver trickling a byte at a time cannot hold it longer."""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

TIMEOUT = 5.0
"""The longest wait for any one socket operation (seconds)."""
DEADLINE = 10.0
"""The longest one exchange takes, whatever the receiver does (seconds)."""
MAX_ANSWER = 4096
Resolver = Callable[[str, int], list[str]]
"""Returns the addresses a host resolves to (the system's DNS, or a test's own answers)."""
IP = ipaddress.IPv4Address | ipaddress.IPv6Address
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def system_resolver(host: str, port: int) -> list[str]:
    """Returns the addresses the system's resolver gives for the host, in its order, each once."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(address[0]) for *_, address in found))


def is_public(ip: IP) -> bool:
    """Returns whether an address is a public unicast one: not private, loopback, link-local, multicast,
    reserved, unspecified or shared, nor an IPv6 address carrying such an IPv4 one (mapped, NAT64)."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF) if ip in NAT64 else None)
        if embedded is not None:
            return is_public(embedded)
        if ip.is_site_local:
            return False
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def resolve(host: str, port: int, resolver: Resolver, private: bool) -> str:
    """Returns the address to connect to (the first of the host's); raises OSError if the host is not
    found or (unless ``private``) any of its addresses is not public."""
    try:
        found = resolver(host, port)
    except (OSError, UnicodeError):
        found = []
    try:
        addresses = [ipaddress.ip_address(str(a).split("%")[0]) for a in found]
    except ValueError:
        addresses = []
    if not addresses:
        raise OSError(f"the host {host[:100]!r} is not found")
    if not private and not all(is_public(ip) for ip in addresses):
        raise OSError(f"the host {host[:100]!r} is not a public address")
    return str(addresses[0])


class Deadline:
    """An exchange's overall deadline: ``cut`` (a timer's, at the deadline) shuts the socket down, which
    ends any connect, send or read under way; a socket held after the cut is shut at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.passed = False
        self._socket: socket.socket | None = None
        self._lock = threading.Lock()

    def left(self) -> float:
        """Returns the seconds left (a little at least, so a timeout is never zero: non-blocking)."""
        return max(0.001, self.at - time.monotonic())

    def hold(self, sock: socket.socket) -> None:
        """Keeps the exchange's socket to shut at the deadline; raises OSError if it has passed."""
        with self._lock:
            if self.passed:
                sock.close()
                raise self.error()
            self._socket = sock

    def cut(self) -> None:
        """Ends the exchange: the socket is shut down under whatever reads or writes it."""
        with self._lock:
            self.passed = True
            if self._socket is not None:
                with contextlib.suppress(OSError):  # the plain socket's shutdown, under a TLS layer too
                    socket.socket.shutdown(self._socket, socket.SHUT_RDWR)

    def error(self) -> OSError:
        """Returns the error an exchange past its deadline raises."""
        return TimeoutError(f"no complete answer within {self.seconds:g} seconds")


class _Connection(http.client.HTTPConnection):
    """HTTP to the checked address; the Host header is the URL's host."""

    def __init__(self, host: str, port: int, address: str, timeout: float, deadline: Deadline) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address, self.deadline, self.wait = address, deadline, timeout

    def connect(self) -> None:
        plain = socket.create_connection((self.address, self.port), min(self.wait, self.deadline.left()))
        self.deadline.hold(plain)
        self.sock = plain


class _TlsConnection(http.client.HTTPSConnection):
    """HTTPS to the checked address; the Host header, SNI and the certificate's name are the URL's host."""

    def __init__(
        self,
        host: str,
        port: int,
        address: str,
        timeout: float,
        deadline: Deadline,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.tls = tls or ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address, self.deadline, self.wait = address, deadline, timeout

    def connect(self) -> None:
        plain = socket.create_connection((self.address, self.port), min(self.wait, self.deadline.left()))
        self.deadline.hold(plain)  # the handshake, too, ends at the deadline
        self.sock = self.tls.wrap_socket(plain, server_hostname=self.host)


@dataclass(frozen=True)
class Answer:
    """What the server answered: the status, its reason, the headers and the start of the body."""

    status: int
    reason: str
    headers: dict[str, str]
    body: bytes


def post(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    private: bool = False,
    resolver: Resolver = system_resolver,
    timeout: float = TIMEOUT,
    limit: int = MAX_ANSWER,
    tls: ssl.SSLContext | None = None,
    deadline: float | None = None,
) -> Answer:
    """POSTs ``body`` to ``url`` (http or https) through the checked address (the module); ``tls`` is
    the certificates trusted (the system's by default; a test gives its own); raises OSError if the host
    is refused or unreachable or the exchange fails (a certificate not for the URL's host among them) or
    takes longer than ``deadline`` seconds (``DEADLINE`` unless given)."""
    parts = urlsplit(url)
    host = parts.hostname
    if parts.scheme not in ("http", "https") or not host:
        raise OSError("not an http(s) URL with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise OSError("not a port") from None
    address = resolve(host, port, resolver, private)
    limits = Deadline(DEADLINE if deadline is None else deadline)
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = _TlsConnection(host, port, address, timeout, limits, tls)
    else:
        connection = _Connection(host, port, address, timeout, limits)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    timer = threading.Timer(limits.left(), limits.cut)
    timer.daemon = True
    timer.start()
    try:
        connection.request("POST", target, body=body, headers=dict(headers))
        answer = connection.getresponse()
        found = Answer(answer.status, answer.reason, dict(answer.getheaders()), answer.read(limit))
    except http.client.HTTPException as err:
        if limits.passed:
            raise limits.error() from None
        raise OSError(f"a bad answer: {type(err).__name__}") from None
    except OSError:
        if limits.passed:
            raise limits.error() from None
        raise
    finally:
        timer.cancel()
        connection.close()
    if limits.passed:  # an answer cut short by the deadline is no answer
        raise limits.error()
    return found
