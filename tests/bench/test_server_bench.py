"""The server bench's run: tables of bots play, their spectators hear every update, figures come out."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from server_bench import server_figures


@pytest.mark.slow
def test_a_short_server_bench_measures_latency_memory_and_moves() -> None:
    # Bots in threads and a quick pace: the figures come out within seconds even on a busy machine.
    figures = server_figures(tables=3, seconds=4.0, think=0.05, bot_workers=0, pass_delay=0.05)
    assert figures["updates"] > 0 and figures["moves_stored_per_second"] > 0
    assert 0 < figures["latency_ms_median"] <= figures["latency_ms_p99"]
