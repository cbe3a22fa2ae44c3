"""The fuzzing harness at a size for every ``make test``: no traceback, no hang, no named file read.

``make fuzz`` runs the same surfaces with many more inputs (tests/fuzz/run.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from .analysis_surface import fuzz_analyse_cli, fuzz_analysis_documents
from .guards import Tally
from .surfaces import PLAYERS, Corpus, corpus, fuzz_actions, fuzz_cli, fuzz_positions, fuzz_records

GAMES = sorted(PLAYERS)


@cache
def _corpus(name: str) -> Corpus:
    """Returns the game's corpus (built once per test process)."""
    return corpus(name, range(2))


def _fuzzed(fuzz: Callable[..., None], surface: str, name: str, count: int, *more: object) -> Tally:
    """Fuzzes one surface of a game (inputs seeded by both names), checks every promise held, and
    returns the tally."""
    tally = Tally()
    fuzz(tally, _corpus(name), random.Random(f"{surface}:{name}"), count, *more)
    tally.check()
    assert sum(tally.tried.values()) > 0
    return tally


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_positions(name: str) -> None:
    tally = _fuzzed(fuzz_positions, "position", name, 2000)
    # Both outcomes occur: the mutations are neither all harmless nor all refused at the first field.
    assert tally.refused["position"] > 500 and tally.accepted["position"] > 40, tally.summary()


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_records(name: str) -> None:
    _fuzzed(fuzz_records, "record", name, 150)


@pytest.mark.parametrize("name", GAMES)
def test_action_texts(name: str) -> None:
    _fuzzed(fuzz_actions, "action", name, 300)


@pytest.mark.parametrize("name", GAMES)
def test_command_lines(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    _fuzzed(fuzz_cli, "cli", name, 12, tmp_path / "work")


def test_the_guards_catch_a_named_file_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("x", encoding="utf-8")
    tally = Tally()

    def reads_what_it_is_told() -> bool:
        document = {"options": {"deck": str(secret)}}
        from .guards import no_file_named, strings_in

        with no_file_named(strings_in(document)):
            Path(document["options"]["deck"]).read_text(encoding="utf-8")
        return True

    tally.run("position", "deck names a file", reads_what_it_is_told)
    assert tally.named_reads == 1


def test_the_guards_catch_a_hang() -> None:
    tally = Tally()

    def spins() -> bool:
        while True:
            pass

    tally.run("action", "spins", spins, seconds=0.2)
    assert tally.hangs == 1 and tally.broken == 1


@pytest.mark.slow  # each line analyses a whole game: 13 to 73 s a game on two busy cores
@pytest.mark.parametrize("name", GAMES)
def test_analyse_command_lines(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    tally = _fuzzed(fuzz_analyse_cli, "analyse", name, 6, tmp_path / "work")
    assert tally.tried["analyse"] == 6 and tally.accepted["analyse"] > 0, tally.summary()


@pytest.mark.parametrize("name", GAMES)
def test_analysis_documents(name: str) -> None:
    tally = _fuzzed(fuzz_analysis_documents, "document", name, 300)
    # Both outcomes occur: some mutations are harmless, most are refused naming the field.
    assert tally.refused["document"] > 100 and tally.accepted["document"] > 5, tally.summary()
