"""'Analyse this game' (issue 33): a finished table's analysis asked for, queued, run by the server's
worker off the event loop and shown; its limits, its refusals, its secrecy, and a worker that dies or
is doubled losing nothing and running each analysis once."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, insert, select, update

from parlour.analysis.analyse import analyse as real_analyse
from parlour.analysis.report import load_analysis
from parlour.cli.serve import Analysing, check_analysing
from parlour.core.errors import OptionError
from parlour.core.record import GameRecord
from parlour.server import analysing
from parlour.server.analyses import (
    BOTS_ONLY,
    INTERRUPTED,
    TRIES,
    AnalysisLimits,
    AnalysisRow,
    address_hash,
    claim_next,
    fail,
    finish,
    release,
    renew,
)
from parlour.server.analysing import Analyser
from parlour.server.app import create_app
from parlour.server.clock import Clock
from parlour.server.storage import open_store

from .conftest import bearer, create, database_url, quick_settings, table_names
from .live_server import LiveServer
from .test_table_page import play_one

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

BUDGET = 2
"""Determinisations a decision in these tests' analyses: quick, still a real analysis."""
SHAPE = {"view", "status", "judged", "total", "ahead", "error", "analysis"}


def make(db: Path, workers: int = 1, limits: AnalysisLimits | None = None) -> TestClient:
    """Returns a test client of a server analysing with ``workers`` (0: none) at the tests' budget."""
    found = quick_settings(
        db,
        analysis_workers=workers,
        analysis_budget=BUDGET,
        analysis_limits=limits or AnalysisLimits(),
        analysis_poll=0.05,
    )
    return TestClient(create_app(found))


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make(db) as found:
        yield found


@pytest.fixture
def idle(db: Path) -> Iterator[TestClient]:
    """A server that analyses nothing (another process would): its requests stay queued."""
    with make(db, workers=0, limits=AnalysisLimits(per_address=4, queue=3)) as found:
        yield found


def finished(client: TestClient, seats: tuple[str, ...] = ("human", "random")) -> str:
    """Returns the id of a finished Embers table of these seats (a person's played at random by the
    test; the server analyses no game of bots only)."""
    made = create(client, "embers", list(seats))
    table, chooser, end = made["table"], random.Random(len(seats)), time.time() + 60
    people = [made["tokens"][s] for s, kind in enumerate(seats) if kind == "human"]
    while not client.get(f"/api/tables/{table}", headers=bearer(made["spectator_token"])).json()["over"]:
        assert time.time() < end, "the table did not finish"
        for token in people:
            seen = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
            if seen["asked"] and seen["legal"]:
                body = {"action": chooser.choice(seen["legal"]), "version": seen["version"]}
                client.post(f"/api/tables/{table}/actions", json=body, headers=bearer(token))
        time.sleep(0.01)
    return str(table)


def test_a_game_of_bots_only_is_not_analysed_on_the_server(client: TestClient) -> None:
    table = finished(client, ("random", "random"))
    assert one_line_error(ask(client, table), 409) == BOTS_ONLY
    assert shown(client, table)["status"] == "none"


def ask(client: TestClient, table: str, view: str | None = None) -> Any:
    return client.post(f"/api/tables/{table}/analysis", json={} if view is None else {"view": view})


def shown(client: TestClient, table: str, view: str = "seat") -> dict[str, Any]:
    reply = client.get(f"/api/tables/{table}/analysis?view={view}")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    assert set(found) == SHAPE
    return found


def wait_done(
    client: TestClient, table: str, view: str = "seat", timeout: float = 120
) -> list[dict[str, Any]]:
    """Polls the analysis until it is done (or failed); returns every status seen on the way."""
    seen, end = [], time.time() + timeout
    while True:
        found = shown(client, table, view)
        seen.append(found)
        if found["status"] in ("done", "failed"):
            return seen
        assert time.time() < end, f"the analysis did not end: {found}"
        time.sleep(0.05)


def test_an_analysis_is_asked_for_queued_run_with_progress_and_shown(client: TestClient) -> None:
    table = finished(client)
    assert shown(client, table) == {
        "view": "seat", "status": "none", "judged": 0, "total": 0, "ahead": 0, "error": None, "analysis": None
    }  # fmt: skip
    reply = ask(client, table)
    assert reply.status_code == 202, reply.text
    assert set(reply.json()) == SHAPE and reply.json()["status"] in ("queued", "running")
    seen = wait_done(client, table)
    done = seen[-1]
    assert done["status"] == "done" and done["error"] is None, done
    analysis = load_analysis(done["analysis"])
    assert analysis.view == "seat" and analysis.seed == 0 and analysis.analysed == [0, 1]
    assert done["judged"] == done["total"] == len(analysis.decisions) > 0
    statuses = [s["status"] for s in seen]
    assert statuses == sorted(statuses, key=["queued", "running", "done"].index)


