"""A report played on a local Ray: the same data as on local processes for the same seed."""

from __future__ import annotations

import pytest

from parlour.bots.simulation import Batch
from parlour.report.build import ReportSpec, check_report, make_report


@pytest.mark.slow
def test_ray_gives_the_local_report(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    spec = check_report(
        ReportSpec("embers", 3, 6, seed=4, kingmaking_games=2, skill_games=2, skill_bot="ismcts:3it")
    )
    local = make_report(spec, Batch())
    remote = make_report(spec, Batch(workers=2, backend="ray"))
    assert remote.pop("run")["backend"] == "ray" and local.pop("run")["backend"] == "local"
    assert remote == local and local["variants"][0]["metrics"]["games"] == 6
