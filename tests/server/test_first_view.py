"""A connection's first view is never followed by an older update: a move that lands while the new
connection's chat history is read reaches it in its first view, not after it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parlour.server.storage import Store

from .conftest import bearer, create, make_client


def test_a_move_landing_during_the_chat_read_never_makes_versions_go_back(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client(db) as client:
        made = create(client, "venture", ["human", "human"])
        table, url = made["table"], f"/api/tables/{made['table']}"
        reading = Store.chat
        moved: list[int] = []

        def move() -> int:
            """Makes the first legal move of the seat asked; returns the new version."""
            for token in made["tokens"].values():
                seen = client.get(url, headers=bearer(token)).json()
                if seen["legal"]:
                    action = {"action": seen["legal"][0], "version": seen["version"]}
                    reply = client.post(f"{url}/actions", json=action, headers=bearer(token))
                    assert reply.status_code == 200, reply.text
                    found: int = reply.json()["version"]
                    return found
            raise AssertionError("nobody is asked")

        def slow_chat(store: Store, table_id: str, last: int = 100) -> list[Any]:
            """Reads the chat, and meanwhile (as a slow database would allow) the table moves twice."""
            found = reading(store, table_id, last)
            moved.extend(move() for _ in range(2))
            return found

        monkeypatch.setattr(Store, "chat", slow_chat)
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": made["spectator_token"]}))
            versions = [json.loads(ws.receive_text())["version"]]
            monkeypatch.setattr(Store, "chat", reading)
            assert moved, "no move landed during the chat read: the test proves nothing"
            last = move()
            while versions[-1] < last:
                message = json.loads(ws.receive_text())
                if message.get("type") == "table":
                    versions.append(message["version"])
    assert versions[0] >= moved[-1], versions
    assert versions == sorted(set(versions)), f"versions went back or repeated: {versions}"
