"""Web Push notifications (``pywebpush``): the server's VAPID keys (made on first start, kept in the
database), the subscriptions browsers send (``POST /api/me/push``) and one delivery to each of an
account's subscriptions (RFC 8291's aes128gcm body, a VAPID ``Authorization`` header), sent through
pinned.py (the endpoint's host resolved once, every address public, the connection to the address
checked). The message is the notification's one line and the table's page: nothing from the table
(docs/security.md)."""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy.exc import IntegrityError

from parlour.server.notify import pinned
from parlour.server.notify.outbox import PushSubscriptionRow, VapidRow
from parlour.server.notify.pinned import Resolver, system_resolver
from parlour.server.storage import Store

TIMEOUT = 5.0
ALL_DEADLINE = 30.0
"""The longest one message's delivery to all of an account's subscriptions takes (seconds; each
exchange at most pinned.DEADLINE): the subscriptions not reached by then fail this try."""
TTL = 86_400
"""How long a push service keeps an undelivered message (seconds)."""
MAX_ENDPOINT = 500
MAX_SUBSCRIPTIONS = 10
"""Browsers one account may subscribe (the oldest go)."""
GONE = (404, 410)
"""A push service's answers for a subscription that no longer exists (it is then forgotten)."""


MAX_CONTACT = 200
DEFAULT_CONTACT = "mailto:parlour@localhost"
"""The VAPID ``sub`` claim when nothing better is known (``parlour serve --push-contact``, docs/server.md):
some push services refuse a localhost address."""


class PushError(ValueError):
    """A subscription or a contact that is not one (its message is the one-line refusal)."""


def check_contact(value: str) -> str:
    """Returns a VAPID ``sub`` claim (RFC 8292: a ``mailto:`` address or an ``https:`` URL, where a push
    service may reach the server's operator), or raises PushError saying why not."""
    wrong = PushError(
        f"a push contact is mailto:ADDRESS or an https:// URL of at most {MAX_CONTACT} characters"
    )
    if not value.isascii() or not value.isprintable() or " " in value or not 0 < len(value) <= MAX_CONTACT:
        raise wrong
    if value.startswith("mailto:"):
        local, at, domain = value.removeprefix("mailto:").partition("@")
        if not (local and at and domain) or any(c in local + domain for c in '@<>,;:?&"\\/'):
            raise wrong
        return value
    try:
        parts = urlsplit(value)
        _ = parts.port  # a bad port raises
    except ValueError:
        raise wrong from None
    if parts.scheme != "https" or not parts.hostname or "@" in parts.netloc or "\\" in value:
        raise wrong
    return value


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_keys(store: Store) -> tuple[str, str]:
    """Returns the server's VAPID private key (PEM) and public key (browsers' base64url), made and
    stored on first use; of several servers starting at once, the first one's key is kept."""
    with store.session() as s:
        row = s.get(VapidRow, 1)
        if row is not None:
            return row.private_pem, row.public_key
    made = Vapid()
    made.generate_keys()
    public = made.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    pem = made.private_pem().decode()
    try:
        with store.session() as s:
            s.add(VapidRow(id=1, private_pem=pem, public_key=_b64(public)))
    except IntegrityError:
        pass  # another server made them first: theirs are read below
    with store.session() as s:
        kept = s.get(VapidRow, 1)
        assert kept is not None
        return kept.private_pem, kept.public_key


def check_subscription(body: object) -> tuple[str, str, str]:
    """Returns a PushSubscription's (``subscription.toJSON()``) endpoint and keys, or raises PushError."""
    if not isinstance(body, dict):
        raise PushError('a subscription is {"endpoint": URL, "keys": {"p256dh": KEY, "auth": KEY}}')
    endpoint, keys = body.get("endpoint"), body.get("keys")
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= MAX_ENDPOINT or not endpoint.isascii():
        raise PushError(f"a subscription's endpoint is a URL of at most {MAX_ENDPOINT} characters")
    parts = urlsplit(endpoint)
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.username or parts.password:
        raise PushError("a subscription's endpoint is an http(s) URL without credentials")
    if not isinstance(keys, dict):
        raise PushError("a subscription needs its keys")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    for key, most in ((p256dh, 200), (auth, 100)):
        if not isinstance(key, str) or not 0 < len(key) <= most or not _base64url(key):
            raise PushError("a subscription's keys are base64url texts")
    assert isinstance(p256dh, str) and isinstance(auth, str)
    return endpoint, p256dh, auth


def _base64url(text: str) -> bool:
    return text.isascii() and all(c.isalnum() or c in "-_=" for c in text)


