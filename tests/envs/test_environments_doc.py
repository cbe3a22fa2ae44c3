"""docs/environments.md stays true: its table of player counts, action ids and observation sizes, and
its block tables (name, start, size; every block with a meaning), are checked against the code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from parlour.core.registry import load_game
from parlour.envs import make

DOC = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text(encoding="utf-8")
HEADING = re.compile(
    r"^### (\S+) \((\d+) players(?:, (\w+)=(\w+))?\): (\d+) numbers, (\d+) action ids$", re.MULTILINE
)
GAMES: dict[str, dict[str, Any]] = {"venture": {}, "im-the-boss": {}, "venus-needs-men": {"game": "basic"}}


def grouped(layout: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Returns the rows the doc shows for a layout: blocks whose names differ only in their last word
    (a colour, a planet) are written ``NAME *``, a run of them in a row as one ``NAME * (×K)``."""
    endings: dict[str, set[str]] = {}
    for name, _, _ in layout:
        head, _, last = name.rpartition(" ")
        endings.setdefault(head, set()).add(last)
    rows, i = [], 0
    while i < len(layout):
        name, start, size = layout[i]
        head = name.rpartition(" ")[0]
        if not head or len(endings[head]) < 2:
            rows.append((name, start, size))
            i += 1
            continue
        j = i
        while j + 1 < len(layout) and layout[j + 1][0].rpartition(" ")[0] == head:
            j += 1
        total = sum(block[2] for block in layout[i : j + 1])
        rows.append((f"{head} *" + (f" (×{j - i + 1})" if j > i else ""), start, total))
        i = j + 1
    return rows


def table_after(heading_end: int) -> list[list[str]]:
    """Returns the cells of the table that follows a heading, or of the table whose header line ends
    there (its header and rule left out)."""
    lines = DOC[heading_end:].strip("\n").splitlines()
    skip = 1 if lines[0].startswith("|---") else 2
    cells = []
    for line in lines[skip:]:
        if not line.startswith("|"):
            break
        cells.append([cell.strip() for cell in line.strip("|").split("|")])
    return cells


HEADINGS = list(HEADING.finditer(DOC))


def test_every_game_has_its_block_table() -> None:
    assert sorted(m.group(1) for m in HEADINGS) == sorted(GAMES)


@pytest.mark.parametrize("found", HEADINGS, ids=lambda m: m.group(1))
def test_a_block_table_is_the_codes_layout(found: re.Match[str]) -> None:
    game, players, key, value, numbers, ids = found.groups()
    options: dict[str, Any] = {key: value} if key else {}
    env = make(game, players=int(players), **options)
    features = env.adapter.encode(env.game.new_state(int(players), 0, env.options), 0)
    assert (int(numbers), int(ids)) == (features.size, len(env.catalogue))
    cells = table_after(found.end())
    assert [(c[0], int(c[1]), int(c[2])) for c in cells] == grouped(features.layout())
    assert all(len(c) == 4 and c[3] for c in cells), "every block says what it holds"


def _figure(text: str) -> int:
    return int(text.replace(",", ""))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_player_table_is_the_codes(game: str) -> None:
    header = DOC.index("| game | players | action ids | observation numbers |")
    row = next(c for c in table_after(DOC.index("\n", header)) if c[0] == f"`{game}`")
    _, counts, ids, numbers = row
    spec = load_game(game)
    assert counts == f"{spec.min_players}–{spec.max_players}"
    sizes = {}
    for players in range(spec.min_players, spec.max_players + 1):
        env = make(game, players=players, **GAMES[game])
        sizes[players] = len(env.catalogue)
        assert env.observation_space("player_0")["observation"].shape == (_figure(numbers),)
    shown = [_figure(n) for n in re.findall(r"[\d,]+(?= \(|$)", ids.split(" (Basic")[0]) if n.strip(",")]
    if len(set(sizes.values())) == 1:
        assert shown == [sizes[spec.min_players]]
    else:
        assert shown == list(sizes.values())
