"""Golden playthroughs of Venus Needs Men!: seeded bot games replay to the stored text, every seat's view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parlour.bots.registry import make_bot
from parlour.core.registry import load_game

from ..playthroughs import with_seats

HERE = Path(__file__).parent / "playthroughs"
GAME = load_game("venus-needs-men")
CASES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("basic-4p-seed5", 4, 5, {"length": "short"}),
    ("enhanced-3p-seed8", 3, 8, {"game": "enhanced", "planets": "venus,earth,mars", "length": "short"}),
    (
        "enhanced-team-seed2",
        2,
        2,
        {"game": "enhanced", "planets": "pluto,titan,ganymede,venus", "length": "short"},
    ),
]


def text(players: int, seed: int, options: dict[str, Any]) -> str:
    """Returns the playthrough of a greedy table."""
    agents = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(players)]
    return with_seats(GAME, players, seed, options, agents)


@pytest.mark.parametrize(("name", "players", "seed", "options"), CASES)
def test_golden_playthrough(name: str, players: int, seed: int, options: dict[str, Any]) -> None:
    """A rule or bot change shows as a diff of these files (regenerate with make playthroughs)."""
    expected = (HERE / f"venus-{name}.txt").read_text(encoding="utf-8")
    assert text(players, seed, options) == expected


def write_all() -> None:
    """Regenerates every golden file (make playthroughs)."""
    for name, players, seed, options in CASES:
        (HERE / f"venus-{name}.txt").write_text(text(players, seed, options), encoding="utf-8")


if __name__ == "__main__":
    write_all()