def subscribe(store: Store, account_id: int, endpoint: str, p256dh: str, auth: str, now: float) -> None:
    """Stores a subscription for the account (an endpoint already known moves to it); an account keeps
    its newest ``MAX_SUBSCRIPTIONS``."""
    with store.session() as s:
        for old in s.query(PushSubscriptionRow).filter(PushSubscriptionRow.endpoint == endpoint):
            s.delete(old)
        s.flush()
        s.add(
            PushSubscriptionRow(
                account_id=account_id, endpoint=endpoint, p256dh=p256dh, auth=auth, created=now
            )
        )
        s.flush()
        rows = (
            s.query(PushSubscriptionRow)
            .filter(PushSubscriptionRow.account_id == account_id)
            .order_by(PushSubscriptionRow.created.desc(), PushSubscriptionRow.id.desc())
            .all()
        )
        for old in rows[MAX_SUBSCRIPTIONS:]:
            s.delete(old)


def unsubscribe_all(store: Store, account_id: int) -> None:
    """Forgets every subscription of the account."""
    with store.session() as s:
        s.query(PushSubscriptionRow).filter(PushSubscriptionRow.account_id == account_id).delete()


def subscriptions(store: Store, account_id: int) -> list[tuple[str, str, str]]:
    """Returns the account's subscriptions (endpoint, p256dh, auth)."""
    with store.session() as s:
        rows = s.query(PushSubscriptionRow).filter(PushSubscriptionRow.account_id == account_id).all()
        return [(r.endpoint, r.p256dh, r.auth) for r in rows]


def message_of(payload: dict[str, object], base: str) -> str:
    """Returns the JSON the service worker shows (static/sw.js): the line and the table's page."""
    return json.dumps(
        {"title": "Parlour", "body": payload.get("text"), "url": f"{base}/t/{payload.get('table')}"}
    )


class PinnedSession:
    """What pywebpush posts through (its ``requests_session``): pinned.py's POST (no proxy, no redirect,
    the host resolved once and checked), its answer as a ``requests.Response``."""

    def __init__(self, private: bool, resolver: Resolver, until: float | None = None) -> None:
        self.private, self.resolver = private, resolver
        self.until = time.monotonic() + ALL_DEADLINE if until is None else until
        """The monotonic time the delivery gives up at (its exchange ends then at the latest)."""

    def post(
        self,
        url: str,
        data: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = TIMEOUT,
    ) -> requests.Response:
        """Sends one push message; raises OSError where pinned.post does, or if no time is left."""
        left = self.until - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no time left of the delivery's {ALL_DEADLINE:g} seconds")
        answer = pinned.post(
            url,
            data or b"",
            headers or {},
            self.private,
            self.resolver,
            min(timeout, TIMEOUT),
            deadline=min(pinned.DEADLINE, left),
        )
        response = requests.Response()
        response.status_code, response.reason, response.url = answer.status, answer.reason, url
        response._content = answer.body
        return response


def send(
    store: Store,
    account_id: int,
    payload: dict[str, object],
    base: str,
    subject: str,
    private: bool = False,
    resolver: Resolver = system_resolver,
) -> int:
    """Delivers the message to each of the account's subscriptions (blocking); a subscription its push
    service says is gone is forgotten. Returns how many took it; raises OSError if none did and one
    failed otherwise (a host that is not public among them, unless ``private``)."""
    private_pem, _ = vapid_keys(store)
    key = Vapid.from_pem(private_pem.encode())
    data = message_of(payload, base)
    delivered, failure = 0, None
    until = time.monotonic() + ALL_DEADLINE
    for endpoint, p256dh, auth in subscriptions(store, account_id):
        # a subscription names any URL: not the server's network
        session = PinnedSession(private, resolver, until)
        try:
            webpush(
                {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
                data=data,
                vapid_private_key=key,
                vapid_claims={"sub": subject},
                timeout=TIMEOUT,
                ttl=TTL,
                requests_session=session,
            )
            delivered += 1
        except WebPushException as err:
            status = err.response.status_code if err.response is not None else None
            if status in GONE:
                _forget(store, endpoint)
            else:
                failure = f"push service answered {status}" if status else str(err)[:200]
        except OSError as err:
            failure = str(err)
    if not delivered and failure is not None:
        raise OSError(failure)
    return delivered


def _forget(store: Store, endpoint: str) -> None:
    with store.session() as s:
        s.query(PushSubscriptionRow).filter(PushSubscriptionRow.endpoint == endpoint).delete()
