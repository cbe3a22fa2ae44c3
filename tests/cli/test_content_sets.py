"""The user's own content sets on the command line: ``~/.parlour/content`` and ``--content-dir``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.cli.content import MAX_SETS, content_sets
from parlour.core.content import ContentSet, ContentSets
from parlour.core.errors import ContentError
from parlour.core.match import play_match
from parlour.core.registry import load_game

from .test_commands import assert_refused, run

GAME = load_game("venture")
HOUSE = GAME.available_content("deck")[0]


def deck(industry: str) -> dict[str, Any]:
    """Returns a valid Venture deck whose Steel industry has another name."""
    data = HOUSE.data()
    assert isinstance(data, dict)
    data["industries"]["items"][0]["name"] = industry
    return data


def put(folder: Path, name: str, data: Any, game: str = "venture") -> Path:
    """Writes a set file ``folder/game/name.json``."""
    path = folder / game / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home folder; returns its ``~/.parlour/content``."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder / ".parlour" / "content"


def _new(capsys: pytest.CaptureFixture[str], out: Path, *extra: str) -> tuple[int, str, str]:
    return run(capsys, "new", "venture", "--players", "3", "--seed", "2", "--out", str(out), *extra)


# ---------------------------------------------------------------- finding sets
def test_a_set_in_the_home_folder_is_found_by_name(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    put(home, "mine", deck("Iron"))
    out = tmp_path / "p.json"
    status, _, err = _new(capsys, out, "--option", "deck=mine")
    assert status == 0, err
    written = json.loads(out.read_text(encoding="utf-8"))["options"]["deck"]
    assert written == ContentSet.of("mine", deck("Iron")).reference()
    status, shown, err = run(capsys, "show", "venture", "--position", str(out))
    assert status == 0, err
    assert shown


def test_a_set_from_content_dir_is_found_and_wins_over_the_home_folder(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    put(home, "mine", deck("Iron"))
    given = tmp_path / "sets"
    put(given, "mine", deck("Copper"))
    put(given, "theirs", deck("Tin"))
    sets = content_sets("venture", [str(given)]).of_game("venture")
    assert sorted(sets) == ["mine", "theirs"]
    assert sets["mine"] == ContentSet.of("mine", deck("Copper"))
    assert sets["mine"].origin == str(given / "venture" / "mine.json")
    out = tmp_path / "p.json"
    status, _, err = _new(capsys, out, "--option", "deck=theirs", "--content-dir", str(given))
    assert status == 0, err
    assert json.loads(out.read_text(encoding="utf-8"))["options"]["deck"]["name"] == "theirs"


def test_another_game_s_sets_and_other_files_are_not_read(home: Path) -> None:
    put(home, "mine", {"not": "a Boss set"}, game="im-the-boss")
    (home / "venture").mkdir(parents=True)
    (home / "venture" / "notes.txt").write_text("not a set", encoding="utf-8")
    (home / "venture" / ".mine.json.swp").write_text("editor", encoding="utf-8")
    assert content_sets("venture").of_game("venture") == {}


def test_no_home_folder_and_no_sets_is_fine(home: Path) -> None:
    assert not content_sets("venture")


# ---------------------------------------------------------------- refusals naming the set
def test_a_position_whose_set_differs_here_is_refused_naming_it(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "made"
    put(made, "mine", deck("Iron"))
    out = tmp_path / "p.json"
    assert _new(capsys, out, "--option", "deck=mine", "--content-dir", str(made))[0] == 0
    other = tmp_path / "other"
    put(other, "mine", deck("Copper"))
    for command in (["legal"], ["show"], ["apply"]):
        argv = [*command, "venture", "--position", str(out), "--content-dir", str(other)]
        status, text, err = run(capsys, *argv, *(["end"] if command == ["apply"] else []))
        assert_refused(status, text, err)
        assert "options: option deck: content set 'mine' here differs from the one" in err
    status, text, err = run(capsys, "show", "venture", "--position", str(out))
    assert_refused(status, text, err)
    assert "no content set 'mine' here (sets: house; yours go in ~/.parlour/content/venture/" in err


def test_a_record_replays_only_where_its_set_matches(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = ContentSet.of("mine", deck("Iron"))
    game = GAME.with_content(ContentSets({"venture": [mine]}))
    result = play_match(game, [RandomBot(1), RandomBot(2)], 3, {"deck": "mine", "max_turns": 4})
    record = tmp_path / "r.json"
    record.write_text(result.record.dumps(), encoding="utf-8")
    status, text, err = run(capsys, "replay", str(record))
    assert_refused(status, text, err)
    assert "options: option deck: no content set 'mine' here" in err
    put(home, "mine", deck("Iron"))
    status, text, err = run(capsys, "replay", str(record))
    assert status == 0, err
    assert "Venture, 2 players" in text


def test_simulate_tournament_and_play_use_the_named_set(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    put(home, "mine", deck("Iron"))
    reference = ContentSet.of("mine", deck("Iron")).reference()
    quick = ["--option", "deck=mine", "--option", "max_turns=3"]
    argv = ["simulate", "venture", "-n", "2", "--seats", "random,random", "--json"]
    status, text, err = run(capsys, *argv, *quick)
    assert status == 0, err
    assert json.loads(text)["options"]["deck"] == reference
    out = tmp_path / "tour"
    argv = ["tournament", "venture", "--bots", "random,quick", "-n", "2", "--players", "2", "--out", str(out)]
    status, text, err = run(capsys, *argv, *quick)
    assert status == 0, err
    assert json.loads((out / "tournament.json").read_text(encoding="utf-8"))["options"]["deck"] == reference
    records = tmp_path / "records"
    argv = ["play", "venture", "--seats", "random,random", "--seed", "1", "--records", str(records)]
    status, text, err = run(capsys, *argv, *quick)
    assert status == 0, err
    (saved,) = records.iterdir()
    assert json.loads(saved.read_text(encoding="utf-8"))["options"]["deck"] == reference


def test_simulate_with_workers_hands_the_sets_to_them(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(home, "mine", deck("Iron"))
    argv = ["simulate", "venture", "-n", "2", "--seats", "random,random", "--workers", "2", "--json"]
    status, text, err = run(capsys, *argv, "--option", "deck=mine", "--option", "max_turns=2")
    assert status == 0, err
    assert json.loads(text)["options"]["deck"]["name"] == "mine"


# ---------------------------------------------------------------- bad content folders
def test_a_fifo_a_device_link_and_a_huge_file_in_the_folder_are_refused(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = home / "venture"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "pipe.json")
    with pytest.raises(ContentError, match=r"pipe\.json: not a regular file$"):
        content_sets("venture")
    (folder / "pipe.json").unlink()
    (folder / "zero.json").symlink_to("/dev/zero")
    with pytest.raises(ContentError, match=r"zero\.json: not a regular file$"):
        content_sets("venture")
    (folder / "zero.json").unlink()
    with (folder / "huge.json").open("wb") as handle:
        handle.truncate(3 * 1024 * 1024)
    status, text, err = _new(capsys, tmp_path / "p.json")
    assert_refused(status, text, err)
    assert "huge.json: larger than 1024 KiB" in err
    assert not (tmp_path / "p.json").exists()


@pytest.mark.parametrize(
    ("file", "message"),
    [
        ("My Deck.json", "a set's name (the file's) must be 1 to 32 of a-z"),
        ("house.json", "'house' names the sets Parlour ships"),
    ],
)
def test_badly_named_set_files_are_refused(home: Path, file: str, message: str) -> None:
    path = home / "venture" / file
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(deck("Iron")), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        content_sets("venture")
    assert message in str(info.value)


def test_too_many_sets_and_a_missing_content_dir_are_refused(home: Path, tmp_path: Path) -> None:
    for n in range(MAX_SETS + 1):
        put(home, f"s{n}", {})
    with pytest.raises(ContentError, match=f"holds more than {MAX_SETS} sets"):
        content_sets("venture")
    with pytest.raises(ContentError, match="is not a folder"):
        content_sets("im-the-boss", [str(tmp_path / "nowhere")])


def test_a_set_that_breaks_the_rules_is_refused_when_chosen(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = deck("Iron")
    bad["set_values"]["2"] = 17
    put(home, "odd", bad)
    assert _new(capsys, tmp_path / "house.json")[0] == 0  # unused, it is not in the way
    status, text, err = _new(capsys, tmp_path / "p.json", "--option", "deck=odd")
    assert_refused(status, text, err)
    assert "content set 'odd': deck file, set_values" in err


# ---------------------------------------------------------------- parlour options
def test_options_lists_the_content_sets(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text, err = run(capsys, "options", "venture")
    assert status == 0, err
    assert "  --option deck=house|NAME  (default house): the deck's content set" in text
    assert "content sets for deck (your own: ~/.parlour/content/venture/NAME.json or --content-dir):" in text
    assert f"  house  sha256 {HOUSE.sha256}  shipped with Parlour" in text
    given = tmp_path / "sets"
    path = put(given, "mine", deck("Iron"))
    status, text, err = run(capsys, "options", "venture", "--content-dir", str(given))
    assert status == 0, err
    mine = ContentSet.of("mine", deck("Iron"))
    assert f"  mine  sha256 {mine.sha256}  {path}" in text
    status, text, err = run(capsys, "options", "venus-needs-men")
    assert "--option zap=house|NAME" in text and "--option planets=auto|random|LIST" in text
    assert "content sets for zap" in text
    status, text, err = run(capsys, "options", "im-the-boss")
    assert "--option content=house|NAME" in text and "content sets for content" in text
