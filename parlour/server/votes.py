"""The others' vote to replace a person whose clock ran out again and again by a bot, for the rest of
the game (issue 32): every other person at the table votes, then the seat's stand-in is the clock's
bot and its person may no longer take it back. Votes are stored with the seat (``seats.votes``)."""

from __future__ import annotations

from parlour.server.tables import TIMEOUTS_AWAY, LiveTable, Refusal


async def vote_replace(table: LiveTable, by: int, seat: object) -> None:
    """Records the vote of ``by``'s person to replace ``seat``'s; the last vote needed puts the bot in.
    Refuses (one line) a bad seat, one's own, a bot's, a seat whose clock ran out fewer than
    TIMEOUTS_AWAY times, a second vote and a finished game."""
    record = table.record
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < record.players:
        raise Refusal(400, f"seat must be 0 to {record.players - 1}")
    stored = record.seats[seat]
    if stored.kind != "human":
        raise Refusal(422, f"seat {seat} is a bot's")
    if seat == by:
        raise Refusal(422, "a person does not vote on their own seat")
    if table.state.is_over():
        raise Refusal(409, "the game is over")
    if stored.timeouts < TIMEOUTS_AWAY:
        raise Refusal(
            422, f"seat {seat}'s clock ran out {stored.timeouts} times: a vote needs {TIMEOUTS_AWAY}"
        )
    if stored.replaced:
        raise Refusal(409, f"seat {seat} is already played by a bot for the rest of the game")
    if by in stored.votes:
        raise Refusal(409, f"you voted on seat {seat} already")
    voters = {
        s.seat
        for s in record.seats
        if s.kind == "human" and not s.bot_account and not s.replaced and s.seat != seat
    }
    async with table.lock:
        table.check_owned()  # a copy of a table another node owns changes nothing (cluster.py)
        stored.votes = sorted({*stored.votes, by})
        if voters <= set(stored.votes):
            stored.replaced = True
            stored.stand_in = table.timing.clock_bot
            table.replan_seat(seat)
        await table.save()
    await table.broadcast()
    table.schedule()
