"""Turn-based tables: their hours at creation, deadlines in the database acted on by the scheduler (the
clock hook moves time, nobody sleeps), across a restart and with two schedulers on one database."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import parlour.server.hall as hall_module
from parlour.server.app import create_app
from parlour.server.clock import Clock
from parlour.server.hall import Hall
from parlour.server.storage import Store
from parlour.server.tables import CLOCK_NOTE, LiveTable, Timing

from .conftest import FAST, bearer, create, database_sql, database_url, quick_settings
from .test_live import hello

DAY = 86_400.0


@contextmanager
def turn_client(db: Path, timing: Timing = FAST, clock: Clock | None = None) -> Iterator[TestClient]:
    """A test client with the clock hook on (``POST /api/test/clock``) and a quick scheduler."""
    settings = quick_settings(db, timing=timing, poll=0.05, test_hooks=True, clock=clock or Clock())
    with TestClient(create_app(settings)) as client:
        yield client


def hall_of(client: TestClient) -> Hall:
    found: Hall = client.app.state.hall  # type: ignore[attr-defined]
    return found


def table_of(client: TestClient, table: str) -> LiveTable:
    return hall_of(client).get(table)


def two_people(client: TestClient, **extra: Any) -> dict[str, Any]:
    """Creates a turn-based Venture table of two people (a day a move unless told)."""
    return create(client, "venture", ["human", "human"], pace="turn-based", **{"move_hours": 24, **extra})


def asked_seat(client: TestClient, table: str) -> int:
    live = table_of(client, table)
    return next(s for s in live.state.deciders())


def wait_version(client: TestClient, table: str, above: int, seconds: float = 5.0) -> float:
    """Waits until the table is past version ``above``; returns how long that took."""
    start = time.perf_counter()
    while table_of(client, table).record.version <= above:
        assert time.perf_counter() - start < seconds, f"table {table} still at version {above}"
        time.sleep(0.01)
    return time.perf_counter() - start


def advance(client: TestClient, seconds: float) -> None:
    reply = client.post("/api/test/clock", json={"advance": seconds})
    assert reply.status_code == 200, reply.text


def test_a_turn_based_table_keeps_its_hours_and_says_so_in_its_view_and_status(client: TestClient) -> None:
    made = two_people(client, move_hours=72, window_hours=3, away_days=2)
    view = client.get(f"/api/tables/{made['table']}", headers=bearer(made["tokens"][0])).json()
    clock = view["clock"]
    assert clock["pace"] == "turn-based" and clock["move_seconds"] == 72 * 3600.0
    assert clock["window_seconds"] == 3 * 3600.0 and clock["game_seconds"] is None
    # The deadline: a move's 72 hours and the asked person's two days away reserve.
    assert abs(clock["deadline"] - (clock["now"] + 72 * 3600 + 2 * DAY)) < 5
    assert [s["away_left"] for s in view["seats"]] == [2 * DAY, 2 * DAY]
    status = client.get(f"/api/tables/{made['table']}/status").json()
    assert status["pace"] == "turn-based" and status["deadline"] == clock["deadline"]
    assert 72 * 3600 + 2 * DAY - 5 < status["time_left"] <= 72 * 3600 + 2 * DAY
    live = create(client, "venture", ["human", "greedy"])
    assert client.get(f"/api/tables/{live['table']}/status").json()["pace"] == "live"


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"pace": "slow"}, "pace must be 'live' or 'turn-based'"),
        ({"pace": "turn-based", "move_hours": 0.5}, "move_hours must be a number from 1 to 336"),
        ({"pace": "turn-based", "move_hours": 337}, "move_hours must be a number from 1 to 336"),
        ({"pace": "turn-based", "move_hours": "24"}, "move_hours must be a number from 1 to 336"),
        ({"pace": "turn-based", "move_hours": True}, "move_hours must be a number from 1 to 336"),
        (
            {"pace": "turn-based", "move_hours": 12, "window_hours": 13},
            "window_hours must be a number from 0.1 to 12",
        ),
        ({"pace": "turn-based", "window_hours": 0}, "window_hours must be a number from 0.1 to 24"),
        ({"pace": "turn-based", "away_days": 31}, "away_days must be a number from 0 to 30"),
        ({"pace": "turn-based", "away_days": None}, "away_days must be a number from 0 to 30"),
        ({"pace": "turn-based", "move_seconds": 60}, "not move_seconds"),
        ({"pace": "turn-based", "game_seconds": 60}, "not game_seconds"),
        ({"move_hours": 24}, "move_hours is for a turn-based table"),
        ({"pace": None}, "pace must be 'live' or 'turn-based'"),
    ],
)
def test_a_turn_based_request_out_of_bounds_is_refused_with_one_line(
    client: TestClient, extra: dict[str, object], reason: str
) -> None:
    spec = {"game": "venture", "seats": [{"kind": "human"}, {"kind": "human"}], **extra}
    reply = client.post("/api/tables", json=spec)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert reason in error and "\n" not in error


def test_the_clock_hook_exists_only_when_tests_ask_for_it(client: TestClient, tmp_path: Path) -> None:
    assert client.post("/api/test/clock", json={"advance": DAY}).status_code in (404, 405)
    with turn_client(tmp_path / "hook.db") as hooked:
        bad: object
        for bad in ({"advance": -1}, {"advance": "1"}, {"advance": True}, {"advance": 1e9}, [], {"x": 1}):
            reply = hooked.post("/api/test/clock", json=bad)
            assert reply.status_code == 400 and "\n" not in reply.json()["error"]
        before = hooked.post("/api/test/clock", json={"advance": 0}).json()["now"]
        after = hooked.post("/api/test/clock", json={"advance": DAY}).json()["now"]
        assert after - before >= DAY


def test_a_deadline_passing_makes_the_auto_policy_act_within_two_seconds_and_counts_it(db: Path) -> None:
    with turn_client(db) as client:
        made = two_people(client)
        table = made["table"]
        live = table_of(client, table)
        seat, version = asked_seat(client, table), live.record.version
        advance(client, 23 * 3600)  # a day a move: not yet
        time.sleep(0.3)
        assert live.record.version == version
        advance(client, 3600 + 1)
        took = wait_version(client, table, version)
        assert took < 2.0, f"the auto policy acted {took:.2f} s after the deadline"
        move = live.record.moves[version]
        assert move.seat == seat and move.note == CLOCK_NOTE
        assert live.record.seats[seat].timeouts == 1 and live.record.seats[1 - seat].timeouts == 0
        stored = Store(database_url(db)).load(table)
        assert stored is not None and stored.seats[seat].timeouts == 1
        # A new deadline for the next decision, a day from the move.
        assert live.record.deadline is not None and live.record.deadline > live.clock.now() + 23 * 3600


def test_a_deadline_survives_a_restart_and_passes_while_the_server_is_down(db: Path) -> None:
    with turn_client(db) as client:
        made = two_people(client)
        table = made["table"]
        deadline = table_of(client, table).record.deadline
        version = table_of(client, table).record.version
        assert deadline is not None
    clock = Clock()
    clock.advance(DAY + 60)  # the server was down for a day: the deadline passed meanwhile
    with turn_client(db, clock=clock) as again:
        live = table_of(again, table)
        wait_version(again, table, version)
        assert live.record.moves[version].note == CLOCK_NOTE
    with turn_client(db) as third:  # a restart kept the stored deadline (a live table's starts afresh)
        after = table_of(third, table).record
        assert after.deadline is not None and after.deadline > deadline + DAY - 120


def test_two_schedulers_on_one_database_act_on_a_due_deadline_exactly_once(db: Path) -> None:
    clock = Clock()
    with turn_client(db, clock=clock) as first:
        made = two_people(first)
        table = made["table"]
        version = table_of(first, table).record.version
        with turn_client(db, clock=clock) as second:  # another server process on the same file
            table_of(second, table)
            clock.advance(DAY + 1)
            schedulers = [client.app.state.scheduler for client in (first, second)]  # type: ignore[attr-defined]
            end = time.time() + 5
            while sum(s.acted for s in schedulers) == 0:  # either may win (each has the table in memory)
                assert time.time() < end, "no scheduler acted on the due deadline"
                time.sleep(0.01)
            time.sleep(1.0)  # both schedulers polled the due deadline many times meanwhile
    assert sum(s.claimed for s in schedulers) == 1 and sum(s.acted for s in schedulers) == 1
    store = Store(database_url(db))
    stored = store.load(table)
    store.close()
    assert stored is not None and stored.version == version + 1
    assert [m.note for m in stored.moves].count(CLOCK_NOTE) == 1


def test_a_claim_is_one_compare_and_set_that_one_store_of_several_wins(db: Path) -> None:
    with turn_client(db) as client:
        made = two_people(client)
        table = made["table"]
        version = table_of(client, table).record.version
        now = table_of(client, table).clock.now() + DAY + 1
    stores = [Store(database_url(db)) for _ in range(4)]
    assert all(s.due(now, 30.0) == [(table, version)] for s in stores)
    won: list[bool] = []
    barrier = threading.Barrier(len(stores))

    def claim(store: Store) -> None:
        barrier.wait()
        won.append(store.claim(table, version, now, 30.0))

    threads = [threading.Thread(target=claim, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won) == [False, False, False, True]
    assert stores[0].due(now, 30.0) == []  # claimed: no scheduler sees it until the lease runs out
    assert stores[0].due(now + 31, 30.0) == [(table, version)]
    stores[0].release(table, version)
    assert stores[1].claim(table, version, now, 30.0)
    for store in stores:
        store.close()


def test_a_person_whose_clock_ran_out_three_times_may_be_replaced_by_a_bot(db: Path) -> None:
    with turn_client(db, Timing(think=0.0, pass_delay=0.0, window_pause=0.0, away=3600.0)) as client:
        made = two_people(client)
        table = made["table"]
        live = table_of(client, table)
        tokens = made["tokens"]
        late = asked_seat(client, table)
        other = 1 - late
        with (
            client.websocket_connect(f"/ws/{table}") as present,
            client.websocket_connect(f"/ws/{table}") as ws,
        ):
            hello(present, tokens[late])  # the late person is here, just not playing
            hello(ws, tokens[other])
            ws.send_text(json.dumps({"type": "stand_in", "seat": late, "bot": "random"}))
            assert refusal(ws)["status"] == 422  # here, asked only just now
            run_out_three_times(client, made, late)
            assert live.record.seats[late].timeouts == 3
            view = client.get(f"/api/tables/{table}", headers=bearer(tokens[other])).json()
            assert view["seats"][late]["timeouts"] == 3
            ws.send_text(json.dumps({"type": "stand_in", "seat": late, "bot": "random"}))
            deadline = time.time() + 5
            while live.record.seats[late].stand_in != "random":
                assert time.time() < deadline, "the stand-in was refused"
                time.sleep(0.02)


def run_out_three_times(client: TestClient, made: dict[str, Any], late: int) -> None:
    """Plays on until ``late``'s clock ran out three times: the others play their turns (a turn's end
    where offered, else the first choice), the clock hook runs ``late``'s out."""
    table, tokens = made["table"], made["tokens"]
    live = table_of(client, table)
    for _ in range(100):
        if live.record.seats[late].timeouts >= 3:
            return
        version = live.record.version
        seat = live.state.deciders()[0]
        if seat == late:
            advance(client, DAY + 1)
        else:
            legal = [live.state.format_action(a) for a in live.state.legal_actions(seat)]
            text = next((a for a in legal if a in ("end", "done")), legal[0])
            path = f"/api/tables/{table}/actions"
            client.post(path, json={"action": text, "version": version}, headers=bearer(tokens[seat]))
        wait_version(client, table, version)
    raise AssertionError("the clock did not run out three times")


