"""Taking a test's database down to an older migration, as an older server would have left it, and
writing rows in an older schema."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from alembic import command
from alembic.config import Config
from databases import database_url
from sqlalchemy import Connection, create_engine, text

import parlour.server.storage as storage


def downgrade(db: Path, revision: str) -> None:
    """Runs the migrations down to ``revision`` on the test database ``db`` (the next open upgrades it)."""
    engine = create_engine(database_url(db))
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
    engine.dispose()


def insert_old_table(
    connection: Connection, table_id: str, game: str, seed: int = 5, options: str = "{}", version: int = 0
) -> None:
    """Inserts a finished two-player table's row in the columns the first migration made (later ones
    take their defaults)."""
    connection.execute(
        text(
            "INSERT INTO tables (id, game, players, options, seed, status, created, version, "
            "spectator_hash) VALUES (:table, :game, 2, :options, :seed, 'over', 1.0, :version, 'hash')"
        ),
        {"table": table_id, "game": game, "options": options, "seed": seed, "version": version},
    )


def insert_old_seats(connection: Connection, table_id: str, auto_pass: Sequence[bool]) -> None:
    """Inserts a person's seat per flag into the table ``table_id`` as the schema before the window
    settings (migrations up to 0004) stored them: an ``auto_pass`` flag instead of ``ask``."""
    for seat, auto in enumerate(auto_pass):
        connection.execute(
            text(
                "INSERT INTO seats (table_id, seat, kind, token_hash, auto_pass) "
                "VALUES (:table, :seat, 'human', 'h', :auto)"
            ),
            {"table": table_id, "seat": seat, "auto": auto},
        )
