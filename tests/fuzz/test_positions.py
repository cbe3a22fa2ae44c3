"""Mutated positions of every game: a clean one-line refusal, or a state that plays without error."""

from __future__ import annotations

import pytest

from parlour.core.registry import game_names

from .run import fuzz_positions

COUNT = 2000
"""Mutations per game in ``make test`` (a long run raises it)."""


@pytest.mark.parametrize("name", game_names())
def test_mutated_positions_are_refused_cleanly_or_play(name: str) -> None:
    tally = fuzz_positions(name, COUNT, seed=1, max_actions=None)
    assert not tally.failures, "\n".join(tally.failures)
    assert tally.tried == COUNT
    # Both outcomes occur: the mutations are neither all harmless nor all rejected at the first field.
    assert tally.refused > COUNT // 4 and tally.accepted > COUNT // 50
