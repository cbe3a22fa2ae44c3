"""The analysis's input surfaces: ``parlour analyse`` command lines (hostile records, paths and flags)
and analysis documents (mutated ``parlour-analysis/1`` JSON read back by ``load_analysis``)."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

from parlour.analysis.analyse import analyse
from parlour.analysis.report import load_analysis
from parlour.core.record import GameRecord

from .guards import Tally, no_file_named, strings_in
from .mutate import mutate
from .surfaces import Corpus, Refused, hostile_paths, mutate_argv, run_cli

FLAGS: tuple[tuple[str, ...], ...] = (
    ("--seat", "0"),
    ("--hindsight",),
    ("--seed", "7"),
    ("--workers", "1"),
)
"""The flags an ``analyse`` line is made of: the person's seat 0 alone is judged unless a mutation adds
one, and the budget stays small and last (a long job is no defect; ``--all-seats`` is tested in
tests/analysis/test_command.py)."""
ANALYSE_SECONDS = 240.0
"""The time limit of one ``analyse`` line: a hang, not a long game on a busy machine (a Venture game of
random bots has some 80 decisions a seat)."""
FIXED = ("--budget", "2")
"""Appended after the mutation: argparse keeps the last --budget, so every run stays short."""


def _analyse_line(record: str, rng: random.Random, paths: tuple[str, ...]) -> list[str]:
    """Returns an ``analyse`` command line: a record, some flags, perhaps one argument bent."""
    argv = ["analyse", record]
    for flags in rng.sample(FLAGS, rng.randrange(1, 4)):
        argv.extend(flags)
    if rng.random() < 0.5:
        argv = mutate_argv(argv, rng, paths)
    return argv


def fuzz_analyse_cli(tally: Tally, corpus: Corpus, rng: random.Random, count: int, folder: Path) -> None:
    """Runs mutated ``parlour analyse`` lines on records good and bent: each exits 0 having written its
    document where --out says, or 2 with one line on standard error; no traceback, no named file read."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = hostile_paths(folder)
    for number in range(count):
        work = folder / f"{corpus.game.name}-analyse-{number}"
        work.mkdir(parents=True)
        good = json.loads(json.dumps(rng.choice(corpus.records)))
        good["seats"][0] = "human"  # a person's seat: the default analyses it
        bent = mutate(good, rng, corpus.players)
        records = {"record": good, "bad-record": bent}
        for name, document in records.items():
            (work / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
        record = str(work / ("record.json" if rng.random() < 0.6 else "bad-record.json"))
        out = work / "out" / "analysis.json"
        argv = [*_analyse_line(record, rng, paths), *FIXED, "--out", str(out)]
        watched = strings_in(bent)

        def body(
            argv: list[str] = argv, watched: set[str] = watched, work: Path = work, out: Path = out
        ) -> bool:
            with no_file_named(watched - set(argv)), contextlib.chdir(work):
                status, _, err = run_cli(argv)
            assert "Traceback" not in err, err[-2000:]
            if status == 2:
                lines = [line for line in err.splitlines() if line.strip()]
                assert len(lines) == 1, f"exit 2 with {len(lines)} lines on standard error: {err[:500]!r}"
                raise Refused(lines[0])
            assert status == 0, f"exit status {status}: {err[:500]!r}"
            load_analysis(json.loads(out.read_text(encoding="utf-8")))  # what it wrote reads back
            return True

        tally.run("analyse", f"{corpus.game.name} {argv!r}"[:300], body, seconds=ANALYSE_SECONDS)


def analysis_document(corpus: Corpus) -> dict[str, Any]:
    """Returns a real analysis document of one of the corpus's games (seat 0, its first decisions)."""
    record = GameRecord.from_json(corpus.records[0])
    return analyse(record, [0], budget=2, moves=range(0, len(record.moves), 7)).to_json()


def fuzz_analysis_documents(tally: Tally, corpus: Corpus, rng: random.Random, count: int) -> None:
    """Loads mutated analysis documents: each is refused with a one-line AnalysisError, or loads to an
    analysis whose JSON loads back to the same."""
    original = analysis_document(corpus)
    for _ in range(count):
        document = mutate(original, rng, corpus.players)

        def body(document: Any = document) -> bool:
            with no_file_named(strings_in(document)):
                loaded = load_analysis(document)
            again = json.loads(json.dumps(loaded.to_json()))
            assert load_analysis(again) == loaded, "an accepted document does not read back the same"
            return True

        tally.run("document", f"{corpus.game.name}: {json.dumps(document, default=repr)[:1500]}", body)
