"""WebSockets: each seat hears only what it may know, moves appear on every screen, reconnecting puts a
player back, bots and stand-ins play, clocks run out, and a restart resumes every table."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, cast

import pytest
from starlette.testclient import TestClient

from parlour.core.registry import load_game
from parlour.server.tables import Timing
from parlour.server.views import seat_view

from .conftest import bearer, create, make_client

GAMES = ["venture", "im-the-boss", "venus-needs-men"]


def hello(ws: Any, token: str) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    found: dict[str, Any] = json.loads(ws.receive_text())
    return found


def wait_for(client: TestClient, table: str, token: str, test: Any, seconds: float = 20) -> dict[str, Any]:
    end = time.time() + seconds
    while time.time() < end:
        seen: dict[str, Any] = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        if test(seen):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"not reached in {seconds} s: {seen['summary']}")


def test_a_wrong_hello_is_refused_and_closed(client: TestClient) -> None:
    made = create(client, "venture", ["human", "greedy"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "nope" * 8}))
        assert json.loads(ws.receive_text())["status"] == 403
    with client.websocket_connect("/ws/nosuchtable") as ws:
        assert json.loads(ws.receive_text())["status"] == 404
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        ws.send_text("[1, 2")
        assert json.loads(ws.receive_text())["status"] == 400


def test_bad_messages_get_errors_and_change_nothing(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    token = made["tokens"][0]
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        first = hello(ws, token)
        for message, status in [
            ("{", 400),
            (json.dumps({"no": "type"}), 400),
            (json.dumps({"type": "dance"}), 400),
            (json.dumps({"type": "act", "action": "take ZZ-Q", "version": 0}), 422),
            (json.dumps({"type": "act", "action": "end", "version": 99}), 409),
            (json.dumps({"type": "chat", "text": ""}), 400),
            (json.dumps({"type": "auto_pass", "on": "yes"}), 400),
            (json.dumps({"type": "stand_in", "seat": 9, "bot": "greedy"}), 400),
            ("x" * 20_000, 413),
        ]:
            ws.send_text(message)
            reply = json.loads(ws.receive_text())
            assert reply["type"] == "error" and reply["status"] == status, (message[:40], reply)
    again = client.get(f"/api/tables/{made['table']}", headers=bearer(token)).json()
    assert again["version"] == first["version"] == 0


def test_messages_beyond_the_rate_are_refused(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, made["tokens"][0])
        for _ in range(60):
            ws.send_text(json.dumps({"type": "ping"}))
        replies = [json.loads(ws.receive_text())]
        while replies[-1]["type"] == "pong":
            replies.append(json.loads(ws.receive_text()))
        time.sleep(1.1)
        ws.send_text(json.dumps({"type": "ping"}))
        after = json.loads(ws.receive_text())
    # The burst of 40 is answered, then one refusal for the rest (one a second at most, not one each),
    # and the connection goes on.
    assert 40 <= len(replies) - 1 <= 45 and replies[-1]["status"] == 429, replies
    assert after["type"] == "pong"


def test_two_people_see_each_others_moves_live(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
        views = {0: hello(a, made["tokens"][0]), 1: hello(b, made["tokens"][1])}
        mover = 0 if views[0]["asked"] else 1
        sockets = {0: a, 1: b}
        json.loads(a.receive_text())  # a hears that b connected
        action = views[mover]["legal"][0]
        sockets[mover].send_text(json.dumps({"type": "act", "action": action, "version": 0}))
        for seat in (0, 1):
            while True:
                message = json.loads(sockets[seat].receive_text())
                if message["type"] == "table" and message["version"] == 1:
                    break
            assert message["log"][-1]["action"] == action
            assert message["log_since"] + len(message["log"]) == 1  # the log's one entry, given once


def test_chat_reaches_everyone(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
        hello(a, made["tokens"][0])
        hello(b, made["tokens"][1])
        a.receive_text()  # b connected
        a.send_text(json.dumps({"type": "chat", "text": "good luck\x07"}))
        for ws in (a, b):
            while (message := json.loads(ws.receive_text()))["type"] != "chat":
                pass
            assert message == {**message, "seat": 0, "text": "good luck"}


@pytest.mark.parametrize("game", GAMES)
def test_each_seat_hears_only_what_it_may_know(client: TestClient, game: str) -> None:
    """Everything a seat's socket receives is what the engine shows that seat: identical across every
    re-deal of the cards it cannot see, and never the seed (until the game is over)."""
    options = {"length": "short"} if game != "venture" else {}
    made = create(client, game, ["human", "human", "human"], auto_pass=False, options=options)
    table = made["table"]
    rng = random.Random(1)
    received: dict[int, list[dict[str, Any]]] = {0: [], 1: [], 2: []}
    with (
        client.websocket_connect(f"/ws/{table}") as s0,
        client.websocket_connect(f"/ws/{table}") as s1,
        client.websocket_connect(f"/ws/{table}") as s2,
    ):
        sockets = [s0, s1, s2]
        views = [hello(ws, made["tokens"][seat]) for seat, ws in enumerate(sockets)]
        states = {0: server_state(client, table).clone()}  # the engine's state at every version
        for seat, v in enumerate(views):
            received[seat].append(v)
        for _ in range(25):
            current = client.get(f"/api/tables/{table}", headers=bearer(made["spectator_token"])).json()
            if current["over"]:
                break
            seat = current["deciders"][0]
            mine = client.get(f"/api/tables/{table}", headers=bearer(made["tokens"][seat])).json()
            action = rng.choice(mine["legal"])
            sockets[seat].send_text(json.dumps({"type": "act", "action": action, "version": mine["version"]}))
            for other, ws in enumerate(sockets):
                while True:
                    message = json.loads(ws.receive_text())
                    received[other].append(message)
                    if message.get("type") == "table" and message["version"] == mine["version"] + 1:
                        break
            states[mine["version"] + 1] = server_state(client, table).clone()
        seed = str(server_seed(client, table))
        hall_table = client.app.state.hall.get(table)  # type: ignore[attr-defined]
        for seat, messages in received.items():
            for message in messages:
                assert seed not in json.dumps(message)
                if message.get("type") == "table":
                    check_message(hall_table, states[message["version"]], seat, message, game)


def check_message(table: Any, state: Any, seat: int, message: dict[str, Any], game: str) -> None:
    """Checks that every part of a message a seat received is what a re-deal of the cards the seat
    cannot see would have shown it: the views, the log, who is still asked, the public texts."""
    redealt = state.determinize(seat, random.Random(seat))
    expected = seat_view(
        redealt, table.log, seat, message["version"], message["seats"], message["log_since"], table.notes
    )
    for key, value in expected.items():
        if key == "log":
            assert message[key] == cast(list[Any], value)[: len(message[key])], (game, seat, key)
        else:
            assert message[key] == value, (game, seat, key)
    if message["window"] is not None:
        assert message["window"]["waiting"] == list(redealt.waiting()), (game, seat)
    if "card_texts" in message:
        assert (
            message["card_texts"] == redealt.card_texts()
            and message["table_content"] == redealt.table_content()
        )


def server_seed(client: TestClient, table: str) -> int:
    return int(client.app.state.hall.get(table).record.seed)  # type: ignore[attr-defined]


def server_state(client: TestClient, table: str) -> Any:
    return client.app.state.hall.get(table).state  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_bots_play_a_table_to_its_results(client: TestClient, game: str) -> None:
    options = {"length": "short"} if game != "venture" else {}
    made = create(client, game, ["random", "greedy", "greedy"], options=options)
    seen = wait_for(client, made["table"], made["spectator_token"], lambda v: v["over"], seconds=120)
    results = seen["results"]
    assert results["winners"] and len(results["scores"]) == 3 and "seed" in results
    record = client.get(f"/api/tables/{made['table']}/record").json()
    assert record["format"] == "parlour-record/1" and len(record["moves"]) == seen["version"]
    state = load_game(game).new_state(
        3, record["seed"], load_game(game).options(record["options"], stored=True)
    )
    for move in record["moves"]:
        state.apply_notation(move["action"], move["seat"])
    assert state.is_over() and state.scores() == results["scores"]
    start = client.get(f"/api/tables/{made['table']}/replay?at=0&seat=all").json()
    assert start["version"] == 0 and start["log"] == []
    middle = client.get(f"/api/tables/{made['table']}/replay?at=5&seat=1").json()
    assert middle["seat"] == 1 and len(middle["log"]) == 5
    assert client.get(f"/api/tables/{made['table']}/replay?at=-1").status_code == 400


def test_a_stand_in_plays_for_a_person_who_left_and_gives_the_seat_back(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    table, tokens = made["table"], made["tokens"]
    with client.websocket_connect(f"/ws/{table}") as a:
        hello(a, tokens[0])
        a.send_text(json.dumps({"type": "stand_in", "seat": 1, "bot": "greedy"}))
        wait_for(client, table, tokens[1], lambda v: v["seats"][1]["stand_in"] == "greedy")
    with client.websocket_connect(f"/ws/{table}") as b:
        hello(b, tokens[1])
        b.send_text(json.dumps({"type": "stand_in", "seat": 1, "bot": None}))
        back = wait_for(client, table, tokens[1], lambda v: v["seats"][1]["stand_in"] is None)
    assert back["seats"][1]["kind"] == "human"


@pytest.mark.slow
def test_a_clock_running_out_makes_the_auto_policy_act(db: Path) -> None:
    with make_client(db) as client:
        made = create(client, "venture", ["human", "greedy"], move_seconds=1)
        table, token = made["table"], made["tokens"][0]
        seen = wait_for(client, table, token, lambda v: v["asked"] or v["over"])
        assert seen["clock"]["deadline"] is not None
        version = seen["version"]
        after = wait_for(client, table, token, lambda v: v["version"] > version, seconds=10)
        hall_table = client.app.state.hall.get(table)  # type: ignore[attr-defined]
        noted = [m for m in hall_table.record.moves if m.note == "the clock ran out"]
        assert noted and noted[0].seat == 0 and after["version"] > version


def test_a_restart_resumes_every_table_where_it_was(db: Path) -> None:
    with make_client(db) as client:
        made = create(client, "venture", ["human", "human"])
        table, tokens = made["table"], made["tokens"]
        for _ in range(6):
            v = next(
                seen
                for t in tokens.values()
                if (seen := client.get(f"/api/tables/{table}", headers=bearer(t)).json())["asked"]
            )
            token = tokens[v["seat"]]
            client.post(
                f"/api/tables/{table}/actions", json={"action": v["legal"][-1]}, headers=bearer(token)
            )
        before = client.get(f"/api/tables/{table}", headers=bearer(made["spectator_token"])).json()
    with make_client(db, Timing(think=0, pass_delay=0, window_pause=0.0)) as again:
        after = again.get(f"/api/tables/{table}", headers=bearer(made["spectator_token"])).json()
    assert {**after, "clock": None} == {**before, "clock": None}