def rows(db: Path) -> list[Any]:
    """Returns every stored analysis row."""
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            return list(connection.execute(select(AnalysisRow.__table__).order_by(AnalysisRow.id)).all())
    finally:
        engine.dispose()


def set_rows(db: Path, **values: Any) -> None:
    """Changes every stored analysis row (a test's shortcut to a state: failed, say)."""
    engine = create_engine(database_url(db))
    try:
        with engine.begin() as connection:
            connection.execute(update(AnalysisRow).values(**values))
    finally:
        engine.dispose()


def one_line_error(reply: Any, status: int) -> str:
    assert reply.status_code == status, reply.text
    error: str = reply.json()["error"]
    assert error and "\n" not in error and len(error) < 200 and "Traceback" not in error
    return error


def test_asking_again_is_idempotent_and_a_failed_analysis_may_be_asked_for_again(
    idle: TestClient, db: Path
) -> None:
    table = finished(idle)
    assert ask(idle, table).status_code == 202
    again = ask(idle, table)
    assert again.status_code == 200 and again.json()["status"] == "queued"
    assert idle.post(f"/api/tables/{table}/analysis").status_code == 200  # no body: the seat's view
    assert len(rows(db)) == 1
    set_rows(db, status="failed", error="the analysis failed on the server")
    failed = shown(idle, table)
    assert failed["status"] == "failed" and failed["error"] == "the analysis failed on the server"
    requeued = ask(idle, table)
    assert requeued.status_code == 202 and requeued.json()["status"] == "queued"
    assert requeued.json()["error"] is None and len(rows(db)) == 1


def test_a_done_analysis_is_told_again_not_redone(client: TestClient, db: Path) -> None:
    table = finished(client)
    assert ask(client, table).status_code == 202
    done = wait_done(client, table)[-1]
    again = ask(client, table)
    assert again.status_code == 200 and again.json() == done
    assert [r.status for r in rows(db)] == ["done"]


def test_the_queue_tells_how_many_wait_before_each(idle: TestClient) -> None:
    first, second = finished(idle), finished(idle)
    assert ask(idle, first).json()["ahead"] == 0
    assert ask(idle, second).json()["ahead"] == 1
    assert ask(idle, first, "hindsight").json()["ahead"] == 2
    assert shown(idle, second)["ahead"] == 1 and shown(idle, first, "hindsight")["ahead"] == 2


def test_an_address_asks_for_so_many_analyses_an_hour_then_is_refused(db: Path) -> None:
    clock = Clock()
    limits = AnalysisLimits(per_address=3, queue=50)
    found = quick_settings(db, analysis_workers=0, clock=clock, analysis_limits=limits)
    with TestClient(create_app(found)) as idle:
        first, second = finished(idle), finished(idle)
        for table, view in ((first, "seat"), (first, "hindsight"), (second, "seat")):
            assert ask(idle, table, view).status_code == 202
        error = one_line_error(ask(idle, second, "hindsight"), 429)
        assert error == "too many analyses asked for from this address: try again later"
        assert ask(idle, first).status_code == 200  # one already asked for is told, not counted
        stored = {r.requester for r in rows(db)}
        hall = idle.app.state.hall  # type: ignore[attr-defined]
        assert stored == {address_hash(hall.store.seed_key, "testclient")}  # never in clear
        clock.advance(limits.window + 1)
        assert ask(idle, second, "hindsight").status_code == 202


def test_a_full_queue_refuses_new_analyses_with_one_line(idle: TestClient) -> None:
    tables = [finished(idle), finished(idle)]
    for table in tables:
        assert ask(idle, table).status_code == 202
    assert ask(idle, tables[0], "hindsight").status_code == 202  # the third: the queue's cap
    error = one_line_error(ask(idle, tables[1], "hindsight"), 503)
    assert error == "the analysis queue is full; try again later"
    assert ask(idle, tables[1]).status_code == 200  # one queued is still told


def test_an_addresses_hash_is_forgotten_after_the_limits_window(client: TestClient, db: Path) -> None:
    table = finished(client)
    assert ask(client, table).status_code == 202
    wait_done(client, table)
    assert rows(db)[0].requester is not None
    client.app.state.hall.clock.advance(AnalysisLimits().window + 1)  # type: ignore[attr-defined]
    end = time.time() + 10
    while rows(db)[0].requester is not None:
        assert time.time() < end, "the worker did not forget the address"
        time.sleep(0.05)


