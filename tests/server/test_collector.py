"""The server process's collector settings (collector.py): what the start made is frozen, and young
objects are collected less often than Python's default."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from parlour.server.collector import OLDER_THRESHOLDS, YOUNG_THRESHOLD, tune_collector


@pytest.fixture
def restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_the_start_is_frozen_and_young_objects_are_collected_less_often(restored: None) -> None:
    assert gc.get_threshold()[0] < YOUNG_THRESHOLD
    before = gc.get_freeze_count()
    tune_collector()
    assert gc.get_freeze_count() > before
    assert gc.get_threshold() == (YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
