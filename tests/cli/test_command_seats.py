"""``cmd:`` seats in ``parlour play``: a program plays its seat and is ended with the game (or when the
person quits); a record never makes ``parlour resume`` run a program."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest
from rich.console import Console

from parlour.bots.command_bot import CommandBot
from parlour.cli.main import main
from parlour.cli.play import TerminalPlay
from parlour.core.errors import OptionError
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game

from .scripted import Script

RANDOM_BOT = Path(__file__).parents[2] / "bots" / "reference" / "random_bot.py"
SEAT = f"cmd[timeout=20s]:{shlex.quote(sys.executable)} {shlex.quote(str(RANDOM_BOT))} --seed 1"


def gone(pid: int | None) -> bool:
    """Returns whether process ``pid`` is no more (not even a zombie)."""
    assert pid is not None
    return not Path(f"/proc/{pid}").exists()


def test_play_runs_a_command_seat_to_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["play", "embers", "--seats", f"{SEAT},random,random", "--seed", "3", "--records", str(tmp_path)]
    )
    assert status == 0 and "Game over" in capsys.readouterr().out
    (path,) = tmp_path.iterdir()
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    assert record.seats[0] == SEAT and replay(load_game("embers"), record).is_over()


def test_quitting_ends_the_bot_and_resume_refuses_to_run_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    console = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    game = load_game("venture")
    play = TerminalPlay(game, [SEAT, "human", "random"], 4, {}, str(tmp_path), console=console)
    monkeypatch.setattr(console, "input", Script(["1", "1", "quit"]))
    assert play.run() == 0 and not play.state.is_over()
    bot = play.agents[0]
    assert isinstance(bot, CommandBot) and bot.requests > 0 and bot.stopped is None
    assert gone(bot.pid)
    with pytest.raises(OptionError, match="never runs the program of a cmd: seat"):
        TerminalPlay.resume(str(play.path), console=console)
