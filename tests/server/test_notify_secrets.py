"""A notification never holds hidden information (issue 32, docs/security.md): whatever the game and
the moves, every message is one line naming the game's title and the table, no card of anyone's
(the player's own hand neither: a lock screen shows it)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from parlour.core.registry import game_names, load_game
from parlour.server.notify.outbox import Asked, enqueue
from parlour.server.notify.webhook import body_of

from .conftest import bearer
from .notify_helpers import (
    Receiver,
    asked,
    bound_table,
    deliver_now,
    hall_of,
    notify_client,
    outbox,
    payload,
    set_for,
    wait_until,
)


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_every_message_of_a_game_is_its_title_and_table_and_names_no_card(db: Path, game: str) -> None:
    title = load_game(game).title
    players = max(load_game(game).min_players, 3 if load_game(game).max_players >= 3 else 2)
    with Receiver() as receiver, notify_client(db) as client:
        made = bound_table(client, db, game, players)
        table = made["table"]
        for seat in range(players):
            set_for(db, made["accounts"][seat], webhook_url=receiver.url)
        live = hall_of(client).get(table)
        cards = set(live.card_texts())
        for _ in range(40):
            deciders = asked(client, table)
            if not deciders or live.state.is_over():
                break
            seat = deciders[0]
            view = client.get(f"/api/tables/{table}", headers=bearer(made["tokens"][seat])).json()
            if not view["legal"]:
                break
            client.post(
                f"/api/tables/{table}/actions",
                json={"action": view["legal"][-1], "version": view["version"]},
                headers=bearer(made["tokens"][seat]),
            )
        wait_until(lambda: outbox(db) and all(row[6] in ("sent", "dropped") for row in outbox(db)))
        line = re.compile(rf"Parlour: table {re.escape(table)} \({re.escape(title)}\) is waiting for you")
        texts = [payload(row)["text"] for row in outbox(db)]
        texts += [body["content"] for body in receiver.json()] + [body["text"] for body in receiver.json()]
        assert texts
        for text in texts:
            assert line.fullmatch(text), text
            assert not any(card in text for card in cards if len(card) > 3), text
        for row in outbox(db):
            assert set(payload(row)) == {"text", "table", "title", "kind"}


def test_a_window_and_a_turn_send_the_same_words(db: Path) -> None:
    """A window asks a person with ``playable`` or ``only`` only when they hold a card that answers it:
    its message must not differ from a turn's (ruling S-4)."""
    with Receiver() as receiver, notify_client(db, notify_poll=3600) as client:
        made = bound_table(client, db)
        table = made["table"]
        (seat,) = asked(client, table)
        set_for(db, made["accounts"][seat], webhook_url=receiver.url)
        store = hall_of(client).store
        for kind in ("window", "turn"):  # the one asked now: each message is checked again when sent
            assert enqueue(store, Asked(table, "Venture", (seat,), kind), time.time()) == 1
            assert deliver_now(client) == 1
        assert [row[4] for row in outbox(db)] == ["window", "turn"]
        window, turn = (body for _, _, body in receiver.posts)
        assert window == turn == body_of(f"Parlour: table {table} (Venture) is waiting for you")