def refusal(ws: Any) -> dict[str, Any]:
    """Returns the next error a socket receives (skipping the table's updates)."""
    while (message := json.loads(ws.receive_text())).get("type") != "error":
        pass
    found: dict[str, Any] = message
    return found


def test_the_others_vote_a_bot_in_for_the_rest_of_the_game_after_three_timeouts(db: Path) -> None:
    with turn_client(db) as client:
        made = create(client, "venture", ["human", "human", "human"], pace="turn-based", move_hours=12)
        table, tokens = made["table"], made["tokens"]
        live = table_of(client, table)
        late = asked_seat(client, table)
        first, second = [s for s in range(3) if s != late]
        with (
            client.websocket_connect(f"/ws/{table}") as mine,
            client.websocket_connect(f"/ws/{table}") as one,
            client.websocket_connect(f"/ws/{table}") as two,
        ):
            for ws, seat in ((mine, late), (one, first), (two, second)):
                hello(ws, tokens[seat])
            one.send_text(json.dumps({"type": "replace", "seat": late}))
            assert refusal(one)["error"] == f"seat {late}'s clock ran out 0 times: a vote needs 3"
            run_out_three_times(client, made, late)
            for bad, status in ((late + 0.5, 400), (True, 400), (first, 422), (99, 400)):
                one.send_text(json.dumps({"type": "replace", "seat": bad}))
                assert refusal(one)["status"] == status
            one.send_text(json.dumps({"type": "replace", "seat": late}))
            one.send_text(json.dumps({"type": "replace", "seat": late}))
            assert refusal(one)["error"] == f"you voted on seat {late} already"
            assert live.record.seats[late].votes == [first] and not live.record.seats[late].replaced
            two.send_text(json.dumps({"type": "replace", "seat": late}))
            deadline = time.time() + 5
            while not live.record.seats[late].replaced:
                assert time.time() < deadline, "the vote did not put a bot in"
                time.sleep(0.02)
            assert live.record.seats[late].stand_in == "random"
            mine.send_text(json.dumps({"type": "stand_in", "seat": late, "bot": None}))
            assert refusal(mine)["status"] == 409  # not for the rest of the game
    stored = Store(database_url(db)).load(table)
    assert stored is not None and stored.seats[late].replaced and stored.seats[late].votes == [first, second]


