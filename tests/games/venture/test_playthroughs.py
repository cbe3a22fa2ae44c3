"""Golden playthroughs: seeded random games must replay to exactly the stored text, every seat's view."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.core.registry import load_game

from ..playthroughs import with_seats

HERE = Path(__file__).parent / "playthroughs"
CASES = [(2, 11), (4, 7), (6, 3)]


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_golden_playthrough(players: int, seed: int) -> None:
    """A rule change shows as a diff of these files (regenerate with make playthroughs)."""
    expected = (HERE / f"venture-{players}p-seed{seed}.txt").read_text(encoding="utf-8")
    assert with_seats(load_game("venture"), players, seed) == expected


def write_all() -> None:
    """Regenerates every golden file (make playthroughs)."""
    for players, seed in CASES:
        text = with_seats(load_game("venture"), players, seed)
        (HERE / f"venture-{players}p-seed{seed}.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
