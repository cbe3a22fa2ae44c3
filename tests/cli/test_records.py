"""Records of terminal games: sealed (no secret) until the end, private, atomic, resumable, then whole."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from games.typed import VENTURE as VENTURE_STATES
from rich.console import Console

from parlour.cli import files
from parlour.cli.main import main
from parlour.cli.play import TerminalPlay
from parlour.core.chance import DIE, ORDER, Forced
from parlour.core.errors import ParlourError, RecordError
from parlour.core.record import KEY_FORMAT, GameRecord, replay
from parlour.core.registry import load_game
from parlour.testing.kit import snapshot

from .scripted import Script

VENTURE = load_game("venture")
BOSS = load_game("im-the-boss")
SEED = 987_654_321
SHORT = {"max_turns": "4"}
READABLE_FIELDS = {"format", "game", "players", "options", "seats", "moves", "scores", "sealed"}


def console_with(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> tuple[Console, Script, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    return console, script, out


def quit_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str], **kw: Any) -> TerminalPlay:
    """Plays a game (Venture by default) with scripted input, then quits; returns the table."""
    console, _, _ = console_with(monkeypatch, [*lines, "quit"])
    seats = kw.pop("seats", ["human", "greedy", "greedy"])
    play = TerminalPlay(
        kw.pop("game", VENTURE),
        seats,
        kw.pop("seed", SEED),
        kw.pop("options", SHORT),
        str(tmp_path),
        console=console,
        **kw,
    )
    assert play.run() == 0
    return play


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def readable(play: TerminalPlay) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(play.path).read_text(encoding="utf-8"))
    return data


# ---------------------------------------------------------------- mid-game: no secret, private files
def test_a_mid_game_record_holds_no_seed_and_no_chance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the public history: seats and actions in notation; the seed, start and chance are in the key."""
    play = quit_after(tmp_path, monkeypatch, ["1", "1", "1"])
    assert not play.state.is_over() and play.record.moves
    text = Path(play.path).read_text(encoding="utf-8")
    data = json.loads(text)
    assert set(data) == READABLE_FIELDS
    assert data["scores"] is None
    assert data["moves"] == [{"seat": m.seat, "action": m.action} for m in play.record.moves]
    assert str(SEED) not in text and "chance" not in text and "hands" not in text
    with pytest.raises(RecordError, match="unfinished game"):
        GameRecord.loads(text)  # what a reader without the key can do: nothing
    key = json.loads(files.key_path(play.path).read_text(encoding="utf-8"))
    assert key == {"format": KEY_FORMAT, "sealed": data["sealed"], "seed": SEED, "forced": {}}


def test_record_key_and_folder_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Records and keys are created 0600 (even over a 0644 file), the records folder 0700."""
    folder = tmp_path / "records"
    play = quit_after(folder, monkeypatch, ["1"])
    assert mode(folder) == 0o700
    assert mode(Path(play.path)) == 0o600 and mode(files.key_path(play.path)) == 0o600
    os.chmod(play.path, 0o644)
    files.save_record(play.record, play.path, finished=False)
    assert mode(Path(play.path)) == 0o600
    assert sorted(p.name for p in folder.iterdir()) == sorted([Path(play.path).name, play.path.name + ".key"])


def test_the_seed_of_a_position_start_goes_to_the_key() -> None:
    """A record that starts from a position (hands and all) keeps the position in the key."""
    state = VENTURE_STATES.new_state(3, SEED)
    record = GameRecord("venture", 3, SEED, dict(state.options), ["a", "b", "c"], start=state.to_position())
    record.add(0, "discard 18", (Forced(DIE, 4), Forced(ORDER, ["10", "3c"])))
    record.add(1, "end")
    data, key = record.seal()
    assert set(data) == READABLE_FIELDS
    assert "start" not in data and "seed" not in data
    assert data["moves"] == [{"seat": 0, "action": "discard 18"}, {"seat": 1, "action": "end"}]
    assert key["start"] == state.to_position() and key["seed"] == SEED
    assert key["forced"] == {"0": [{"kind": "die", "value": 4}, {"kind": "order", "value": ["10", "3c"]}]}
    assert GameRecord.from_json(data, key) == record


def test_manual_dice_results_go_to_the_key_and_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """I'm the Boss! with real dice: the forced results are kept in the key while the game goes on."""
    answers = iter(["4", "3", "5", "2", "6", "1"] * 50)
    lines = ["1"] * 30

    def script(prompt: Any = "", **_: Any) -> str:
        if "Roll the die" in str(prompt):
            return next(answers)
        if not lines:
            raise EOFError
        return lines.pop(0)

    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    monkeypatch.setattr(console, "input", script)
    play = TerminalPlay(BOSS, ["human", "greedy", "greedy"], 5, {}, str(tmp_path), console, manual_dice=True)
    assert play.run() == 0
    assert any(m.forced for m in play.record.moves), "a die was rolled"
    assert "forced" not in Path(play.path).read_text(encoding="utf-8")
    again = files.load_record(play.path)
    assert again.moves == play.record.moves
    assert snapshot(replay(BOSS, again)) == snapshot(play.state)


