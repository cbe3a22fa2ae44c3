"""The hindsight view: judged from the real cards (so swapped hidden cards do change it), labelled as
such in the document and in ``parlour analyse``'s summary; documents without a view are the seat's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.test_inputs import run

from parlour.analysis.analyse import analyse
from parlour.analysis.report import AnalysisError, load_analysis
from parlour.analysis.settings import Budget

from .test_secrecy import _swapped_pair


def test_hindsight_reads_the_real_cards_and_says_so() -> None:
    real, swapped = _swapped_pair("venture", ["human", "quick", "quick", "quick"], 4, 40)
    fair = analyse(real, [0], budget=Budget(6), seed=11, moves=[0])
    one = analyse(real, [0], budget=Budget(6), seed=11, moves=[0], hindsight=True)
    two = analyse(swapped, [0], budget=Budget(6), seed=11, moves=[0], hindsight=True)
    assert fair.view == "seat" and one.view == "hindsight" == two.view
    # Only the judgement changes: the same decisions, seats and actions played.
    assert [(d.move, d.seat, d.played) for d in one.decisions] == [
        (d.move, d.seat, d.played) for d in fair.decisions
    ]
    assert one.analysed == fair.analysed and one.final == fair.final and one.budget == fair.budget
    # The seat's view could not tell the two records apart; hindsight can, and does.
    assert one.decisions[0].actions != two.decisions[0].actions
    assert one.decisions[0].actions != fair.decisions[0].actions


def test_the_view_round_trips_and_is_checked() -> None:
    real, _ = _swapped_pair("embers", ["human", "random", "random"], 4, 10)
    document = analyse(real, [0], budget=Budget(4), seed=3, moves=[0], hindsight=True).to_json()
    assert document["view"] == "hindsight"
    assert load_analysis(json.loads(json.dumps(document))).view == "hindsight"
    older = {k: v for k, v in document.items() if k != "view"}
    assert load_analysis(older).view == "seat"
    with pytest.raises(AnalysisError, match=r"^view: must be one of seat, hindsight$"):
        load_analysis({**document, "view": "oracle"})


def test_the_command_labels_a_hindsight_analysis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real, _ = _swapped_pair("embers", ["human", "random", "random"], 4, 10)
    path = tmp_path / "game.json"
    path.write_text(real.dumps())
    out_file = tmp_path / "a.json"
    status, out, err = run(
        capsys, "analyse", str(path), "--budget", "4", "--hindsight", "--out", str(out_file)
    )
    assert status == 0, err
    assert out.splitlines()[0].startswith("HINDSIGHT: judged from the real cards")
    assert json.loads(out_file.read_text())["view"] == "hindsight"
    status, out, err = run(capsys, "analyse", str(path), "--budget", "4", "--out", str(out_file))
    assert status == 0 and "HINDSIGHT" not in out
