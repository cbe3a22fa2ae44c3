"""Taking a test's database down to an older migration, as an older server would have left it."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine

import parlour.server.storage as storage

from .conftest import database_url


def downgrade(db: Path, revision: str) -> None:
    """Runs the migrations down to ``revision`` on the test database ``db`` (the next open upgrades it)."""
    engine = create_engine(database_url(db))
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
    engine.dispose()
