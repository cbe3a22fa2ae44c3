"""Ratings (issue 32): rated tables between accounts and bots update OpenSkill once at their end, per
game and player count; the leaderboard matches OpenSkill computed directly from the same results in
the same order; a restart or a second call rates nothing twice; casual tables and tables with a person's
seat of no account are unrated; a person who left their seat to a bot ranks last."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from starlette.testclient import TestClient

from parlour.server.ratings import rate_pending, rate_table
from parlour.server.storage import open_store

from .accounts_helpers import account_client, login, one_line_error, register, rows
from .conftest import bearer, database_url
from .test_api import view
from .test_play_again import play_out

GAME = "embers"


def csrf(token: str) -> dict[str, str]:
    return {"x-csrf-token": token}


def table(client: TestClient, token: str | None, seats: list[str], rated: bool = True) -> dict[str, Any]:
    """Creates an Embers table ("human" or a bot per seat), rated by the account signed in; returns the
    reply with the people's tokens by seat."""
    spec = {
        "game": GAME,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "rated": rated,
    }
    reply = client.post("/api/tables", json=spec, headers=csrf(token) if token else {})
    assert reply.status_code == 201, reply.text
    made: dict[str, Any] = reply.json()
    made["tokens"] = {int(seat): url.split("#k=")[1] for seat, url in made["seats"].items()}
    made["spectator_token"] = made["spectator"].split("#k=")[1]
    return made


def bind(client: TestClient, username: str, made: dict[str, Any], seat: int) -> None:
    """Signs in as ``username`` and keeps the seat in that account."""
    signed = login(client, username)
    assert signed.status_code == 200, signed.text
    path = f"/api/tables/{made['table']}/bind"
    reply = client.post(path, headers={**csrf(signed.json()["csrf"]), **bearer(made["tokens"][seat])})
    assert reply.status_code == 200, reply.text


def people(client: TestClient) -> str:
    """Registers ana1 and bo1 (bo1 signed in last: the creator); returns bo's CSRF token."""
    register(client, "ana1", display_name="Ana")
    return register(client, "bo1", display_name="<b>Bo</b>")


def ana_bo_and_random(client: TestClient) -> dict[str, Any]:
    """Registers ana1 and bo1 and makes a rated table of ana1 (seat 0), bo1 (seat 1) and the random bot."""
    made = table(client, people(client), ["human", "human", "random"])
    bind(client, "ana1", made, 0)
    bind(client, "bo1", made, 1)
    return made


def ranking(client: TestClient, made: dict[str, Any]) -> list[int]:
    seen = view(client, made["table"], made["spectator_token"])
    assert seen["over"]
    found: list[int] = seen["results"]["ranking"]
    return found


def board(client: TestClient, players: int = 3) -> list[dict[str, Any]]:
    reply = client.get("/api/leaderboard", params={"game": GAME, "players": players})
    assert reply.status_code == 200, reply.text
    found: list[dict[str, Any]] = reply.json()["board"]
    return found


