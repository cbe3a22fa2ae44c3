"""Golden playthroughs of I'm the Boss!: seeded games replay to exactly the stored text, every seat's view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parlour.bots.registry import make_bot
from parlour.core.registry import load_game

from ..playthroughs import with_seats

HERE = Path(__file__).parent / "playthroughs"
GAME = load_game("im-the-boss")
CASES: list[tuple[str, int, str, dict[str, Any]]] = [
    ("greedy-4p-seed7", 7, "greedy", {}),
    ("greedy-3p-seed2-short", 2, "greedy", {"length": "short", "turn_order": "opener"}),
    ("random-5p-seed3", 3, "random", dict(GAME.quick_options)),
]


def text(name: str, seed: int, bot: str, options: dict[str, Any]) -> str:
    """Returns the playthrough of one case."""
    players = int(name.split("-")[1][0])
    agents = [make_bot(GAME, bot, seed * 8 + s) for s in range(players)]
    return with_seats(GAME, players, seed, options, agents)


@pytest.mark.parametrize(("name", "seed", "bot", "options"), CASES)
def test_golden_playthrough(name: str, seed: int, bot: str, options: dict[str, Any]) -> None:
    """A rule or bot change shows as a diff of these files (regenerate with make playthroughs)."""
    expected = (HERE / f"im-the-boss-{name}.txt").read_text(encoding="utf-8")
    assert text(name, seed, bot, options) == expected


def write_all() -> None:
    """Regenerates every golden file (make playthroughs)."""
    for name, seed, bot, options in CASES:
        (HERE / f"im-the-boss-{name}.txt").write_text(text(name, seed, bot, options), encoding="utf-8")


if __name__ == "__main__":
    write_all()
