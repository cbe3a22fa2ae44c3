"""The bot API's routes: bot accounts made and revoked by their owner, the online bots, a bot's stream
(NDJSON over HTTP, or a WebSocket) and its answers. docs/bot-protocol.md, "Server bot accounts"."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.core.positions import JSONObject
from parlour.server.accounts.service import Accounts
from parlour.server.accounts.web import PRIVATE, address, signed_in
from parlour.server.bodies import json_body, no_body
from parlour.server.botaccounts.answers import BotLimits, answer, bot_seats, count_answer, requests_of, within
from parlour.server.botaccounts.service import Bot, bot_of, bots_of, create_bot, online_bots, revoke_bot
from parlour.server.botaccounts.stream import BotStream
from parlour.server.hall import Hall
from parlour.server.limits import address_key
from parlour.server.sockets import HELLO_SECONDS, MAX_MESSAGE, parse_json
from parlour.server.tables import Refusal

NDJSON = "application/x-ndjson"
STREAM_HEADERS = {"cache-control": "no-store", "x-accel-buffering": "no", "content-encoding": "identity"}
"""A stream's headers: never cached, never buffered by a proxy, never compressed (so each line goes
at once: the gzip middleware leaves a response that names its encoding alone)."""


def _line(message: JSONObject | None) -> bytes:
    """Returns a stream's line: a message as one JSON line, or an empty line (a keep-alive)."""
    if message is None:
        return b"\n"
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n").encode()


def _parse(text: object) -> JSONObject:
    """Returns a bot's socket message: a JSON object of at most MAX_MESSAGE characters with a 'type'."""
    if not isinstance(text, str):
        raise Refusal(400, "a message is a JSON text frame, not a binary one")
    if len(text) > MAX_MESSAGE:
        raise Refusal(413, f"a message is at most {MAX_MESSAGE} characters")
    found = parse_json(text)
    if not isinstance(found, dict) or not isinstance(found.get("type"), str):
        raise Refusal(400, "a message is a JSON object with a 'type'")
    return found


def _where(connection: HTTPConnection) -> str:
    """Returns what per-address limits count the client by."""
    return address_key(connection.client.host) if connection.client else "unknown"


def bot_routes(
    hall: Callable[[], Hall], accounts: Callable[[], Accounts], limits: BotLimits
) -> list[BaseRoute]:
    """Returns the bot API's routes."""

    async def authorised(connection: HTTPConnection, token: str | None = None) -> Bot:
        """Returns the bot the ``Authorization: Bearer`` token (or ``token``) opens; 401 otherwise."""
        if token is None:
            header = connection.headers.get("authorization", "")
            token = header[7:].strip() if header.lower().startswith("bearer ") else ""
        bot = await asyncio.to_thread(bot_of, hall().store, token) if token else None
        if bot is None:
            raise Refusal(401, "a bot's API token is needed (Authorization: Bearer TOKEN)")
        return bot

    async def mine(request: Request) -> Response:
        account, _ = await asyncio.to_thread(signed_in, request, accounts())
        now = hall().clock.now()
        listed = await asyncio.to_thread(bots_of, hall().store, account.id, now)
        return JSONResponse({"bots": listed}, headers=PRIVATE)

    async def make(request: Request) -> Response:
        account, _ = await asyncio.to_thread(signed_in, request, accounts())
        body = await json_body(request)
        if not isinstance(body, dict) or set(body) != {"name"}:
            raise Refusal(400, 'a bot account is made from {"name": USERNAME}')
        store = hall().store
        await within(hall(), f"bot-make:{account.id}", limits.made_per_person, "new bot accounts")
        bot, token = await store.write(create_bot, store, account.id, body["name"], hall().clock.now())
        return JSONResponse({"name": bot.name, "token": token}, status_code=201, headers=PRIVATE)

    async def revoke(request: Request) -> Response:
        await no_body(request)
        account, _ = await asyncio.to_thread(signed_in, request, accounts())
        store = hall().store
        await store.write(revoke_bot, store, account.id, request.path_params["name"])
        return JSONResponse({"revoked": True}, headers=PRIVATE)

    async def online(request: Request) -> Response:
        return JSONResponse({"bots": await asyncio.to_thread(online_bots, hall().store, hall().clock.now())})

    async def stream(request: Request) -> Response:
        bot = await authorised(request)
        await within(hall(), f"bot-stream:{bot.account_id}", limits.streams_per_bot, "streams from this bot")
        follower = BotStream(hall(), bot, address(request))
        await follower.open()

        async def lines() -> AsyncIterator[bytes]:
            try:
                async for message in follower.messages():
                    yield _line(message)
            finally:
                follower.close()

        return StreamingResponse(lines(), media_type=NDJSON, headers=STREAM_HEADERS)

    async def opened(request: Request) -> Response:
        bot = await authorised(request)
        await count_answer(hall(), limits, bot, _where(request))
        table, seats = await bot_seats(hall(), bot, request.path_params["table"])
        return JSONResponse({"requests": requests_of(table, seats)})

    async def answered(request: Request) -> Response:
        bot = await authorised(request)
        await count_answer(hall(), limits, bot, _where(request))
        body = await json_body(request)
        return JSONResponse(await answer(hall(), bot, request.path_params["table"], body))

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            bot = await _socket_bot(ws, authorised)
            await within(
                hall(), f"bot-stream:{bot.account_id}", limits.streams_per_bot, "streams from this bot"
            )
        except Refusal as refusal:
            await _close(ws, refusal)
            return
        follower = BotStream(hall(), bot, _where(ws))
        await follower.open()
        sender = asyncio.ensure_future(_send_all(ws, follower))
        try:
            await _answers(ws, hall(), limits, bot, sender)
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            follower.close()

    return [
        Route("/api/bot/accounts", mine, methods=["GET"]),
        Route("/api/bot/accounts", make, methods=["POST"]),
        Route("/api/bot/accounts/{name}/revoke", revoke, methods=["POST"]),
        Route("/api/bots", online, methods=["GET"]),
        Route("/api/bot/stream", stream, methods=["GET"]),
        Route("/api/bot/tables/{table}/request", opened, methods=["GET"]),
        Route("/api/bot/tables/{table}/answer", answered, methods=["POST"]),
        WebSocketRoute("/api/bot/ws", socket),
    ]