def test_the_hindsight_view_is_stored_apart_and_labelled(client: TestClient, db: Path) -> None:
    table = finished(client)
    assert ask(client, table, "hindsight").status_code == 202
    assert ask(client, table, "seat").status_code == 202
    hindsight = wait_done(client, table, "hindsight")[-1]
    seat = wait_done(client, table, "seat")[-1]
    assert hindsight["view"] == "hindsight" and hindsight["analysis"]["view"] == "hindsight"
    assert seat["view"] == "seat" and seat["analysis"]["view"] == "seat"
    assert load_analysis(hindsight["analysis"]).view == "hindsight"
    assert sorted(r.view for r in rows(db)) == ["hindsight", "seat"]


def test_a_game_in_play_is_never_analysed_and_nothing_about_it_is_told(
    client: TestClient, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []

    def counted(*a: Any, **k: Any) -> Any:
        calls.append(a)
        return real_analyse(*a, **k)

    monkeypatch.setattr(analysing, "analyse", counted)
    made = create(client, "embers", ["human", "random"])
    table = made["table"]
    for body in ({}, {"view": "seat"}, {"view": "hindsight"}):
        assert one_line_error(client.post(f"/api/tables/{table}/analysis", json=body), 409)
    for view in ("seat", "hindsight"):
        assert one_line_error(client.get(f"/api/tables/{table}/analysis?view={view}"), 409)
    assert rows(db) == []
    engine = create_engine(database_url(db))  # a row forged into the database: the worker refuses it
    with engine.begin() as connection:
        connection.execute(
            insert(AnalysisRow).values(table_id=table, view="seat", status="queued", requested=time.time())
        )
    engine.dispose()
    end = time.time() + 20
    while rows(db)[0].status != "failed":
        assert time.time() < end, "the worker did not refuse the game in play"
        time.sleep(0.05)
    row = rows(db)[0]
    assert row.result is None and row.error == "the game is not over: it is analysed once it has ended"
    assert calls == []


def test_unknown_tables_and_bad_requests_are_refused_in_one_line(client: TestClient) -> None:
    table = finished(client)
    one_line_error(client.get("/api/tables/nosuchtable/analysis"), 404)
    one_line_error(client.post("/api/tables/nosuchtable/analysis", json={}), 404)
    path = f"/api/tables/{table}/analysis"
    for body in (b"[]", b'"seat"', b"null", b"{", b'{"view": "all"}', b'{"view": 1}', b'{"seat": 0}'):
        one_line_error(client.post(path, content=body), 400)
    one_line_error(client.post(path, content=b"{" + b" " * 70_000 + b"}"), 413)
    for query in ("view=all", "view=", "seat=0", "view=seat&view=hindsight", "view=SEAT"):
        one_line_error(client.get(f"{path}?{query}"), 400)
    assert shown(client, table)["status"] == "none"


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    """A server that analyses nothing and a finished table, made once for all the fuzz's examples."""
    with make(tmp_path_factory.mktemp("fuzz") / "parlour.db", workers=0) as idle:
        yield idle, finished(idle)


BODIES = st.one_of(
    st.binary(max_size=60),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.text(max_size=12)
        | st.sampled_from(["seat", "hindsight"]),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from(["view", "seat", "x"]) | st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=6,
    ).map(lambda value: json.dumps(value).encode()),
)
QUERIES = st.dictionaries(
    st.sampled_from(["view", "seat", "at", "View", ""]) | st.text(max_size=6),
    st.sampled_from(["seat", "hindsight"]) | st.text(max_size=10),
    max_size=2,
)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=BODIES, query=QUERIES)
def test_fuzzed_bodies_and_queries_are_answered_or_refused_in_one_line(
    fuzz: tuple[TestClient, str], body: bytes, query: dict[str, str]
) -> None:
    idle, table = fuzz
    reply = idle.post(f"/api/tables/{table}/analysis", content=body)
    if reply.status_code in (200, 202):
        assert set(reply.json()) == SHAPE and reply.json()["view"] in ("seat", "hindsight")
    else:
        one_line_error(reply, 400)
    found = idle.get(f"/api/tables/{table}/analysis", params=query)
    if found.status_code == 200:
        assert set(found.json()) == SHAPE and set(query) <= {"view"}
    else:
        one_line_error(found, 400)


# --------------------------------------------------------------------- real servers: restarts, workers
SLOW_BUDGET = "300"
"""A budget that makes an Embers analysis last some seconds: long enough to stop a server in it."""


def live_post(server: LiveServer, path: str, body: object) -> Any:
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


