"""Webhook notifications: a POST of ``{"content": TEXT, "text": TEXT}`` (what Discord's and Slack's
incoming webhooks take) to the account's URL. The URL is checked when set (http or https, a host, no
credentials, at most ``MAX_URL`` characters); a delivery goes only to a public address (unless the
server allows private ones: ``Settings.notify_private_hosts``, for tests and closed networks), never
follows a redirect, waits at most ``TIMEOUT`` seconds for any one socket operation and
``pinned.DEADLINE`` (10 s) for the whole exchange, and reads at most ``MAX_ANSWER`` bytes of the
answer. The host is resolved once and the connection goes to the address checked (pinned.py): a second
DNS answer cannot point it into the server's own network."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from parlour.server.notify import pinned
from parlour.server.notify.pinned import Resolver, system_resolver

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


def body_of(text: str) -> bytes:
    """Returns the JSON a webhook receives."""
    return json.dumps({"content": text, "text": text}).encode()


def post(url: str, text: str, private: bool = False, resolver: Resolver = system_resolver) -> None:
    """Delivers one message (blocking) to the address the URL's host resolved to once (pinned.py);
    raises OSError if it did not land with a 2xx answer, or (unless ``private``) if any address of the
    host is not a public one."""
    answer = pinned.post(
        check_url(url) or "",
        body_of(text),
        {"content-type": "application/json", "user-agent": "parlour-notify"},
        private=private,
        resolver=resolver,
        timeout=TIMEOUT,
        limit=MAX_ANSWER,
    )
    if not 200 <= answer.status < 300:
        raise OSError(f"the webhook answered {answer.status}")
