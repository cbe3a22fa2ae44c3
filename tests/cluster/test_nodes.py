"""Several ``parlour serve`` nodes over one PostgreSQL and one Redis (issue 34, docs/cluster.md): people
on different nodes play one table of each game, a spectator on a third sees every move in order, the
owning node killed mid-game hands the table to another, and of nodes racing for a lease exactly one
wins."""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from server.live_server import LiveServer, free_port
from sqlalchemy import Row, create_engine, text

from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game
from parlour.server.cluster import node_of
from parlour.server.leases import LEASE

from .nodes import Client, advance, start_nodes, wait_for

KILLS = 10
"""How many times the owning node is killed in one game (the issue asks for ten)."""
NAMES = ["alpha", "beta", "gamma"]
BOSS = {"length": "short", "max_turns": 6, "negotiation_limit": 4}
"""I'm the Boss!'s options for a game of reasonable length (a short deck, six turns, short negotiations)."""


@dataclass
class Three:
    """Three nodes (alpha, beta and gamma) over one PostgreSQL and one Redis, and the clients a test
    opened at them (closed at its end)."""

    nodes: dict[str, LiveServer]
    clients: list[Client] = field(default_factory=list)

    def client(self, node: str, table: str, token: str) -> Client:
        """Opens a connection to ``table`` at ``node`` (a seat's token or the spectator's)."""
        made = Client(self.nodes[node], table, token)
        self.clients.append(made)
        return made


@dataclass
class Seated:
    """A table made at alpha, its people's connections by seat and a spectator's."""

    table: str
    players: dict[int, Client]
    spectator: Client


@pytest.fixture
def three(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[Three]:
    """Three nodes, stopped (with every client closed) at the test's end."""
    cluster = Three(dict(zip(NAMES, start_nodes(pg_url, redis_url, tmp_path, NAMES), strict=True)))
    yield cluster
    _stop(list(cluster.nodes.values()), cluster.clients)


def _seat(
    three: Three,
    game: str,
    seats: tuple[str, ...],
    people: tuple[str, ...] = ("beta", "gamma"),
    watcher: str = "gamma",
    options: dict[str, Any] | None = None,
) -> Seated:
    """Makes a table at alpha (its owner) and connects its people, seat by seat, at the nodes
    ``people`` names, and a spectator at ``watcher``."""
    made = three.nodes["alpha"].create(game, list(seats), options=options or {})
    table = made["table"]
    players = {seat: three.client(node, table, _token(made, seat)) for seat, node in enumerate(people)}
    return Seated(table, players, three.client(watcher, table, made["spectator_token"]))


def _token(made: dict[str, Any], seat: int) -> str:
    return str(made["seats"][str(seat)].split("#k=")[1])


def _play(players: dict[int, Client], watchers: list[Client], rng: random.Random, moves: int | None) -> int:
    """Plays random legal moves from the players' own views until the game is over (or ``moves`` were
    sent); returns how many were sent."""
    sent: dict[int, tuple[int, int, float]] = {}
    """By seat: the version a move was sent against, the errors the seat had then, when."""
    count = 0
    end = time.monotonic() + 120
    while time.monotonic() < end:
        for client in [*players.values(), *watchers]:
            client.drain(0.01)
        if any(c.view is not None and c.view["over"] for c in players.values()):
            return count
        if moves is not None and count >= moves:
            return count
        for seat, client in players.items():
            view = client.view
            if view is None or view["over"] or not view["asked"] or not view["legal"]:
                continue
            if seat in sent and sent[seat][0] == view["version"]:
                _version, errors, at = sent[seat]
                refused = len(client.errors) > errors and client.errors[-1]["status"] != 409
                if not refused or time.monotonic() - at < 0.5:
                    continue  # sent already against this version: wait for its update (or try again)
            client.act(rng.choice(view["legal"]))
            sent[seat] = (view["version"], len(client.errors), time.monotonic())
            count += 1
    shown = {seat: (c.view and c.view["version"], c.errors[-3:]) for seat, c in players.items()}
    raise AssertionError(f"the game did not end within two minutes: {shown}")


def _stored(pg_url: str, table: str) -> tuple[Row[Any], Sequence[Row[Any]], Row[Any] | None]:
    """Returns the table's row, its stored moves in order and its lease row (None: none)."""
    engine = create_engine(pg_url)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text("SELECT status, seed, version, scores, options FROM tables WHERE id = :t"), {"t": table}
            ).one()
            moves = connection.execute(
                text("SELECT number, seat, action FROM moves WHERE table_id = :t ORDER BY number"),
                {"t": table},
            ).all()
            lease = connection.execute(
                text("SELECT owner, expires FROM table_leases WHERE table_id = :t"), {"t": table}
            ).first()
    finally:
        engine.dispose()
    return row, moves, lease


