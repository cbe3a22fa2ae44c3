"""Rematch (issue 32, ruling S-3): "each accepts with one click". A play-again table waits until every
person accepted: no move, no bot's move, no clock, no scheduler; the last accept starts it with its
clock from then; one decline cancels it for good; the waiting survives a restart; every refusal is one
line and changes nothing."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from starlette.testclient import TestClient

from parlour.server.ratings import rate_table
from parlour.server.rematch import expire_due, store_answer
from parlour.server.storage import Store

from .accounts_helpers import PASSWORD
from .browsing import needs_chromium, screenshot, version, wait_past
from .conftest import bearer, column_names, create, database_sql, database_url
from .live_server import LiveServer
from .migrating import downgrade
from .notify_helpers import bind_seats, bound_table, notify_client, set_for, sql, wait_until
from .notify_helpers import hall_of as notify_hall
from .test_api import view
from .test_live import hello
from .test_play_again import again, play_out
from .test_table_page import finished_embers, own_browser
from .test_table_page import post as live_post
from .test_turn_based import DAY, advance, hall_of, turn_client


def finished(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    """A finished Embers table with these seats ("human" or a bot) and clocks, its people named A, B, …"""
    made = create(client, "embers", seats, **extra)
    for number, token in made["tokens"].items():
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, token)
            ws.send_json({"type": "name", "text": "ABCDEF"[number]})
            ws.receive_json()
    play_out(client, made)
    return made


def post(client: TestClient, table: str, what: str, token: str, **kwargs: Any) -> Any:
    return client.post(f"/api/tables/{table}/{what}", headers=bearer(token) if token else {}, **kwargs)


def status(client: TestClient, table: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/tables/{table}/status").json()
    return found


def stored(db: Path, table: str) -> tuple[Any, ...]:
    """The table's stored status, deadline, version and each seat's accept, read from the database."""
    (row,) = database_sql(db, "SELECT status, deadline, version, declined_by FROM tables WHERE id = ?", table)
    seats = database_sql(db, "SELECT accepted FROM seats WHERE table_id = ? ORDER BY seat", table)
    return (*row, [bool(a) for (a,) in seats])


def test_the_rematch_waits_for_every_person_and_no_bot_moves_meanwhile(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "random", "human"], move_seconds=60)
        tokens, old = made["tokens"], made["table"]
        new = again(client, old, tokens[2]).json()["table"]  # the old seat 2 asks: new seat 1
        # The new seat 0 is the bot (the old seat 1), the new seat 2 the old seat 0's person.
        seen = view(client, new, tokens[0])
        assert seen["seat"] == 2 and seen["status"] == "waiting" and seen["waiting_for"] == [2]
        assert seen["legal"] == [] and not seen["asked"] and seen["clock"]["deadline"] is None
        public = status(client, new)
        assert public["status"] == "waiting" and public["waiting_for"] == [2]
        assert public["deciders"] == [] and public["deadline"] is None and public["time_left"] is None
        time.sleep(0.5)  # the bot (no think time here) would have moved long ago
        assert stored(db, new) == ("waiting", None, 0, None, [True, True, False])
        # The asker's page (the old table) is told who is still to accept.
        rematch = view(client, old, tokens[0])["rematch"]
        assert rematch == {"table": new, "status": "waiting", "waiting_for": [2], "declined_by": None}
        # The person who accepted by asking may not move either (nor anybody: one line, 409).
        for token in (tokens[2], tokens[0]):
            moved = post(client, new, "actions", token, json={"action": "pass", "version": 0})
            assert moved.status_code == 409 and moved.json()["error"] == "waiting for A to accept the rematch"
        assert stored(db, new)[2] == 0
        accepted = post(client, new, "accept", tokens[0])
        assert accepted.status_code == 200, accepted.text
        assert accepted.json() == {"table": new, "status": "playing", "waiting_for": [], "declined_by": None}
        end = time.time() + 10
        while stored(db, new)[2] == 0:  # now the bot plays its turn
            assert time.time() < end, "the bot did not move once everyone accepted"
            time.sleep(0.02)
        assert view(client, old, tokens[0])["rematch"]["status"] == "playing"


def test_no_deadline_runs_while_it_waits_and_the_clock_starts_on_the_last_accept(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human"], pace="turn-based", move_hours=24)
        tokens = made["tokens"]
        new = again(client, made["table"], tokens[0]).json()["table"]  # the old seat 0 is the new seat 1
        assert view(client, new, tokens[1])["waiting_for"] == [0]
        advance(client, 3 * DAY)  # three days of waiting: a deadline would have passed thrice
        time.sleep(0.3)  # several of the scheduler's polls
        assert stored(db, new) == ("waiting", None, 0, None, [False, True])
        assert client.app.state.scheduler.acted == 0  # type: ignore[attr-defined]
        accepted = post(client, new, "accept", tokens[1])
        assert accepted.json()["status"] == "playing"
        now = status(client, new)["now"]
        deadline = stored(db, new)[1]
        assert deadline is not None and abs(deadline - (now + 24 * 3600)) < 5  # a day from the accept
        seen = view(client, new, tokens[1])
        assert seen["status"] == "playing" and seen["clock"]["deadline"] == deadline
        asked = next(t for t in tokens.values() if view(client, new, t)["asked"])
        move = view(client, new, asked)["legal"][0]
        assert post(client, new, "actions", asked, json={"action": move, "version": 0}).status_code == 200


def test_a_decline_cancels_the_rematch_for_good(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human", "human"])
        tokens, old = made["tokens"], made["table"]
        new = again(client, old, tokens[0]).json()["table"]  # B, the old seat 1, is the new seat 0
        assert post(client, new, "accept", tokens[2]).json()["waiting_for"] == [0]
        declined = post(client, new, "decline", tokens[1])
        assert declined.status_code == 200
        assert declined.json() == {"table": new, "status": "declined", "waiting_for": [], "declined_by": 0}
        assert stored(db, new) == ("declined", None, 0, 0, [False, True, True])
        assert view(client, old, tokens[0])["rematch"]["status"] == "declined"
        seen = view(client, new, tokens[0])
        assert seen["status"] == "declined" and seen["declined_by"] == 0 and seen["legal"] == []
        for token in tokens.values():  # nobody plays it, nobody accepts it any more
            moved = post(client, new, "actions", token, json={"action": "pass"})
            assert moved.status_code == 409
            assert moved.json()["error"] == "B declined the rematch: it is not played"
            assert post(client, new, "accept", token).status_code == 409
        assert post(client, new, "decline", tokens[1]).json()["status"] == "declined"  # idempotent
        refused = again(client, old, tokens[2])  # no new rematch from this table (ruling S-3)
        assert refused.status_code == 409 and "declined the rematch" in refused.json()["error"]
        assert view(client, old, tokens[0])["next_table"] == new
        assert status(client, new)["status"] == "declined"
        assert not rate_table(hall_of(client).store.engine, new)  # never rated
        assert stored(db, new) == ("declined", None, 0, 0, [False, True, True])


def test_the_waiting_survives_a_restart(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human", "human"], pace="turn-based", move_hours=12)
        tokens = made["tokens"]
        new = again(client, made["table"], tokens[0]).json()["table"]
        assert post(client, new, "accept", tokens[1]).json()["waiting_for"] == [1]  # the old seat 2
        before = view(client, new, tokens[2])
    assert stored(db, new) == ("waiting", None, 0, None, [True, False, True])
    with turn_client(db) as client:  # the server started again on the same file
        advance(client, DAY)
        time.sleep(0.2)
        after = view(client, new, tokens[2])
        assert after["status"] == "waiting" and after["waiting_for"] == before["waiting_for"] == [1]
        assert after["clock"]["deadline"] is None and after["version"] == 0
        assert view(client, made["table"], tokens[0])["rematch"]["waiting_for"] == [1]  # read back
        assert post(client, new, "accept", tokens[1]).json()["waiting_for"] == [1]  # idempotent
        started = post(client, new, "accept", tokens[2])
        assert started.json()["status"] == "playing"
        deadline = stored(db, new)[1]
        assert deadline is not None and abs(deadline - (status(client, new)["now"] + 12 * 3600)) < 5
    with turn_client(db) as client:  # and once started, it stays started
        assert view(client, new, tokens[0])["status"] == "playing"
        assert post(client, new, "accept", tokens[0]).json()["status"] == "playing"  # still idempotent


def test_a_second_play_again_accepts_for_its_asker(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human"])
        tokens = made["tokens"]
        new = again(client, made["table"], tokens[0]).json()["table"]
        assert again(client, made["table"], tokens[1]).json()["table"] == new
        assert view(client, new, tokens[0])["status"] == "playing"
        assert stored(db, new)[0] == "playing"


def test_refusals_are_one_line_and_change_nothing(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human"])
        tokens = made["tokens"]
        new = again(client, made["table"], tokens[0]).json()["table"]
        before = stored(db, new)
        cases = [
            (post(client, new, "accept", made["spectator_token"]), 403),
            (post(client, new, "decline", made["spectator_token"]), 403),
            (post(client, new, "accept", ""), 403),
            (post(client, new, "accept", "not-a-token"), 403),
            (post(client, "nosuchtable", "accept", tokens[1]), 404),
            (post(client, new, "accept", tokens[1], json={"seat": 0}), 400),
            (post(client, new, "decline", tokens[1], content=b"not json"), 400),
            (client.get(f"/api/tables/{new}/accept", headers=bearer(tokens[1])), 405),
        ]
        for reply, code in cases:
            assert reply.status_code == code, reply.text
            body = reply.json()
            assert body["status"] == code and "\n" not in body["error"]
        assert stored(db, new) == before
        with client.websocket_connect(f"/ws/{new}") as ws:  # no stand-in while it waits
            hello(ws, tokens[0])
            ws.send_json({"type": "stand_in", "seat": 0, "bot": "random"})
            while (reply := ws.receive_json())["type"] != "error":
                pass
            assert reply["status"] == 409 and "to accept the rematch" in reply["error"]
        lobby = create(client, "embers", ["human", "human"])  # a table nobody has to accept
        for what in ("accept", "decline"):
            refused = post(client, lobby["table"], what, lobby["tokens"][0])
            assert refused.status_code == 409
            assert refused.json()["error"] == "this table is not waiting for anyone to accept"
        assert post(client, new, "accept", tokens[1]).json()["status"] == "playing"
        late = post(client, new, "decline", tokens[0])
        assert (
            late.status_code == 409
            and late.json()["error"] == "the rematch has begun: it can no longer be declined"
        )
        assert stored(db, new)[0] == "playing"


@needs_chromium
@pytest.mark.slow
def test_in_chromium_one_asks_the_other_accepts_with_one_click_and_the_new_table_plays(
    server: LiveServer, browser: Any
) -> None:
    made, table, _ = finished_embers(server, 8)
    ana, bo = (own_browser(browser, server.url + made["seats"][seat]) for seat in ("0", "1"))
    bo.wait_for_selector("#finish:not([hidden]) #play-again")
    ana.click("#play-again")
    ana.wait_for_url(lambda url: "/t/" in url and table not in url)
    new = ana.url.split("/t/")[1].split("#")[0]
    ana.wait_for_function("() => view && view.status === 'waiting'")
    assert "waiting for seat 0 to accept" in ana.text_content("#banner")
    assert ana.locator("#accept-here").is_hidden()  # Ana accepted by asking
    bo.wait_for_selector("#accept-rematch")  # Bo's finished table is told at once
    assert "waiting for you" not in bo.text_content(
        "#finish"
    ) and "it starts when you accept" in bo.text_content("#finish")
    screenshot(bo, "rematch-asked")
    assert server.get(f"/api/tables/{new}/status")["waiting_for"] == [0]
    bo.click("#accept-rematch")  # one click: accepted, and on to the new table
    bo.wait_for_url(lambda url: new in url)
    for page, seat in ((ana, 1), (bo, 0)):
        page.wait_for_function("() => view && view.status === 'playing'")
        assert page.evaluate("() => view.seat") == seat and not page.is_visible("#rematch")
    asked = next(page for page in (ana, bo) if page.evaluate("() => view.asked"))
    seen = version(asked)
    asked.locator("#actions button").first.click()
    wait_past(asked, seen)
    wait_past(ana if asked is bo else bo, seen)
    assert ana.problems == [] and bo.problems == []


def test_nobody_is_told_it_is_their_turn_until_the_rematch_starts(db: Path) -> None:
    with notify_client(db) as client:
        made = bound_table(client, db, "embers", 3)
        for account in made["accounts"].values():
            set_for(db, account, webhook_url="http://127.0.0.1:9/hook")  # rows are queued all the same
        play_out(client, made)
        new = again(client, made["table"], made["tokens"][0]).json()["table"]  # the asker's new seat 2
        tokens = {(seat - 1) % 3: token for seat, token in made["tokens"].items()}
        accounts = {(seat - 1) % 3: account for seat, account in made["accounts"].items()}
        first = notify_hall(client).get(new).state.deciders()[0]
        time.sleep(0.3)
        assert sql(db, "SELECT COUNT(*) FROM notifications WHERE table_id = ?", new) == [(0,)]
        # The asked seat accepts first (when it is to accept at all), so the last accept is another's.
        for seat in sorted((0, 1), key=lambda s: s != first):
            assert post(client, new, "accept", tokens[seat]).status_code == 200
        wait_until(lambda: sql(db, "SELECT account_id, kind FROM notifications WHERE table_id = ?", new))
        assert sql(db, "SELECT account_id, kind FROM notifications WHERE table_id = ?", new) == [
            (accounts[first], "turn")
        ]


@needs_chromium
@pytest.mark.slow
def test_in_chromium_a_decline_on_the_new_tables_page_shows_on_both_pages(
    server: LiveServer, browser: Any
) -> None:
    made, table, keys = finished_embers(server, 9)
    ana = own_browser(browser, server.url + made["seats"]["0"])
    new = live_post(server, f"/api/tables/{table}/again", keys[0])["table"]
    ana.wait_for_selector("#rematch-waiting")  # Ana asked: she waits for Bo, and may go there
    assert ana.text_content("#rematch-waiting") == "Waiting for seat 1 to accept the rematch."
    bo = own_browser(browser, f"{server.url}/t/{new}#k={keys[1]}")  # Bo's own link opens his new seat
    bo.wait_for_selector("#accept-here")
    assert bo.text_content("#banner").startswith("A rematch: waiting for you to accept")
    assert bo.locator("#actions button").count() == 0
    bo.click("#decline-here")
    bo.wait_for_function("() => view.status === 'declined'")
    assert bo.text_content("#banner") == "You declined the rematch: this table is not played."
    assert bo.is_hidden("#rematch")
    ana.wait_for_selector("#rematch-declined")
    assert ana.text_content("#rematch-declined") == "seat 1 declined the rematch."
    assert ana.locator("#play-again").count() == 0 and ana.locator("#next-table").count() == 0
    assert ana.problems == [] and bo.problems == []


def test_migration_0011_goes_down_and_up_and_every_older_seat_has_accepted(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human"])
        new = again(client, made["table"], made["tokens"][0]).json()["table"]
    downgrade(db, "0010")  # the older server knows no waiting: the rematch is in play
    assert "accepted" not in column_names(db, "seats")
    assert database_sql(db, "SELECT status FROM tables WHERE id = ?", new) == [("playing",)]
    with turn_client(db) as client:  # opened: upgraded to 0011 again, every seat stored has accepted
        assert stored(db, new) == ("playing", None, 0, None, [True, True])
        assert view(client, new, made["tokens"][0])["waiting_for"] == []
        asked = next(t for t in made["tokens"].values() if view(client, new, t)["asked"])
        move = view(client, new, asked)["legal"][0]
        assert post(client, new, "actions", asked, json={"action": move, "version": 0}).status_code == 200


def test_two_servers_on_one_database_make_one_rematch(db: Path) -> None:
    with turn_client(db) as one, turn_client(db) as two:  # two processes' halls on one file
        made = finished(one, ["human", "human", "human"])
        tokens, old = made["tokens"], made["table"]
        assert view(two, old, tokens[1])["next_table"] is None  # the second has the old table in memory
        new = again(one, old, tokens[0]).json()["table"]
        other = again(two, old, tokens[1])  # its memory knows no rematch: the stored link wins
        assert other.status_code == 200, other.text
        assert other.json()["table"] == new
        assert sql(db, "SELECT next_table FROM tables WHERE id = ?", old) == [(new,)]
        assert sql(db, "SELECT count(*) FROM tables") == [(2,)]  # no second rematch stored
        assert stored(db, new)[4] == [True, False, True]  # both askers accepted: the old seats 0 and 1
        assert view(two, new, tokens[2])["waiting_for"] == [1]


def test_an_answer_writes_the_table_row_before_it_counts_the_accepts(db: Path) -> None:
    # Under READ COMMITTED (PostgreSQL) two last accepts on two nodes each counted the other's seat as
    # not yet accepted; the no-op update of the table's row first makes the second wait for the first.
    with turn_client(db) as client:
        made = finished(client, ["human", "human", "human"])
        new = again(client, made["table"], made["tokens"][0]).json()["table"]
    store = Store(database_url(db))
    try:
        said: list[list[str]] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a: said.append(a[2].split()[0:2]))
        answered = store_answer(store.engine, new, 0, True, time.time(), None)
        assert answered.status == "waiting" and answered.accepted == [True, False, True]
        assert said[0] == ["UPDATE", "tables"], said
    finally:
        store.close()


def test_two_last_accepts_at_once_on_two_stores_start_the_game_once(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human", "human"])
        new = again(client, made["table"], made["tokens"][0]).json()["table"]
    stores = [Store(database_url(db)), Store(database_url(db))]
    try:
        start, answers = threading.Barrier(2), []

        def accept(store: Store, seat: int) -> None:
            start.wait()
            answers.append(store_answer(store.engine, new, seat, True, time.time(), None))

        threads = [threading.Thread(target=accept, args=(s, n)) for s, n in zip(stores, (0, 1), strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(a.status for a in answers) == ["playing", "waiting"]  # the second one started it
        assert stored(db, new)[0] == "playing" and stored(db, new)[4] == [True, True, True]
    finally:
        for store in stores:
            store.close()


def test_a_rematch_nobody_finished_accepting_expires_after_a_week_once(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human"], pace="turn-based", move_hours=24)
        tokens, old = made["tokens"], made["table"]
        new = again(client, old, tokens[0]).json()["table"]
        (expires,) = sql(db, "SELECT expires FROM tables WHERE id = ?", new)[0]
        assert abs(expires - (status(client, new)["now"] + 7 * DAY)) < 5
        advance(client, 6.9 * DAY)
        time.sleep(0.3)  # several of the scheduler's polls
        assert stored(db, new)[0] == "waiting"
        advance(client, 0.2 * DAY)
        wait_until(lambda: stored(db, new)[0] == "declined")
        assert stored(db, new) == ("declined", None, 0, None, [False, True])
        scheduler = client.app.state.scheduler  # type: ignore[attr-defined]
        time.sleep(0.2)
        assert scheduler.expired == 1  # once, though every later poll sees the passed time
        rematch = view(client, old, tokens[0])["rematch"]
        assert rematch == {"table": new, "status": "declined", "waiting_for": [], "declined_by": None}
        expired = "the rematch expired: not everyone accepted in a week"
        late = post(client, new, "accept", tokens[1])
        assert late.status_code == 409 and late.json()["error"] == expired
        again_late = again(client, old, tokens[1])
        assert again_late.status_code == 409
        assert again_late.json()["error"] == expired + "; make a new table in the lobby"
        assert view(client, new, tokens[1])["status"] == "declined"
    with turn_client(db) as client:  # read back after a restart: still expired, never played
        assert view(client, old, tokens[0])["rematch"]["status"] == "declined"
        assert stored(db, new)[0] == "declined"


def test_two_schedulers_expire_a_rematch_once(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human"])
        new = again(client, made["table"], made["tokens"][0]).json()["table"]
    stores = [Store(database_url(db)), Store(database_url(db))]
    try:
        later = time.time() + 8 * DAY
        assert expire_due(stores[0].engine, time.time(), 100) == []  # not yet
        assert expire_due(stores[0].engine, later, 100) == [new]
        assert expire_due(stores[1].engine, later, 100) == []
        assert stored(db, new)[0] == "declined"
    finally:
        for store in stores:
            store.close()


def test_a_seat_whose_account_was_deleted_counts_as_declined(db: Path) -> None:
    with notify_client(db) as client:
        made = bind_seats(client, db, create(client, "embers", ["human", "human"]))
        play_out(client, made)
        tokens, old = made["tokens"], made["table"]
        gone = client.post(
            "/api/me/delete", json={"password": PASSWORD}, headers={"x-csrf-token": made["csrf"][1]}
        )
        assert gone.status_code == 200, gone.text  # the last registered (seat 1) is signed in
        refused = again(client, old, tokens[0])  # the new seat 0 is the old seat 1: deleted
        assert refused.status_code == 409
        assert refused.json()["error"] == (
            "deleted player declined the rematch: it is not played; make a new table in the lobby"
        )
        new = view(client, old, tokens[0])["next_table"]
        assert stored(db, new) == ("declined", None, 0, 0, [False, True])
        assert sql(db, "SELECT expires FROM tables WHERE id = ?", new) == [(None,)]
        rematch = view(client, old, tokens[0])["rematch"]
        assert rematch["status"] == "declined" and rematch["declined_by"] == 0
        assert again(client, old, tokens[1]).status_code == 409  # its token still opens it: no again


def test_migration_0013_goes_down_and_up_and_a_waiting_rematch_gets_a_week(db: Path) -> None:
    with turn_client(db) as client:
        made = finished(client, ["human", "human"])
        new = again(client, made["table"], made["tokens"][0]).json()["table"]
    downgrade(db, "0011")  # the rematch waits, with no time limit
    assert "expires" not in column_names(db, "tables")
    with turn_client(db) as client:  # opened: upgraded again, the waiting rematch has a week from now
        (expires,) = sql(db, "SELECT expires FROM tables WHERE id = ?", new)[0]
        assert abs(expires - (time.time() + 7 * DAY)) < 60
        assert sql(db, "SELECT expires FROM tables WHERE id = ?", made["table"]) == [(None,)]
        assert stored(db, new)[0] == "waiting"
