"""Terminal play driven through a real pseudo-terminal (pexpect): line editing, history, Tab completion,
Ctrl-C saying where the game is saved, and a hot-seat hand-over that clears the scrollback."""

from __future__ import annotations

import re
import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest

from parlour.cli.play import CLEAR_SCROLLBACK

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")
UP = "\x1b[A"


def spawn(tmp_path: Path, seats: str, seed: int = 12, game: str = "venture") -> pexpect.spawn:
    env = {
        "HOME": str(tmp_path),
        "TERM": "xterm",
        "PATH": "/usr/bin:/bin",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # nobody answers cursor-position requests in a test's terminal
    }
    args = ["-m", "parlour.cli", "play", game, "--seats", seats, "--seed", str(seed)]
    args += ["--records", str(tmp_path / "records")]
    return pexpect.spawn(
        sys.executable,
        args,
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 110),
        cwd=str(tmp_path),
        preexec_fn=default_signals,  # Ctrl-C as a shell gives it, whatever this test process holds
    )


def default_signals() -> None:
    """Gives the child Ctrl-C as a shell gives a command: at its default and not blocked, whatever the
    test process inherited or set (an ignored or blocked Ctrl-C is inherited, and Python then never
    raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def at_the_prompt(tmp_path: Path) -> pexpect.spawn:
    """Starts a game of a person against a random bot and waits for the person's prompt."""
    child = spawn(tmp_path, "human,random")
    child.expect("seat 0>")
    return child


def interrupt(child: pexpect.spawn) -> str:
    """Presses Ctrl-C, waits for the end and returns the last words printed, on one line."""
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    return " ".join(plain(child.before).split())


def plain(text: str) -> str:
    return ANSI.sub("", text)


def settle(child: pexpect.spawn, wait: float = 0.6) -> str:
    """Returns what the terminal printed in the next moments, without colour and cursor codes."""
    time.sleep(wait)
    try:
        return plain(child.read_nonblocking(200_000, timeout=0.5))
    except pexpect.TIMEOUT:
        return ""


@pytest.mark.slow
def test_tab_completes_a_legal_action_and_enter_plays_it(tmp_path: Path) -> None:
    child = at_the_prompt(tmp_path)
    child.send("take SH-A")  # the only legal action that begins so: take SH-ABF
    child.send("\t")
    assert "take SH-ABF" in settle(child)
    child.send("\r")
    child.expect("takes over")
    child.expect("seat 0>")  # the next prompt: a Ctrl-C typed while it was being drawn could be lost
    interrupt(child)


@pytest.mark.slow
def test_tab_lists_the_choices_that_share_a_beginning(tmp_path: Path) -> None:
    child = at_the_prompt(tmp_path)
    child.send("disc\t")
    shown = settle(child)
    assert "discard 18" in shown and "discard x3/2" in shown and "take SH-ABF" not in shown
    interrupt(child)


def test_up_arrow_recalls_the_last_line(tmp_path: Path) -> None:
    child = at_the_prompt(tmp_path)
    child.send("log\r")
    child.expect("Nothing has happened yet")
    child.expect("seat 0>")
    child.send(UP + "\r")
    child.expect("Nothing has happened yet")
    interrupt(child)


def test_ctrl_c_says_the_game_was_saved_and_how_to_resume(tmp_path: Path) -> None:
    child = at_the_prompt(tmp_path)
    said = interrupt(child)
    assert "Game saved to" in said and "parlour resume" in said
    child.close()
    assert child.exitstatus == 130
    assert list((tmp_path / "records").glob("*.json.key"))


def test_quit_says_the_same(tmp_path: Path) -> None:
    child = at_the_prompt(tmp_path)
    child.send("quit\r")
    child.expect(pexpect.EOF)
    assert "parlour resume" in " ".join(plain(child.before).split())


def test_a_hot_seat_hand_over_clears_the_scrollback(tmp_path: Path) -> None:
    child = spawn(tmp_path, "human,human")
    child.expect("Pass the screen to")
    assert CLEAR_SCROLLBACK in child.before
    child.send("\r")
    child.expect("seat 0>")
    child.send("discard 18\r")
    child.expect("Pass the screen to Seat 1")
    assert CLEAR_SCROLLBACK in child.before
    interrupt(child)
