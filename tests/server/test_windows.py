"""Quick reaction windows: one pause for a run of bots' answers, a person's "ask me" setting, its
passes timed as a quick typed pass (issue 31, item 4)."""

from __future__ import annotations

import itertools
import json
import random
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine
from starlette.applications import Starlette
from starlette.testclient import TestClient, WebSocketTestSession

from parlour.core.record import replay_steps, start_state
from parlour.core.registry import load_game
from parlour.server.asking import AskError, AskMe, check_ask
from parlour.server.hall import Hall
from parlour.server.tables import LiveTable, Timing

from .browsing import LAPTOP, needs_chromium, open_seat, screenshot, wait_for_my_move
from .conftest import bearer, database_url, make_client
from .live_server import LiveServer
from .migrating import insert_old_seats, insert_old_table
from .test_live import hello

GAME = "venus-needs-men"
MIGRATIONS = Path(__file__).parents[2] / "parlour" / "server" / "migrations"


def runs(live: LiveTable) -> list[tuple[float, list[tuple[int, float, str]]]]:
    """Returns the table's runs of window decisions that have closed: each run's start (when its first
    window opened) and its moves (seat, time, action)."""
    stored = list(live.record.moves)  # the moves so far (more may land while this runs)
    windows = window_flags(live, len(stored))
    times = [live.record.created] + [m.at for m in stored]
    found: list[tuple[float, list[tuple[int, float, str]]]] = []
    current: list[tuple[int, float, str]] = []
    for number, move in enumerate(stored):
        if windows[number]:
            if not current:
                found.append((times[number], current))
            current.append((move.seat, move.at, move.action))
        else:
            current = []
    if windows[len(stored)] and found and found[-1][1] is current:
        found.pop()  # still open
    return found


def spec(seats: list[dict[str, Any]], **options: str) -> dict[str, Any]:
    """Returns a table request for Venus Needs Men!'s Enhanced game with these seats."""
    return {"game": GAME, "options": {"game": "enhanced", **options}, "seats": seats}


def hall_of(client: TestClient) -> Hall:
    """Returns the hall of the client's server."""
    app = client.app
    assert isinstance(app, Starlette)
    found: Hall = app.state.hall
    return found


def made(client: TestClient, request: dict[str, Any]) -> dict[str, Any]:
    """Creates a table; returns the reply with tokens by seat."""
    reply = client.post("/api/tables", json=request)
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    data["tokens"] = {int(seat): url.split("#k=")[1] for seat, url in data["seats"].items()}
    return data


BOT = {"kind": "bot", "bot": "greedy"}


@pytest.mark.slow
def test_a_run_of_bots_answers_lands_after_one_pause_not_one_per_bot(db: Path) -> None:
    think = 0.4
    with make_client(db, Timing(think=think, pass_delay=2.0, grace=0.0, window_pause=think)) as client:
        table = made(client, spec([BOT] * 4))["table"]
        live = hall_of(client).get(table)
        end = time.time() + 90
        long_runs: list[tuple[float, list[tuple[int, float, str]]]] = []
        while time.time() < end and len(long_runs) < 3 and not live.state.is_over():
            time.sleep(0.5)
            long_runs = [r for r in runs(live) if len(r[1]) >= 3 and all(a == "pass" for _, _, a in r[1])]
    assert len(long_runs) >= 3
    for start, moves in long_runs:
        # Before: each bot paused ``think`` in turn (three answers took 1.2 s at least).
        assert moves[-1][1] - start < 2 * think, (start, moves)


@pytest.mark.slow
def test_a_person_who_says_never_is_answered_for_at_the_bots_pace(db: Path) -> None:
    never = {"kind": "human", "ask": {"mode": "never"}}
    with make_client(db, Timing(think=0.3, pass_delay=3.0, grace=0.0)) as client:
        reply = made(client, spec([never, BOT, BOT]))
        table, token = reply["table"], reply["tokens"][0]
        live = hall_of(client).get(table)
        rng = random.Random(5)
        end = time.time() + 90
        mine: list[float] = []
        while time.time() < end and len(mine) < 6 and not live.state.is_over():
            view = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
            if view["asked"] and not view["passing_window"]:
                choices = [a for a in view["legal"] if a not in ("undo", "cancel")]
                client.post(
                    f"/api/tables/{table}/actions",
                    json={"action": rng.choice(choices)},
                    headers=bearer(token),
                )
            elif view["asked"]:
                assert view["answered_for_you"] and view["ask"] == {"mode": "never", "cards": []}
            time.sleep(0.02)
            mine = [at - start for start, moves in runs(live) for seat, at, _ in moves if seat == 0]
    assert len(mine) >= 6 and max(mine) < 1.5  # the pass delay (3 s) is not waited for


