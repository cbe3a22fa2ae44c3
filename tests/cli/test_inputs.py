"""Hostile command-line input: every case seen is a one-line error with exit status 2, never a traceback."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from parlour.bots.workers import cpu_count
from parlour.cli import commands
from parlour.cli.main import main
from parlour.cli.play import TerminalPlay
from parlour.core.registry import load_game

from .scripted import Script

CLI = Path(__file__).resolve().parents[2] / "parlour" / "cli"
LONG = "x" * 300
NINES = "9" * 5000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Runs ``parlour argv`` in-process; returns (status, stdout, stderr)."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, err: str, *words: str) -> None:
    """Exit 2 and exactly one line on stderr, starting 'parlour: error:' (no blank line before it)."""
    assert status == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("parlour: error: "), repr(err)
    for word in words:
        assert word in err


# ---------------------------------------------------------------- the play prompt prints text as typed
@pytest.mark.parametrize(
    "typed", ["take [/foo]", "[bold]x[/bold]", "[/]", "[link=file:///etc]a", ":smile: [red"]
)
def test_markup_typed_at_the_prompt_is_printed_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, force_terminal=False)
    play = TerminalPlay(load_game("venture"), ["human", "greedy"], 12, {}, str(tmp_path), console=console)
    monkeypatch.setattr(console, "input", Script([typed, "quit"]))
    assert play.run() == 0
    assert typed.split()[-1] in out.getvalue()


def test_a_huge_seat_number_at_the_boss_prompt_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, force_terminal=False)
    game = load_game("im-the-boss")
    play = TerminalPlay(game, ["human", "greedy", "greedy"], 5, {}, str(tmp_path), console=console)
    script = Script([f"tip @{NINES} 1", f"tip @{NINES[:150]} 1", "quit"])
    monkeypatch.setattr(console, "input", script)
    assert play.run() == 0
    assert "at most 200 characters" in out.getvalue() and "is not a seat" in out.getvalue()
    assert len(script.prompts) == 3


def test_apply_with_a_huge_seat_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "p.json"
    assert run(capsys, "new", "im-the-boss", "--players", "3", "--seed", "5", "--out", str(position))[0] == 0
    status, _, err = run(capsys, "apply", "im-the-boss", "--position", str(position), f"tip @{NINES} 1")
    assert_one_line_error(status, err, "at most 200 characters")
    status, _, err = run(capsys, "apply", "im-the-boss", "--position", str(position), f"tip @{NINES[:150]} 1")
    assert_one_line_error(status, err, "is not a seat")
    assert len(err) < 600


# ---------------------------------------------------------------- paths
@pytest.mark.parametrize(
    "argv",
    [
        ["new", "venture", "--players", "3", "--out", "{long}"],
        ["new", "venture", "--players", "3", "--out", "{tmp}/{long}/x.json"],
        ["board", "venus-needs-men", "--svg", "{long}"],
        ["play", "venture", "--seats", "random,random", "--records", "{tmp}/{long}"],
        ["tournament", "venture", "--bots", "random,greedy", "-n", "1", "--out", "{tmp}/{long}"],
    ],
)
def test_a_path_too_long(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, *[a.format(long=LONG, tmp=tmp_path) for a in argv])
    assert_one_line_error(status, err, "File name too long")
    assert list(tmp_path.iterdir()) == []


def test_tournament_out_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "results"
    path.write_text("keep")
    status, _, err = run(
        capsys, "tournament", "venture", "--bots", "random,greedy", "-n", "1", "--out", str(path)
    )
    assert_one_line_error(status, err, "not a folder")
    assert path.read_text() == "keep"


def test_out_through_a_dangling_link_creates_nothing_at_its_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "elsewhere"
    (tmp_path / "file-link").symlink_to(target / "deep" / "x.json")
    (tmp_path / "folder-link").symlink_to(target / "deep")
    new = ["new", "venture", "--players", "3", "--out"]
    for argv in (
        [*new, str(tmp_path / "file-link")],
        [*new, str(tmp_path / "folder-link" / "x.json")],
        ["board", "venus-needs-men", "--svg", str(tmp_path / "file-link")],
        [
            "tournament",
            "venture",
            "--bots",
            "random,greedy",
            "-n",
            "1",
            "--out",
            str(tmp_path / "folder-link"),
        ],
        ["play", "venture", "--seats", "random,random", "--records", str(tmp_path / "folder-link")],
    ):
        status, _, err = run(capsys, *argv)
        assert_one_line_error(status, err, "cannot write")
        assert not target.exists()


def test_out_refuses_to_write_through_a_link_to_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (tmp_path / "link.json").symlink_to(victim)
    status, _, err = run(capsys, "new", "venture", "--players", "3", "--out", str(tmp_path / "link.json"))
    assert_one_line_error(status, err, "symbolic link")
    assert victim.read_text() == "keep" and (tmp_path / "link.json").is_symlink()


def test_tournament_writes_under_the_home_folder_by_default_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, here = tmp_path / "home", tmp_path / "here"
    here.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(here)
    argv = ["tournament", "venture", "--bots", "random,greedy", "-n", "2", "--players", "2"]
    status, out, err = run(capsys, *argv, "--option", "max_turns=4")
    assert status == 0, err
    assert list(here.iterdir()) == []
    (folder,) = (home / ".parlour" / "tournaments").iterdir()
    assert folder.name.startswith("venture-")
    assert {p.name for p in folder.iterdir()} == {"tournament.json", "ratings.svg"}
    assert f"results go to {folder}" in err and str(folder / "tournament.json") in out


# ---------------------------------------------------------------- bots, budgets and workers
# Only budgets that, accepted by mistake, would still end quickly (3601s is refused in test_ismcts.py).
@pytest.mark.parametrize("budget", ["infs", "nans", "0s", "-1s", "0it", "0ms", "1e400s", f"{NINES[:150]}it"])
def test_a_search_budget_out_of_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], budget: str
) -> None:
    seats = f"random,ismcts:{budget}"
    for argv in (
        ["simulate", "venture", "-n", "1", "--seats", seats],
        ["tournament", "venture", "-n", "1", "--bots", seats, "--out", str(tmp_path / "t")],
        ["play", "venture", "--seats", seats, "--records", str(tmp_path / "r")],
    ):
        status, _, err = run(capsys, *argv)
        assert_one_line_error(status, err, "ismcts budget", budget[:20])


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ("ismcts:200ms::power=10000", ["ismcts setting power=10000 is out of range: 0 to 2"]),
        ("ismcts:200ms::explore=nan", ["ismcts setting explore=nan", "0 to 10"]),
        ("ismcts:200ms::horizon=-1", ["ismcts setting horizon=-1 is out of range: 0 to 1000"]),
        ("ismcts:\ud800", ["bot name", "\\ud800"]),
        ("ismcts:" + "9" * 300, ["bot name is at most 200"]),
    ],
)
def test_a_search_setting_out_of_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: str, words: list[str]
) -> None:
    """A bot name's setting out of its range is refused before any game, in one line naming it."""
    seats = f"random,{seat}"
    for argv in (
        ["simulate", "venture", "-n", "1", "--seats", seats],
        ["tournament", "venture", "-n", "1", "--bots", seats, "--out", str(tmp_path / "t")],
        ["play", "venture", "--seats", seats, "--records", str(tmp_path / "r")],
    ):
        status, _, err = run(capsys, *argv)
        assert_one_line_error(status, err, *words)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        # One above the CPU count: a regression would start a few processes, not 100,000.
        (["--workers", str(cpu_count() + 1)], [f"--workers {cpu_count() + 1}", "--workers-max"]),
        (["--workers", "3", "--workers-max", "2"], ["--workers 3", "--workers-max 2"]),
        (["--workers", "2", "--workers-max", "0"], ["--workers-max must be from 1 to 256"]),
        (["--workers", "2", "--workers-max", "100000"], ["--workers-max must be from 1 to 256"]),
        (["--workers", "0"], ["--workers"]),
    ],
)
def test_workers_are_capped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], words: list[str]
) -> None:
    for argv in (
        ["simulate", "venture", "-n", "2", "--seats", "random,random", *extra],
        ["tournament", "venture", "-n", "2", "--bots", "random,greedy", "--out", str(tmp_path / "t"), *extra],
    ):
        status, _, err = run(capsys, *argv)
        assert_one_line_error(status, err, *words)
    assert list(tmp_path.iterdir()) == []


