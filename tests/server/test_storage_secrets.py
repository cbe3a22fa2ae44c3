"""The database's secrets (issue 30): its files private to the user, the seeds of games in play sealed
with a key kept apart from it, a wrong key refused at start, and databases from before sealing upgraded."""

from __future__ import annotations

import json
import logging
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

from parlour.cli.main import main
from parlour.core.errors import RecordError
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game
from parlour.server.app import Settings, create_app
from parlour.server.sealing import SeedKeyError, default_key_path, load_or_create_key
from parlour.server.storage import MoveRecord, SeatRecord, Store, TableRecord, open_store, sqlite_url

from .conftest import FAST, bearer, create, database_sql, database_url, make_client, on_postgres, stored_bytes

MIGRATIONS = Path(__file__).parents[2] / "parlour" / "server" / "migrations"


@pytest.fixture
def open_umask() -> Iterator[None]:
    """No umask at all: whatever the server makes private, it makes private itself."""
    before = os.umask(0)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def raw_seed(db: Path, table: str) -> tuple[int, str]:
    """Returns a table's seed column and status as the database holds them (not through the store)."""
    ((seed, status),) = database_sql(db, "SELECT seed, status FROM tables WHERE id = ?", table)
    return seed, status


def raw_moves(db: Path, table: str) -> list[tuple[int, str]]:
    return database_sql(db, "SELECT seat, action FROM moves WHERE table_id = ? ORDER BY number", table)


def observations(game: str, players: int, seed: int, options: Any, moves: list[tuple[int, str]]) -> Any:
    """Returns every seat's observation after replaying ``moves`` from ``seed``, or None if they do not
    replay (a move illegal in that deal)."""
    loaded = load_game(game)
    record = GameRecord(game, players, seed, options, ["human"] * players)
    for seat, action in moves:
        record.add(seat, action)
    try:
        state = replay(loaded, record)
    except RecordError:
        return None
    return [state.observation(seat) for seat in range(players)]


def sqlite_integer(value: int) -> bytes:
    """Returns an integer as a SQLite record stores it: big-endian in the fewest of 1-4, 6 or 8 bytes."""
    size = next(n for n in (1, 2, 3, 4, 6, 8) if -(1 << (8 * n - 1)) <= value < 1 << (8 * n - 1))
    return value.to_bytes(size, "big", signed=True)


def seed_bytes(seed: int) -> bytes:
    """Returns a seed as the database stores it: a SQLite record's integer, or PostgreSQL's row as text."""
    return str(seed).encode() if on_postgres() else sqlite_integer(seed)


def first_move(client: TestClient) -> tuple[str, dict[int, str]]:
    """Makes a two-person Venture table and plays its first move; returns its id and tokens."""
    made = create(client, "venture", ["human", "human"])
    table, tokens = made["table"], made["tokens"]
    for token in tokens.values():
        seen = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        if seen["asked"]:
            reply = client.post(
                f"/api/tables/{table}/actions", json={"action": seen["legal"][0]}, headers=bearer(token)
            )
            assert reply.status_code == 200, reply.text
            return table, tokens
    raise AssertionError("somebody is asked")


def views(client: TestClient, table: str, tokens: dict[int, str]) -> list[Any]:
    """Returns every seat's view (without the clock's readings: now, and when the decision was asked,
    which a restart begins afresh)."""
    found = []
    for token in tokens.values():
        view = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        view["clock"].pop("now")
        view["clock"].pop("asked_since")
        found.append(view)
    return found


def live_table(client: TestClient, table: str) -> Any:
    return client.app.state.hall.get(table)  # type: ignore[attr-defined]


@pytest.mark.sqlite_only("the SQLite file's, its WAL's and its key's permissions")
def test_the_database_its_wal_and_shm_and_the_key_are_created_private(db: Path, open_umask: None) -> None:
    with make_client(db) as client:
        first_move(client)
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.key")]
        assert {path.name: mode(path) for path in files} == {path.name: 0o600 for path in files}


@pytest.mark.sqlite_only("an existing SQLite file's permissions")
def test_an_existing_database_open_to_others_is_made_private_with_one_line(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Store(database_url(db)).close()
    db.chmod(0o644)
    Path(f"{db}-wal").touch()  # left behind by an older server, killed
    Path(f"{db}-wal").chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="parlour.server"):
        store = Store(database_url(db))
    try:
        assert mode(db) == 0o600 and mode(Path(f"{db}-wal")) == 0o600
    finally:
        store.close()
    lines = [r.getMessage() for r in caplog.records if "made 0600" in r.getMessage()]
    assert len(lines) == 2 and str(db) in lines[0] and "\n" not in lines[0]


def test_the_seed_of_a_game_in_play_is_sealed_and_its_moves_replay_no_live_game(db: Path) -> None:
    with make_client(db) as client:
        table, _ = first_move(client)
        live = live_table(client, table)
        seed, options = live.record.seed, live.record.options
        stored, status = raw_seed(db, table)
        moves = raw_moves(db, table)
        assert status == "playing" and stored != seed and 0 <= stored < 1 << 62
        seen = [live.state.observation(seat) for seat in range(2)]
        assert observations("venture", 2, seed, options, moves) == seen  # the moves do replay the game
        assert observations("venture", 2, stored, options, moves) != seen
        assert seed_bytes(seed) not in stored_bytes(db)


