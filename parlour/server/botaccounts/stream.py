"""A bot's stream: ``start``, ``request`` and ``end`` messages of ``parlour-bot/1`` for every table it
is seated at, as the local protocol's (``parlour.bots.protocol``), each naming its ``table``.

What the stream sends is worked out from the tables as stored and as the hall holds them, never from
what the stream sent before: a new stream (a reconnection, at any node) first gets every open request
again. Each seat of the bot listens to its table like a connection (waking the stream at each change,
and counting the seat as connected); the database is asked every POLL seconds for new tables, and the
stream's presence lease (service.py) is renewed every HEARTBEAT seconds, which also tells a replaced
stream to stop.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator

from parlour.bots.protocol import build_request, end_message, error_message, start_message
from parlour.core.positions import JSONObject
from parlour.server.botaccounts.seating import BOT_SECONDS, MAX_TABLES
from parlour.server.botaccounts.service import (
    Bot,
    claim_stream,
    release_stream,
    renew_stream,
    seats_in_play,
)
from parlour.server.hall import Hall
from parlour.server.tables import Listener, LiveTable, Refusal

POLL = 1.0
"""How often a stream asks the database for the tables its bot is seated at (seconds)."""
HEARTBEAT = 5.0
"""How often a stream renews its presence lease (seconds)."""
PRESENCE = 20.0
"""How long a presence lease lasts without renewal (seconds): a node that died stops counting after it."""
KEEP_ALIVE = 10.0
"""The longest a stream stays silent: then it sends an empty line (NDJSON) or a ``ping`` (WebSocket)."""
STOP_SECONDS = 5
"""How long a stopping server waits for its open requests before it cancels them (``parlour serve``):
a bot's stream never ends by itself, and its bot reconnects to another node (or after the restart)."""
REPLACED = "another stream of this bot replaced this one (or the bot was revoked)"


def time_ms(table: LiveTable) -> int:
    """Returns the time the seat asked now has left (milliseconds): to the table's deadline, if any."""
    deadline = table.record.deadline
    if deadline is None:
        return int(BOT_SECONDS * 1000)
    return max(0, int((deadline - table.clock.now()) * 1000))


def open_request(table: LiveTable, seat: int) -> JSONObject | None:
    """Returns the request open for ``seat`` at the table (None: the seat is not asked now); its id is
    the table's version, the same at every node and after any reconnection."""
    state = table.state
    if state.is_over() or table.unplayed() or seat not in state.deciders():
        return None
    message = build_request(state, seat, table.record.version, time_ms(table))
    message["table"] = table.record.id
    return message


class BotStream:
    """One open stream of a bot: the seats it listens to and the requests it sent (its own only)."""

    def __init__(self, hall: Hall, bot: Bot, address: str = "unknown") -> None:
        self.hall, self.bot, self.address = hall, bot, address
        self.id = secrets.token_hex(12)
        self.listeners: dict[tuple[str, int], Listener] = {}
        """The bot's seats (table, seat) it follows, each a connection of its table."""
        self.sent: dict[tuple[str, int], int] = {}
        """The version whose request each seat was last sent."""
        self.wake = asyncio.Event()

    async def open(self) -> None:
        """Makes this the bot's one stream and the bot online (a previous stream stops at its heartbeat)."""
        until = self.hall.clock.now() + PRESENCE
        await self.hall.store.write(claim_stream, self.hall.store, self.bot.account_id, self.id, until)

    def close(self) -> None:
        """Leaves every table and ends the bot's presence (if this is still its stream)."""
        for (table_id, _), listener in list(self.listeners.items()):
            found = self.hall.tables.get(table_id)
            if found is not None:
                found.leave(listener)
        self.listeners.clear()
        release_stream(self.hall.store, self.bot.account_id, self.id)

    async def messages(self) -> AsyncIterator[JSONObject | None]:
        """Yields the stream's messages as they come; None when it was silent for KEEP_ALIVE seconds
        (a keep-alive); ends after an ``error`` once another stream replaced it."""
        polled = beat = 0.0
        said = time.monotonic()
        while True:
            now = time.monotonic()
            if now - beat >= HEARTBEAT:
                beat = now
                until = self.hall.clock.now() + PRESENCE
                store = self.hall.store
                if not await store.write(renew_stream, store, self.bot.account_id, self.id, until):
                    yield error_message(REPLACED)
                    return
            if now - polled >= POLL:
                polled = now
                for message in await self._follow():
                    said = time.monotonic()
                    yield message
            for message in self._news():
                said = time.monotonic()
                yield message
            if time.monotonic() - said >= KEEP_ALIVE:
                said = time.monotonic()
                yield None
            self.wake.clear()
            await self._sleep(min(POLL, HEARTBEAT, KEEP_ALIVE))

    async def _sleep(self, most: float) -> None:
        """Waits for a change at one of the bot's tables, or ``most`` seconds."""
        waits: list[asyncio.Future[object]] = [
            asyncio.ensure_future(listener.outbox.get()) for listener in self.listeners.values()
        ]
        waits.append(asyncio.ensure_future(self.wake.wait()))
        try:
            await asyncio.wait(waits, timeout=most, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
        for listener in self.listeners.values():  # views are only a wake-up here: drop the rest
            while not listener.outbox.empty():
                listener.outbox.get_nowait()

    async def _follow(self) -> list[JSONObject]:
        """Follows the tables in play the database seats the bot at (a start for each new seat); ends the
        seats whose tables are no longer in play there."""
        rows = await asyncio.to_thread(seats_in_play, self.hall.store, self.bot.account_id)
        wanted = {(table_id, seat): version for table_id, seat, version in rows[:MAX_TABLES]}
        messages: list[JSONObject] = []
        for key in [k for k in self.listeners if k not in wanted]:
            messages.append(self._end(*key))
        for (table_id, seat), version in wanted.items():
            if (table_id, seat) in self.listeners:
                continue
            try:
                table = self.hall.fresh(table_id, version)
            except Refusal:
                continue
            listener = Listener(seat, address=self.address)
            table.admit(listener)
            self.listeners[(table_id, seat)] = listener
            start = start_message(table.state, seat, time_ms(table), table.record.options)
            start["table"] = table_id
            messages.append(start)
        return messages

    def _news(self) -> list[JSONObject]:
        """Returns the requests newly open at the bot's tables, and the ends of those that are over."""
        messages: list[JSONObject] = []
        for (table_id, seat), listener in list(self.listeners.items()):
            try:
                table = self.hall.get(table_id)  # read again if the hall let it go meanwhile
            except Refusal:
                messages.append(self._end(table_id, seat))
                continue
            if table.state.is_over():
                messages.append(self._end(table_id, seat))
                continue
            if listener.gone.is_set() or listener not in table.listeners:  # dropped: listen again
                listener = self.listeners[(table_id, seat)] = Listener(seat, address=self.address)
                table.admit(listener)
            request = open_request(table, seat)
            if request is not None and self.sent.get((table_id, seat)) != table.record.version:
                self.sent[(table_id, seat)] = table.record.version
                messages.append(request)
        return messages

    def _end(self, table_id: str, seat: int) -> JSONObject:
        """Stops following a seat; returns its ``end`` (the results and its final view, if played out)."""
        listener = self.listeners.pop((table_id, seat), None)
        self.sent.pop((table_id, seat), None)
        try:
            table = self.hall.get(table_id)
        except Refusal:
            return {"type": "end", "over": False, "table": table_id}
        if listener is not None:
            table.leave(listener)
        message = end_message(table.state, seat)
        message["table"] = table_id
        return message