def live_finished(server: LiveServer) -> str:
    """Returns the id of a finished Embers table of a person (played at random by the test) and two
    bots, played by the server."""
    made = server.create("embers", ["human", "random", "random"])
    token, chooser = made["seats"]["0"].split("#k=")[1], random.Random(3)
    end = time.monotonic() + 120
    while not server.get(f"/api/tables/{made['table']}", made["spectator_token"])["over"]:
        assert time.monotonic() < end, "the table did not finish"
        if not play_one(server, made["table"], token, chooser):
            time.sleep(0.05)
    while True:  # the last move is written a moment after the view says over: then it may be asked for
        try:
            server.get(f"/api/tables/{made['table']}/analysis")
            return str(made["table"])
        except urllib.error.HTTPError as err:
            assert err.code == 409 and time.monotonic() < end, err
            time.sleep(0.1)


def wait_status(server: LiveServer, table: str, ready: Any, timeout: float = 120) -> dict[str, Any]:
    """Polls a table's analysis until ``ready(status)``; returns that status."""
    end = time.monotonic() + timeout
    while True:
        found: dict[str, Any] = server.get(f"/api/tables/{table}/analysis")
        if ready(found):
            return found
        assert found["status"] != "failed", found
        assert time.monotonic() < end, f"the analysis never got there: {found}"
        time.sleep(0.1)


def wait_row(db: Path, ready: Any, timeout: float = 60) -> Any:
    """Waits until the one stored analysis row is ``ready(row)``; returns it."""
    end = time.monotonic() + timeout
    while not ready(row := rows(db)[0]):
        assert time.monotonic() < end, f"the analysis row never got there: {row}"
        time.sleep(0.1)
    return row


