"""A table's first decision notifies at once (issue 32): at a table "play again" makes, whose seats keep
their accounts, the first person asked hears of it before anyone moves, once however often the table is
asked for; a real local HTTP receiver gets the webhook."""

from __future__ import annotations

import time
from pathlib import Path

from .conftest import create
from .notify_helpers import Receiver, asked, bind_seats, notify_client, outbox, set_for, sql, wait_until
from .test_play_again import again, play_out


def test_the_first_person_asked_at_a_table_play_again_makes_hears_of_it_at_once(db: Path) -> None:
    with Receiver() as receiver, notify_client(db) as client:
        made = create(client, "embers", ["human", "human"], pace="turn-based", move_hours=24)
        bind_seats(client, db, made)
        play_out(client, made)
        for seat in (0, 1):
            set_for(db, made["accounts"][seat], webhook_url=f"http://127.0.0.1:{receiver.port}/seat{seat}")
        reply = again(client, made["table"], made["tokens"][0])
        assert reply.status_code == 200, reply.text
        new = reply.json()["table"]
        (first,) = asked(client, new)
        (account,) = sql(db, "SELECT account_id FROM seats WHERE table_id = ? AND seat = ?", new, first)[0]
        old_seat = {a: s for s, a in made["accounts"].items()}[account]
        wait_until(lambda: len(receiver.posts) == 1)
        assert again(client, made["table"], made["tokens"][1]).json()["table"] == new  # asked for again
        time.sleep(0.3)  # time for a second message that should not come
        rows = [(row[1], row[4], row[6]) for row in outbox(db) if row[3] == new]
        assert rows == [(account, "turn", "sent")]
        assert [path for path, _, _ in receiver.posts] == [f"/seat{old_seat}"]
