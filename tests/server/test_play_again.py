"""Play again (issue 31): a finished table's seated person makes the next table, the seats rotated by
one; each person's own token opens their new seat (tokens stay stored only hashed); idempotent;
refused to spectators and before the end, with one line."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from parlour.server.storage import open_store

from .conftest import bearer, create, database_url, stored_bytes
from .test_api import view


def play_out(client: TestClient, made: dict[str, Any]) -> None:
    """Plays the people's seats at random (the bots play themselves) until the game is over."""
    chooser, end = random.Random(5), time.time() + 60
    while not view(client, made["table"], made["spectator_token"])["over"]:
        assert time.time() < end, "the game did not end"
        for token in made["tokens"].values():
            seen = view(client, made["table"], token)
            if seen["asked"] and seen["legal"]:
                body = {"action": chooser.choice(seen["legal"]), "version": seen["version"]}
                client.post(f"/api/tables/{made['table']}/actions", json=body, headers=bearer(token))
        time.sleep(0.01)


def finished(client: TestClient, seats: list[str]) -> dict[str, Any]:
    """A finished Embers table with these seats ("human" or a bot), its people named A, B, …"""
    made = create(client, "embers", seats)
    for number, token in made["tokens"].items():
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            ws.receive_json()
            ws.send_json({"type": "name", "text": "ABCDEF"[number]})
            ws.receive_json()
    play_out(client, made)
    return made


def again(client: TestClient, table: str, token: str) -> Any:
    return client.post(f"/api/tables/{table}/again", headers=bearer(token))


def test_play_again_rotates_the_seats_and_each_token_opens_its_new_seat(client: TestClient) -> None:
    made = finished(client, ["human", "random", "human"])
    reply = again(client, made["table"], made["tokens"][2])
    assert reply.status_code == 200, reply.text
    new = reply.json()["table"]
    assert new != made["table"]
    seats = view(client, new, made["tokens"][0])["seats"]
    assert [(s["kind"], s["bot"], s["name"]) for s in seats] == [
        ("bot", "random", None),  # the old seat 1
        ("human", None, "C"),  # the old seat 2
        ("human", None, "A"),  # the old seat 0
    ]
    assert view(client, new, made["tokens"][0])["seat"] == 2
    assert view(client, new, made["tokens"][2])["seat"] == 1
    assert view(client, new, made["spectator_token"])["seat"] is None
    old = view(client, made["table"], made["tokens"][0])
    assert old["next_table"] == new and view(client, new, made["tokens"][0])["next_table"] is None


def test_a_second_request_returns_the_same_table(client: TestClient) -> None:
    made = finished(client, ["human", "human"])
    first = again(client, made["table"], made["tokens"][0]).json()["table"]
    assert again(client, made["table"], made["tokens"][1]).json()["table"] == first
    assert again(client, made["table"], made["tokens"][0]).json()["table"] == first
    games = [t for t in client.get("/api/tables").json() if t["game"] == "embers"]
    assert len(games) == 2


def test_spectators_and_unfinished_tables_are_refused_with_one_line(client: TestClient) -> None:
    made = finished(client, ["human", "human"])
    refused = again(client, made["table"], made["spectator_token"])
    assert (
        refused.status_code == 403 and refused.json()["error"] == "only a seated person may ask to play again"
    )
    assert again(client, made["table"], "").status_code == 403  # a visitor without a link
    playing = create(client, "embers", ["human", "human"])
    early = again(client, playing["table"], playing["tokens"][0])
    assert early.status_code == 409 and early.json()["error"] == "the game is not over yet"
    assert view(client, made["table"], made["tokens"][0])["next_table"] is None
    assert len(client.get("/api/tables").json()) == 2


def test_the_link_to_the_next_table_is_stored_and_no_token_is(client: TestClient, db: Path) -> None:
    made = finished(client, ["human", "human"])
    new = again(client, made["table"], made["tokens"][0]).json()["table"]
    store = open_store(database_url(db))
    try:
        stored = store.load(made["table"])
        assert stored is not None and stored.next_table == new
    finally:
        store.close()
    data = stored_bytes(db)
    assert all(token.encode() not in data for token in made["tokens"].values())
