"""Seating a server bot account at a new table: the seat ``{"kind": "bot", "bot": "account:NAME"}``.

The seat is stored as a person's (kind ``human``, no link: nobody opens it but the bot's token),
bound to the bot's account, so its clock, the auto policy when its time runs out, the stand-ins and the
ratings treat it as any person's. A table seating one gets a move clock if it has none (BOT_SECONDS): a
bot that never answers cannot stall it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from parlour.server.botaccounts.service import bind_bot_seats, online_bot
from parlour.server.clock import Clock
from parlour.server.storage import SeatRecord, Store, TableRecord
from parlour.server.tables import Refusal

BOT_SEAT = "account:"
"""How a table's seat names a bot account: ``account:NAME``."""
BOT_SECONDS = 60.0
"""The move clock of a live table seating a bot account and made without one (seconds a decision)."""


def bot_seat(number: int, bot: str) -> SeatRecord:
    """Returns the seat a bot account will take (its account is looked up when the table is made)."""
    name = bot[len(BOT_SEAT) :]
    if not 3 <= len(name) <= 24:
        raise Refusal(400, f"seat {number}: a bot account's seat is account:NAME (a username)")
    return SeatRecord(number, "human", ask="always", name=name)


def is_bot_seat(seat: SeatRecord) -> bool:
    """Returns whether a seat of a request is a bot account's (a person's without a link)."""
    return seat.kind == "human" and seat.token_hash is None


async def seat_bots(
    store: Store, clock: Clock, record: TableRecord, store_table: Callable[[TableRecord], Awaitable[object]]
) -> None:
    """Stores the new table (``store_table``), its bot accounts' seats bound to them; refuses (400) a
    bot account that is not online now (the seat then takes the bot's own spelling of its name)."""
    bound: dict[int, int] = {}
    for seat in record.seats:
        if not is_bot_seat(seat):
            continue
        found = await asyncio.to_thread(online_bot, store, seat.name or "", clock.now())
        if found is None:
            raise Refusal(400, f"seat {seat.seat}: no bot account {seat.name!r} is online now")
        seat.name, seat.ask = found.name, "always"  # a bot answers every window itself
        bound[seat.seat] = found.account_id
    await store_table(record)
    if bound:
        await store.write(bind_bot_seats, store, record.id, bound, table=record.id)
