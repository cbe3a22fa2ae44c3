"""The analysis document round-trips through JSON, and its loader refuses malformed documents in one
line naming the field; the same seed gives the same analysis with one or two workers."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from parlour.analysis.analyse import analyse
from parlour.analysis.report import AnalysisError, load_analysis
from parlour.analysis.settings import Budget

from .games import bots_record

RECORD = bots_record("embers", ["human", "random", "human"], 21)


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return analyse(RECORD, budget=Budget(4), seed=5).to_json()


def test_round_trip(document: dict[str, Any]) -> None:
    text = json.dumps(document)
    loaded = load_analysis(json.loads(text))
    assert loaded.to_json() == document
    assert json.dumps(loaded.to_json()) == text
    assert loaded.analysed == [0, 2] and loaded.format == "parlour-analysis/1"
    assert loaded.decisions and all(d.seat in (0, 2) for d in loaded.decisions)
    assert abs(sum(loaded.final) - 1.0) < 1e-5


def test_one_and_two_workers_agree(document: dict[str, Any]) -> None:
    assert analyse(RECORD, budget=Budget(4), seed=5, workers=2).to_json() == document


def _spoil(document: dict[str, Any], path: list[Any], value: object) -> dict[str, Any]:
    spoiled = copy.deepcopy(document)
    target = spoiled
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return spoiled


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (["format"], "parlour-analysis/9", "format: not a Parlour analysis"),
        (["decisions", 0, "mark"], "!!", "decisions[0].mark: not a mark"),
        (["decisions", 0, "actions", 0, "mean"], float("nan"), "decisions[0].actions[0].mean: not a finite"),
        (["decisions", 0, "seat"], 7, "decisions[0].seat: not a whole number from 0 to 2"),
        (["decisions", 0, "played"], "x" * 1000, "decisions[0].played: not a printable text"),
        (["decisions", 0, "routine"], ["pass\x1b[2J"], "decisions[0].routine[0]: not a printable text"),
        (["summary", 0, "extra"], 1, "summary[0].extra: unknown field"),
        (["summary", 0, "luck"], KeyError, "summary[0].luck: missing"),
        (["summary", 0, "timeline", 0], [1, 2], "summary[0].timeline[0]: not 3 items"),
        (["final"], [0.5] * 40, "final: more than 3 items"),
        (["seed"], True, "seed: not a whole number"),
        (["thresholds"], {"?": 0.1}, "thresholds: not an object of the marks"),
    ],
)
def test_malformed_documents_are_refused(
    document: dict[str, Any], path: list[Any], value: object, words: str
) -> None:
    with pytest.raises(AnalysisError) as refused:
        load_analysis(_spoil(document, path, value))
    message = str(refused.value)
    assert message.startswith(words) and "\n" not in message


def test_not_an_object_is_refused() -> None:
    data: object
    for data in ([], "analysis", None, 3):
        with pytest.raises(AnalysisError, match="not an object"):
            load_analysis(data)
