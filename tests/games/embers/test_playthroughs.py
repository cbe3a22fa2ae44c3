"""Golden playthroughs of Embers: seeded games must replay to exactly the stored text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parlour.bots.registry import make_bot
from parlour.core.registry import load_game

from ..playthroughs import with_seats

HERE = Path(__file__).parent / "playthroughs"
GAME = load_game("embers")
CASES: list[tuple[str, int, str, dict[str, Any]]] = [
    ("random-3p-seed1", 1, "random", {}),
    ("random-2p-seed4-chain-off", 4, "random", {"chain": "off"}),
]


def text(name: str, seed: int, bot: str, options: dict[str, Any]) -> str:
    """Returns the playthrough of one case."""
    players = int(name.split("-")[1][0])
    agents = [make_bot(GAME, bot, seed * 8 + s) for s in range(players)]
    return with_seats(GAME, players, seed, options, agents)


@pytest.mark.parametrize(("name", "seed", "bot", "options"), CASES)
def test_golden_playthrough(name: str, seed: int, bot: str, options: dict[str, Any]) -> None:
    """A rule change shows as a diff of these files (regenerate with make playthroughs)."""
    expected = (HERE / f"embers-{name}.txt").read_text(encoding="utf-8")
    assert text(name, seed, bot, options) == expected


def write_all() -> None:
    """Regenerates every golden file (make playthroughs)."""
    HERE.mkdir(exist_ok=True)
    for name, seed, bot, options in CASES:
        (HERE / f"embers-{name}.txt").write_text(text(name, seed, bot, options), encoding="utf-8")


if __name__ == "__main__":
    write_all()
