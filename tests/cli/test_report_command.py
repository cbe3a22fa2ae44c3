"""``parlour report``: the page and data of each game, variants compared, the same data from the same
seed, hostile arguments refused in one line (fuzzed), never written into the current folder."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.cli.main import main
from parlour.core.registry import game_names

from .test_inputs import assert_one_line_error, run

PLOTS = ("seats", "places", "turns", "actions", "margins", "lead_changes", "branching", "winner_leads")


def report(capsys: pytest.CaptureFixture[str], out: Path, *argv: str) -> dict[str, Any]:
    """Runs ``parlour report`` into ``out`` and returns its data, after checking the page."""
    status, stdout, err = run(capsys, "report", *argv, "--out", str(out))
    assert status == 0, err
    assert "index.html" in stdout
    data: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    page = (out / "index.html").read_text(encoding="utf-8")
    for name in PLOTS:
        assert f'id="plot-{name}"><svg' in page
    assert not re.search(
        r"<script|<link|<img| src=|url\((?!#)|https?://(?!www\.w3\.org)", page
    )  # self-contained
    return data


@pytest.mark.parametrize("name", game_names())
def test_a_report_of_each_game(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    data = report(capsys, tmp_path / "r", name, "--players", "4", "-n", "4", "--kingmaking-games", "2")
    assert data["game"] == name and data["games"] == 4 and len(data["seats"]) == 4
    (variant,) = data["variants"]
    figures = variant["metrics"]
    assert figures["games"] == 4
    rates = [row["rate"] for row in figures["outcome"]["win_rate_by_seat"]]
    assert sum(rates) == pytest.approx(1.0)
    for row in figures["outcome"]["win_rate_by_seat"]:
        assert row["ci95"][0] <= row["rate"] <= row["ci95"][1]
    assert figures["length"]["turns"]["mean"] > 0 and sum(figures["length"]["turns_histogram"]["counts"]) == 4
    assert figures["kingmaking"]["games_looked_at"] == 2
    assert data["comparison"] == [] and data["skill"] is None
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    first = figures["outcome"]["win_rate_by_place"][0]
    assert f"<td>place 1 in the turn order</td><td>{first['rate']:.1%} ({first['ci95'][0]:.1%}" in page


def test_variants_are_compared_on_the_same_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    compare = ("--compare", "payment=turn", "--compare", "payment=each")
    data = report(
        capsys, tmp_path / "r", "venture", "--players", "4", "-n", "3", *compare, "--kingmaking-games", "0"
    )
    assert [v["label"] for v in data["variants"]] == ["payment=turn", "payment=each"]
    assert [v["options"]["payment"] for v in data["variants"]] == ["turn", "each"]
    rows = {row["figure"]: row for row in data["comparison"]}
    turns = rows["length in turns (DurationTurns)"]
    assert turns["difference"][1] == pytest.approx(turns["values"][1] - turns["values"][0])
    assert turns["overlap"][0] is None and isinstance(turns["overlap"][1], bool)
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert "Variants compared" in page and "payment=each − payment=turn" in page


def test_one_compare_is_set_beside_the_options_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = report(capsys, tmp_path / "r", "embers", "--players", "3", "-n", "2", "--compare", "chain=off")
    assert [v["label"] for v in data["variants"]] == ["as given", "chain=off"]


def test_the_same_seed_gives_the_same_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("im-the-boss", "--players", "3", "-n", "3", "--seed", "11", "--kingmaking-games", "1")
    first = report(capsys, tmp_path / "a", *argv)
    second = report(capsys, tmp_path / "b", *argv, "--workers", "2")
    other = report(capsys, tmp_path / "c", *argv[:-3], "12", "--kingmaking-games", "1")
    first.pop("run"), second.pop("run"), other.pop("run")
    assert first == second
    assert first != {**other, "seed": 11}
    svgs = [re.findall(r"<svg.*?</svg>", (tmp_path / d / "index.html").read_text(), re.S) for d in "ab"]
    assert svgs[0] == svgs[1] and len(svgs[0]) == len(PLOTS)


def test_the_skill_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    skilled = ("--skill-games", "3", "--skill-bot", "ismcts:5it")
    data = report(capsys, tmp_path / "r", "embers", "--players", "3", "-n", "1", *skilled)
    skill = data["skill"]
    assert [row["bot"] for row in skill["bots"]] == ["ismcts:5it", "random"]
    # The search's seats: 0 and 2 in games 0 and 2, 1 in game 1.
    assert [row["seats"] for row in skill["bots"]] == [5, 4]
    assert 0.0 <= skill["luck_share"] <= 1.0
    assert 'id="plot-skill"><svg' in (tmp_path / "r" / "index.html").read_text()


def test_the_default_folder_is_under_the_home_folder_never_here(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "report", "embers", "--players", "2", "-n", "1")
    assert status == 0, err
    (folder,) = (tmp_path / "home" / ".parlour" / "reports").iterdir()
    assert folder.name.startswith("embers-") and str(folder) in err and str(folder) in out
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "report.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


def test_a_folder_with_files_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    argv = ["report", "embers", "--players", "2", "-n", "1", "--out", str(tmp_path)]
    status, _, err = run(capsys, *argv)
    assert_one_line_error(status, err, "not empty", "--force")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]
    assert run(capsys, *argv, "--force")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html", "keep.txt", "report.json"]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["-n", "0"], ["-n must be from 1"]),
        (["-n", "1000001"], ["-n must be from 1"]),
        (["--players", "9"], ["players"]),
        (["--seats", "greedy,greedy"], ["--seats names 2 bots for 4 players"]),
        (["--seats", "human,greedy,greedy,greedy"], ["Parlour's own bots only"]),
        (["--seats", "cmd:/bin/true,greedy,greedy,greedy"], ["Parlour's own bots only"]),
        (["--seats", "nobot,greedy,greedy,greedy"], ["no bot 'nobot'"]),
        (["--compare", "payment"], ["--compare takes name=value"]),
        (["--compare", "=x"], ["--compare takes name=value"]),
        (["--compare", "payment=sometimes"], ["payment"]),
        (["--compare", "nothing=1"], ["nothing"]),
        (["--skill-games", "-1"], ["--skill-games must be from 0"]),
        (["--skill-bot", "ismcts:0s"], ["budget"]),
        (["--kingmaking-games", "-3"], ["--kingmaking-games"]),
        (["--workers", "0"], ["--workers"]),
        (["--backend", "cloud"], ["invalid choice"]),
        (["--compare", "payment=each"] * 9, ["at most 8 variants"]),
    ],
)
def test_hostile_arguments_get_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], words: list[str]
) -> None:
    argv = ["report", "venture", "--players", "4", "-n", "2", "--out", str(tmp_path / "r"), *extra]
    status, _, err = run(capsys, *argv)
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert all(word in err for word in words), err
    assert not (tmp_path / "r").exists()


ARGUMENT = st.one_of(
    st.sampled_from(
        [
            "--players",
            "-n",
            "--seats",
            "--compare",
            "--option",
            "--skill-games",
            "--kingmaking-games",
            "--seed",
        ]
    ),
    st.sampled_from(
        ["0", "-1", "2", "1000001", "9" * 400, "x=y", "payment=each", "greedy,random", "=", ",", ""]
    ),
    st.text(max_size=20),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(game_names()), arguments=st.lists(ARGUMENT, max_size=6))
def test_fuzzed_command_lines_end_in_one_line_or_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, arguments: list[str]
) -> None:
    out = tmp_path / "fuzz"
    argv = ["report", game, "-n", "1", "--kingmaking-games", "0", *arguments, "--out", str(out), "--force"]
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    _, err = capsys.readouterr()
    assert status in (0, 2), err
    if status == 2:
        assert err.count("\n") == 1 and err.startswith("parlour"), repr(err)
    else:
        assert (out / "index.html").is_file() and (out / "report.json").is_file()
