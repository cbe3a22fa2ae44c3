"""Content sets for every game: a position or record names a set and its digest, never a file.

The first half checks, for each game's content option (Venture ``deck``, I'm the
Boss! ``content``, Venus Needs Men! ``zap``), that positions and records naming a
path are refused cleanly, with the same message whether the file exists or not, and
that no file is even looked at.  The second half plays with a user's own set: it is
written by name and digest and refused, naming it, where the reader's set differs.
The last test reads the source: nothing in ``parlour/core`` or ``parlour/games`` but
``core/content.py`` opens a file, so the defect cannot come back unnoticed.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import json
import os
import pathlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.core.content import ContentSet, ContentSets
from parlour.core.errors import ContentError, OptionError, PositionError, RecordError
from parlour.core.game import Game
from parlour.core.match import play_match
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game

OPTION = {"venture": "deck", "im-the-boss": "content", "venus-needs-men": "zap"}
"""Each game's content-set option."""
PARLOUR = Path(__file__).resolve().parents[2] / "parlour"


def _players(game: Game) -> int:
    return game.min_players + 1


def _position(game: Game) -> dict[str, Any]:
    return game.new_state(_players(game), 3).to_position()


def replace_with_fifo(path: Path) -> None:
    """Replaces the file at ``path`` with a named pipe (which a reader would wait on forever)."""
    path.unlink()
    os.mkfifo(path)


def _house(game: Game) -> ContentSet:
    return game.available_content(OPTION[game.name])[0]


# ---------------------------------------------------------------- no file is touched
class Touched(AssertionError):
    """A file was opened or looked at while a position or record was loaded."""


def _called_from(folder: str) -> bool:
    """Whether the call comes from code in ``folder``, through the path functions of ``os`` at most
    (coverage.py's tracer resolves each new source file it sees with ``os.path.realpath``)."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__") in {"os", "posixpath", "genericpath"}:
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename.startswith(folder)


@contextlib.contextmanager
def forbid_files() -> Iterator[list[str]]:
    """Makes every way of opening or looking at a file fail the test (and records the attempt)."""
    touched: list[str] = []
    measuring = sys.modules.get("coverage")
    measurer = os.path.dirname(measuring.__file__ or "") + os.sep if measuring else None

    def forbid(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            if measurer and _called_from(measurer):
                return original(*args, **kwargs)  # coverage.py finding a file it measures: not the game
            touched.append(f"{name}{args!r}")
            raise Touched(f"{name} called with {args!r}")

        return refuse

    with pytest.MonkeyPatch.context() as patch:
        for module, names in [
            (builtins, ["open"]),
            (io, ["open", "open_code"]),
            (os, ["open", "stat", "lstat", "scandir", "listdir", "access", "readlink"]),
        ]:
            for name in names:
                patch.setattr(module, name, forbid(f"{module.__name__}.{name}", getattr(module, name)))
        for name in ["open", "read_text", "read_bytes", "exists", "is_file", "is_dir", "stat", "iterdir"]:
            patch.setattr(pathlib.Path, name, forbid(f"Path.{name}", getattr(pathlib.Path, name)))
        yield touched


def _hostile(tmp_path: Path, game: Game) -> list[str]:
    """Returns paths a hostile position might name: devices, secrets, a FIFO, a huge file, a readable set."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(8 * 1024 * 1024 * 1024)  # sparse
    readable = tmp_path / "readable.json"
    readable.write_text(_house(game).canonical, encoding="ascii")  # a valid set: reading it would work
    return [
        "/dev/zero",
        "/dev/stdin",
        "/etc/passwd",
        "/proc/self/environ",
        str(fifo),
        str(huge),
        str(readable),
        str(tmp_path / "missing.json"),
        "readable.json",
        "../../etc/passwd",
        "~/.parlour/content/x.json",
        "file:///etc/passwd",
    ]


def _warm(game: Game) -> None:
    """Loads what a position load imports and caches (modules, the house sets) before files are forbidden."""
    game.state_from_position(_position(game))
    replay(game, GameRecord(game.name, _players(game), 3, {}))


