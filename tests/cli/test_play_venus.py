"""Terminal play of Venus Needs Men!: a human with greedy bots, Zap windows, manual dice, the map."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from parlour.cli.files import load_record
from parlour.cli.main import main
from parlour.cli.play import TerminalPlay
from parlour.core.record import replay
from parlour.core.registry import load_game
from parlour.testing.kit import snapshot

from .scripted import Script

GAME = load_game("venus-needs-men")


def start(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    options: dict[str, Any],
    manual: bool = False,
) -> tuple[TerminalPlay, Script, io.StringIO]:
    """Returns a terminal game (human in seat 0 against two greedy bots) with scripted input."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    play = TerminalPlay(
        GAME, ["human", "greedy", "greedy"], 4, options, str(tmp_path), console=console, manual_dice=manual
    )
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    return play, script, out


def test_a_whole_enhanced_game_is_played_and_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A human who takes the first choice (or 'done') reaches the end; the record replays exactly."""
    lines = ["1" if i % 2 else "done" for i in range(4000)]
    play, _, out = start(tmp_path, monkeypatch, lines, {"game": "enhanced", "max_turns": 30})
    assert play.run() == 0
    text = out.getvalue()
    assert "Your Zap hand" in text and "Face-up Upgrades" in text and "Game over" in text
    record = load_record(play.path)
    assert snapshot(replay(GAME, record)) == snapshot(play.state)


def test_manual_dice_are_asked_for_each_roll(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --dice manual every attack die is asked; the answers are recorded and replay exactly."""
    lines = ["1"] * 4000
    answers = iter(["11", "7", *["0"] * 2000])

    def script_or_die(prompt: Any = "", **_: Any) -> str:
        return next(answers) if "Roll the die" in str(prompt) else lines.pop(0)

    play, _, out = start(tmp_path, monkeypatch, [], {"max_turns": 60}, manual=True)
    monkeypatch.setattr(play.console, "input", script_or_die)
    play.run()
    record = load_record(play.path)
    forced = [f.value for m in record.moves for f in m.forced]
    assert forced[:2] == [7, 10] and "Type a whole number from 1 to 10" in out.getvalue()  # 0 counts as 10
    assert snapshot(replay(GAME, record)) == snapshot(play.state)


def test_board_command_writes_an_svg_with_the_positions_ships(tmp_path: Path) -> None:
    """`parlour board venus-needs-men --svg` draws the map; with --position it shows the ships."""
    position, svg = tmp_path / "p.json", tmp_path / "map.svg"
    assert main(["new", "venus-needs-men", "--players", "4", "--seed", "3", "--out", str(position)]) == 0
    assert main(["board", "venus-needs-men", "--svg", str(svg), "--position", str(position)]) == 0
    root = ElementTree.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and "Orbit" in svg.read_text(encoding="utf-8")


def test_games_without_a_board_refuse_to_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Venture has no board: a one-line error, exit status 2, nothing written."""
    assert main(["board", "venture", "--svg", str(tmp_path / "x.svg")]) == 2
    assert "has no board" in capsys.readouterr().err and not (tmp_path / "x.svg").exists()
