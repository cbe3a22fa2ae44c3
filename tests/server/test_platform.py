"""The platform's finer promises: HTTP rate limits, game clocks, the reaction window's countdown,
card texts for hovering and the results' score-over-time."""

from __future__ import annotations

import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.core.record import replay_steps, start_state
from parlour.server import tables
from parlour.server.app import Settings, create_app
from parlour.server.replays import Replayer
from parlour.server.storage import Store
from parlour.server.tables import Timing

from .conftest import FAST, bearer, create, database_url, make_client
from .test_live import hello, wait_for


def test_http_requests_beyond_an_addresses_rate_are_refused_and_change_nothing(db: Path) -> None:
    settings = Settings(database_url(db), bot_workers=0, timing=FAST, http_rate=0.01, http_burst=4)
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


def against_greedy(client: TestClient, **clock: Any) -> tuple[str, str]:
    """Creates a Venture table of a person (seat 0) against greedy with this clock; returns the table's id
    and the person's token."""
    made = create(client, "venture", ["human", "greedy"], **clock)
    return made["table"], made["tokens"][0]


@pytest.mark.slow
def test_a_game_clock_that_runs_out_hands_each_later_decision_to_the_auto_policy(db: Path) -> None:
    with make_client(db) as client:
        table, token = against_greedy(client, game_seconds=1)
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
            # The Zap window asks every seat in turn: the one asked now first, then the rest in order.
            assert window["waiting"][: len(seen["deciders"])] == seen["deciders"]
            assert sorted(window["waiting"]) == [0, 1] and window["answer_at"] >= window["opened"]
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


