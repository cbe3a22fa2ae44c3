"""The HTTP API: tables created from validated requests, views per seat, moves, and every refusal
(400, 403, 404, 409, 413, 422) leaving the table unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from .conftest import bearer, create


def view(client: TestClient, table: str, token: str) -> dict[str, Any]:
    reply = client.get(f"/api/tables/{table}", headers=bearer(token))
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


def human_table(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    """A Venture table of two people; returns its id, the token of the seat to act, and its view."""
    made = create(client, "venture", ["human", "human"])
    for seat, token in made["tokens"].items():
        seen = view(client, made["table"], token)
        if seen["asked"]:
            assert seen["seat"] == seat
            return made["table"], token, seen
    raise AssertionError("somebody is asked")


def test_the_front_page_and_the_games_are_served(client: TestClient) -> None:
    assert "New table" in client.get("/").text
    names = [g["name"] for g in client.get("/api/games").json()]
    assert names == ["im-the-boss", "venture", "venus-needs-men"] or sorted(names) == names
    assert "table.js" in client.get("/t/anything").text
    assert client.get("/static/table.js").status_code == 200


def test_a_move_is_accepted_and_the_version_moves_on(client: TestClient) -> None:
    table, token, seen = human_table(client)
    reply = client.post(
        f"/api/tables/{table}/actions", json={"action": seen["legal"][0], "version": 0}, headers=bearer(token)
    )
    assert reply.status_code == 200 and reply.json() == {"version": 1}
    after = view(client, table, token)
    assert after["version"] == 1 and after["log"][0]["action"] == seen["legal"][0]


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ([], "a table is described by a JSON object"),
        ({"game": "chess", "seats": []}, "game must be one of"),
        ({"game": "venture", "seats": [{"kind": "human"}]}, "seats must be a list of 2 to 6 seats"),
        ({"game": "venture", "seats": [{"kind": "alien"}] * 3}, "seat 0: kind must be 'human' or 'bot'"),
        ({"game": "venture", "seats": [{"kind": "bot", "bot": "nobody"}] * 3}, "seat 0: no bot 'nobody'"),
        ({"game": "venture", "seats": [{"kind": "human"}] * 3, "options": {"colour": "red"}}, "options:"),
        ({"game": "venture", "seats": [{"kind": "human"}] * 3, "options": {"deck": "/dev/zero"}}, "options:"),
        ({"game": "venture", "seats": [{"kind": "human"}] * 3, "move_seconds": -1}, "move_seconds must be"),
        ({"game": "venture", "seats": [{"kind": "human"}] * 3, "evil": 1}, "unknown field 'evil'"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(client: TestClient, spec: Any, reason: str) -> None:
    before = client.get("/api/tables").json()
    reply = client.post("/api/tables", json=spec)
    assert reply.status_code == 400 and reason in reply.json()["error"]
    assert client.get("/api/tables").json() == before


def test_every_refusal_leaves_the_table_unchanged(client: TestClient) -> None:
    table, token, seen = human_table(client)
    url = f"/api/tables/{table}/actions"
    cases = [
        (client.get("/api/tables/nope", headers=bearer(token)), 404, "there is no table"),
        (client.get(f"/api/tables/{table}"), 403, "token is needed"),
        (client.get(f"/api/tables/{table}", headers=bearer("x" * 30)), 403, "opens no seat"),
        (client.post(url, content=b"{not json", headers=bearer(token)), 400, "not JSON"),
        (client.post(url, json=["take"], headers=bearer(token)), 400, "an action is sent as"),
        (client.post(url, json={"action": 5}, headers=bearer(token)), 400, "an action is a text"),
        (
            client.post(url, json={"action": "take ZZ-Q", "version": 0}, headers=bearer(token)),
            422,
            "no corporation ZZ-Q",
        ),
        (
            client.post(url, json={"action": "fly", "version": 0}, headers=bearer(token)),
            422,
            "cannot read 'fly'",
        ),
        (
            client.post(url, json={"action": seen["legal"][0], "version": 7}, headers=bearer(token)),
            409,
            "version 0",
        ),
        (client.post(url, content=b"x" * 20_000, headers=bearer(token)), 413, "at most"),
        (client.delete(url), 405, "method not allowed"),
    ]
    for reply, status, reason in cases:
        assert reply.status_code == status, (status, reply.text)
        assert reason in reply.json()["error"], reply.text
    assert client.post(url, json={"action": "take ZZ-Q", "version": 0}, headers=bearer(token)).json()["error"]
    after = view(client, table, token)
    assert {**after, "clock": None} == {**seen, "clock": None}


def test_a_seat_that_is_not_asked_is_told_why(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    waiting = next(t for t in made["tokens"].values() if not view(client, made["table"], t)["asked"])
    seen = view(client, made["table"], waiting)
    assert seen["legal"] == []
    reply = client.post(
        f"/api/tables/{made['table']}/actions", json={"action": "end", "version": 0}, headers=bearer(waiting)
    )
    assert reply.status_code == 422 and "may not act now" in reply.json()["error"]


def test_a_spectator_sees_the_public_table_and_cannot_act(client: TestClient) -> None:
    made = create(client, "venture", ["human", "greedy"])
    seen = view(client, made["table"], made["spectator_token"])
    assert seen["seat"] is None and seen["legal"] == [] and "hand" not in seen["observation"]
    reply = client.post(
        f"/api/tables/{made['table']}/actions",
        json={"action": "end"},
        headers=bearer(made["spectator_token"]),
    )
    assert reply.status_code == 403


def test_the_record_and_replay_wait_for_the_end(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    assert client.get(f"/api/tables/{made['table']}/record").status_code == 409
    assert client.get(f"/api/tables/{made['table']}/replay").status_code == 409
