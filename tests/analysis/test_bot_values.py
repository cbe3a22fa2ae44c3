"""A ``cmd:`` bot's values for the legal actions (docs/bot-protocol.md) travel from its answer into the
record and into the analysis of its decisions, where the panel and the terminal show them."""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from parlour.analysis.analyse import analyse
from parlour.analysis.report import AnalysisError, load_analysis
from parlour.analysis.settings import Budget
from parlour.bots.registry import make_bot
from parlour.cli.analysis import summary_lines
from parlour.core.match import play_match
from parlour.core.record import GameRecord
from parlour.core.registry import load_game

GREEDY = Path(__file__).parents[2] / "bots" / "reference" / "greedy_bot.py"


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """An Embers game: seat 0 the Python reference greedy bot (it sends values), seat 1 random."""
    game = load_game("embers")
    seat = "cmd[timeout=20s]:" + " ".join(shlex.quote(w) for w in (sys.executable, str(GREEDY)))
    agents = [make_bot(game, seat, 1, commands=True), make_bot(game, "random", 2)]
    return play_match(game, agents, 11).record


def test_the_bots_values_are_in_its_moves_and_nobody_elses(record: GameRecord) -> None:
    mine = [m for m in record.moves if m.seat == 0]
    assert mine and all(m.values is not None for m in mine)
    assert all(m.values is None for m in record.moves if m.seat == 1)
    again = GameRecord.loads(record.dumps())
    assert again.moves == record.moves


def test_the_analysis_shows_the_bots_values_beside_each_judged_decision(record: GameRecord) -> None:
    result = analyse(record, seat=0, budget=Budget(3), seed=1)
    assert result.decisions
    for judgement in result.decisions:
        assert judgement.values is not None
        texts = [action for action, _ in judgement.values]
        assert judgement.played in texts and len(texts) == judgement.legal
    document = result.to_json()
    assert load_analysis(json.loads(json.dumps(document))) == result
    # The terminal's line of a marked decision names the bot's best values.
    first = result.decisions[0]
    shown = replace(result, decisions=[replace(first, mark="?")])
    line = next(line for line in summary_lines(shown, "Embers") if line.startswith("  move"))
    best = max(first.values or [], key=lambda pair: pair[1])
    assert f"its bot's values: {best[0]} {best[1]:.3g}" in line


def test_an_older_document_without_values_loads_with_none(record: GameRecord) -> None:
    document = analyse(record, seat=0, budget=Budget(3), seed=1).to_json()
    for decision in document["decisions"]:
        del decision["values"]
    assert all(d.values is None for d in load_analysis(document).decisions)


def test_malformed_values_in_a_document_are_refused_in_one_line(record: GameRecord) -> None:
    document = analyse(record, seat=0, budget=Budget(3), seed=1).to_json()
    document["decisions"][0]["values"] = [["play 1", "high"]]
    with pytest.raises(AnalysisError, match=r"decisions\[0\]\.values\[0\]\[1\]: not a number"):
        load_analysis(document)
