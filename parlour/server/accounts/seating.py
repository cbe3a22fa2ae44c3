"""A seat opened by the account that keeps it: the WebSocket's account hello, without the seat's link.

``{"type": "hello", "account": true, "seat"?: N}`` asks for the seat the signed-in account keeps at the
table (``seats.account_id``). The session comes in the handshake's cookie, so the handshake's
``Origin`` must be the server's own: browsers send cookies with a WebSocket handshake another site's
page opens (cross-site WebSocket hijacking), and only the ``Origin`` tells it apart. docs/server.md,
"WebSocket protocol".
"""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket

from parlour.core.positions import JSONObject
from parlour.server.accounts.cookie import session_token
from parlour.server.accounts.service import Accounts
from parlour.server.tables import LiveTable, Refusal

HELLO_FIELDS = {"type", "account", "seat"}
"""What an account hello may hold (no token: a token hello is the other kind)."""


def own_origin(ws: WebSocket) -> str:
    """Returns the server's own origin as a WebSocket handshake reached it (``ws`` is ``http``)."""
    scheme = "https" if ws.url.scheme in ("wss", "https") else "http"
    return f"{scheme}://{ws.url.netloc}"


def check_socket_origin(ws: WebSocket) -> None:
    """Refuses (403) a handshake whose ``Origin`` is missing or another site's: its cookie is not its own."""
    origin = ws.headers.get("origin")
    if origin is None or origin != own_origin(ws):
        raise Refusal(403, "an account's hello is taken only from this site's own pages")


async def account_seat(ws: WebSocket, accounts: Accounts, table: LiveTable, hello: JSONObject) -> int | None:
    """Returns the seat an account hello opens: the seat its account keeps at the table (the lowest, or
    the one ``seat`` names); None, a spectator, where it keeps none and the game is over (open to
    everyone). Refuses a malformed hello (400), another site's (403), no session (401) and a table in
    play where it keeps no seat (403: an account is no spectators' link)."""
    unknown = set(hello) - HELLO_FIELDS
    if hello.get("account") is not True or unknown:
        raise Refusal(400, 'an account\'s hello is {"type": "hello", "account": true, "seat"?: N}')
    wanted = hello.get("seat")
    if wanted is not None and (isinstance(wanted, bool) or not isinstance(wanted, int)):
        raise Refusal(400, "seat must be a seat's number")
    check_socket_origin(ws)
    token = session_token(ws)
    account = await asyncio.to_thread(accounts.account_of, token) if token else None
    if account is None:
        raise Refusal(401, "sign in first, or open the seat's own link")
    kept = await asyncio.to_thread(accounts.seats_at, account, table.record.id)
    if wanted is not None:
        if wanted not in kept:
            raise Refusal(403, "your account keeps no such seat at this table")
        return wanted
    if kept:
        return kept[0]
    if table.state.is_over():
        return None  # a finished game is open to everyone
    raise Refusal(403, "your account keeps no seat at this table: watch it through its spectators' link")
