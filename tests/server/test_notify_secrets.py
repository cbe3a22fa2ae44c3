"""A notification never holds hidden information (issue 32, docs/security.md): whatever the game and
the moves, every message is one line naming the game's title and the table, no card of anyone's
(the player's own hand neither: a lock screen shows it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from parlour.core.registry import game_names, load_game

from .conftest import bearer
from .notify_helpers import Receiver, asked, bound_table, hall_of, notify_client, outbox, set_for, wait_until


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
        wait_until(lambda: outbox(db) and all(row[6] == "sent" for row in outbox(db)))
        line = re.compile(rf"Parlour: table {re.escape(table)} \({re.escape(title)}\) is waiting for you")
        texts = [json.loads(row[5])["text"] for row in outbox(db)]
        texts += [body["content"] for body in receiver.json()] + [body["text"] for body in receiver.json()]
        assert texts
        for text in texts:
            assert line.fullmatch(text), text
            assert not any(card in text for card in cards if len(card) > 3), text
        for row in outbox(db):
            assert set(json.loads(row[5])) == {"text", "table", "title", "kind"}
