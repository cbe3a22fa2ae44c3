"""A report's spec checked and played: seats filled in, every game told to the progress report."""

from __future__ import annotations

import pytest

from parlour.bots.simulation import Batch
from parlour.core.errors import OptionError
from parlour.report.build import ReportSpec, check_report, label, make_report, variant_options


def test_the_seats_default_to_the_games_greedy_bot_or_random() -> None:
    assert check_report(ReportSpec("venture", 3, 1)).seats == ["greedy"] * 3
    assert check_report(ReportSpec("embers", 2, 1)).seats == ["random"] * 2


def test_variants_change_the_given_options() -> None:
    spec = ReportSpec("venture", 4, 1, options={"payment": "each"}, variants=[{}, {"last_draw": "yes"}])
    assert variant_options(spec) == [{"payment": "each"}, {"payment": "each", "last_draw": "yes"}]
    assert [label(v) for v in spec.variants] == ["as given", "last_draw=yes"]
    with pytest.raises(OptionError, match="last_draw"):
        check_report(ReportSpec("venture", 4, 1, variants=[{"last_draw": "maybe"}]))


def test_every_game_is_told_to_the_progress_report() -> None:
    told: list[int] = []
    spec = check_report(
        ReportSpec("embers", 3, 5, variants=[{}, {"chain": "off"}], skill_games=2, skill_bot="ismcts:2it")
    )
    report = make_report(spec, Batch(progress=told.append))
    assert sum(told) == 5 * 2 + 2
    assert [v["metrics"]["games"] for v in report["variants"]] == [5, 5]
    assert report["skill"]["games"] == 2


def test_kingmaking_is_not_looked_for_when_a_bot_thinks_for_a_time() -> None:
    timed = ReportSpec("embers", 2, 1, seats=["ismcts:5ms", "random"], kingmaking_games=10)
    assert check_report(timed).kingmaking_games == 0
    assert check_report(ReportSpec("embers", 2, 1, seats=["ismcts", "random"])).kingmaking_games == 0
    counted = ReportSpec("embers", 2, 1, seats=["ismcts:5it", "random"], kingmaking_games=10)
    assert check_report(counted).kingmaking_games == 10
