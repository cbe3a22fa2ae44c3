"""The tables' WebSockets: the hello, the budgets a connection must fit, then updates, moves and chat.

Every connection is hostile until it proves otherwise: it may vanish at any step of the handshake,
never read, flood, or come by the hundred. A connection is counted against its address's budget from
its first byte, and joins a table only inside the ``try`` whose ``finally`` removes it, so a client
that says hello and resets leaves nothing behind (docs/server.md, "Hostile connections").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time

from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.core.positions import JSONObject, JSONValue
from parlour.server.accounts.seating import account_seat
from parlour.server.accounts.service import Accounts
from parlour.server.hall import Hall
from parlour.server.limits import Bucket, Buckets, Crowd, address_key
from parlour.server.orders import order
from parlour.server.tables import Listener, LiveTable, Refusal, encode

LOG = logging.getLogger("parlour.server")
MAX_MESSAGE = 16 * 1024
"""The largest WebSocket message accepted (characters)."""
HELLO_SECONDS = 10.0
"""How long a new connection has to say hello."""
CLOSE_SECONDS = 5.0
"""How long the server waits to close a connection it dropped (a client that reads nothing is cut)."""
CHAT_HISTORY = 100
"""Chat lines a connection gets when it joins (a reload keeps the conversation)."""
MAX_CHAT = 300
"""The longest chat line (characters)."""


class Doors:
    """What every connection passes through: open sockets per address, chat per address."""

    def __init__(self, per_address: int, chat: Buckets) -> None:
        self.crowd = Crowd(per_address)
        self.chat = chat


async def serve_socket(hall: Hall, doors: Doors, ws: WebSocket, accounts: Accounts | None = None) -> None:
    """Serves one connection from its first byte to its last; a client gone at any step is one line
    (``accounts``: where an account's hello finds its seats; None, none is taken)."""
    address = client_address(ws)
    if not doors.crowd.enter(address):
        limit = doors.crowd.limit
        await _refuse(ws, Refusal(429, f"too many connections from your address (at most {limit})"))
        return
    try:
        await _serve(hall, doors, ws, address, accounts)
    except Exception as err:  # a client gone mid-send, a broken frame: nothing to answer, nobody to tell
        LOG.info("websocket from %s ended: %s", address, type(err).__name__)
    finally:
        doors.crowd.leave(address)


def client_address(ws: WebSocket) -> str:
    """Returns the client's address as the server sees it (forwarded only from a configured proxy)."""
    return address_key(ws.client.host) if ws.client else "unknown"


async def _refuse(ws: WebSocket, refusal: Refusal) -> None:
    """Accepts a connection only to tell it why it is refused, then closes it with 4000 + status."""
    with contextlib.suppress(Exception):
        await ws.accept()
        await _send(ws, refusal.to_json())
        await ws.close(code=4000 + refusal.status)


async def _serve(hall: Hall, doors: Doors, ws: WebSocket, address: str, accounts: Accounts | None) -> None:
    """The hello, the table's budget, then the connection's life at the table."""
    await ws.accept()
    try:
        table, listener = await _hello(hall, ws, accounts)
        # The chat is read before the connection is admitted: between its admission and its first view
        # nothing may await, or a move landing meanwhile would queue an update older than that view.
        chat = await asyncio.to_thread(table.store.chat, table.record.id, CHAT_HISTORY)
        table.admit(listener)  # a seat always gets in; spectators have a budget of their own
    except Refusal as refusal:
        await _send(ws, refusal.to_json())
        await ws.close(code=4000 + refusal.status)
        return
    except (WebSocketDisconnect, TimeoutError):
        with contextlib.suppress(Exception):
            await ws.close(code=4408)
        return
    listener.address = address
    try:
        await _welcome(table, ws, listener, chat)
        await _live(hall, table, doors, ws, listener)
    finally:
        table.leave(listener)
        if listener.gone.is_set():  # dropped by the table: closed with its reason, so that it reconnects
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=listener.close_code), CLOSE_SECONDS)
        if listener.seat is not None:  # a spectator's coming and going changes nobody's view
            with contextlib.suppress(Exception):
                await table.broadcast(local=True)  # the others see this seat gone (other nodes: presence)


async def _hello(hall: Hall, ws: WebSocket, accounts: Accounts | None) -> tuple[LiveTable, Listener]:
    """Returns the table and the new connection's listener, from its first message: a token's hello,
    or an account's (the seat the signed-in account keeps there, accounts/seating.py)."""
    table = hall.get(ws.path_params["table"])
    hello = _message(await asyncio.wait_for(_frame(ws), timeout=HELLO_SECONDS))
    if hello.get("type") != "hello":
        raise Refusal(400, 'the first message is {"type": "hello", "token": TOKEN}')
    if "account" in hello:
        if accounts is None:
            raise Refusal(400, "this server takes no account's hello: open the seat's link")
        if "token" in hello:
            raise Refusal(400, "a hello gives a token or asks for the account's seat, not both")
        kept = await account_seat(ws, accounts, table, hello)
        return table, Listener(kept, guest=kept is None)
    token = hello.get("token")
    seat = hall.seat_of(table, token)
    return table, Listener(seat, guest=token == "")