def test_a_finished_games_seed_is_stored_in_clear(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    store = Store(database_url(db))
    seed = secrets.randbits(62)
    seats = [SeatRecord(0, "human"), SeatRecord(1, "bot", "random")]
    record = TableRecord("t1", "venture", 2, {}, seed, "hash", seats, created=1.0)
    try:
        store.create(record)
        sealed, _ = raw_seed(db, "t1")
        loaded = store.load("t1")
        assert sealed != seed and loaded is not None and loaded.seed == seed
        record.version, record.status, record.scores = 1, "over", [1.0, 0.0]
        store.add_move(record, MoveRecord(1, 0, "pass", at=2.0))
        assert raw_seed(db, "t1") == (seed, "over")
        assert [t.seed for t in store.tables()] == [seed]
    finally:
        store.close()


def test_a_restart_with_the_key_given_resumes_the_table_exactly_and_its_seed_stays_sealed(
    tmp_path: Path,
) -> None:
    db, key = tmp_path / "p.db", tmp_path / "elsewhere" / "seed.key"
    settings = Settings(database_url(db), bot_workers=0, timing=FAST, seed_key_file=key)
    with TestClient(create_app(settings)) as client:
        table, tokens = first_move(client)
        before = views(client, table, tokens)
        seed = live_table(client, table).record.seed
    stored = raw_seed(db, table)
    with TestClient(create_app(settings)) as again:
        assert views(again, table, tokens) == before and live_table(again, table).record.seed == seed
    assert raw_seed(db, table) == stored and stored[0] != seed
    assert mode(key) == 0o600 and not Path(f"{db}.key").exists()


def test_a_wrong_key_is_refused_at_start_with_one_line_naming_the_key_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client(db) as client:
        table, tokens = first_move(client)
        before = views(client, table, tokens)
    stored = raw_seed(db, table)
    other = tmp_path / "other.key"
    load_or_create_key(other)
    settings = Settings(database_url(db), bot_workers=0, timing=FAST, seed_key_file=other)
    with pytest.raises(SeedKeyError) as refused, TestClient(create_app(settings)):
        pass
    assert str(other) in str(refused.value) and "\n" not in str(refused.value)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: pytest.fail("served with a wrong key"))
    database = ["--database-url", database_url(db)] if on_postgres() else ["--db", str(db)]
    assert main(["serve", *database, "--seed-key-file", str(other)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(other) in err and "--seed-key-file" in err
    assert raw_seed(db, table) == stored
    with make_client(db) as again:
        assert views(again, table, tokens) == before


def test_the_key_lives_beside_a_sqlite_file_and_in_the_home_folder_for_other_databases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_key_path(f"sqlite:///{tmp_path}/a/p.db") == tmp_path / "a" / "p.db.key"
    expected = tmp_path / ".parlour" / "server" / "seed.key"
    assert default_key_path("postgresql://parlour:secret@db.example/parlour") == expected
    assert default_key_path("sqlite://") == expected
    (tmp_path / "bad.key").write_text("not hex\n")
    with pytest.raises(SeedKeyError, match=r"bad\.key is not a seed key"):
        load_or_create_key(tmp_path / "bad.key")


def old_database(db: Path, seed: int, finished_seed: int) -> None:
    """Makes a database at the schema before sealing (0002) with a Venture table in play and a finished
    one, their seeds in clear, as a server before sealing left them."""
    engine = create_engine(database_url(db))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    options = json.dumps({"deck": "house"})
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        for table, table_seed, status in (("old1", seed, "playing"), ("old2", finished_seed, "over")):
            connection.execute(
                text(
                    "INSERT INTO tables (id, game, players, options, seed, status, created, version, "
                    "spectator_hash) VALUES (:t, 'venture', 2, :options, :seed, :status, 1.0, 0, 'hash')"
                ),
                {"t": table, "options": options, "seed": table_seed, "status": status},
            )
            for seat in (0, 1):
                connection.execute(
                    text(
                        "INSERT INTO seats (table_id, seat, kind, token_hash, auto_pass) "
                        "VALUES (:t, :seat, 'human', 'hash', true)"
                    ),
                    {"t": table, "seat": seat},
                )
    engine.dispose()


def test_a_database_from_before_sealing_is_upgraded_and_its_games_in_play_sealed(db: Path) -> None:
    seed, finished = secrets.randbits(62), secrets.randbits(62)
    old_database(db, seed, finished)
    with make_client(db) as client:
        live = live_table(client, "old1")
        expected = load_game("venture").new_state(2, seed, live.game.options(live.record.options))
        assert live.record.seed == seed
        assert [live.state.observation(s) for s in (0, 1)] == [expected.observation(s) for s in (0, 1)]
        version = database_sql(db, "SELECT version_num FROM alembic_version")
        rows = dict(database_sql(db, "SELECT id, sealed FROM tables"))
        assert version == [("0018",)] and rows == {"old1": 1, "old2": 0}
        assert raw_seed(db, "old1")[0] != seed and raw_seed(db, "old2")[0] == finished
        assert seed_bytes(seed) not in stored_bytes(db)  # no SQLite page left from before the sealing


def test_a_database_migrated_by_a_newer_release_is_one_line_and_no_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "parlour.db"
    open_store(sqlite_url(db), tmp_path / "seed.key").close()
    engine = create_engine(sqlite_url(db))
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0099_from_the_future'"))
    engine.dispose()
    assert main(["serve", "--db", str(db), "--seed-key-file", str(tmp_path / "seed.key")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error, error
    assert "newer than this Parlour's (revision '0099_from_the_future'" in error and "0018" in error
