"""The profiles' script: random playouts under cProfile, the heaviest functions by own time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from profiles import profile

pytestmark = pytest.mark.slow


def test_a_profile_lists_the_heaviest_functions_first() -> None:
    rows = profile("embers", {}, 0.2, 5)
    assert len(rows) == 5
    owns = [own for _, own, _, _ in rows]
    assert owns == sorted(owns, reverse=True) and 0 < owns[0] <= 1
    assert all(cumulative >= own and calls > 0 for _, own, cumulative, calls in rows)
    assert any("embers" in place or "core" in place for place, _, _, _ in rows)