def _owner(pg_url: str, table: str) -> str | None:
    """Returns the node holding the table's lease (None: none)."""
    lease = _stored(pg_url, table)[2]
    return None if lease is None else node_of(str(lease.owner))  # its node id


def _check_record(
    pg_url: str, table: str, spectator: Client, game: str = "embers", seats: tuple[str, ...] = ("human",) * 2
) -> Sequence[Row[Any]]:
    """Checks that every move is stored once, in order, replays to the stored end, and is the log the
    spectator saw; returns the moves."""
    row, moves, _lease = _stored(pg_url, table)
    assert row.status == "over" and row.version == len(moves) > 0
    assert [m.number for m in moves] == list(range(1, len(moves) + 1))  # each move once, none missing
    record = GameRecord(game, len(seats), row.seed, dict(row.options), list(seats))
    for move in moves:
        record.add(move.seat, move.action)
    final = replay(load_game(game), record)
    assert final.is_over() and list(final.scores()) == row.scores
    assert [(e["number"], e["seat"]) for e in spectator.log] == [(m.number, m.seat) for m in moves]
    return moves


def _to_the_end(spectator: Client) -> None:
    """Waits for the spectator to see the game over."""
    wait_for(lambda: spectator.drain(0.05) and bool(spectator.view and spectator.view["over"]), 20, "end")


def _stop(nodes: list[LiveServer], clients: list[Client]) -> None:
    for client in clients:
        with contextlib.suppress(Exception):
            client.close()
    for node in nodes:
        node.stop()


@pytest.mark.slow
def test_two_people_on_two_nodes_play_embers_and_a_spectator_on_a_third_sees_every_move_in_order(
    three: Three, pg_url: str
) -> None:
    seated = _seat(three, "embers", ("human", "human"))
    table, first, spectator = seated.table, seated.players[0], seated.spectator
    # A setting (no new version) sent at beta is carried out at alpha and shown at gamma.
    first.ws.send(json.dumps({"type": "name", "text": "Ana"}))
    wait_for(
        lambda: (
            spectator.drain(0.05)
            and spectator.view is not None  # its first view may still be on its way
            and spectator.view["seats"][0]["name"] == "Ana"
        ),
        10,
        "the name given at beta shown at gamma",
    )
    _play(seated.players, [spectator], random.Random(7), None)
    _to_the_end(spectator)
    moves = _check_record(pg_url, table, spectator)
    for seat, client in seated.players.items():  # each acknowledged version is that seat's move
        assert client.accepted and all(moves[v - 1].seat == seat for v in client.accepted)
    assert spectator.versions == sorted(spectator.versions)  # in order, never back
    assert spectator.versions[-1] == len(moves)
    # A client that missed an update asks for the whole view: the log from the start, as stored.
    count = len(spectator.versions)
    spectator.ws.send(json.dumps({"type": "view"}))
    wait_for(lambda: spectator.drain(0.05) and len(spectator.versions) > count, 10, "the whole view")
    assert spectator.view is not None and spectator.view["log_since"] == 0
    assert [e["number"] for e in spectator.view["log"]] == [m.number for m in moves]
    # Both people are connected (at beta and at gamma), as every node shows them.
    assert [s["connected"] for s in spectator.view["seats"]] == [True, True]
    first.close()
    wait_for(
        lambda: spectator.drain(0.05) and not spectator.view["seats"][0]["connected"],
        10,
        "the spectator at gamma sees the person at beta leave",
    )
    _row, _moves, lease = _stored(pg_url, table)
    assert (
        lease is None or node_of(lease.owner) == "alpha"
    )  # alpha made it and owned it (gave it up at the end)