def test_a_reaction_window_has_its_own_deadline_without_the_away_reserve(db: Path) -> None:
    with turn_client(db) as client:
        made = create(
            client,
            "venus-needs-men",
            ["human", "human"],
            auto_pass=False,  # "always": asked in every window the rules open to them
            pace="turn-based",
            move_hours=24,
            window_hours=1,
            away_days=1,
        )
        table = made["table"]
        live = table_of(client, table)
        assert live.state.passing_window()  # the game opens with a Zap window
        opened, version, seat = live.opened, live.record.version, asked_seat(client, table)
        assert live.record.deadline == pytest.approx(opened + 3600)
        advance(client, 3600 + 1)
        wait_version(client, table, version)
        move = live.record.moves[version]
        assert move.note == CLOCK_NOTE and move.action == "pass" and move.seat == seat
        assert live.record.seats[seat].away_left == DAY  # a window never draws on the reserve


def test_the_clocks_pass_in_a_watched_window_never_lands_before_the_pass_delay(db: Path) -> None:
    # A game clock of 1 s and a pass delay of 2 s: the clock's pass waits for the delay, as a quick
    # pass would, whatever the person holds (before, it landed at once, before any auto-pass).
    with turn_client(db, Timing(think=0.0, pass_delay=2.0, grace=0.0, window_pause=0.0)) as client:
        made = create(client, "venus-needs-men", ["human", "human"], auto_pass=False, game_seconds=1)
        live = table_of(client, made["table"])
        assert live.state.passing_window()
        opened, version = live.opened, live.record.version
        assert live.record.deadline is not None and live.record.deadline >= opened + 2.0
        advance(client, 1.2)  # the game clock is used up, the pass delay is not over
        time.sleep(0.3)
        assert live.record.version == version
        advance(client, 1.0)
        wait_version(client, made["table"], version)
        move = live.record.moves[version]
        assert move.note == CLOCK_NOTE and move.at >= opened + 2.0


