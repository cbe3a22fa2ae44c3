"""The server suite's database switch (PARLOUR_TEST_DATABASE, tests/databases.py): the in-process app, a
real server process and a test's own store all land on the chosen database, the same one for one path."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from parlour.server.storage import Store

from .conftest import create, database_sql, database_url, make_client, on_postgres
from .live_server import LiveServer


def test_one_path_names_one_database_of_the_chosen_kind(tmp_path: Path) -> None:
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    url = database_url(first)
    assert url == database_url(first) != database_url(second)
    assert url.startswith("postgresql+psycopg://" if on_postgres() else "sqlite:///")


def test_the_app_a_server_process_and_a_store_share_the_test_database(db: Path) -> None:
    with make_client(db) as client:
        table = create(client, "embers", ["human", "random"])["table"]
        assert client.app.state.hall.store.engine.dialect.name == (  # type: ignore[attr-defined]
            "postgresql" if on_postgres() else "sqlite"
        )
    live = LiveServer(db).start()
    try:
        assert live.get(f"/api/tables/{table}/status")["game"] == "embers"
        made = live.create("embers", ["random", "random"])["table"]
    finally:
        live.stop()
    store = Store(database_url(db))
    try:
        with store.engine.connect() as connection:
            found = {row[0] for row in connection.execute(text("SELECT id FROM tables"))}
    finally:
        store.close()
    assert found == {table, made}
    assert database_sql(db, "SELECT count(*) FROM tables WHERE id = ?", made) == [(1,)]
    assert db.exists() != on_postgres()  # on PostgreSQL nothing goes to the SQLite file