def children(pid: int) -> set[int]:
    """Returns the processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if os.path.exists(f"/proc/{pid}")}


@pytest.mark.slow
def test_a_server_killed_or_stopped_mid_analysis_loses_nothing_and_stops_at_once(tmp_path: Path) -> None:
    db, extra = tmp_path / "parlour.db", ["--test-hooks", "--analysis-budget", SLOW_BUDGET]
    first = LiveServer(db, extra=[*extra, "--analysis-workers", "2"]).start()
    try:
        table = live_finished(first)
        assert live_post(first, f"/api/tables/{table}/analysis", {})["status"] == "queued"
        running = wait_status(first, table, lambda s: s["status"] == "running" and s["judged"] > 0)
        assert running["judged"] < running["total"], "the progress is seen while it runs"
        assert first.process is not None
        judging = children(first.process.pid)
        assert len(judging) >= 2, "the decisions are judged in worker processes"
        first.kill()
        end = time.monotonic() + 10
        while alive(judging) and time.monotonic() < end:
            time.sleep(0.1)
        assert not alive(judging), "the judging processes died with their server"
    finally:
        first.kill() if first.process and first.process.poll() is None else None
    claim = rows(db)[0].claim
    second = LiveServer(db, extra=extra).start()
    try:
        assert second.get(f"/api/tables/{table}/analysis")["status"] == "running"  # its lease holds yet
        time.sleep(1.5)
        assert rows(db)[0].claim == claim, "nobody takes an analysis over before its lease lapses"
        live_post(second, "/api/test/clock", {"advance": 61})  # the dead server's lease lapses
        wait_row(db, lambda r: r.claim not in (None, claim) and r.judged > 0)  # resumed: progress again
        start = time.monotonic()
        second.stop()  # mid-analysis: the judging processes are killed, the row put back in the queue
        assert time.monotonic() - start < 8
        row = rows(db)[0]
        assert (row.status, row.claim, row.attempts) == ("queued", None, 1)  # the stop cost no attempt
    finally:
        second.stop()
    claim = rows(db)[0].claim
    third = LiveServer(db, extra=extra).start()
    try:
        live_post(third, "/api/test/clock", {"advance": 122})  # past the second's lease (its clock +61)
        done = wait_status(third, table, lambda s: s["status"] == "done")
        analysis = load_analysis(done["analysis"])
        assert analysis.analysed == [0, 1, 2] and done["judged"] == done["total"] == len(analysis.decisions)
    finally:
        third.stop()
    assert [(r.status, r.view) for r in rows(db)] == [("done", "seat")]


def test_two_workers_on_one_database_run_each_analysis_once(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make(db, workers=0) as idle:
        tables = [finished(idle) for _ in range(3)]
        for table in tables:
            for view in ("seat", "hindsight"):
                assert ask(idle, table, view).status_code == 202
    calls: list[tuple[int, bool]] = []

    def counted(record: GameRecord, **k: Any) -> Any:
        calls.append((record.seed, k["hindsight"]))
        return real_analyse(record, **k)

    monkeypatch.setattr(analysing, "analyse", counted)
    asyncio.run(run_two_workers(db))
    assert len(calls) == len(set(calls)) == 6
    assert [r.status for r in rows(db)] == ["done"] * 6


async def run_two_workers(db: Path) -> None:
    """Runs two analysis workers, each with its own store on the database, until the queue is empty."""
    stores = [open_store(database_url(db)) for _ in range(2)]
    workers = [Analyser(store, Clock(), 1, int(BUDGET), poll=0.01) for store in stores]
    for worker in workers:
        worker.start()
    try:
        end = time.monotonic() + 120
        while sum(w.done for w in workers) < 6:
            assert time.monotonic() < end, "the workers did not empty the queue"
            await asyncio.sleep(0.05)
        assert all(w.done for w in workers), "both workers took analyses"
    finally:
        for worker in workers:
            await worker.stop()
        for store in stores:
            store.close()


def test_migration_0014_goes_down_and_up(db: Path) -> None:
    from alembic import command
    from alembic.config import Config

    import parlour.server.storage as storage

    with make(db, workers=0) as idle:
        assert ask(idle, finished(idle)).status_code == 202
    engine = create_engine(database_url(db))
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0013")
    engine.dispose()
    assert "analyses" not in table_names(db)
    with make(db, workers=0):  # opened: upgraded again, with no analysis
        assert rows(db) == []


@pytest.mark.parametrize(
    ("workers", "budget", "error"),
    [
        (-1, 12, "--analysis-workers must be 0 to 64"),
        (65, 12, "--analysis-workers must be 0 to 64"),
        (1, 1, "--analysis-budget must be 2 to 10000 determinisations a decision"),
        (1, 10_001, "--analysis-budget must be 2 to 10000 determinisations a decision"),
    ],
)
def test_the_analysis_settings_are_refused_out_of_range_in_one_line(
    workers: int, budget: int, error: str
) -> None:
    with pytest.raises(OptionError) as refused:
        check_analysing(Analysing(workers, budget))
    assert str(refused.value) == error
    check_analysing(Analysing(0, 2))


def test_an_analysis_interrupted_too_often_fails_and_may_be_asked_for_again(db: Path) -> None:
    with make(db, workers=0) as idle:
        table = finished(idle)
        assert ask(idle, table).status_code == 202
    set_rows(db, status="running", claim="a-dead-worker", claimed_at=time.time() - 61, attempts=TRIES)
    with make(db) as client:
        failed = wait_done(client, table)[-1]
        assert failed["status"] == "failed" and failed["error"] == INTERRUPTED and failed["analysis"] is None
        assert ask(client, table).status_code == 202  # asked for again: tried afresh
        assert wait_done(client, table)[-1]["status"] == "done"
        assert rows(db)[0].attempts == 1


def test_claims_renewals_and_ends_are_compare_and_sets(idle: TestClient, db: Path) -> None:
    """A lease that lapses lets another worker take an analysis over; the first one's renewal, end,
    failure or release then stores nothing. A release puts it back uncounted."""
    assert ask(idle, finished(idle)).status_code == 202
    store, now = open_store(database_url(db)), time.time()
    try:
        engine = store.engine
        first = claim_next(engine, "a", now, lease=60)
        assert first is not None and first.attempts == 1
        assert claim_next(engine, "b", now + 30, lease=60) is None  # held: nothing else queued
        assert renew(engine, first, "a", now + 30, 1, 5)
        assert claim_next(engine, "b", now + 89, lease=60) is None  # renewed at +30: held to +90
        second = claim_next(engine, "b", now + 91, lease=60)
        assert second is not None and second.id == first.id and second.attempts == 2
        assert not renew(engine, first, "a", now + 92, 2, 5)
        assert not finish(engine, first, "a", now + 92, {"decisions": []})
        assert not fail(engine, first, "a", now + 92, "late")
        assert not release(engine, first, "a")
        assert (rows(db)[0].status, rows(db)[0].claim) == ("running", "b")
        assert release(engine, second, "b")  # the server stopping: back in the queue, uncounted
        (row,) = rows(db)
        assert (row.status, row.claim, row.attempts, row.judged) == ("queued", None, 1, 0)
        third = claim_next(engine, "c", now + 93, lease=60)
        assert third is not None and fail(engine, third, "c", now + 94, "one\ntwo")
        assert (rows(db)[0].status, "\n" not in rows(db)[0].error) == ("failed", True)
    finally:
        store.close()
