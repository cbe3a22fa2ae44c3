"""docs/adding-a-game.md stays true: its commands run, and each excerpt of code is in the file it names.

Every fenced block is one of three kinds. A block whose info string names a file after the language
(```` ```python parlour/games/embers/actions.py ````) is an excerpt: its lines must appear in that file,
in order (the file may have more lines between them). A ``sh`` block is run line by line in a fresh
folder with this checkout's ``parlour`` and Python, unless :data:`LEFT_OUT` names its first line and
says why. A ``python`` block without a file is run as a program.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"
BIN = Path(sys.executable).parent
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)

LEFT_OUT = {
    "make test": "the whole suite: many minutes of browser, cluster and PostgreSQL tests",
    ".venv/bin/python -m tests.games.embers.test_playthroughs": (
        "rewrites the checkout's golden files (tests/games/embers/test_playthroughs.py checks them)"
    ),
    ".venv/bin/pytest -n 0 tests/games/embers": (
        "runs test suites (minutes, and pytest inside pytest); the suites themselves run in the suite"
    ),
}
"""Commands this test does not run, by the first line of their block, and why."""


def blocks() -> list[tuple[str, str, str]]:
    """Returns each fenced block of the guide: its language, the file it quotes ('' for none), its text."""
    found = []
    for info, body in FENCE.findall(DOC.read_text(encoding="utf-8")):
        language, _, source = info.strip().partition(" ")
        found.append((language, source.strip(), body))
    return found


def block_id(block: tuple[str, str, str]) -> str:
    """Names a block by its language, file and first line."""
    language, source, body = block
    return f"{language}:{source}:{body.splitlines()[0][:40]}"


def test_the_guide_has_commands_excerpts_and_a_kit_example() -> None:
    """The parser finds the blocks this test is about (a guide without them would pass vacuously)."""
    found = blocks()
    assert {language for language, _, _ in found} == {"python", "sh", "toml"}
    assert sum(1 for _, source, _ in found if source) >= 6
    assert any("parlour.testing" in body for language, source, body in found if language == "python")
    assert set(LEFT_OUT) <= {body.splitlines()[0] for language, _, body in found if language == "sh"}


def test_the_size_it_gives_embers_is_about_right() -> None:
    """The guide's "about N lines" of Embers is within a tenth of the Python files' lines."""
    found = re.search(r"about (\d+)\s+lines", DOC.read_text(encoding="utf-8"))
    assert found is not None
    stated = int(found.group(1))
    lines = sum(
        len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "parlour/games/embers").glob("*.py")
    )
    assert abs(lines - stated) <= stated / 10, f"Embers has {lines} lines, the guide says about {stated}"


@pytest.mark.parametrize("block", [b for b in blocks() if b[1]], ids=block_id)
def test_each_excerpt_is_in_the_file_it_names(block: tuple[str, str, str]) -> None:
    """An excerpt's lines are lines of its file, in order (indentation aside: a method quoted alone)."""
    _, source, body = block
    lines = iter((ROOT / source).read_text(encoding="utf-8").splitlines())
    for line in body.splitlines():
        if line.strip():
            assert any(line.strip() == other.strip() for other in lines), f"{source} lacks {line!r} here"


def run(command: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    """Runs a command in ``folder`` with this checkout's code and tools, and a home of its own."""
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
        "HOME": str(folder),
    }
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in blocks() if not b[1]], ids=block_id)
def test_each_command_runs(block: tuple[str, str, str], tmp_path: Path) -> None:
    """A shell block runs without error (each line stopping it), a Python block as a program."""
    language, _, body = block
    first = body.splitlines()[0]
    if language == "sh" and first in LEFT_OUT:
        pytest.skip(LEFT_OUT[first])
    assert language in ("sh", "python"), f"a {language} block must name the file it quotes"
    if language == "sh":
        script = "set -euo pipefail\n" + body.replace(".venv/bin/", f"{BIN}/")
        done = run(["bash", "-c", script], tmp_path)
    else:
        done = run([sys.executable, "-c", body], tmp_path)
    assert done.returncode == 0, f"{first!r} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
