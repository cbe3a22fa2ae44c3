"""The database's files (issue 30): the SQLite file, its WAL and SHM private to the user."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from parlour.server.storage import Store

from .conftest import bearer, create, make_client


@pytest.fixture
def open_umask() -> Iterator[None]:
    """No umask at all: whatever the server makes private, it makes private itself."""
    before = os.umask(0)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


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


def test_the_database_its_wal_and_shm_are_created_private(db: Path, open_umask: None) -> None:
    with make_client(db) as client:
        first_move(client)
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
        assert {path.name: mode(path) for path in files} == {path.name: 0o600 for path in files}


def test_an_existing_database_open_to_others_is_made_private_with_one_line(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Store(f"sqlite:///{db}").close()
    db.chmod(0o644)
    Path(f"{db}-wal").touch()  # left behind by an older server, killed
    Path(f"{db}-wal").chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="parlour.server"):
        store = Store(f"sqlite:///{db}")
    try:
        assert mode(db) == 0o600 and mode(Path(f"{db}-wal")) == 0o600
    finally:
        store.close()
    lines = [r.getMessage() for r in caplog.records if "made 0600" in r.getMessage()]
    assert len(lines) == 2 and str(db) in lines[0] and "\n" not in lines[0]