def expected(results: list[tuple[list[str], list[int]]]) -> dict[str, tuple[float, float]]:
    """OpenSkill computed directly: every game's identities and places, in order."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for names, places in results:
        teams = [[ratings.get(name, model.rating())] for name in names]
        for name, team in zip(names, model.rate(teams, ranks=[float(p) for p in places]), strict=True):
            ratings[name] = team[0]
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def test_the_leaderboard_matches_openskill_computed_directly_and_a_restart_rates_nothing_twice(
    db: Path,
) -> None:
    results: list[tuple[list[str], list[int]]] = []
    with account_client(db) as client:
        token = people(client)
        for number in range(4):
            seats = ["human", "human", "random"] if number % 2 == 0 else ["random", "human", "human"]
            made = table(client, token, seats)
            persons = [s for s, kind in enumerate(seats) if kind == "human"]
            bind(client, "ana1", made, persons[number // 2 % 2])
            bind(client, "bo1", made, persons[1 - number // 2 % 2])
            token = login(client, "bo1").json()["csrf"]
            play_out(client, made)
            bound = rows(db, "SELECT account_id FROM seats WHERE table_id = ? ORDER BY seat", made["table"])
            names = [{None: "random", 1: "ana", 2: "bo"}[who] for (who,) in bound]
            results.append((names, ranking(client, made)))
        # A bots-only rated table counts too (bots have identities); and another player count is apart.
        made = table(client, token, ["random", "random"])
        play_out(client, made)
        assert [(row["name"], row["games"]) for row in board(client, players=2)] == [("random", 1)]
        first = board(client)
    want = expected(results)
    shown = {"Ana": "ana", "<b>Bo</b>": "bo", "random": "random"}
    assert len(first) == 3
    for row in first:
        mu, sigma = want[shown[row["name"]]]
        assert abs(row["mu"] - mu) < 1e-9 and abs(row["sigma"] - sigma) < 1e-9
        assert abs(row["ordinal"] - (mu - 3 * sigma)) < 1e-9
        assert row["games"] == 4
    ordinals = [row["ordinal"] for row in first]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [row["bot"] for row in first].count(True) == 1
    assert rows(db, "SELECT count(*) FROM rating_history")[0][0] == 4 * 3 + 1

    # A second call rates nothing; nor does a restart (its sweep), nor a table forced back to pending
    # whose history exists (the claim is on the table).
    store = open_store(database_url(db))
    try:
        tables = [t for (t,) in rows(db, "SELECT id FROM tables")]
        assert not any(rate_table(store.engine, t) for t in tables)
        assert rate_pending(store.engine) == 0
    finally:
        store.close()
    with account_client(db) as client:
        assert board(client) == first
    assert rows(db, "SELECT count(*) FROM rating_history")[0][0] == 4 * 3 + 1


def test_a_table_ended_while_its_rating_could_not_run_is_rated_once_at_the_next_start(db: Path) -> None:
    with account_client(db) as client:
        token = people(client)
        made = table(client, token, ["random", "random"])
        play_out(client, made)
    # As if the process died between the last move and its rating: the rating is undone.
    store = open_store(database_url(db))
    with store.engine.begin() as connection:
        connection.exec_driver_sql("DELETE FROM ratings")
        connection.exec_driver_sql("DELETE FROM rating_history")
        connection.exec_driver_sql("UPDATE tables SET rated_done = false")
    store.close()
    for _ in range(2):
        with account_client(db) as client:
            assert [row["games"] for row in board(client, players=2)] == [1]
    assert rows(db, "SELECT count(*) FROM rating_history")[0][0] == 1


def test_casual_tables_and_a_person_seat_of_no_account_are_unrated(db: Path) -> None:
    with account_client(db) as client:
        token = people(client)
        casual = table(client, token, ["human", "random"], rated=False)
        bind(client, "ana1", casual, 0)
        play_out(client, casual)
        token = login(client, "bo1").json()["csrf"]
        unbound = table(client, token, ["human", "human", "random"])
        bind(client, "ana1", unbound, 0)  # seat 1's person never binds
        play_out(client, unbound)
        assert board(client, players=2) == [] and board(client) == []
        assert rows(db, "SELECT rated, rated_done FROM tables WHERE id = ?", unbound["table"]) == [(1, 1)]
        assert rows(db, "SELECT rated, rated_done FROM tables WHERE id = ?", casual["table"]) == [(0, 0)]
        status = client.get(f"/api/tables/{unbound['table']}/status").json()
        assert status["rated"] is True


def test_a_rated_table_needs_a_signed_in_creator_and_a_boolean_and_one_bot_may_hold_seats(db: Path) -> None:
    with account_client(db) as client:
        spec = {"game": GAME, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}
        one_line_error(client.post("/api/tables", json={**spec, "rated": True}), 401)
        token = people(client)
        one_line_error(client.post("/api/tables", json={**spec, "rated": True}), 403)  # no CSRF token
        one_line_error(client.post("/api/tables", json={**spec, "rated": "yes"}, headers=csrf(token)), 400)
        assert client.post("/api/tables", json=spec).status_code == 201  # casual: no account needed
        # One bot in two seats: one player whose rating moves by the mean of its seats' updates.
        twice = table(client, token, ["random", "random"])
        play_out(client, twice)
        (row,) = board(client, players=2)
        places = ranking(client, twice)
    model = PlackettLuce()
    updated = model.rate([[model.rating()], [model.rating()]], ranks=[float(p) for p in places])
    assert row["name"] == "random" and row["games"] == 1 and row["wins"] == 1
    assert abs(row["mu"] - (updated[0][0].mu + updated[1][0].mu) / 2) < 1e-9
    assert abs(row["sigma"] - (updated[0][0].sigma + updated[1][0].sigma) / 2) < 1e-9


def test_a_person_who_left_their_seat_to_a_bot_ranks_last(db: Path) -> None:
    with account_client(db) as client:
        made = ana_bo_and_random(client)
        # Bo is not connected (the test's grace is 0): Ana puts a bot in for them, which stays to the end.
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            ws.send_json({"type": "hello", "token": made["tokens"][0]})
            ws.receive_json()
            ws.send_json({"type": "stand_in", "seat": 1, "bot": "random"})
            ws.receive_json()
        play_out(client, {**made, "tokens": {0: made["tokens"][0]}})
        places = dict(rows(db, "SELECT identity, place FROM rating_history"))
        game_ranks = ranking(client, made)
    assert places["account:2"] == 3  # bo: last, whatever the game's rank
    assert places["account:1"] == (1 if game_ranks[0] <= game_ranks[2] else 2)
    assert places["bot:random"] == (1 if game_ranks[2] <= game_ranks[0] else 2)


def test_play_again_makes_the_next_table_rated_with_the_same_accounts(db: Path) -> None:
    with account_client(db) as client:
        made = ana_bo_and_random(client)
        play_out(client, made)
        reply = client.post(f"/api/tables/{made['table']}/again", headers=bearer(made["tokens"][0]))
        assert reply.status_code == 200, reply.text
        following = reply.json()["table"]
        # Seats rotate by one: seat i is the old seat i + 1's, each person's own token opens it.
        tokens = {(seat - 1) % 3: token for seat, token in made["tokens"].items()}
        accepted = client.post(
            f"/api/tables/{following}/accept", headers=bearer(tokens[0])
        )  # Bo's, the new seat 0
        assert accepted.json()["status"] == "playing"  # the rematch waited for Bo (ruling S-3)
        play_out(client, {"table": following, "tokens": tokens, "spectator_token": made["spectator_token"]})
        assert rows(db, "SELECT rated, rated_done FROM tables WHERE id = ?", following) == [(1, 1)]
        assert [row["games"] for row in board(client)] == [2, 2, 2]


def test_tables_of_the_same_people_rated_at_once_lose_no_result(db: Path) -> None:
    # As nodes of a cluster do: several tables of the same identity rated at the same moment.
    count = 6
    with account_client(db) as client:
        token = people(client)
        for _ in range(count):
            play_out(client, table(client, token, ["random", "random"]))
    store = open_store(database_url(db))
    try:
        with store.engine.begin() as connection:  # not rated yet, and the identity has no row yet
            connection.exec_driver_sql("DELETE FROM ratings")
            connection.exec_driver_sql("DELETE FROM rating_history")
            connection.exec_driver_sql("UPDATE tables SET rated_done = false")
        tables = [t for (t,) in rows(db, "SELECT id FROM tables")]
        start = threading.Barrier(count)

        def rate(table_id: str) -> bool:
            start.wait()
            return rate_table(store.engine, table_id)

        with ThreadPoolExecutor(count) as pool:
            assert all(pool.map(rate, tables))
    finally:
        store.close()
    assert rows(db, "SELECT games FROM ratings") == [(count,)]
    assert rows(db, "SELECT count(*) FROM rating_history")[0][0] == count
