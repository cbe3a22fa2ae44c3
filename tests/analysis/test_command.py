"""``parlour analyse``: the summary and the JSON written where --out says (never the current folder),
and every hostile input refused in one line with status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.test_inputs import run

from parlour.analysis.report import load_analysis
from parlour.cli import files
from parlour.core.registry import load_game

from .games import bots_record, embers_ending, record_from
from .test_marks import STAGED


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2 and "Traceback" not in err + out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("parlour"), err
    return lines[0]


@pytest.fixture
def staged(tmp_path: Path) -> Path:
    path = tmp_path / "staged.json"
    record = record_from(load_game("embers"), embers_ending(*STAGED), ["play 1"])
    record.seats = ["human", "greedy"]
    path.write_text(record.dumps())
    return path


def test_prints_the_marked_move_and_writes_the_analysis(
    staged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out_file = tmp_path / "out" / "analysis.json"
    status, out, err = run(capsys, "analyse", str(staged), "--budget", "6", "--out", str(out_file))
    assert status == 0, err
    assert "move 1 (turn 20) seat 0: play 1 ??" in out and "better: play 2" in out
    assert "seat 0 (human): accuracy" in out
    analysis = load_analysis(json.loads(out_file.read_text()))
    assert analysis.analysed == [0] and analysis.decisions[0].mark == "??"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "staged.json"]


def test_default_output_goes_under_parlour_home(
    staged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "parlour_home", lambda: tmp_path / "home")
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "analyse", str(staged), "--budget", "4", "--seed", "2")
    assert status == 0
    written = list((tmp_path / "home" / "analyses").iterdir())
    assert len(written) == 1 and written[0].name.startswith("staged-analysis-")
    assert f"wrote {written[0]}" in out


def test_hostile_inputs_are_one_line(
    staged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = ["--out", str(tmp_path / "a.json")]
    assert "No such file" in refused(capsys, "analyse", str(tmp_path / "missing.json"), *out)
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b'{"format": "parlour-record/1", \x00\xff')
    assert "cannot read" in refused(capsys, "analyse", str(garbage), *out)
    notjson = tmp_path / "text.json"
    notjson.write_text("[1, 2")
    assert "record" in refused(capsys, "analyse", str(notjson), *out)
    monkeypatch.setattr(files, "MAX_READ", 1000)
    big = tmp_path / "big.json"
    big.write_text(" " * 2000)
    assert "larger than" in refused(capsys, "analyse", str(big), *out)
    monkeypatch.undo()
    assert "seat 5 is not a seat of this 2-player game" in refused(
        capsys, "analyse", str(staged), "--seat", "5", *out
    )
    assert "invalid int value" in refused(capsys, "analyse", str(staged), "--seat", "x", *out)
    assert "--budget must be" in refused(capsys, "analyse", str(staged), "--budget", "many", *out)
    assert "--budget must be" in refused(capsys, "analyse", str(staged), "--budget", "1", *out)
    assert "seed" in refused(capsys, "analyse", str(staged), "--seed", "-1", *out)
    assert "--workers" in refused(capsys, "analyse", str(staged), "--workers", "999", *out)
    assert not (tmp_path / "a.json").exists()


def test_records_that_cannot_be_analysed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = ["--out", str(tmp_path / "a.json")]
    record = bots_record("embers", ["random", "random"], 3)
    bots = tmp_path / "bots.json"
    bots.write_text(record.dumps())
    assert "no seat of this record was played by a person" in refused(capsys, "analyse", str(bots), *out)
    unfinished = tmp_path / "unfinished.json"
    record.moves = record.moves[:10]
    unfinished.write_text(record.dumps())
    assert "the game is not over" in refused(capsys, "analyse", str(unfinished), "--all-seats", *out)
    spoiled = tmp_path / "spoiled.json"
    record.moves[3] = type(record.moves[3])(record.moves[3].seat, "play 99")
    spoiled.write_text(record.dumps())
    assert "move 4 ('play 99'" in refused(capsys, "analyse", str(spoiled), "--all-seats", *out)
    assert not (tmp_path / "a.json").exists()


def test_hostile_record_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.json"
    record = bots_record("embers", ["human", "random"], 3)
    record.players = 10**9
    path = tmp_path / "many.json"
    path.write_text(record.dumps())
    assert "takes 2 to 5 players, not 1000000000" in refused(capsys, "analyse", str(path), "--all-seats")
    record.players = 2
    record.seats = ["human", "bot\x1b[2J" + "x" * 500]
    path.write_text(record.dumps())
    status, printed, _ = run(capsys, "analyse", str(path), "--all-seats", "--budget", "2", "--out", str(out))
    assert status == 0 and "\x1b" not in printed and "bot\\x1b[2J" in printed
    assert load_analysis(json.loads(out.read_text())).seats[1] == ("bot\\x1b[2J" + "x" * 500)[:60]
