"""Several ``parlour serve`` nodes over one PostgreSQL and one Redis (issue 34, docs/cluster.md): people
on different nodes play one table, a spectator on a third sees every move in order, the owning node
killed mid-game hands the table to another, and of nodes racing for a lease exactly one wins."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import pytest
from server.live_server import LiveServer
from sqlalchemy import create_engine, text

from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game
from parlour.server.leases import LEASE

from .nodes import Client, advance, start_nodes, wait_for


def _token(made: dict[str, Any], seat: int) -> str:
    return str(made["seats"][str(seat)].split("#k=")[1])


def _play(players: dict[int, Client], watchers: list[Client], rng: random.Random, moves: int | None) -> int:
    """Plays random legal moves from the players' own views until the game is over (or ``moves`` were
    sent); returns how many were sent."""
    sent: dict[int, int] = {}
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
            if sent.get(seat) == view["version"]:
                continue  # sent already against this version: wait for its update
            client.act(rng.choice(view["legal"]))
            sent[seat] = view["version"]
            count += 1
    shown = {seat: (c.view and c.view["version"], c.errors[-3:]) for seat, c in players.items()}
    raise AssertionError(f"the game did not end within two minutes: {shown}")


def _stored(pg_url: str, table: str) -> tuple[Any, list[Any], Any]:
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
    return None if lease is None else str(lease.owner)


def _check_record(pg_url: str, table: str, spectator: Client) -> list[Any]:
    """Checks that every move is stored once, in order, replays to the stored end, and is the log the
    spectator saw; returns the moves."""
    row, moves, _lease = _stored(pg_url, table)
    assert row.status == "over" and row.version == len(moves) > 0
    assert [m.number for m in moves] == list(range(1, len(moves) + 1))  # each move once, none missing
    record = GameRecord("embers", 2, row.seed, dict(row.options), ["human", "human"])
    for move in moves:
        record.add(move.seat, move.action)
    final = replay(load_game("embers"), record)
    assert final.is_over() and list(final.scores()) == row.scores
    assert [(e["number"], e["seat"]) for e in spectator.log] == [(m.number, m.seat) for m in moves]
    return moves


def _stop(nodes: list[LiveServer], clients: list[Client]) -> None:
    for client in clients:
        with contextlib.suppress(Exception):
            client.close()
    for node in nodes:
        node.stop()


@pytest.mark.slow
def test_two_people_on_two_nodes_play_embers_and_a_spectator_on_a_third_sees_every_move_in_order(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    nodes = start_nodes(pg_url, redis_url, tmp_path, ["alpha", "beta", "gamma"])
    clients: list[Client] = []
    try:
        alpha, beta, gamma = nodes
        made = alpha.create("embers", ["human", "human"])
        table = made["table"]
        first, second = Client(beta, table, _token(made, 0)), Client(gamma, table, _token(made, 1))
        spectator = Client(gamma, table, made["spectator_token"])
        clients += [first, second, spectator]
        sent = _play({0: first, 1: second}, [spectator], random.Random(7), None)
        wait_for(lambda: spectator.drain(0.05) and bool(spectator.view and spectator.view["over"]), 20, "end")
        moves = _check_record(pg_url, table, spectator)
        assert sent >= len(moves)
        assert spectator.versions == sorted(spectator.versions)  # in order, never back
        assert spectator.versions[-1] == len(moves)
        assert first.accepted and second.accepted  # forwarded moves were acknowledged with versions
        # Both people are connected (at beta and at gamma), as every node shows them.
        assert [s["connected"] for s in spectator.view["seats"]] == [True, True]  # type: ignore[index]
        first.close()
        wait_for(
            lambda: spectator.drain(0.05) and not spectator.view["seats"][0]["connected"],  # type: ignore[index]
            10,
            "the spectator at gamma sees the person at beta leave",
        )
        _row, _moves, lease = _stored(pg_url, table)
        assert lease is None or lease.owner == "alpha"  # alpha made it and owned it (gave it up at the end)
    finally:
        _stop(nodes, clients)


@pytest.mark.slow
def test_the_owning_node_killed_mid_game_another_takes_the_table_over_and_the_game_ends(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    nodes = start_nodes(pg_url, redis_url, tmp_path, ["alpha", "beta", "gamma"])
    clients: list[Client] = []
    try:
        alpha, beta, gamma = nodes
        made = alpha.create("embers", ["human", "human"])
        table = made["table"]
        first, second = Client(beta, table, _token(made, 0)), Client(gamma, table, _token(made, 1))
        spectator = Client(gamma, table, made["spectator_token"])
        clients += [first, second, spectator]
        rng = random.Random(11)
        _play({0: first, 1: second}, [spectator], rng, 6)
        wait_for(lambda: _stored(pg_url, table)[0].version >= 6, 20, "six moves stored")
        alpha.kill()  # the owner: no clean stop, its lease stays until it runs out
        before = _stored(pg_url, table)[0].version
        # A move now is refused with a clear line (the owner is gone, its lease runs on).
        for client in (first, second):
            client.drain(0.2)
        asked = next(c for c in (first, second) if c.view and c.view["asked"])
        errors = len(asked.errors)
        asked.act(asked.view["legal"][0])  # type: ignore[index]
        wait_for(lambda: asked.drain(0.05) and len(asked.errors) > errors, 20, "a refusal")
        assert asked.errors[-1]["status"] == 503 and "server" in asked.errors[-1]["error"]
        assert _stored(pg_url, table)[0].version == before
        for node in (beta, gamma):
            advance(node, LEASE + 1)  # the dead node's lease runs out (no waiting)
        taken = time.monotonic()
        wait_for(lambda: _owner(pg_url, table) in ("beta", "gamma"), 20, "a node took the table")
        took = time.monotonic() - taken
        _play({0: first, 1: second}, [spectator], rng, None)
        wait_for(lambda: spectator.drain(0.05) and bool(spectator.view and spectator.view["over"]), 20, "end")
        _check_record(pg_url, table, spectator)
        assert spectator.versions == sorted(spectator.versions)
        assert took < 10  # within a renewal or two of the lease running out
    finally:
        _stop(nodes, clients)
