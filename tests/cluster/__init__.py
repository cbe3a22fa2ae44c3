"""Tests with the real components of a cluster: PostgreSQL and Redis (issue 34)."""
