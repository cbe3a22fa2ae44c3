"""A bot's answer to an open request, over HTTP or its WebSocket: checked as the local protocol checks
a bot's line (``parlour.bots.protocol.parse_answer``), then played through the seat's usual door."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from parlour.bots.protocol import ProtocolError, ViewAgain, parse_answer
from parlour.core.positions import JSONObject
from parlour.server.accounts.counters import Limit, hit
from parlour.server.botaccounts.service import Bot, seats_at
from parlour.server.botaccounts.stream import open_request
from parlour.server.hall import Hall
from parlour.server.orders import order
from parlour.server.tables import LiveTable, Refusal

NO_SEAT = "your bot holds no seat at this table (or there is no such table)"
"""The one refusal of a table the bot is not seated at, whether the table exists or not."""
MAX_TABLE_ID = 64
"""The longest table id looked up for a bot (a table's id is far shorter)."""


@dataclass(frozen=True)
class BotLimits:
    """The bot API's rate limits, counted in the database (every node shares the counts)."""

    answers_per_bot: Limit = field(default_factory=lambda: Limit(3000, 60.0))
    """Answers (and asks for a request) one bot may send a minute, over HTTP and WebSocket together."""
    answers_per_address: Limit = field(default_factory=lambda: Limit(6000, 60.0))
    """The same from one client address, whatever the bots."""
    streams_per_bot: Limit = field(default_factory=lambda: Limit(60, 60.0))
    """Streams one bot may open a minute (a reconnection loop without a pause is refused)."""
    made_per_person: Limit = field(default_factory=lambda: Limit(10, 3600.0))
    """Bot accounts one person may make an hour (revoked ones free a place among MAX_BOTS, not here)."""
    refused_frames: int = 20
    """Refused frames after which a bot's WebSocket is closed (each frame is counted first)."""


async def within(hall: Hall, key: str, limit: Limit, what: str) -> None:
    """Counts one attempt (in the database); refuses with 429 beyond the limit."""
    if not await hall.store.write(hit, hall.store.engine, key, limit, hall.clock.now()):
        raise Refusal(429, f"too many {what}: slow down")


async def count_answer(hall: Hall, limits: BotLimits, bot: Bot, address: str) -> None:
    """Counts an answer against the bot's and the address's limits (429 beyond either)."""
    await within(hall, f"bot-answer:{bot.account_id}", limits.answers_per_bot, "answers from this bot")
    await within(
        hall, f"bot-answer-at:{address}", limits.answers_per_address, "bot answers from your address"
    )


async def bot_seats(hall: Hall, bot: Bot, table_id: object) -> tuple[LiveTable, list[int]]:
    """Returns the table and the bot's seats there; refuses a table where it holds none with the
    same 404 as a table that does not exist (its seats are looked up first: a bot learns nothing of
    other tables)."""
    seats: list[int] = []
    if isinstance(table_id, str) and len(table_id) <= MAX_TABLE_ID:
        seats = await asyncio.to_thread(seats_at, hall.store, bot.account_id, table_id)
    if not seats:
        raise Refusal(404, NO_SEAT)
    try:
        table = hall.get(table_id)
    except Refusal as refusal:
        raise Refusal(404, NO_SEAT) if refusal.status == 404 else refusal from None
    return table, seats


def asked_seat(table: LiveTable, seats: list[int], wanted: object) -> int:
    """Returns the bot's seat an answer is for: ``wanted`` if given (one of its seats), else its seat
    asked now (its first seat if none is)."""
    if wanted is not None:
        if type(wanted) is not int or wanted not in seats:
            raise Refusal(400, f"seat must be one of your bot's seats here: {seats}")
        return wanted
    asked = [s for s in seats if s in table.state.deciders()]
    return asked[0] if asked else seats[0]


def requests_of(table: LiveTable, seats: list[int]) -> list[JSONObject]:
    """Returns the requests open now for the bot's seats at the table (usually one, or none)."""
    found = [open_request(table, seat) for seat in seats]
    return [r for r in found if r is not None]


async def answer(hall: Hall, bot: Bot, table_id: object, body: object) -> JSONObject:
    """Plays a bot's answer ``{"id", "action", "values"?, "seat"?}`` at its table; returns the table's
    new version. Refuses with one line: not an object (400), no open request for the seat (409), a
    request no longer open (409), an illegal action or malformed values (422); the table is unchanged."""
    if not isinstance(body, dict):
        raise Refusal(400, 'an answer is a JSON object {"id": N, "action": ID or TEXT}')
    table, seats = await bot_seats(hall, bot, table_id)
    seat = asked_seat(table, seats, body.get("seat"))
    request = open_request(table, seat)
    if request is None:
        raise Refusal(409, f"no request is open for seat {seat} at this table", table.record.version)
    version = table.record.version
    answered = body.get("id")
    if type(answered) is not int:
        raise Refusal(400, "id must be the open request's id (a whole number)")
    if answered != version:
        raise Refusal(409, f"request {answered} is not open: the open request is {version}", version)
    actions = [table.state.format_action(a) for a in table.state.legal_actions(seat)]  # as the request's
    try:
        parsed = parse_answer({**body, "type": body.get("type", "action")}, version, actions)
    except ProtocolError as err:
        raise Refusal(422, str(err), version) from None
    if isinstance(parsed, ViewAgain):
        return request
    text = actions[parsed.action] if isinstance(parsed.action, int) else parsed.action
    moved = await order(hall, table, seat, "act", {"action": text, "version": version})
    return {"type": "answered", "table": table.record.id, "seat": seat, "version": moved}
