"""Content sets: the size-limited file reader, names, digests and how an option value picks a set."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from parlour.core.content import (
    HOUSE,
    MAX_BYTES,
    ContentSet,
    ContentSets,
    choose_set,
    is_set_name,
    read_json_file,
)
from parlour.core.errors import ContentError, OptionError
from parlour.core.registry import load_game

HOUSE_DECK = load_game("venture").available_content("deck")[0]
MINE = ContentSet.of("mine", {"cards": [1, 2, 3], "name": "my copy"})


# ---------------------------------------------------------------- reading files
def test_a_regular_json_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    path.write_text('{"a": [1, 2]}', encoding="utf-8")
    assert read_json_file(path, "deck file") == {"a": [1, 2]}


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.truncate(4 * 1024 * 1024 * 1024)  # sparse: 4 GiB that take no room
    with pytest.raises(ContentError, match=r"^cannot read deck file: larger than 1024 KiB$"):
        read_json_file(path, "deck file")


def test_the_limit_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "edge.json"
    body = json.dumps("x" * (MAX_BYTES - 2))
    path.write_text(body, encoding="ascii")
    assert len(body) == MAX_BYTES
    assert read_json_file(path, "f") == "x" * (MAX_BYTES - 2)
    path.write_text(body + " ", encoding="ascii")
    with pytest.raises(ContentError, match="larger than 1024 KiB"):
        read_json_file(path, "f")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ContentError, match=r"^cannot read f: not a regular file$"):
        read_json_file(fifo, "f")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_devices_are_refused(device: str) -> None:
    with pytest.raises(ContentError, match="not a regular file"):
        read_json_file(device, "f")


def test_a_symlink_to_a_device_and_a_folder_are_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(ContentError, match="not a regular file"):
        read_json_file(link, "f")
    with pytest.raises(ContentError, match="not a regular file"):
        read_json_file(tmp_path, "f")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff\xfe\x00", "cannot read f: not UTF-8 text"),
        (b"{", "f is not valid JSON"),
        (b"[" * 100_000, "f is not usable JSON: RecursionError"),
    ],
)
def test_bad_text_is_a_content_error(tmp_path: Path, raw: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    with pytest.raises(ContentError, match=message):
        read_json_file(path, "f")


def test_a_missing_file_and_a_bad_path_are_content_errors(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read f: No such file"):
        read_json_file(tmp_path / "missing.json", "f")
    with pytest.raises(ContentError, match="cannot read f: not a usable path"):
        read_json_file("a\0b", "f")
    with pytest.raises(ContentError, match="cannot read f: File name too long"):
        read_json_file(tmp_path / ("x" * 300), "f")


# ---------------------------------------------------------------- names and digests
@pytest.mark.parametrize("name", ["house", "mine", "3m-1970", "a_b", "x" * 32])
def test_good_names(name: str) -> None:
    assert is_set_name(name)


@pytest.mark.parametrize(
    "name", ["", "Mine", "-x", "_x", "x" * 33, "../x", "/dev/zero", "a.json", "a b", "ä", 3, None, ["a"]]
)
def test_bad_names_can_never_be_paths(name: Any) -> None:
    assert not is_set_name(name)
    with pytest.raises(ContentError, match="must be 1 to 32 of a-z"):
        ContentSet.of(name, {})


def test_the_digest_is_of_the_data_not_of_the_file_layout() -> None:
    shuffled = ContentSet.of("mine", json.loads('{ "name" : "my copy", "cards" : [1,2,3] }'))
    assert shuffled == MINE and shuffled.sha256 == MINE.sha256
    assert len(MINE.sha256) == 64
    assert ContentSet.of("mine", {"cards": [1, 2, 4], "name": "my copy"}).sha256 != MINE.sha256
    assert MINE.data() == {"cards": [1, 2, 3], "name": "my copy"}
    assert MINE.reference() == {"name": "mine", "sha256": MINE.sha256}


def test_data_is_a_fresh_copy_each_time() -> None:
    data = MINE.data()
    assert isinstance(data, dict)
    data["cards"].append(9)
    assert MINE.data() == {"cards": [1, 2, 3], "name": "my copy"}


def test_not_plain_json_is_refused() -> None:
    with pytest.raises(ContentError, match="not plain JSON"):
        ContentSet.of("mine", {"x": float("nan")})


def test_the_house_name_is_kept_for_parlour() -> None:
    with pytest.raises(ContentError, match="'house' is kept"):
        ContentSets({"venture": [ContentSet.of(HOUSE, {})]})


def test_registry_lists_a_game_s_sets() -> None:
    sets = ContentSets({"venture": [MINE]})
    assert sets.of_game("venture") == {"mine": MINE}
    assert sets.of_game("im-the-boss") == {}
    assert sets and not ContentSets()


# ---------------------------------------------------------------- choosing a set
def choose(value: Any, stored: bool = False) -> ContentSet:
    return choose_set("deck", value, HOUSE_DECK, {"mine": MINE}, "the folder", stored)


def test_a_name_or_a_reference_chooses_a_set() -> None:
    assert choose("house") is HOUSE_DECK
    assert choose(" mine ") is MINE
    assert choose(MINE.reference(), stored=True) is MINE
    assert choose(HOUSE_DECK.reference(), stored=True) is HOUSE_DECK


def test_the_bare_house_of_older_files_still_loads() -> None:
    assert choose("house", stored=True) is HOUSE_DECK


@pytest.mark.parametrize(
    ("value", "stored", "message"),
    [
        ("/dev/zero", False, "option deck must name a content set (1 to 32 of a-z"),
        ("../mine", True, "option deck must name a content set"),
        ("x" * 10_000, True, "not 'xxxxxxxx"),
        (None, False, "not None"),
        (7, True, "not 7"),
        ({"name": "mine"}, True, 'option deck must be {"name": NAME, "sha256": DIGEST}'),
        ({"name": "mine", "sha256": "abc"}, True, "64 hexadecimal digits"),
        ({"name": "/etc/passwd", "sha256": "0" * 64}, True, "must name a content set"),
        ("mine", True, "content set 'mine' is given without its digest"),
        ("theirs", False, "no content set 'theirs' here (sets: house, mine; yours go in the folder)"),
        ({"name": "theirs", "sha256": "0" * 64}, True, "no content set 'theirs' here"),
        ({"name": "mine", "sha256": "0" * 64}, True, "content set 'mine' here differs from the one"),
        ({"name": "house", "sha256": "0" * 64}, True, "content set 'house' here differs from the one"),
    ],
)
def test_bad_values_are_refused_naming_the_set(value: Any, stored: bool, message: str) -> None:
    with pytest.raises(OptionError) as info:
        choose(value, stored)
    assert message in str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 220