@pytest.mark.slow
def test_a_restart_gives_the_decision_its_time_afresh_and_the_clock_still_runs_out(db: Path) -> None:
    with make_client(db) as client:
        table, token = against_greedy(client, move_seconds=2)
        before = wait_for(client, table, token, lambda v: v["asked"])
        deadline = before["clock"]["deadline"]
        assert deadline is not None
    time.sleep(0.5)  # the server is down: nobody's thinking time
    with make_client(db) as again:
        resumed = again.get(f"/api/tables/{table}", headers=bearer(token)).json()
        assert resumed["clock"]["deadline"] >= deadline + 0.5 and resumed["version"] == before["version"]
        after = wait_for(again, table, token, lambda v: v["version"] > before["version"], seconds=10)
        moves = again.app.state.hall.get(table).record.moves  # type: ignore[attr-defined]
        assert moves[before["version"]].note == "the clock ran out" and after["version"] > before["version"]


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("ismcts:3600s", "at most 2000 ms"),
        ("ismcts:500it", "at most 2000 ms"),
        ("nobody", "no bot 'nobody'"),
        ("cmd:python3 -c pass", "a cmd: seat runs a program: only parlour play"),
        ("cmd[timeout=1s]:true", "a cmd: seat runs a program: only parlour play"),
    ],
)
def test_a_table_may_not_ask_for_a_bot_the_server_will_not_run(
    client: TestClient, bot: str, reason: str
) -> None:
    spec = {"game": "venture", "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]}
    reply = client.post("/api/tables", json=spec)
    assert reply.status_code == 400 and reason in reply.json()["error"]
    made = create(client, "venture", ["human", "human"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, made["tokens"][0])
        ws.send_text(json.dumps({"type": "stand_in", "seat": 0, "bot": bot}))
        refusal = json.loads(ws.receive_text())
        assert refusal["status"] == 400 and reason in refusal["error"]
    assert create(client, "venture", ["human", "ismcts:1s"])["table"]


def test_a_seat_with_an_unknown_field_is_refused(client: TestClient) -> None:
    spec = {
        "game": "venture",
        "seats": [{"kind": "human", "colour": "red"}, {"kind": "bot", "bot": "random"}],
    }
    reply = client.post("/api/tables", json=spec)
    assert reply.status_code == 400 and reply.json()["error"] == "seat 0: unknown field 'colour'"


@pytest.mark.slow
def test_changing_a_setting_back_and_forth_does_not_start_a_bots_search_again(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = tables.choose_in_worker

    def counted(*args: Any) -> str:
        calls.append(args[-1])
        return real(*args)

    monkeypatch.setattr(tables, "choose_in_worker", counted)
    with make_client(db, Timing(think=1.0, pass_delay=0.0)) as client:
        table, token = against_greedy(client)
        rng = random.Random(3)
        for _ in range(60):  # the person plays its turn (if it is first), so that the bot is to move
            mine = hello_view(client, table, token)
            if not mine["asked"]:
                break
            choices = [a for a in mine["legal"] if a not in ("undo", "cancel")]  # type: ignore[attr-defined]
            client.post(
                f"/api/tables/{table}/actions", json={"action": rng.choice(choices)}, headers=bearer(token)
            )
        version = client.app.state.hall.get(table).record.version  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, token)
            for on in (False, True, False, True):
                ws.send_text(json.dumps({"type": "auto_pass", "on": on}))
            wait_for(client, table, token, lambda v: v["version"] > version, seconds=10)
    assert calls.count(1) >= 1
    bot_calls_at_version = [c for c in calls if c == 1]
    assert len(bot_calls_at_version) <= 2  # the plan made before the toggles, and nothing more per toggle


@pytest.mark.slow
def test_the_clock_note_reaches_the_log_and_a_stand_ins_moves_cost_the_person_no_time(db: Path) -> None:
    with make_client(db) as client:
        table, token = against_greedy(client, move_seconds=1, game_seconds=100)
        seen = wait_for(client, table, token, lambda v: any(e["note"] for e in v["log"]), seconds=15)
        noted = [e for e in seen["log"] if e["note"]]
        assert noted[0]["note"] == "the clock ran out" and noted[0]["seat"] == 0
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, token)
            ws.send_text(json.dumps({"type": "stand_in", "seat": 0, "bot": "random"}))
            before = wait_for(client, table, token, lambda v: v["seats"][0]["stand_in"] == "random")
            left = before["seats"][0]["time_left"]
            wait_for(client, table, token, lambda v: v["version"] > before["version"] + 6, seconds=15)
            after = hello_view(client, table, token)
        assert after["seats"][0]["time_left"] == left  # type: ignore[index]


def test_chat_is_kept_for_a_reload_and_an_empty_line_is_refused(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, made["tokens"][0])
        ws.send_text(json.dumps({"type": "chat", "text": "\x07"}))
        assert json.loads(ws.receive_text())["status"] == 400
        ws.send_text(json.dumps({"type": "chat", "text": "hello there"}))
        while json.loads(ws.receive_text())["type"] != "chat":
            pass
    with client.websocket_connect(f"/ws/{table}") as ws:
        again = hello(ws, made["tokens"][1])
    assert [line["text"] for line in again["chat"]] == ["hello there"]


def test_a_table_takes_a_limited_number_of_spectators_and_its_seats_always_get_in(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "MAX_SPECTATORS", 2)
    made = create(client, "venture", ["human", "human"])
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
        hello(a, made["spectator_token"])
        hello(b, made["spectator_token"])
        with client.websocket_connect(f"/ws/{table}") as c:
            refusal = hello(c, made["spectator_token"])
            assert refusal["status"] == 503 and "spectators" in refusal["error"]
        with client.websocket_connect(f"/ws/{table}") as d:
            assert hello(d, made["tokens"][0])["type"] == "table"


def test_a_connection_that_reads_nothing_is_marked_gone_not_waited_for() -> None:
    listener = tables.Listener(None)
    for _ in range(64):
        listener.send({"type": "pong"})
    assert not listener.gone.is_set()
    listener.send({"type": "pong"})
    assert listener.gone.is_set()


def test_every_pass_in_a_window_typed_or_automatic_lands_after_the_pass_delay(db: Path) -> None:
    with make_client(db, Timing(think=0.0, pass_delay=0.3, window_pause=0.0)) as client:
        made = create(client, "venus-needs-men", ["human", "human"], options={"length": "short"})
        table = made["table"]
        live = client.app.state.hall.get(table)  # type: ignore[attr-defined]
        while len(live.record.moves) < 6:
            for token in made["tokens"].values():
                mine = hello_view(client, table, token)
                if mine["asked"] and "pass" in mine["legal"]:  # type: ignore[operator]
                    client.post(
                        f"/api/tables/{table}/actions", json={"action": "pass"}, headers=bearer(token)
                    )
            assert live.state.passing_window() or len(live.record.moves) >= 1
            if not live.state.passing_window():
                break
        moves = live.record.moves
        starts = [live.record.created] + [m.at for m in moves]
        passes = [m.at - starts[m.number - 1] for m in moves if m.action == "pass"]
    assert len(passes) >= 2 and min(passes) >= 0.29


@pytest.mark.slow
def test_the_replay_from_checkpoints_matches_a_replay_from_the_start(client: TestClient) -> None:
    made = create(client, "venus-needs-men", ["random", "random"], options={"length": "short"})
    seen = wait_for(client, made["table"], made["spectator_token"], lambda v: v["over"], seconds=120)
    live = client.app.state.hall.get(made["table"])  # type: ignore[attr-defined]
    replayer = Replayer(live.game, live.game_record())
    record = live.game_record()
    for step in sorted({0, 1, 31, 32, 33, seen["version"] // 2, seen["version"]}):
        state = start_state(live.game, record)
        for _ in itertools.islice(replay_steps(state, record), step):
            pass
        assert replayer.state_at(step).to_position() == state.to_position(), step
    reply = client.get(f"/api/tables/{made['table']}/replay?at=40&seat=1").json()
    assert reply["version"] == 40 and len(reply["log"]) == 40 and reply["seat"] == 1


@pytest.mark.slow
def test_a_finished_game_is_open_to_everyone_and_one_in_play_only_by_its_links(client: TestClient) -> None:
    made = create(client, "im-the-boss", ["random", "random", "random"], options={"length": "short"})
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": ""}))
        early = json.loads(ws.receive_text())
    if early.get("type") == "error":  # still in play
        assert early["status"] == 403
    wait_for(client, table, made["spectator_token"], lambda v: v["over"], seconds=120)
    with client.websocket_connect(f"/ws/{table}") as ws:
        seen = hello(ws, "")
    assert seen["over"] and seen["seat"] is None and "seed" in seen["results"]


def test_the_schema_is_migrated_to_the_newest_revision_with_64_bit_seeds(tmp_path: Path) -> None:
    from sqlalchemy import BigInteger, inspect

    store = Store(database_url(tmp_path / "p.db"))
    try:
        with store.engine.connect() as connection:
            version = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        seed = next(c for c in inspect(store.engine).get_columns("tables") if c["name"] == "seed")
        assert version == "0018" and isinstance(seed["type"], BigInteger)
    finally:
        store.close()


def ask_for_a_stand_in(client: TestClient, table: str, token: str, seat: int) -> dict[str, Any]:
    """Asks, as another seat, for a bot in ``seat``; returns the refusal (or the view that shows it)."""
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, token)
        ws.send_text(json.dumps({"type": "stand_in", "seat": seat, "bot": "greedy"}))
        while (reply := json.loads(ws.receive_text()))["type"] != "error":
            if reply["type"] == "table" and reply["seats"][seat]["stand_in"] == "greedy":
                shown: dict[str, Any] = reply
                return shown
    found: dict[str, Any] = reply
    return found


@pytest.mark.parametrize("how", ["left", "never connected", "after a restart"])
def test_a_seat_gets_a_grace_period_before_others_put_a_bot_in(db: Path, how: str) -> None:
    with make_client(db, Timing(think=0.0, pass_delay=0.0, grace=15.0, window_pause=0.0)) as client:
        made = create(client, "venture", ["human", "human"])
        table = made["table"]
        if how == "left":
            with client.websocket_connect(f"/ws/{table}") as b:
                hello(b, made["tokens"][1])
        if how != "after a restart":
            reply = ask_for_a_stand_in(client, table, made["tokens"][0], 1)
    if how == "after a restart":
        with make_client(db, Timing(think=0.0, pass_delay=0.0, grace=15.0, window_pause=0.0)) as client:
            reply = ask_for_a_stand_in(client, table, made["tokens"][0], 1)
    assert reply["type"] == "error" and reply["status"] == 422 and "it may be reloading" in reply["error"]
    with make_client(db, Timing(think=0.0, pass_delay=0.0, grace=0.0, window_pause=0.0)) as client:
        assert ask_for_a_stand_in(client, table, made["tokens"][0], 1)["type"] == "table"


def test_websocket_connects_beyond_an_addresses_rate_are_closed(db: Path) -> None:
    settings = Settings(database_url(db), bot_workers=0, timing=FAST, http_rate=0.01, http_burst=2)
    with TestClient(create_app(settings)) as client:
        made = create(client, "venture", ["human", "human"])
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            assert hello(ws, made["tokens"][0])["type"] == "table"
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/ws/{made['table']}") as ws,
        ):
            ws.receive_text()  # accepted only to be told why: closed with 4429, as the page's script sees it
        assert closed.value.code == 4429


def test_a_command_seat_asked_of_the_server_never_runs(client: TestClient, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    bot = f"cmd:touch {marker}"
    spec = {"game": "venture", "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]}
    reply = client.post("/api/tables", json=spec)
    assert reply.status_code == 400 and reply.json()["error"].startswith("seat 1: ")
    # A name the server's form lets through reaches the bots' own refusal of cmd: seats.
    short = {"game": "venture", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "cmd:true"}]}
    reply = client.post("/api/tables", json=short)
    assert reply.status_code == 400 and "a cmd: seat runs a program" in reply.json()["error"]
    made = create(client, "venture", ["human", "human"])
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, made["tokens"][0])
        ws.send_text(json.dumps({"type": "stand_in", "seat": 0, "bot": bot}))
        assert json.loads(ws.receive_text())["status"] == 400
    time.sleep(0.2)
    assert not marker.exists()
