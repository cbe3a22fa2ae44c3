"""A real server on PostgreSQL (issue 34): ``parlour serve --database-url`` plays a game between bots to
its end, and its record in PostgreSQL replays to the same end."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from server.live_server import LiveServer, free_port
from sqlalchemy import create_engine, text

from parlour.cli.main import main
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game


@pytest.mark.slow
def test_a_server_on_postgresql_plays_a_game_of_embers_between_bots_to_its_end(
    pg_url: str, tmp_path: Path
) -> None:
    live = LiveServer(tmp_path / "unused.db", database_url=pg_url).start()
    try:
        made = live.create("embers", ["random", "random"])
        table = made["table"]
        end = time.monotonic() + 120
        while not (status := live.get(f"/api/tables/{table}/status"))["over"]:
            assert time.monotonic() < end, "the game did not end within two minutes"
            time.sleep(0.2)
        shown = live.get(f"/api/tables/{table}/record")
    finally:
        live.stop()
    assert not (tmp_path / "unused.db").exists()  # nothing went to SQLite
    engine = create_engine(pg_url)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text("SELECT status, seed, sealed, version, scores FROM tables WHERE id = :t"), {"t": table}
            ).one()
            moves = connection.execute(
                text("SELECT seat, action FROM moves WHERE table_id = :t ORDER BY number"), {"t": table}
            ).all()
    finally:
        engine.dispose()
    assert row.status == "over" and not row.sealed and row.version == len(moves) > 0
    assert row.seed == shown["seed"] and row.scores == shown["scores"] and status["winners"]
    assert [(m.seat, m.action) for m in moves] == [(m["seat"], m["action"]) for m in shown["moves"]]
    record = GameRecord("embers", 2, row.seed, shown["options"], ["random", "random"])
    for seat, action in moves:
        record.add(seat, action)
    assert replay(load_game("embers"), record).is_over()


def test_a_database_the_server_cannot_reach_is_one_line_and_no_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"postgresql+psycopg://parlour:secret@127.0.0.1:{free_port()}/parlour"
    key = tmp_path / "seed.key"
    assert main(["serve", "--database-url", url, "--seed-key-file", str(key)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "cannot open the database" in error and "Connection refused" in error
    assert "secret" not in error  # the password hidden