async def _welcome(
    table: LiveTable, ws: WebSocket, listener: Listener, chat: list[tuple[int | None, str, float]]
) -> None:
    """Sends the connection its first, full view with the recent chat (read before it was admitted);
    tells the others it came. The view is made and ``seen`` fixed with no await since the admission,
    so every update queued for it is newer than its first view."""
    first = table.view(listener.seat)
    first["chat"] = [{"seat": s, "text": t, "at": a} for s, t, a in chat]  # a reload keeps the conversation
    listener.seen = len(table.log)
    await _send(ws, first)
    if listener.seat is not None:
        await table.broadcast(skip=listener, local=True)  # the others see this seat connected


async def _live(hall: Hall, table: LiveTable, doors: Doors, ws: WebSocket, listener: Listener) -> None:
    """Pumps updates out and reads messages in until the client goes or the table drops it."""
    sender = asyncio.create_task(_pump(ws, listener))
    receiver = asyncio.create_task(_receive(hall, table, doors, ws, listener))
    dropped = asyncio.create_task(listener.gone.wait())
    try:
        await asyncio.wait({sender, receiver, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sender, receiver, dropped):
            task.cancel()


async def _pump(ws: WebSocket, listener: Listener) -> None:
    """Sends the listener's outbox (JSON texts) to its socket; returns when a send fails."""
    with contextlib.suppress(Exception):
        while True:
            await ws.send_text(await listener.outbox.get())


async def _receive(hall: Hall, table: LiveTable, doors: Doors, ws: WebSocket, listener: Listener) -> None:
    """Reads the client's messages until it goes: moves, chat and settings, each refused or done."""
    bucket, warned = Bucket(), 0.0
    while True:
        try:
            text = await _frame(ws)
        except (WebSocketDisconnect, RuntimeError):
            return
        if not bucket.take():
            if time.monotonic() - warned >= 1.0:  # one refusal a second: a flood gets no flood back
                warned = time.monotonic()
                await _send(ws, Refusal(429, "too many messages: slow down").to_json())
            continue
        try:
            await _handle(hall, table, doors, listener, _message(text))
        except Refusal as refusal:
            await _send(ws, refusal.to_json())


async def _frame(ws: WebSocket) -> str | None:
    """Returns the next frame's text (None for a binary frame, refused as a message); raises
    WebSocketDisconnect when the client has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _message(text: object) -> JSONObject:
    """Returns a client message: a JSON object of at most MAX_MESSAGE characters with a 'type'."""
    if text is None:
        raise Refusal(400, "a message is a JSON text frame, not a binary one")
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        raise Refusal(413, f"a message is at most {MAX_MESSAGE} characters")
    found = parse_json(text)
    if not isinstance(found, dict) or not isinstance(found.get("type"), str):
        raise Refusal(400, "a message is a JSON object with a 'type'")
    return found


def parse_json(data: bytes | str) -> JSONValue:
    """Returns JSON data, refusing anything else (invalid Unicode included) with 400."""
    try:
        found: JSONValue = json.loads(data)
        json.dumps(found, ensure_ascii=False).encode()  # a lone surrogate ("\\ud800") parses: refused here
    except (ValueError, RecursionError):
        raise Refusal(400, "the body is not JSON") from None
    return found


async def _handle(
    hall: Hall, table: LiveTable, doors: Doors, listener: Listener, message: JSONObject
) -> None:
    """Carries out one client message (a seat's orders where the table is owned: orders.py)."""
    kind, seat = message["type"], listener.seat
    if kind == "ping":
        listener.send({"type": "pong"})
        return
    if kind == "chat":
        await _chat(table, doors, listener, message.get("text"))
        return
    if kind == "view":  # a client that missed an update (a gap in versions) asks for the whole view
        listener.seen = len(table.log)
        listener.send(table.view(listener.seat))
        return
    if seat is None:
        raise Refusal(403, f"a spectator cannot send {kind[:40]!r}")
    version = await order(hall, table, seat, kind, message)
    if kind == "act":
        listener.send({"type": "accepted", "version": version})


async def _chat(table: LiveTable, doors: Doors, listener: Listener, text: object) -> None:
    """Stores a chat line and sends it to everyone at the table, within the chat's budgets."""
    if listener.guest:
        raise Refusal(403, "only the table's players and invited spectators chat here")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHAT:
        raise Refusal(400, f"a chat line is 1 to {MAX_CHAT} characters")
    clean = "".join(c for c in text if c.isprintable()).strip()
    if not clean:
        raise Refusal(400, "a chat line needs printable characters")
    if not doors.chat.take(listener.address):
        raise Refusal(429, "too many chat lines from your address: slow down")
    await table.chat(listener.seat, clean)


async def _send(ws: WebSocket, message: JSONObject) -> None:
    """Sends one JSON message."""
    await ws.send_text(encode(message))