async def _socket_bot(ws: WebSocket, authorised: Callable[..., object]) -> Bot:
    """Returns the bot a WebSocket speaks for: its handshake's bearer token, else its first message
    ``{"type": "hello", "token": TOKEN}`` within HELLO_SECONDS."""
    if ws.headers.get("authorization"):
        found = await authorised(ws)  # type: ignore[misc]
    else:
        try:
            text = await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS)
        except (TimeoutError, KeyError, RuntimeError):
            raise Refusal(400, 'a bot\'s socket begins with {"type": "hello", "token": TOKEN}') from None
        hello = _parse(text)
        token = hello.get("token")
        if hello.get("type") != "hello" or not isinstance(token, str):
            raise Refusal(400, 'a bot\'s socket begins with {"type": "hello", "token": TOKEN}')
        found = await authorised(ws, token)  # type: ignore[misc]
    assert isinstance(found, Bot)
    return found


async def _send_all(ws: WebSocket, follower: BotStream) -> None:
    """Sends the stream's messages on the socket (a ``ping`` for a keep-alive) until it ends."""
    async for message in follower.messages():
        await ws.send_text(_line(message or {"type": "ping"}).decode().rstrip("\n"))
    await ws.close(4409)  # replaced by a newer stream (the error said so)


async def _answers(
    ws: WebSocket, hall: Hall, limits: BotLimits, bot: Bot, sender: asyncio.Future[None]
) -> None:
    """Reads the bot's answers on the socket ``{"type": "action", "table": T, "id": N, "action": ...}``
    until it closes (or its stream ends); each gets its reply or a one-line error naming the table.
    Every frame is counted against the rate limits before it is read; the socket is closed at the
    rate limit or after ``limits.refused_frames`` refused frames."""
    where = address_key(ws.client.host) if ws.client else "unknown"
    refused = 0
    while not sender.done():
        receiving = asyncio.ensure_future(ws.receive())
        waits: list[asyncio.Future[object]] = [receiving, sender]  # type: ignore[list-item]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if not receiving.done():
            receiving.cancel()
            return
        message = receiving.result()
        if message["type"] == "websocket.disconnect":
            return
        table: object = None
        try:
            await count_answer(hall, limits, bot, where)  # every frame counts, before it is read
            found = _parse(message.get("text"))
            table = found.get("table")
            if found["type"] not in ("action", "view"):
                raise Refusal(400, "a bot sends 'action' (or 'view') messages on its socket")
            reply = await answer(hall, bot, table, found)
        except Refusal as refusal:
            reply = {**refusal.to_json(), "table": table if isinstance(table, str) else None}
            refused += 1
            if refusal.status == 429:
                await _close(ws, refusal)
                return
            if refused >= limits.refused_frames:
                await _close(ws, Refusal(400, f"{refused} refused messages: the socket is closed"))
                return
        try:
            await ws.send_text(json.dumps(reply, separators=(",", ":")))
        except (WebSocketDisconnect, RuntimeError):
            return


async def _close(ws: WebSocket, refusal: Refusal) -> None:
    """Sends a refusal and closes the socket with 4000 + its status."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await ws.send_text(json.dumps(refusal.to_json()))
        await ws.close(4000 + refusal.status)