@pytest.mark.slow
def test_the_owning_node_killed_mid_game_another_takes_the_table_over_and_the_game_ends(
    three: Three, pg_url: str
) -> None:
    seated = _seat(three, "embers", ("human", "human"))
    table, players, spectator = seated.table, seated.players, seated.spectator
    rng = random.Random(11)
    _play(players, [spectator], rng, 6)
    wait_for(lambda: _stored(pg_url, table)[0].version >= 6, 20, "six moves stored")
    three.nodes["alpha"].kill()  # the owner: no clean stop, its lease stays until it runs out
    before = _stored(pg_url, table)[0].version
    # A move now is refused with a clear line (the owner is gone, its lease runs on).
    for client in players.values():
        client.drain(0.2)
    asked = next(c for c in players.values() if c.view and c.view["asked"])
    errors = len(asked.errors)
    assert asked.view is not None
    asked.act(asked.view["legal"][0])
    wait_for(lambda: asked.drain(0.05) and len(asked.errors) > errors, 20, "a refusal")
    assert asked.errors[-1]["status"] == 503 and "server" in asked.errors[-1]["error"]
    assert _stored(pg_url, table)[0].version == before
    for node in ("beta", "gamma"):
        advance(three.nodes[node], LEASE + 1)  # the dead node's lease runs out (no waiting)
    taken = time.monotonic()
    wait_for(lambda: _owner(pg_url, table) in ("beta", "gamma"), 20, "a node took the table")
    took = time.monotonic() - taken
    _play(players, [spectator], rng, None)
    _to_the_end(spectator)
    _check_record(pg_url, table, spectator)
    assert spectator.versions == sorted(spectator.versions)
    assert took < 10  # within a renewal or two of the lease running out


@pytest.mark.slow
@pytest.mark.parametrize("game", ["venture", "venus-needs-men"])
def test_a_game_with_a_bot_and_two_people_on_two_nodes_ends_with_every_move_stored_once(
    game: str, three: Three, pg_url: str
) -> None:
    seats = ("human", "human", "random")
    seated = _seat(three, game, seats, watcher="beta")
    _play(seated.players, [seated.spectator], random.Random(3), None)
    _to_the_end(seated.spectator)
    _check_record(pg_url, seated.table, seated.spectator, game, seats)
    assert seated.spectator.versions == sorted(seated.spectator.versions)


@pytest.mark.slow
def test_two_people_on_two_nodes_play_im_the_boss_and_a_spectator_on_a_third_sees_every_move_once_in_order(
    three: Three, pg_url: str
) -> None:
    # Alpha owns the table: one person plays there, the other at beta (each move forwarded to alpha),
    # and the spectator at gamma hears of each move through Redis. Several seats are asked at once in
    # the Stop windows and negotiations; the people send within a connection's budget (nodes.RATE).
    game, seats = "im-the-boss", ("human", "human", "random")
    windows: list[list[int]] = []
    for seed in range(3):  # three games, one after the other
        seated = _seat(three, game, seats, people=("alpha", "beta"), watcher="gamma", options=BOSS)
        spectator = seated.spectator
        _play(seated.players, [spectator], random.Random(seed), None)
        _to_the_end(spectator)
        moves = _check_record(pg_url, seated.table, spectator, game, seats)
        assert spectator.arrived == [m.number for m in moves]  # every move once, none missing, in order
        row = _stored(pg_url, seated.table)[0]
        assert spectator.view is not None and spectator.view["version"] == row.version == len(moves)
        assert spectator.view["results"]["scores"] == row.scores
        for seat, client in seated.players.items():
            assert client.accepted and all(moves[v - 1].seat == seat for v in client.accepted)
            assert not [e for e in client.errors if e["status"] == 429]  # within a connection's budget
        assert {m.seat for m in moves} == set(range(len(seats)))  # the bot and both people moved
        windows += spectator.windows
    assert any({0, 1} <= set(waiting) for waiting in windows)  # windows asked both people at once


def _settle(clients: list[Client], pg_url: str, table: str) -> None:
    """Waits until every client shows the stored version."""

    def shown() -> bool:
        version = _stored(pg_url, table)[0].version
        return all(c.drain(0.05) and c.view is not None and c.view["version"] == version for c in clients)

    wait_for(shown, 15, "every client shows the stored version")


def _redis_on(port: int, folder: Path) -> subprocess.Popen[bytes]:
    """Starts a Redis of this test's own on ``port`` (the session's is shared) and waits for it."""
    args = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([*args, "--dir", str(folder)], stdout=subprocess.DEVNULL)
    end = time.monotonic() + 20
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            if s.recv(16).startswith(b"+PONG"):
                return process
        time.sleep(0.05)
    process.kill()
    raise AssertionError("redis-server did not start")


