"""The cluster tests' fixtures: a throwaway PostgreSQL cluster and Redis per test session (services.py),
and a fresh PostgreSQL database per test; they live in tests/databases.py, shared with tests/server."""

from __future__ import annotations

from databases import pg_url, postgres, redis_url

__all__ = ["pg_url", "postgres", "redis_url"]
