"""Decisions as Ray tasks: the same analysis as the local processes' for the same seed."""

from __future__ import annotations

import pytest

from parlour.analysis.analyse import analyse
from parlour.analysis.settings import Budget

from .games import bots_record


@pytest.mark.slow
def test_ray_gives_the_local_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    record = bots_record("embers", ["human", "random", "human"], 21)
    local = analyse(record, budget=Budget(4), seed=5)
    remote = analyse(record, budget=Budget(4), seed=5, backend="ray", workers=2)
    assert remote == local and len(local.decisions) > 2