def test_turn_based_tables_do_not_fill_the_live_games_room_even_after_a_restart(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hall_module, "MAX_PLAYING", 2)
    with turn_client(db) as client:
        made = [two_people(client) for _ in range(3)]
        live = [create(client, "venture", ["human", "human"]) for _ in range(2)]
        refused = client.post("/api/tables", json={"game": "venture", "seats": [{"kind": "human"}] * 2})
        assert refused.status_code == 503 and "2 live games" in refused.json()["error"]
    database_sql(db, "UPDATE tables SET asked = NULL")  # stored before 0012: who is asked unknown
    with turn_client(db) as client:  # the newest 2 of each pace resumed: 4 in play in memory
        assert {t["table"] for t in live} <= set(hall_of(client).tables)
        assert len(hall_of(client).tables) == 4
        assert two_people(client)["table"] in hall_of(client).tables  # not refused (503 before)
        monkeypatch.setattr(hall_module, "MAX_TURN_BASED", 3)
        refused = client.post(
            "/api/tables", json={"game": "venture", "seats": [{"kind": "human"}] * 2, "pace": "turn-based"}
        )
        assert refused.status_code == 503 and "3 turn-based games" in refused.json()["error"]
    # the resumed ones got who is asked back; the oldest not yet
    asked = dict(database_sql(db, "SELECT id, asked FROM tables"))
    assert asked[made[0]["table"]] is None
    assert all(asked[t["table"]] is not None for t in (*made[1:], *live))
