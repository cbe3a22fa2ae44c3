"""The platform's finer promises: HTTP rate limits, game clocks, the reaction window's countdown,
card texts for hovering and the results' score-over-time."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from starlette.testclient import TestClient

from parlour.server.app import Settings, create_app

from .conftest import FAST, bearer, create, make_client
from .test_live import hello, wait_for


def test_http_requests_beyond_an_addresses_rate_are_refused_and_change_nothing(db: Path) -> None:
    settings = Settings(f"sqlite:///{db}", bot_workers=0, timing=FAST, http_rate=0.01, http_burst=4)
    with TestClient(create_app(settings)) as client:
        made = create(client, "venture", ["human", "human"])  # one request
        table, token = made["table"], made["tokens"][0]
        seen = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        other = made["tokens"][1 - seen["seat"] if seen["asked"] else 1]
        asked = token if seen["asked"] else other
        client.get("/api/games")
        client.get("/api/games")  # the burst of four is used up
        refused = client.post(f"/api/tables/{table}/actions", json={"action": "end"}, headers=bearer(asked))
        assert refused.status_code == 429
        assert refused.json() == {"type": "error", "status": 429, "error": "too many requests: slow down"}
        assert client.app.state.hall.get(table).record.version == 0  # type: ignore[attr-defined]


def test_a_game_clock_that_runs_out_hands_each_later_decision_to_the_auto_policy(db: Path) -> None:
    with make_client(db) as client:
        made = create(client, "venture", ["human", "greedy"], game_seconds=1)
        table, token = made["table"], made["tokens"][0]
        first = wait_for(client, table, token, lambda v: v["asked"])
        assert first["seats"][0]["time_left"] == 1.0 and first["clock"]["game_seconds"] == 1.0
        assert first["clock"]["deadline"] is not None
        wait_for(client, table, token, lambda v: v["seats"][0]["time_left"] == 0.0, seconds=10)
        moves = client.app.state.hall.get(table).record.moves  # type: ignore[attr-defined]
        wait_for(client, table, token, lambda v: len([m for m in moves if m.note]) >= 2, seconds=20)
        timed_out = [m for m in moves if m.note == "the clock ran out"]
        assert timed_out and {m.seat for m in timed_out} == {0}
        assert all(m.seat == 1 or m.note for m in moves[moves.index(timed_out[0]) :])


def test_a_reaction_window_shows_everyone_who_is_still_asked_and_when_answers_land(db: Path) -> None:
    with make_client(db) as client:
        made = create(client, "venus-needs-men", ["human", "human"], auto_pass=False)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            seen = hello(ws, made["spectator_token"])
            assert "card_texts" in seen and "Time Dilation" in seen["card_texts"]
            window = seen["window"]
            assert seen["passing_window"] and window is not None
            assert window["waiting"] == seen["deciders"] and window["answer_at"] >= window["opened"]
            asked = next(t for t in made["tokens"].values() if hello_view(client, table, t)["asked"])
            client.post(f"/api/tables/{table}/actions", json={"action": "pass"}, headers=bearer(asked))
            update = json.loads(ws.receive_text())
            while update.get("type") != "table" or update["version"] < 1:
                update = json.loads(ws.receive_text())
            assert "card_texts" not in update  # only a full view carries them
            if not update["passing_window"]:
                assert update["window"] is None


def hello_view(client: TestClient, table: str, token: str) -> dict[str, object]:
    """Returns a seat's view over HTTP."""
    found: dict[str, object] = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
    return found


def test_the_results_carry_the_scores_over_time_from_the_start_to_the_final_scores(
    client: TestClient,
) -> None:
    made = create(client, "im-the-boss", ["random", "greedy", "greedy"], options={"length": "short"})
    seen = wait_for(client, made["table"], made["spectator_token"], lambda v: v["over"], seconds=120)
    timeline = seen["results"]["timeline"]
    assert timeline[0]["move"] == 0 and timeline[0]["scores"] == [0, 0, 0]
    assert timeline[-1]["move"] == seen["version"] and timeline[-1]["scores"] == seen["results"]["scores"]
    moves = [p["move"] for p in timeline]
    assert moves == sorted(set(moves)) and len(timeline) > 3
    assert all(a["turn"] <= b["turn"] for a, b in itertools.pairwise(timeline))


def test_undo_is_offered_where_the_rules_allow_it_and_takes_the_move_back(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    table = made["table"]
    views = {seat: hello_view(client, table, token) for seat, token in made["tokens"].items()}
    seat = next(s for s, v in views.items() if v["asked"])
    token = made["tokens"][seat]
    before = views[seat]
    take = next(a for a in before["legal"] if str(a).startswith("take "))  # type: ignore[attr-defined]
    client.post(f"/api/tables/{table}/actions", json={"action": take}, headers=bearer(token))
    after = hello_view(client, table, token)
    assert "undo" in after["legal"]  # type: ignore[operator]
    client.post(f"/api/tables/{table}/actions", json={"action": "undo"}, headers=bearer(token))
    back = hello_view(client, table, token)
    assert back["legal"] == before["legal"] and back["version"] == 2
    taken_back = dict(back["observation"])  # type: ignore[call-overload]
    assert taken_back.pop("undos_left") == 9  # at most 10 take-backs a turn (ruling A-17)
    assert taken_back == {k: v for k, v in before["observation"].items() if k != "undos_left"}  # type: ignore[attr-defined]
