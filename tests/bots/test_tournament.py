"""Tournaments: rotated seats, reproducible OpenSkill ratings, the command's table, JSON and plot."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from parlour.bots.simulation import Batch
from parlour.bots.tournament import seating, tournament
from parlour.cli.main import main


def test_seating_rotates_every_bot_through_every_seat() -> None:
    """Over as many games as bots, each bot sits in each seat once (fewer bots than seats: repeats)."""
    bots = ["a", "b", "c"]
    tables = [seating(bots, 3, i) for i in range(3)]
    assert all(sorted(t) == bots for t in tables)
    assert {t[0] for t in tables} == set(bots)
    assert seating(["a", "b"], 4, 0) == ["a", "b", "a", "b"]


def test_ratings_are_reproducible_and_favour_the_stronger_bot() -> None:
    """The same seed gives the same ratings; greedy out-rates random in Venus Needs Men!."""
    one = tournament("venus-needs-men", ["random", "greedy"], 8, 2, seed=3, options={"max_turns": 60})
    two = tournament(
        "venus-needs-men",
        ["random", "greedy"],
        8,
        2,
        seed=3,
        options={"max_turns": 60},
        batch=Batch(workers=2, workers_max=2),
    )
    assert [r["mu"] for r in one["bots"]] == [r["mu"] for r in two["bots"]]
    assert one["bots"][0]["bot"] == "greedy" and one["bots"][0]["seats"] == 8


def test_the_command_writes_a_table_json_and_a_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`parlour tournament` prints the ratings and writes tournament.json and ratings.svg."""
    out = tmp_path / "t"
    status = main(
        [
            "tournament",
            "venture",
            "--bots",
            "random,greedy",
            "-n",
            "3",
            "--players",
            "2",
            "--option",
            "max_turns=20",
            "--out",
            str(out),
        ]
    )
    assert status == 0 and "rating" in capsys.readouterr().out
    data = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
    assert {row["bot"] for row in data["bots"]} == {"random", "greedy"}
    ElementTree.fromstring((out / "ratings.svg").read_text(encoding="utf-8"))


def test_the_command_refuses_unknown_bots_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown bot is a one-line error, exit status 2, and nothing is written."""
    assert main(["tournament", "venture", "--bots", "random,wizard", "--out", str(tmp_path / "t")]) == 2
    assert "wizard" in capsys.readouterr().err and not (tmp_path / "t").exists()
