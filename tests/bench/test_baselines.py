"""The baseline table's measurements (bench/baselines.py): a bot against three greedy bots from every
seat, the tournament's ratings, the rows a game measures and the Markdown table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import baselines
from baselines import against_greedy, baseline, bots_for, markdown

SHORT = {"max_turns": 8}
"""Short Venture games: the figures' arithmetic, not their values, is under test."""


def test_a_bot_plays_from_every_seat_and_its_interval_holds_its_win_rate() -> None:
    """Five games: the bot sits in seat 0 twice, then once in each other seat; its rate is its wins
    over the five games, and the Wilson interval holds the rate (which seat's wins are counted: the
    next test)."""
    row = against_greedy("venture", "random", 5, workers=1, options=SHORT)
    assert row["games"] == 5
    assert 0.0 <= row["wins"] <= 5.0
    assert row["win_rate"] == pytest.approx(row["wins"] / 5)
    low, high = row["ci95"]
    assert 0.0 <= low <= row["win_rate"] <= high <= 1.0


def test_the_same_deals_from_every_seat_give_a_greedy_bot_among_greedy_bots_a_quarter() -> None:
    """A greedy bot among three greedy bots plays the very games the table would play anyway (the same
    seeds from every seat): over two games a seat it wins each game's point once, so exactly 2 of 8."""
    row = against_greedy("venture", "greedy", 8, workers=1, options=SHORT)
    assert row["games"] == 8
    assert row["wins"] == pytest.approx(2.0)
    assert row["win_rate"] == pytest.approx(0.25)


def test_the_learned_row_only_where_a_policy_ships(monkeypatch: pytest.MonkeyPatch) -> None:
    """``learned`` is measured only in a game that ships a policy."""
    monkeypatch.setattr(baselines, "has_policy", lambda game: game == "venture")
    assert bots_for("venture") == ["random", "greedy", "ismcts:200ms", "ismcts:1s", "learned"]
    assert bots_for("im-the-boss") == ["random", "greedy", "ismcts:200ms", "ismcts:1s"]


def test_a_table_rates_every_bot_and_writes_one_markdown_row_each() -> None:
    """Two bots, four games each, a four-game tournament: both rows, both ratings, and the Markdown
    table names each bot with its win rate, interval and rating."""
    table = baseline("venture", 4, 4, workers=1, bots=("random", "greedy"), options=SHORT)
    assert [row["bot"] for row in table["rows"]] == ["random", "greedy"]
    assert {row["bot"] for row in table["ratings"]} == {"random", "greedy"}
    assert table["learned"] is False
    text = markdown(table)
    assert text.count("\n| `") == 2
    for row in table["rows"]:
        low, high = row["ci95"]
        assert f"| `{row['bot']}` | 4 | {row['win_rate']:.3f} | {low:.3f}–{high:.3f} |" in text
    assert "– | – | –" not in text  # every row has its rating