@pytest.mark.parametrize("name", sorted(OPTION))
def test_positions_naming_a_file_are_refused_without_touching_it(name: str, tmp_path: Path) -> None:
    game = load_game(name)
    paths = _hostile(tmp_path, game)
    digest = _house(game).sha256
    positions = []
    for path in paths:
        for value in (path, {"name": path, "sha256": digest}):
            data = _position(game)
            data["options"][OPTION[name]] = value
            positions.append(json.dumps(data))
    _warm(game)
    with forbid_files() as touched:
        for text in positions:
            with pytest.raises(PositionError) as info:
                game.load_position(text)
            message = str(info.value)
            assert message.startswith(f"options: option {OPTION[name]} must name a content set"), message
            assert "\n" not in message
        assert touched == []


@pytest.mark.parametrize("name", sorted(OPTION))
def test_records_naming_a_file_are_refused_without_touching_it(name: str, tmp_path: Path) -> None:
    game = load_game(name)
    paths = _hostile(tmp_path, game)
    records = []
    for path in paths:
        records.append(GameRecord(game.name, _players(game), 3, {OPTION[name]: path}).dumps())
        start = _position(game)
        start["options"][OPTION[name]] = path
        records.append(GameRecord(game.name, _players(game), 3, {}, start=start).dumps())
    _warm(game)
    with forbid_files() as touched:
        for text in records:
            with pytest.raises((RecordError, PositionError)) as info:
                replay(game, GameRecord.loads(text))
            assert f"option {OPTION[name]} must name a content set" in str(info.value)
        for path in paths:
            with pytest.raises(OptionError, match="must name a content set"):
                game.new_state(_players(game), 1, {OPTION[name]: path})
        assert touched == []


@pytest.mark.parametrize("name", sorted(OPTION))
def test_the_refusal_is_the_same_whether_the_file_exists_or_not(name: str, tmp_path: Path) -> None:
    """A shared position cannot probe the reader's disk: the message does not depend on it."""
    game = load_game(name)
    path = tmp_path / "deck.json"
    data = _position(game)
    data["options"][OPTION[name]] = str(path)
    messages = []
    for make in (
        lambda: None,
        lambda: path.write_text(_house(game).canonical, encoding="ascii"),
        lambda: path.write_text("{", encoding="ascii"),
        lambda: replace_with_fifo(path),
    ):
        make()
        with pytest.raises(PositionError) as info:
            game.state_from_position(data)
        messages.append(str(info.value))
    assert len(set(messages)) == 1, messages


# ---------------------------------------------------------------- a user's own set
VISIBLE: dict[str, Callable[[Any, str], None]] = {
    "venture": lambda d, v: d["industries"]["items"][0].update(name=v),
    "im-the-boss": lambda d, v: d["investors"]["items"][0].update(investor=v),
    "venus-needs-men": lambda d, v: d["cards"][0].update(name=v),
}
"""Changes a free name in each game's content (so a copy's set differs but stays valid)."""
SHOWN: dict[str, Callable[[Any, dict[str, Any]], str]] = {
    "venture": lambda g, o: g.deck(o).industries["ST"],
    "im-the-boss": lambda g, o: g.content(o).investors[0].investor,
    "venus-needs-men": lambda g, o: g.zap(o).cards[1].name,
}
"""Reads that name back from the loaded content."""


def _reader(game: Game, label: str) -> Game:
    """Returns the game as read by someone whose set ``mine`` carries the name ``label``."""
    data = _house(game).data()
    VISIBLE[game.name](data, label)
    return game.with_content(ContentSets({game.name: [ContentSet.of("mine", data, "test")]}))


@pytest.mark.parametrize("name", sorted(OPTION))
def test_positions_name_a_user_set_and_its_digest(name: str) -> None:
    game = load_game(name)
    mine = _reader(game, "Copper")
    option = OPTION[name]
    state = mine.new_state(_players(game), 5, {option: "mine"})
    position = state.to_position()
    reference = position["options"][option]
    assert reference == {"name": "mine", "sha256": mine.available_content(option)[1].sha256}
    assert reference["sha256"] != _house(game).sha256
    again = mine.state_from_position(json.loads(json.dumps(position)))
    assert SHOWN[name](mine, again.to_position()["options"]) == "Copper"
    assert json.dumps(again.to_position(), sort_keys=True) == json.dumps(position, sort_keys=True)

    with pytest.raises(PositionError) as unknown:
        game.state_from_position(position)
    assert str(unknown.value).startswith(f"options: option {option}: no content set 'mine' here")
    with pytest.raises(PositionError) as differs:
        _reader(game, "Tin").state_from_position(position)
    assert "content set 'mine' here differs from the one the game was made with" in str(differs.value)