@pytest.mark.slow
@pytest.mark.parametrize(
    ("setting", "wanted"),
    [({"mode": "only", "cards": ["Deflector Shield"]}, {"Deflector Shield"}), ({}, None)],
)
def test_a_setting_asks_only_for_its_cards_and_its_passes_land_when_a_quick_typed_pass_does(
    db: Path, setting: dict[str, Any], wanted: set[str] | None
) -> None:
    delay = 0.5
    only = {"kind": "human", "ask": setting} if setting else {"kind": "human"}  # {}: the default, playable
    always = {"kind": "human", "ask": {"mode": "always"}}
    with make_client(db, Timing(think=0.05, pass_delay=delay, grace=0.0)) as client:
        reply = made(client, spec([only, always, BOT]))
        table, tokens = reply["table"], reply["tokens"]
        live = hall_of(client).get(table)
        rng = random.Random(8)
        end = time.time() + 150
        typed: dict[int, int] = {0: 0, 1: 0}
        while time.time() < end and not live.state.is_over():
            for seat, token in tokens.items():
                reply = client.get(f"/api/tables/{table}", headers=bearer(token))
                if reply.status_code == 429:  # this loop polls as fast as it can: the per-address limit
                    time.sleep(0.2)
                    continue
                view = reply.json()
                assert reply.status_code == 200, view
                if not view["asked"] or view["answered_for_you"]:
                    continue
                if view["passing_window"]:
                    # Asked in a window: seat 0 only when it could play a card (one it chose).
                    can = set(live.state.playable_cards(0))
                    assert seat == 1 or (can & wanted if wanted else can)
                    typed[seat] += 1
                    action = "pass"
                else:
                    action = rng.choice([a for a in view["legal"] if a not in ("undo", "cancel")])
                client.post(f"/api/tables/{table}/actions", json={"action": action}, headers=bearer(token))
            waits = window_waits(live)
            if len(waits[0]) >= 8 and len(waits[1]) >= 8:
                break
            time.sleep(0.01)
    waits = window_waits(live)
    assert len(waits[0]) >= 8 and len(waits[1]) >= 8 and typed[1] >= 8
    # Seat 0's passes, made by its setting, and seat 1's quick typed ones land alike: the pass delay
    # after the seat was asked, so the table's pace says nothing about seat 0's cards.
    assert min(waits[0] + waits[1]) >= delay - 0.01
    assert abs(statistics.median(waits[0]) - statistics.median(waits[1])) < 0.1


def window_waits(live: LiveTable) -> dict[int, list[float]]:
    """Returns, for seats 0 and 1, how long after it was asked each of its passes in a window landed."""
    times = [live.record.created] + [m.at for m in live.record.moves]
    found: dict[int, list[float]] = {0: [], 1: []}
    for _, moves in runs(live):
        for seat, at, action in moves:
            if seat in found and action == "pass":
                found[seat].append(at - times[times.index(at) - 1])
    return found


UPDATES = 20
"""The most table updates of automatic moves a test skips while it waits for its own answer."""


def not_an_update(ws: WebSocketTestSession) -> dict[str, Any]:
    """Returns the next message that is not a table update (an automatic move's update may come first:
    its write is slower on PostgreSQL)."""
    for _ in range(UPDATES):
        found: dict[str, Any] = json.loads(ws.receive_text())
        if found.get("type") != "table":
            return found
    raise AssertionError(f"{UPDATES} table updates and no other message")


