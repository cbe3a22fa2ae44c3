"""The environments' benchmark runs PettingZoo's performance_benchmark loop on a game and connect_four_v3."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from envs_bench import connect_four_steps
from speed import benchmark_steps

from parlour.envs import make

pytestmark = pytest.mark.slow


def test_the_benchmark_loop_steps_a_game_and_the_yardstick() -> None:
    assert benchmark_steps(make("embers", players=3), 0.2) > 0
    yardstick = connect_four_steps(0.2)
    assert yardstick.startswith("unavailable") if isinstance(yardstick, str) else yardstick > 0