# ---------------------------------------------------------------- resume, and the complete record at the end
def test_resume_goes_on_and_the_end_writes_the_whole_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play = quit_after(tmp_path, monkeypatch, ["1", "1"])
    before = len(play.record.moves)
    holder: list[TerminalPlay] = []

    def last() -> str:  # the last numbered choice: a discard that ends the turn, or the like
        return str(len(holder[0].state.legal_actions(holder[0].state.deciders()[0])))

    console, _, out = console_with(monkeypatch, [])
    monkeypatch.setattr(console, "input", Script([last] * 3000))
    again = TerminalPlay.resume(str(play.path), console=console)
    holder.append(again)
    assert snapshot(again.state) == snapshot(play.state)
    assert again.run() == 0
    assert again.state.is_over()
    assert f"Resuming {play.path} after {before} actions." in out.getvalue()
    data = readable(again)
    assert "sealed" not in data and data["seed"] == SEED and data["scores"] == again.state.scores()
    assert not files.key_path(play.path).exists()
    assert mode(Path(play.path)) == 0o600
    record = GameRecord.loads(Path(play.path).read_text(encoding="utf-8"))
    assert record.moves[:before] == play.record.moves[:before]
    assert snapshot(replay(VENTURE, record)) == snapshot(again.state)


def test_the_resume_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    play = quit_after(tmp_path, monkeypatch, ["1"])
    script = Script(["1", "quit"])
    monkeypatch.setattr(Console, "input", lambda self, prompt="", **_: script(prompt))
    assert main(["resume", str(play.path)]) == 0
    assert f"'parlour resume {play.path}' continues it" in capsys.readouterr().out
    assert len(files.load_record(play.path).moves) > len(play.record.moves)


def test_a_finished_game_is_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    play = quit_after(tmp_path, monkeypatch, [], seats=["random", "random"])
    assert play.state.is_over()
    assert main(["resume", str(play.path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is over" in err


# ---------------------------------------------------------------- replay of an unfinished record
def test_replay_without_the_key_says_the_game_is_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    play = quit_after(tmp_path, monkeypatch, ["1"])
    files.key_path(play.path).unlink()
    capsys.readouterr()
    assert main(["replay", str(play.path)]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "unfinished game" in err and "key file" in err and "missing" in err
    assert main(["resume", str(play.path)]) == 2


def test_replay_with_the_key_ranks_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    play = quit_after(tmp_path, monkeypatch, ["1"])
    capsys.readouterr()
    assert main(["replay", str(play.path)]) == 0
    out = capsys.readouterr().out
    assert "rank 1" not in out and "seed" not in out and "before the game does" in out


def test_a_key_of_another_record_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play = quit_after(tmp_path, monkeypatch, ["1"])
    key = files.key_path(play.path)
    data = json.loads(key.read_text(encoding="utf-8"))
    data["sealed"] = "0" * 32
    key.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match="another record"):
        files.load_record(play.path)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(sealed="../../etc/passwd"),
        lambda d: d.update(sealed=5),
        lambda d: d.update(seed=3),
    ],
)
def test_a_malformed_sealed_record_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Any
) -> None:
    play = quit_after(tmp_path, monkeypatch, ["1"])
    data = readable(play)
    change(data)
    Path(play.path).write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError):
        files.load_record(play.path)


# ---------------------------------------------------------------- nothing saved is lost
def test_a_key_saved_before_its_record_still_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted between the key (written first) and the record: the record's moves load as they were."""
    play = quit_after(tmp_path, monkeypatch, ["1"])
    saved = files.load_record(play.path)
    longer = GameRecord(saved.game, saved.players, saved.seed, saved.options, saved.seats, list(saved.moves))
    longer.key_id = saved.key_id
    longer.add(0, "end", (Forced(DIE, 3),))
    _, key = longer.seal()
    files.write_text(files.key_path(play.path), json.dumps(key))
    assert files.load_record(play.path).moves == saved.moves


def test_a_whole_record_beside_a_stale_key_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted after the whole record but before the key's removal: the whole record wins."""
    play = quit_after(tmp_path, monkeypatch, [], seats=["random", "random"])
    files.write_text(files.key_path(play.path), json.dumps({"format": KEY_FORMAT}))
    assert files.load_record(play.path).scores == play.state.scores()


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.json"
    files.write_text(path, "old")

    def broken(*_: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)  # the os module parlour.cli.files uses
    with pytest.raises(ParlourError, match="No space left"):
        files.write_text(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_records_go_under_the_home_folder_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    record = GameRecord("venture", 2, 1)
    path = files.record_path(record, None)
    assert path.parent == tmp_path / ".parlour" / "records" and mode(path.parent) == 0o700