@pytest.mark.parametrize("name", sorted(OPTION))
def test_records_name_a_user_set_and_replay_only_where_it_matches(name: str) -> None:
    game = load_game(name)
    mine = _reader(game, "Copper")
    option = OPTION[name]
    agents = [RandomBot(s) for s in range(_players(game))]
    result = play_match(mine, agents, 4, {**game.quick_options, "max_turns": 3, option: "mine"})
    text = result.record.dumps()
    assert json.loads(text)["options"][option]["name"] == "mine"
    final = replay(mine, GameRecord.loads(text))
    assert json.dumps(final.to_position()) == json.dumps(result.state.to_position())
    with pytest.raises(RecordError, match=f"^options: option {option}: no content set 'mine' here"):
        replay(game, GameRecord.loads(text))
    with pytest.raises(RecordError, match=f"option {option}: content set 'mine' here differs"):
        replay(_reader(game, "Tin"), GameRecord.loads(text))


@pytest.mark.parametrize("name", sorted(OPTION))
def test_a_user_set_named_without_its_digest_in_a_position_is_refused(name: str) -> None:
    mine = _reader(load_game(name), "Copper")
    position = mine.new_state(_players(mine), 5, {OPTION[name]: "mine"}).to_position()
    position["options"][OPTION[name]] = "mine"
    with pytest.raises(PositionError, match="content set 'mine' is given without its digest"):
        mine.state_from_position(position)


@pytest.mark.parametrize("name", sorted(OPTION))
def test_a_user_set_that_breaks_the_game_s_checks_is_refused_naming_it(name: str) -> None:
    game = load_game(name)
    broken = game.with_content(ContentSets({name: [ContentSet.of("broken", {"format": "nonsense"})]}))
    with pytest.raises(ContentError) as info:
        broken.new_state(_players(game), 1, {OPTION[name]: "broken"})
    assert str(info.value).startswith("content set 'broken': ")


# ---------------------------------------------------------------- positions and records from before
def _legacy(data: dict[str, Any], option: str) -> dict[str, Any]:
    """Returns a position as written before content sets: the option holds the bare word ``house``."""
    data["options"][option] = "house"
    return data


@pytest.mark.parametrize("name", sorted(OPTION))
def test_older_house_positions_and_records_still_load(name: str) -> None:
    game = load_game(name)
    option = OPTION[name]
    position = _position(game)
    state = game.state_from_position(_legacy(json.loads(json.dumps(position)), option))
    assert state.to_position() == position  # written back in the new form
    assert position["options"][option] == _house(game).reference()
    without = json.loads(json.dumps(position))
    del without["options"][option]
    assert game.state_from_position(without).to_position() == position

    agents = [RandomBot(s) for s in range(_players(game))]
    result = play_match(game, agents, 4, {**game.quick_options, "max_turns": 3})
    old = result.record.to_json()
    old["options"][option] = "house"
    final = replay(game, GameRecord.from_json(json.loads(json.dumps(old))))
    assert json.dumps(final.to_position()) == json.dumps(result.state.to_position())


# ---------------------------------------------------------------- by construction
FILE_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "scandir", "listdir"}
FILE_MODULES = {"pathlib", "io", "shutil", "glob", "tempfile", "mmap", "importlib.resources"}


def _file_access(path: Path) -> list[str]:
    """Returns the file-reading calls and imports in one module's source."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "id", "") or getattr(func, "attr", "")
            if name in FILE_CALLS or name in {"read_json_file", "as_file", "files"}:
                found.append(f"{path.name}:{node.lineno} calls {name}")
            if name == "read_house_json" and not all(isinstance(a, ast.Constant) for a in node.args[1:]):
                found.append(f"{path.name}:{node.lineno} reads a house file named by a variable")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom):
                modules = [node.module or "", *(f"{node.module}.{a}" for a in modules)]
            found += [f"{path.name}:{node.lineno} imports {m}" for m in modules if m in FILE_MODULES]
    return found


def test_only_core_content_reads_files_in_core_and_games() -> None:
    """Rules and loaders get data, never a path: the one reader is core/content.py's, fed fixed names."""
    allowed = PARLOUR / "core" / "content.py"
    offenders = []
    for path in sorted([*(PARLOUR / "core").rglob("*.py"), *(PARLOUR / "games").rglob("*.py")]):
        if path != allowed:
            offenders += _file_access(path)
    assert offenders == []
    assert _file_access(allowed)  # the check does see a reader where there is one
