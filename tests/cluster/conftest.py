"""The cluster tests' fixtures: a throwaway PostgreSQL cluster and Redis per test session (services.py),
and a fresh PostgreSQL database per test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack
from typing import TypeVar

import pytest

from .services import Missing, PostgresCluster, postgres_cluster, redis_server

T = TypeVar("T")


def _started(stack: ExitStack, server: AbstractContextManager[T]) -> T:
    """Enters a server's context on ``stack``; skips the test if its binaries are not installed."""
    try:
        return stack.enter_context(server)
    except Missing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster for the session (skipped only if PostgreSQL is not installed)."""
    with ExitStack() as stack:
        yield _started(stack, postgres_cluster())


@pytest.fixture
def pg_url(postgres: PostgresCluster) -> Iterator[str]:
    """The URL of a new empty database on the session's cluster, dropped after the test."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a throwaway Redis for the session (skipped only if Redis is not installed)."""
    with ExitStack() as stack:
        yield _started(stack, redis_server())
