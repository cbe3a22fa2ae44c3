"""``parlour learn GAME`` driven by scripted input: steps, answers, hints, the closing game, quitting."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli.scripted import Script
from rich.console import Console

from parlour.cli import learn
from parlour.cli.learn import TerminalLesson
from parlour.cli.main import main
from parlour.tutorials.engine import Tutorial
from parlour.tutorials.files import tutorial_games

ROOT = Path(__file__).resolve().parents[2]


def run(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> str:
    """Runs Venture's tutorial with the scripted lines; returns what was printed."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    monkeypatch.setattr(console, "input", Script(lines))
    assert TerminalLesson(Tutorial.load("venture"), console).run() == 0
    return out.getvalue()


def test_a_step_shows_its_text_quote_and_the_learners_table(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run(monkeypatch, ["quit"])
    assert "Step 1 of 29: Take over a corporation" in shown
    assert "Rulebook, 1) Taking Over Corporations, the basic play" in shown
    assert "Your hand: 1t 3c 3c 5t 8t 12 16" in shown
    assert "You left the tutorial" in shown


def test_answers_to_wrong_illegal_and_unreadable_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run(monkeypatch, ["take OI-E", "take SH-AF", "take ZZ-Q", "hint", "list", "take RR-CD"])
    assert "The tutorial wanted 'take RR-CD' here: this lesson builds a conglomerate" in shown
    assert "'take SH-AF' is not legal now: SH-AF is not in the center" in shown
    assert "there is no corporation ZZ-Q" in shown
    assert "Type: take RR-CD" in shown
    assert "take ST-ABC" in shown
    assert "seat 0 takes over RR-CD for 12 (owes 12)" in shown
    assert "Step 2 of 29: A second corporation" in shown


def test_the_whole_tutorial_then_the_game_with_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = Tutorial.load("venture").script.steps
    shown = run(monkeypatch, [step.intended[0] for step in steps] + ["hint", "quit"])
    assert "Step 29 of 29" in shown
    assert "A short game" in shown and "The game: your table" in shown
    assert "The greedy bot would play: " in shown
    # The opponent's hand is never shown: only the learner's.
    assert shown.count("Your hand:") > 29 and "seat 1 (you)" not in shown


def test_the_command_line_runs_it_and_refuses_a_game_without_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []

    def noted(name: str, path: str | None) -> int:
        seen.append(name)
        return 0

    monkeypatch.setattr(learn, "learn_in_terminal", noted)
    assert main(["learn", "venture"]) == 0 and seen == ["venture"]
    monkeypatch.undo()
    assert main(["learn", "embers"]) == 2
    shipped = ", ".join(tutorial_games())
    assert "venture" in shipped
    expected = f"parlour: error: embers has no tutorial yet (tutorials: {shipped})"
    assert capsys.readouterr().err.strip() == expected


def test_info_explains_a_card_or_a_rule_term(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run(monkeypatch, ["info conglomerate", "info RR-CD", "info nothing-like-it", "quit"])
    assert "A stack of corporations of different industries" in shown
    assert "Railroads corporation, letters C, D, worth 12 million" in shown
    assert "No card or term is called 'nothing-like-it'." in shown


def test_check_and_an_authors_own_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["learn", "venture", "--check"]) == 0
    assert "Learn Venture: 29 steps play through, then a game." in capsys.readouterr().out
    data = json.loads((ROOT / "parlour/games/venture/data/tutorial.json").read_text())
    data["steps"][1]["intended"] = ["take SH-AF"]
    bad = tmp_path / "mine.json"
    bad.write_text(json.dumps(data))
    assert main(["learn", "venture", "--check", "--file", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "parlour: error: step 2 (second-corporation): intended action 'take SH-AF' is not legal"
    )
    assert err.count("\n") == 1
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (300 * 1024))
    assert main(["learn", "venture", "--file", str(huge)]) == 2
    assert "larger than 256 KiB" in capsys.readouterr().err
    assert main(["learn", "venture", "--file", str(tmp_path / "missing.json")]) == 2


def test_the_closing_game_ends_with_the_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    tutorial = Tutorial.load("venture")
    tutorial.start()
    for step in tutorial.script.steps[:-1]:
        tutorial.try_action(step.intended[0])
    # Discarding every turn reaches the turn limit of the short game.
    lines = [tutorial.script.steps[-1].intended[0]] + [
        "discard " + card for card in ["10", "12", "14", "16", "18", "20", "1t", "3c", "x1"] * 30
    ]
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    lesson = TerminalLesson(tutorial, console)
    monkeypatch.setattr(lesson.tutorial, "start", lambda: tutorial.step)
    assert lesson.run() == 0
    shown = out.getvalue()
    assert "Game over" in shown and "The turn limit of 24 turns was reached" in shown
    assert "Seat 0 (you)" in shown and "Seat 1 (random)" in shown


def test_an_add_on_is_learnt_as_game_slash_part(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["learn", "venus-needs-men/enhanced", "--check"]) == 0
    assert (
        "Venus Needs Men!: the Enhanced game: 8 steps play through, then a game." in capsys.readouterr().out
    )
    seen: list[str] = []

    def noted(name: str, path: str | None) -> int:
        seen.append(name)
        return 0

    monkeypatch.setattr(learn, "learn_in_terminal", noted)
    assert main(["learn", "venus-needs-men/enhanced"]) == 0 and seen == ["venus-needs-men/enhanced"]
    monkeypatch.undo()
    assert main(["learn", "venus-needs-men/advanced", "--check"]) == 2
    assert capsys.readouterr().err.strip() == (
        "parlour: error: venus-needs-men has no add-on tutorial 'advanced' "
        "(its add-ons: venus-needs-men/enhanced)"
    )
    with pytest.raises(SystemExit):
        main(["learn", "venus-needs-men/"])
    assert "name the add-on after the '/'" in capsys.readouterr().err


def test_venus_needs_men_step_shows_the_zap_hand_and_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    steps = Tutorial.load("venus-needs-men").script.steps
    lines = [step.intended[0] for step in steps[:12]] + ["pass", "hint", "quit"]
    monkeypatch.setattr(console, "input", Script(lines))
    assert TerminalLesson(Tutorial.load("venus-needs-men"), console).run() == 0
    shown = out.getvalue()
    assert "Step 13 of 24: A Zap window: Deflector Shield" in shown
    assert "The tutorial wanted 'zap 33' here: without the Deflector Shield V1 is destroyed" in shown
    assert "Type: zap 33" in shown and "Your Zap hand: 25 Targeting Computer · 33 Deflector Shield" in shown