def update_after(ws: WebSocketTestSession, changed: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Returns the first table update for which ``changed(update)`` holds (automatic moves' updates
    from before a change may come first)."""
    for _ in range(UPDATES):
        found: dict[str, Any] = json.loads(ws.receive_text())
        if found.get("type") == "table" and changed(found):
            return found
    raise AssertionError(f"{UPDATES} messages and no table update showing the change")


def test_the_ask_message_sets_the_seats_setting_and_refuses_a_bad_one_in_one_line(db: Path) -> None:
    with make_client(db) as client:
        reply = made(client, spec([{"kind": "human"}, {"kind": "human"}]))
        table, token = reply["table"], reply["tokens"][0]
        with client.websocket_connect(f"/ws/{table}") as ws:
            first = hello(ws, token)
            assert (
                first["ask"] == {"mode": "playable", "cards": []}
                and "Deflector Shield" in first["reaction_cards"]
            )
            for bad, says in (
                ({"mode": "sometimes"}, "ask's mode must be one of always, playable, only, never"),
                ({"mode": "only"}, "the mode 'only' needs a list of 1 to 60 card names"),
                ({"mode": "only", "cards": ["Death Ray"]}, "no card named 'Death Ray'"),
                ({"mode": "never", "cards": ["Jamming"]}, "only the mode 'only' takes cards"),
                ({"mode": "only", "cards": ["x" * 61]}, "a card name is a text of 1 to 60"),
            ):
                ws.send_text(json.dumps({"type": "ask", **bad}))
                error = not_an_update(ws)
                assert error["type"] == "error" and error["status"] == 400 and says in error["error"]
                assert "\n" not in error["error"]
            ws.send_text(
                json.dumps({"type": "ask", "mode": "only", "cards": ["Jamming", "Deflector Shield"]})
            )
            update = update_after(ws, lambda u: u["ask"]["mode"] == "only")
            assert update["ask"] == {"mode": "only", "cards": ["Jamming", "Deflector Shield"]}
        other = client.get(f"/api/tables/{table}", headers=bearer(reply["tokens"][1])).json()
        assert other["ask"] == {"mode": "playable", "cards": []}  # each seat its own, none another's
        spectator = client.get(
            f"/api/tables/{table}", headers=bearer(reply["spectator"].split("#k=")[1])
        ).json()
        assert "ask" not in spectator and "answered_for_you" not in spectator
    with make_client(db) as client:  # the setting is stored
        again = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        assert again["ask"] == {"mode": "only", "cards": ["Jamming", "Deflector Shield"]}


def test_a_table_request_gives_a_setting_or_the_older_switch_not_both(db: Path) -> None:
    with make_client(db) as client:
        for seat, says in (
            ({"kind": "human", "ask": {"mode": "only", "cards": ["Death Ray"]}}, "seat 0: no card named"),
            ({"kind": "human", "ask": {"mode": "never"}, "auto_pass": True}, "seat 0: give ask or auto_pass"),
            ({"kind": "human", "ask": "never"}, 'seat 0: ask is {"mode"'),
            ({"kind": "human", "ask": {"mode": "never", "when": 1}}, 'seat 0: ask is {"mode"'),
        ):
            reply = client.post("/api/tables", json=spec([seat, BOT]))
            assert reply.status_code == 400 and says in reply.json()["error"], reply.text
        off = made(client, {"game": "venture", "seats": [{"kind": "human", "auto_pass": False}, BOT]})
        view = client.get(f"/api/tables/{off['table']}", headers=bearer(off["tokens"][0])).json()
        assert view["ask"]["mode"] == "always" and view["auto_pass"] is False


def test_a_database_from_before_the_settings_keeps_each_seats_auto_pass(db: Path) -> None:
    engine = create_engine(database_url(db))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        insert_old_table(connection, "old", "venture")  # not sealed (0003's default)
        insert_old_seats(connection, "old", (True, False))
    engine.dispose()
    with make_client(db) as client:
        live = hall_of(client).get("old")
        assert [s.ask for s in live.record.seats] == ["playable", "always"]


def test_each_setting_passes_for_the_seat_exactly_when_it_says() -> None:
    game = load_game(GAME)
    seen = {"playable": 0, "asked": 0}
    for seed in range(6):
        state = game.new_state(4, seed, {"game": "enhanced"})
        bots = [game.bots()["greedy"](s) for s in range(4)]
        while not state.is_over():
            seat = state.deciders()[0]
            if state.passing_window():
                can = state.playable_cards(seat)
                assert AskMe("always").passes_for(state, seat) is False
                assert AskMe("never").passes_for(state, seat) is True
                only = [state.format_action(a) for a in state.legal_actions(seat)] == ["pass"]
                assert AskMe("playable").passes_for(state, seat) is only  # a card or `withdraw`: asked
                assert not (can and only)
                assert AskMe("only", ("Deflector Shield",)).passes_for(state, seat) is (
                    "Deflector Shield" not in can
                )
                seen["playable" if can else "asked"] += 1
            for other in range(4):
                if other != seat:
                    assert not AskMe("never").passes_for(state, other)
            state.apply(bots[seat].choose(state, seat), seat)
    assert seen["playable"] > 20 and seen["asked"] > 20


def test_a_setting_round_trips_through_its_stored_text() -> None:
    for ask in (AskMe(), AskMe("always"), AskMe("never"), AskMe("only", ("Jamming", "Deflector Shield"))):
        assert AskMe.from_text(ask.to_text()) == ask
    assert AskMe.from_text(None) == AskMe() and AskMe.from_text("nonsense") == AskMe()
    with pytest.raises(AskError, match="no card named 'Zap'"):
        check_ask("only", ["Zap"], ["Jamming"])
    assert check_ask("only", ["Jamming", "Jamming"], ["Jamming"]).cards == ("Jamming",)


def seat_setting(server: LiveServer, reply: dict[str, Any], mode: str) -> dict[str, Any]:
    """Returns seat 0's ask-me setting as the server has it, once its mode is ``mode`` (or after 10 s)."""
    token = reply["seats"]["0"].split("#k=")[1]
    end = time.time() + 10
    while True:
        setting: dict[str, Any] = server.get(f"/api/tables/{reply['table']}", token)["ask"]
        if setting["mode"] == mode or time.time() >= end:
            return setting
        time.sleep(0.1)


@needs_chromium
@pytest.mark.slow
def test_a_view_sent_before_the_server_had_the_setting_does_not_undo_the_persons_choice(
    server: LiveServer, browser: Any
) -> None:
    """The page's socket goes through the test: when the page sends its new setting, the last view (the
    old setting in it) is sent to the page again, as a view the server sent just before would land, and
    the server's next messages are held back until the page has drawn it. The page keeps showing the
    person's choice; then the server's own view lands, and the server has the setting."""
    reply = server.create(GAME, ["human", "greedy", "greedy"], options={"game": "enhanced"})
    page = browser.new_page(viewport=LAPTOP)
    last: list[dict[str, Any]] = []
    held: list[str | bytes] | None = None  # the server's messages, while held back
    pages: list[Any] = []

    def through_the_test(socket: Any) -> None:
        upstream = socket.connect_to_server()
        pages.append(socket)

        def from_page(message: str | bytes) -> None:
            nonlocal held
            upstream.send(message)
            if '"ask"' in str(message) and last and held is None:
                held = []
                socket.send(json.dumps({**last[-1], "replayed": True}))  # the old setting, landing late

        def from_server(message: str | bytes) -> None:
            if held is not None:
                held.append(message)
                return
            parsed = json.loads(message)
            if parsed.get("type") == "table":
                last.append(parsed)
            socket.send(message)

        socket.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/"), through_the_test)
    page.goto(server.url + reply["seats"]["0"])
    page.wait_for_selector("#banner:not(:empty)")
    wait_for_my_move(page)  # nothing else moves: only the test's replay can redraw the old setting
    page.select_option("#ask-mode", "only")
    page.check("input[aria-label='ask me for Deflector Shield']")
    page.wait_for_function("() => view && view.replayed === true")  # the old view is drawn
    assert page.input_value("#ask-mode") == "only"
    assert page.is_checked("input[aria-label='ask me for Deflector Shield']")
    released, held = held or [], None
    for message in released:
        pages[-1].send(message)
    assert seat_setting(server, reply, "only") == {"mode": "only", "cards": ["Deflector Shield"]}


@needs_chromium
@pytest.mark.slow
def test_the_page_sets_the_seats_setting_and_a_spectator_has_none(server: LiveServer, browser: Any) -> None:
    reply = server.create(GAME, ["human", "greedy", "greedy"], options={"game": "enhanced"})
    page = open_seat(browser, server.url + reply["seats"]["0"])
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    assert page.input_value("#ask-mode") == "playable" and page.is_hidden("#ask-cards")
    # Set while the person is asked, when no bot moves: a view the server sent before it had the new
    # setting would redraw the old one over the box just ticked (and Playwright's check then fails).
    wait_for_my_move(page)
    page.select_option("#ask-mode", "only")
    page.check("input[aria-label='ask me for Deflector Shield']")
    screenshot(page, "ask-setting")
    assert seat_setting(server, reply, "only") == {"mode": "only", "cards": ["Deflector Shield"]}
    page.reload()
    page.wait_for_selector("#banner:not(:empty)")
    assert page.input_value("#ask-mode") == "only"
    assert page.is_checked("input[aria-label='ask me for Deflector Shield']")
    page.select_option("#ask-mode", "never")
    assert seat_setting(server, reply, "never")["mode"] == "never"
    spectator = open_seat(browser, server.url + reply["spectator"])
    assert spectator.is_hidden("#ask-box")
    assert not errors


@pytest.mark.slow
def test_a_table_nobody_else_watches_answers_for_its_one_person_at_the_bots_pace(db: Path) -> None:
    with make_client(db, Timing(think=0.3, pass_delay=3.0, grace=0.0)) as client:
        reply = made(client, {**spec([{"kind": "human"}, BOT, BOT]), "spectators": False})
        table, token = reply["table"], reply["tokens"][0]
        assert reply["spectator"] is None
        live = hall_of(client).get(table)
        assert not live.watched()
        rng = random.Random(6)
        end = time.time() + 90
        mine: list[float] = []
        typed = 0
        while time.time() < end and (len(mine) < 6 or typed < 2) and not live.state.is_over():
            view = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
            if view["asked"] and not view["answered_for_you"]:
                choices = [a for a in view["legal"] if a not in ("undo", "cancel")]
                action = "pass" if view["passing_window"] else rng.choice(choices)
                typed += action == "pass"
                client.post(f"/api/tables/{table}/actions", json={"action": action}, headers=bearer(token))
            time.sleep(0.02)
            mine = [
                at - start
                for start, moves in runs(live)
                for seat, at, a in moves
                if seat == 0 and a == "pass"
            ]
    # Neither the passes made for the person nor the ones they type wait for the pass delay (3 s).
    assert len(mine) >= 6 and typed >= 2 and max(mine) < 1.5


def test_only_a_table_with_a_spectators_link_or_two_people_is_watched(db: Path) -> None:
    with make_client(db) as client:
        hall = hall_of(client)
        alone = made(client, {"game": "venture", "seats": [{"kind": "human"}, BOT], "spectators": False})
        two = made(client, {"game": "venture", "seats": [{"kind": "human"}] * 2, "spectators": False})
        seen = made(client, {"game": "venture", "seats": [{"kind": "human"}, BOT]})
        assert [hall.get(t["table"]).watched() for t in (alone, two, seen)] == [False, True, True]
        for token in ("", "x" * 32, seen["spectator"].split("#k=")[1]):  # no spectators' link opens it
            reply = client.get(f"/api/tables/{alone['table']}", headers=bearer(token))
            assert reply.status_code == 403
        refused = client.post(
            "/api/tables", json={"game": "venture", "seats": [BOT, BOT], "spectators": "no"}
        )
        assert refused.status_code == 400 and refused.json()["error"] == "spectators must be true or false"
    with make_client(db) as client:  # stored
        assert not hall_of(client).get(alone["table"]).watched()


@needs_chromium
@pytest.mark.slow
def test_the_lobby_makes_a_table_for_one_person_unwatched_unless_asked(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-0")
    assert not page.is_checked("#spectators")  # one person and bots: nobody else watches
    page.click("#create-button")
    page.wait_for_selector("#links a.seat-link[data-seat='0']")
    assert page.locator("#links a.spectator-link").count() == 0
    page.select_option("#seat-1", "human")
    assert page.is_checked("#spectators")  # two people: a link to watch, by default
    page.select_option("#seat-1", "greedy")
    page.check("#spectators")  # asked for: kept whatever the seats
    page.select_option("#players", "3")
    assert page.is_checked("#spectators")
    page.click("#create-button")
    page.wait_for_selector("#links a.spectator-link")


def test_never_passes_only_in_windows_and_the_clock_still_runs_out(db: Path) -> None:
    never = {"kind": "human", "ask": {"mode": "never"}}
    with make_client(db, Timing(think=0.0, pass_delay=0.0, grace=0.0, window_pause=0.0)) as client:
        reply = client.post("/api/tables", json={**spec([never, BOT]), "move_seconds": 1})
        assert reply.status_code == 201, reply.text
        table = reply.json()["table"]
        live = hall_of(client).get(table)
        end = time.time() + 60
        while time.time() < end and sum(1 for m in live.record.moves if m.note) < 3:
            time.sleep(0.05)
        moves = list(live.record.moves)
    # The person never moved: everything seat 0 did outside a window was the clock's, with its note.
    mine = [m for m in moves if m.seat == 0]
    outside = [m for m, w in zip(moves, window_flags(live), strict=False) if m.seat == 0 and not w]
    assert mine and outside and all(m.note == "the clock ran out" for m in outside)


def window_flags(live: LiveTable, moves: int | None = None) -> list[bool]:
    """Returns, for the decision before each of the first ``moves`` stored moves and the one after
    them, whether it was a reaction window (all moves: the one after is left out)."""
    record = live.game_record()
    state = start_state(live.game, record)
    flags = [state.passing_window()]
    for _ in itertools.islice(replay_steps(state, record), moves):
        flags.append(state.passing_window())
    return flags if moves is not None else flags[: len(live.record.moves)]


def test_choosing_never_while_asked_at_a_watched_table_waits_the_pass_delay(db: Path) -> None:
    delay = 0.6
    with make_client(db, Timing(think=0.0, pass_delay=delay, grace=0.0, window_pause=0.0)) as client:
        reply = made(client, spec([{"kind": "human", "ask": {"mode": "always"}}, BOT]))
        table, token = reply["table"], reply["tokens"][0]
        live = hall_of(client).get(table)
        rng = random.Random(2)
        end = time.time() + 60
        view = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        while time.time() < end and not (view["asked"] and view["passing_window"]):
            if view["asked"]:
                choices = [a for a in view["legal"] if a not in ("undo", "cancel", "pass")]
                client.post(
                    f"/api/tables/{table}/actions",
                    json={"action": rng.choice(choices)},
                    headers=bearer(token),
                )
            time.sleep(0.02)
            view = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        assert view["asked"] and view["passing_window"]
        opened, version = live.opened, view["version"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, token)
            ws.send_text(json.dumps({"type": "ask", "mode": "never"}))
            while live.record.version == version and time.time() < end:
                time.sleep(0.01)
        landed = live.record.moves[version]
    assert landed.seat == 0 and landed.action == "pass" and landed.at - opened >= delay - 0.01


def test_a_private_table_in_play_is_not_listed_and_its_status_says_nothing(db: Path) -> None:
    with make_client(db) as client:
        private = made(client, {"game": "venture", "seats": [{"kind": "human"}, BOT], "spectators": False})
        public = made(client, {"game": "venture", "seats": [{"kind": "human"}, BOT]})
        listed = [t["table"] for t in client.get("/api/tables").json()]
        assert public["table"] in listed and private["table"] not in listed
        status = client.get(f"/api/tables/{private['table']}/status").json()
        assert status == {
            "table": private["table"],
            "game": "venture",
            "status": "playing",
            "over": False,
            "private": True,
        }
        for bad in ({"mode": "only", "cards": ["|"]}, {"mode": "only", "cards": ["Jamming|Stop"]}):
            refused = client.post("/api/tables", json=spec([{"kind": "human", "ask": bad}, BOT]))
            assert refused.status_code == 400 and "without '|'" in refused.json()["error"]
        refused = client.post(
            "/api/tables", json=spec([{"kind": "human"}, {**BOT, "ask": {"mode": "never"}}])
        )
        assert refused.status_code == 400 and "a bot answers every window itself" in refused.json()["error"]


def test_a_turn_based_table_others_watch_takes_only_settings_blind_to_the_hand(db: Path) -> None:
    turns = {"pace": "turn-based", "move_hours": 24}
    people = [{"kind": "human"}, {"kind": "human"}]
    with make_client(db) as client:
        reply = made(client, {**spec(people), **turns})
        table, token = reply["table"], reply["tokens"][0]
        view = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        assert view["ask"]["mode"] == "never" and view["ask_modes"] == ["always", "never"]  # ruling S-2
        for asked in ({"mode": "playable"}, {"mode": "only", "cards": ["Jamming"]}):
            refused = client.post(
                "/api/tables", json={**spec([{"kind": "human", "ask": asked}, BOT]), **turns}
            )
            assert refused.status_code == 400 and "ruling S-2" in refused.json()["error"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, token)
            ws.send_text(json.dumps({"type": "ask", "mode": "playable"}))
            error = not_an_update(ws)
            assert error["status"] == 400 and "ruling S-2" in error["error"]
            ws.send_text(json.dumps({"type": "ask", "mode": "always"}))
            update = update_after(ws, lambda u: u["ask"]["mode"] != "never")
            assert update["ask"]["mode"] == "always"
        # One person and bots without a spectators' link: nobody else watches, every setting is open.
        alone = made(client, {**spec([{"kind": "human"}, BOT]), **turns, "spectators": False})
        view = client.get(f"/api/tables/{alone['table']}", headers=bearer(alone["tokens"][0])).json()
        assert view["ask"]["mode"] == "playable" and "only" in view["ask_modes"]