def test_simulate_prints_its_error_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """No blank line (a progress bar's) before the one line."""
    status, out, err = run(capsys, "simulate", "venture", "-n", "2", "--seats", "random,wizard")
    assert_one_line_error(status, err, "no bot 'wizard'")
    assert out == ""


# ---------------------------------------------------------------- one handler for every failure
@pytest.mark.parametrize(
    "error",
    [OSError(28, "No space left on device"), ValueError("bad\nvalue\x1b[2J"), OverflowError("too big")],
)
def test_the_top_level_handler_makes_any_failure_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    def fail(_: Any) -> int:
        raise error

    monkeypatch.setattr(commands, "cmd_options", fail)
    status, _, err = run(capsys, "options", "venture")
    assert_one_line_error(status, err)
    assert "\x1b" not in err


def test_a_long_message_is_shortened(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(_: Any) -> int:
        raise ValueError("y" * 10_000)

    monkeypatch.setattr(commands, "cmd_options", fail)
    status, _, err = run(capsys, "options", "venture")
    assert_one_line_error(status, err)
    assert len(err) < 500


@pytest.mark.parametrize(
    "argv",
    [
        ["options", "venture"],
        ["simulate", "venture", "-n", "2", "--seats", "random,random", "--option", "max_turns=4", "--json"],
    ],
)
def test_a_closed_pipe_ends_quietly(argv: list[str]) -> None:
    """`parlour options venture | head -1`: the reader has gone; no traceback, the status of SIGPIPE."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the program has written anything
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert err == ""


# ---------------------------------------------------------------- by construction: no markup in the sources
MARKUP = re.compile(
    r"""["'][^"'\n]*\[/?(bold|red|cyan|dim|green|yellow|blue|italic|magenta|b|i|u|link)\b[^\]]*\]"""
)


def test_no_markup_in_the_command_line_sources() -> None:
    """Styles go beside the text (parlour.cli.output), and only output.py makes a rich Console."""
    for path in sorted(CLI.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert not MARKUP.search(source), f"{path.name}: rich markup in a string"
        if path.name != "output.py":
            assert not re.search(r"\bConsole\(", source), f"{path.name}: makes its own Console"


def test_the_markup_check_can_fail() -> None:
    assert MARKUP.search('console.print(f"[red]{err}[/red]")')
    assert not MARKUP.search('say(console, (str(err), "red"))')


def test_files_are_private_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "p.json"
    assert run(capsys, "new", "venture", "--players", "3", "--out", str(position))[0] == 0
    assert os.stat(position).st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    "args",
    [
        ["new", "venture", "--players", "3", "--seed", "9" * 40, "--out", "{out}"],
        ["new", "venture", "--players", "3", "--seed", "-1", "--out", "{out}"],
        ["new", "venture", "--players", "3", "--option", "max_turns=" + "1" * 27, "--out", "{out}"],
    ],
)
def test_new_never_writes_a_position_its_own_tools_refuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    out = tmp_path / "big.json"
    assert main([a.replace("{out}", str(out)) for a in args]) == 2
    assert not out.exists()
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "venture", "--bots", "random,random", "-n", "1000001"],
        ["tournament", "im-the-boss", "--bots", "random,random", "-n", "2", "--players", "0"],
        ["simulate", "venture", "--seats", "random,random", "-n", "1000001"],
        ["play", "venture", "\n\n", "--seats", "human,random"],
        ["show", "venture", "\x1b[2J", "--position", "p.json"],
    ],
)
def test_more_games_than_the_cap_and_control_characters_get_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    with pytest.raises(SystemExit) if args[0] in ("play", "show") else contextlib.nullcontext():
        assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "\x1b" not in err
