"""Webhook notifications: a POST of ``{"content": TEXT, "text": TEXT}`` (what Discord's and Slack's
incoming webhooks take) to the account's URL. The URL is checked when set (http or https, a host, no
credentials, at most ``MAX_URL`` characters); a delivery goes only to a public address (unless the
server allows private ones: ``Settings.notify_private_hosts``, for tests and closed networks), never
follows a redirect, waits at most ``TIMEOUT`` seconds and reads at most ``MAX_ANSWER`` bytes of the
answer. (The address is checked, then resolved again by the connection: a DNS answer that changes in
between is not caught.)"""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

MAX_URL = 500
TIMEOUT = 5.0
MAX_ANSWER = 4096


class WebhookError(ValueError):
    """A webhook URL that is not one (its message is the one-line refusal)."""


def check_url(value: object) -> str | None:
    """Returns the URL to store (None for none: null or empty), or raises WebhookError saying why not."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_URL or not value.isascii() or value != value.strip():
        raise WebhookError(f"a webhook URL is an ASCII text of at most {MAX_URL} characters")
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        raise WebhookError("the webhook URL is not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookError("a webhook URL starts with http:// or https:// and names a host")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise WebhookError("a webhook URL may not hold credentials")
    if port == 0 or any(c in value for c in " \t\r\n\\"):
        raise WebhookError("the webhook URL is not a URL")
    return value


def check_public(url: str) -> None:
    """Raises OSError if the URL's host resolves to a loopback, private, link-local or otherwise
    non-public address (a webhook or a push endpoint must not reach into the server's own network)."""
    host = urlsplit(url).hostname or ""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise OSError(f"the host {host[:100]!r} is not found") from None
    for *_, address in found:
        ip = ipaddress.ip_address(str(address[0]).split("%")[0])
        if not ip.is_global:
            raise OSError(f"the host {host[:100]!r} is not a public address")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Refuses every redirect (the answer's 3xx becomes an HTTPError)."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect, urllib.request.ProxyHandler({}))


def body_of(text: str) -> bytes:
    """Returns the JSON a webhook receives."""
    return json.dumps({"content": text, "text": text}).encode()


def post(url: str, text: str, private: bool = False) -> None:
    """Delivers one message (blocking); raises OSError (urllib's errors among them) if it did not land
    with a 2xx answer, or (unless ``private``) if the host is not a public address."""
    if not private:
        check_public(url)
    request = urllib.request.Request(
        check_url(url) or "",
        data=body_of(text),
        method="POST",
        headers={"content-type": "application/json", "user-agent": "parlour-notify"},
    )
    with _OPENER.open(request, timeout=TIMEOUT) as answer:
        answer.read(MAX_ANSWER)
        if not 200 <= answer.status < 300:
            raise urllib.error.HTTPError(url, answer.status, "not delivered", answer.headers, None)
