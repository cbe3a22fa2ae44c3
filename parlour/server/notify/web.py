"""The notifications' HTTP routes: the account's settings and its last deliveries
(``/api/me/notifications``), its Web Push subscriptions (``/api/me/push``, CSRF as every account
route), the e-mails' unsubscribe link (GET shows a button; a POST unsubscribes: RFC 8058's one click
too), and the service worker (``/sw.js``)."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from parlour.server.accounts.rows import AccountRow
from parlour.server.accounts.service import Accounts
from parlour.server.accounts.web import PRIVATE, signed_in
from parlour.server.bodies import MAX_BODY, json_body, no_body
from parlour.server.clock import Clock
from parlour.server.notify import email, push, webhook
from parlour.server.notify.deliver import Channels
from parlour.server.notify.outbox import NotificationRow
from parlour.server.storage import Store
from parlour.server.tables import Refusal

STATIC = Path(__file__).parent.parent / "static"
SHOWN = 20
"""How many of the last deliveries the account page shows."""


def settings_of(store: Store, account_id: int) -> dict[str, object]:
    """Returns the account's notification settings and its last deliveries (newest first)."""
    with store.session() as s:
        account = s.get(AccountRow, account_id)
        assert account is not None
        rows = s.scalars(
            select(NotificationRow)
            .where(NotificationRow.account_id == account_id)
            .order_by(NotificationRow.id.desc())
            .limit(SHOWN)
        ).all()
        return {
            "email": account.notify_email,
            "digest": account.notify_digest,
            "webhook_url": account.webhook_url,
            "deliveries": [
                {
                    "channel": r.channel,
                    "table": r.table_id,
                    "kind": r.kind,
                    "text": r.payload.get("text"),
                    "created": r.created,
                    "status": r.status,
                    "attempts": r.attempts,
                    "sent_at": r.sent_at,
                    "last_error": r.last_error,
                }
                for r in rows
            ],
        }


def change(store: Store, account_id: int, body: object) -> None:
    """Changes the settings a request names (``email``, ``digest``: booleans; ``webhook_url``)."""
    if not isinstance(body, dict) or not set(body) <= {"email", "digest", "webhook_url"}:
        raise Refusal(400, 'settings are {"email": BOOL, "digest": BOOL, "webhook_url": URL or null}')
    for name in ("email", "digest"):
        if name in body and not isinstance(body[name], bool):
            raise Refusal(400, f"{name} is true or false")
    try:
        hook = webhook.check_url(body.get("webhook_url"))
    except webhook.WebhookError as err:
        raise Refusal(400, str(err)) from None
    with store.session() as s:
        account = s.get(AccountRow, account_id)
        assert account is not None
        if "email" in body:
            account.notify_email = body["email"]
        if "digest" in body:
            account.notify_digest = body["digest"]
        if "webhook_url" in body:
            account.webhook_url = hook


def stop_email(store: Store, account_id: int) -> bool:
    """Turns the account's e-mails off (the unsubscribe link); returns whether the account exists."""
    with store.session() as s:
        account = s.get(AccountRow, account_id)
        if account is None:
            return False
        account.notify_email = False
        return True


UNSUBSCRIBED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parlour</title></head>
<body><p>{text}</p><p><a href="/account">Your account</a></p></body></html>"""
CONFIRM = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parlour</title></head>
<body><form method="post" action="{path}"><input type="hidden" name="token" value="{token}">
<p>Parlour e-mails you when a table waits for you.</p><p><button type="submit">Send me no more
e-mails</button></p></form><p><a href="/account">Your account</a></p></body></html>"""


async def unsubscribe_token_of(request: Request) -> str | None:
    """Returns a POST's unsubscribe token: the URL's (RFC 8058's one click posts to the e-mail's link),
    else the form's ``token`` field (the page's button); at most MAX_BODY bytes are read."""
    token = request.query_params.get("token")
    if token is not None:
        return token
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        return None
    size, chunks = 0, []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    try:
        found = parse_qs(b"".join(chunks).decode("ascii"), max_num_fields=4).get("token")
    except (UnicodeDecodeError, ValueError):
        return None
    return found[0] if found else None


def notify_routes(
    store: Callable[[], Store],
    accounts: Callable[[], Accounts],
    channels: Callable[[], Channels],
    clock: Clock,
) -> list[Route]:
    """Returns the notifications' routes, given how to find the store, the accounts and the channels."""

    async def show(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        found = await asyncio.to_thread(settings_of, store(), account.id)
        found["email_available"] = channels().mail is not None
        found["push_key"] = (await asyncio.to_thread(push.vapid_keys, store()))[1]
        return JSONResponse(found, headers=PRIVATE)

    async def update(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        body = await json_body(request)
        await store().write(change, store(), account.id, body)
        return JSONResponse(await asyncio.to_thread(settings_of, store(), account.id), headers=PRIVATE)

    async def subscribe(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        try:
            endpoint, p256dh, auth = push.check_subscription(await json_body(request))
        except push.PushError as err:
            raise Refusal(400, str(err)) from None
        await store().write(push.subscribe, store(), account.id, endpoint, p256dh, auth, clock.now())
        return JSONResponse({"subscribed": True}, status_code=201)

    async def unsubscribe_push(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        await no_body(request)
        await store().write(push.unsubscribe_all, store(), account.id)
        return JSONResponse({"subscribed": False})

    async def unsubscribe(request: Request) -> Response:
        # The token is the credential (an HMAC only the server makes, docs/security.md): no Origin check,
        # as RFC 8058's one-click POST comes from a mail provider, and a GET (a scanner's prefetch, a
        # preview) only shows the button.
        key = channels().unsubscribe_key
        if request.method != "POST":  # GET, and the HEAD Starlette adds to it
            token = request.query_params.get("token")
            if email.check_unsubscribe(key, token) is None:
                return HTMLResponse(UNSUBSCRIBED.format(text="This link does not work."), status_code=400)
            page = CONFIRM.format(path=email.UNSUBSCRIBE_PATH, token=html.escape(str(token)))
            return HTMLResponse(page, headers=PRIVATE)
        account_id = email.check_unsubscribe(key, await unsubscribe_token_of(request))
        if account_id is None or not await store().write(stop_email, store(), account_id):
            return HTMLResponse(UNSUBSCRIBED.format(text="This link does not work."), status_code=400)
        text = html.escape("Done: Parlour sends you no more e-mails about your tables.")
        return HTMLResponse(UNSUBSCRIBED.format(text=text), headers=PRIVATE)

    async def worker(request: Request) -> Response:
        return FileResponse(
            STATIC / "sw.js", media_type="text/javascript", headers={"service-worker-allowed": "/"}
        )

    return [
        Route("/api/me/notifications", show, methods=["GET"]),
        Route("/api/me/notifications", update, methods=["POST"]),
        Route("/api/me/push", subscribe, methods=["POST"]),
        Route("/api/me/push", unsubscribe_push, methods=["DELETE"]),
        Route(email.UNSUBSCRIBE_PATH, unsubscribe, methods=["GET", "POST"]),
        Route("/sw.js", worker),
    ]