@pytest.mark.slow
def test_redis_stopped_and_started_again_the_nodes_catch_up_by_version_and_lose_nothing(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    redis = _redis_on(port, tmp_path)
    nodes = start_nodes(pg_url, f"redis://127.0.0.1:{port}/0", tmp_path, ["alpha", "beta"])
    clients: list[Client] = []
    try:
        alpha, beta = nodes
        made = alpha.create("embers", ["human", "human"])
        table = made["table"]
        here, there = Client(alpha, table, _token(made, 0)), Client(beta, table, _token(made, 1))
        spectator = Client(beta, table, made["spectator_token"])
        clients += [here, there, spectator]
        rng = random.Random(5)
        _play({0: here, 1: there}, [spectator], rng, 4)
        for _move in range(40):  # on to a moment when the person at the owner is asked, all shown
            _settle([here, there, spectator], pg_url, table)
            if here.view is not None and here.view["asked"]:
                break
            _play({0: here, 1: there}, [spectator], rng, 1)
        redis.terminate()
        redis.wait(10)
        # The person at the owner (alpha) still moves; beta's spectator catches up from the database.
        assert here.view is not None and here.view["asked"]
        version = here.view["version"]
        here.act(rng.choice(here.view["legal"]))
        wait_for(lambda: here.drain(0.05) and version + 1 in here.accepted, 10, "a move at the owner")
        wait_for(lambda: spectator.drain(0.05) and spectator.versions[-1] > version, 15, "catch-up")
        for _move in range(40):  # the person at the owner plays their turn out (Redis still down)
            _settle([here, there, spectator], pg_url, table)
            if not here.view["asked"]:
                break
            version = here.view["version"]
            here.act(rng.choice(here.view["legal"]))
            wait_for(lambda v=version: here.drain(0.05) and v + 1 in here.accepted, 10, "a move at the owner")
        # A move at beta cannot reach the owner: a clear refusal.
        wait_for(lambda: there.drain(0.05) and bool(there.view and there.view["asked"]), 15, "seat 1 asked")
        errors = len(there.errors)
        assert there.view is not None
        there.act(rng.choice(there.view["legal"]))
        wait_for(lambda: there.drain(0.05) and len(there.errors) > errors, 20, "a refusal")
        assert there.errors[-1]["status"] in (503, 504)
        redis = _redis_on(port, tmp_path)
        _play({0: here, 1: there}, [spectator], rng, None)
        _to_the_end(spectator)
        _check_record(pg_url, table, spectator)
        assert spectator.versions == sorted(spectator.versions)
    finally:
        _stop(nodes, clients)
        redis.kill()
        redis.wait(10)


@pytest.mark.slow
def test_owners_killed_again_and_again_at_random_moments_the_game_goes_on_and_ends_once(
    three: Three, pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    nodes = three.nodes
    offset = 0.0  # how far every node's clock was moved (a restarted node is moved as far)
    seated = _seat(three, "embers", ("human", "human"))
    table, players, spectator = seated.table, seated.players, seated.spectator
    rng = random.Random(23)
    kills = 0
    for _kill in range(KILLS):  # a game of Embers is 54 moves: ten kills 1 to 4 moves apart fit
        _play(players, [spectator], rng, rng.randint(1, 4))
        owner = _owner(pg_url, table)
        if owner is None:
            break  # the game is over
        kills += 1
        stored = _stored(pg_url, table)[0].version
        nodes[owner].kill()
        survivors = [n for n in NAMES if n != owner]
        for client in three.clients:  # a browser whose node went away connects to another
            if client.node is nodes[owner]:
                client.reopen(nodes[rng.choice(survivors)])
        offset += LEASE + 1
        for name in survivors:
            advance(nodes[name], LEASE + 1)
        wait_for(lambda o=owner: _owner(pg_url, table) not in (o, None), 20, "another node took it")
        assert _stored(pg_url, table)[0].version >= stored  # no accepted move lost
        restarted = start_nodes(pg_url, redis_url, tmp_path, [owner])[0]
        advance(restarted, offset)
        nodes[owner] = restarted
    assert kills == KILLS
    _play(players, [spectator], rng, None)
    _to_the_end(spectator)
    row, moves, _lease = _stored(pg_url, table)
    assert [m.number for m in moves] == list(range(1, len(moves) + 1)) and row.version == len(moves)
    record = GameRecord("embers", 2, row.seed, dict(row.options), ["human", "human"])
    for move in moves:
        record.add(move.seat, move.action)
    assert list(replay(load_game("embers"), record).scores()) == row.scores
    assert spectator.versions[-1] == len(moves)
