"""Terminal play of I'm the Boss!: a human among greedy bots, manual dice, bad input, auto-passes."""

from __future__ import annotations

import io
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

GAME = load_game("im-the-boss")


def start(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    manual: bool = False,
    seats: tuple[str, ...] = ("human", "greedy", "greedy"),
    options: dict[str, Any] | None = None,
) -> tuple[TerminalPlay, Script, io.StringIO]:
    """Returns a terminal game with scripted input (seed 5: a bot places the marker, a bot opens)."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    play = TerminalPlay(
        GAME, list(seats), 5, options or {}, str(tmp_path), console=console, manual_dice=manual
    )
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    return play, script, out


def test_bad_input_gets_a_message_and_a_new_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Malformed text, an illegal action and an out-of-range number are refused; the state is kept."""
    play, _, out = start(tmp_path, monkeypatch, ["xyzzy", "offer Q 99", "999", "quit"])
    assert play.run() == 0
    text = out.getvalue()
    assert "unknown verb" in text and "is not legal now" in text and "Choose a number" in text
    record = load_record(play.path)
    assert snapshot(replay(GAME, record)) == snapshot(play.state)


def test_manual_dice_are_asked_and_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --dice manual the bot's roll asks the table; a bad number is asked again; the record replays."""
    # Seed 5: seat 2 opens and rolls; "9" is refused (1-6), "4" is taken.
    play, script, out = start(
        tmp_path, monkeypatch, ["9", "4", "quit"], manual=True, seats=("human", "greedy", "greedy")
    )
    play.run()
    assert any("Roll the die" in p for p in script.prompts)
    assert "Type a whole number from 1 to 6" in out.getvalue()
    record = load_record(play.path)
    forced = [f.value for m in record.moves for f in m.forced]
    assert forced and forced[0] == 4
    assert snapshot(replay(GAME, record)) == snapshot(play.state)


@pytest.mark.slow
def test_the_table_shows_the_negotiation_and_the_whole_game_can_be_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A human who always passes or takes the first choice reaches the end (a 12-turn game)."""
    lines = ["pass" if i % 3 else "1" for i in range(3000)]
    play, _, out = start(tmp_path, monkeypatch, lines, options={"max_turns": 12})
    assert play.run() == 0
    text = out.getvalue()
    assert "Board (clockwise)" in text and "Negotiation on space" in text and "can supply" in text
    assert play.state.is_over() and "Game over" in text


def test_play_command_accepts_the_dice_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`parlour play im-the-boss --dice manual` starts (and quits at end of input) with status 0."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(
        [
            "play",
            "im-the-boss",
            "--seats",
            "human,greedy,greedy",
            "--seed",
            "5",
            "--dice",
            "manual",
            "--records",
            str(tmp_path),
        ]
    )
    assert status == 0
