"""The ``parlour`` command: every subcommand in-process, refusals as one line, nothing half-written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.bots.simulation import wilson
from parlour.cli.main import main
from parlour.core.match import play_match
from parlour.core.registry import load_game
from parlour.testing.kit import snapshot

GAME = load_game("venture")
ROOT = Path(__file__).resolve().parents[2]
SUBCOMMANDS = ["play", "resume", "new", "legal", "apply", "show", "replay", "options", "simulate"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Runs ``parlour argv`` in-process; returns (status, stdout, stderr)."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return status, out, err


def assert_refused(status: int, out: str, err: str) -> None:
    """A refusal: non-zero status, one line on stderr, no traceback."""
    assert status != 0
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {err!r}"
    assert lines[0].startswith("parlour"), lines[0]
    assert "error" in lines[0]


@pytest.fixture
def position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    status, _, _ = run(capsys, "new", "venture", "--players", "4", "--seed", "7", "--out", str(path))
    assert status == 0
    return path


def _mover(state: Any) -> int:
    (seat,) = state.deciders()
    return int(seat)


# ---------------------------------------------------------------- new, legal, apply, show
def test_new_writes_a_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sub" / "game.json"
    status, out, err = run(capsys, "new", "venture", "--players", "3", "--seed", "11", "--out", str(path))
    assert status == 0, err
    assert out.strip() == f"wrote {path} (Venture, 3 players, seed 11)"
    data = json.loads(path.read_text())
    assert data["format"] == "parlour-venture-position/1"
    assert data["players"] == 3
    assert data["chance"]["seed"] == 11
    assert snapshot(GAME.load_position(path.read_text())) == snapshot(GAME.new_state(3, 11))


def test_new_with_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    status, _, err = run(
        capsys,
        "new",
        "venture",
        "--players",
        "2",
        "--seed",
        "1",
        "--out",
        str(path),
        "--option",
        "payment=each",
        "--option",
        "max_turns = 9",
    )
    assert status == 0, err
    options = json.loads(path.read_text())["options"]
    assert options["payment"] == "each"
    assert options["max_turns"] == 9


def test_new_without_seed_picks_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    status, out, _ = run(capsys, "new", "venture", "--players", "2", "--out", str(path))
    assert status == 0
    seed = json.loads(path.read_text())["chance"]["seed"]
    assert isinstance(seed, int)
    assert f"seed {seed}" in out


def test_legal_lists_actions_that_all_parse(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "legal", "venture", "--position", str(position))
    assert status == 0, err
    lines = out.splitlines()
    state = GAME.load_position(position.read_text())
    assert lines == [state.format_action(a) for a in state.legal_actions()]
    assert len(lines) > 1
    for line in lines:
        assert state.is_legal(state.parse_action(line))


def test_legal_for_a_seat_that_may_not_act_is_empty(
    position: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = GAME.load_position(position.read_text())
    other = (_mover(state) + 1) % 4
    status, out, _ = run(capsys, "legal", "venture", "--position", str(position), "--seat", str(other))
    assert status == 0
    assert out == ""


def test_apply_applies_actions_prints_events_and_writes_out(
    position: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = position.read_text()
    expected = GAME.load_position(before)
    seat = _mover(expected)
    discard = next(a for a in expected.legal_actions() if str(a).startswith("discard "))
    events = expected.apply(discard)
    texts = [str(discard)]
    lines = [e.for_seat(seat) for e in events]
    nxt = _mover(expected)
    take = next(a for a in expected.legal_actions() if str(a).startswith("take "))
    lines += [e.for_seat(nxt) for e in expected.apply(take)]
    texts.append(str(take))

    out_path = tmp_path / "next.json"
    status, out, err = run(
        capsys, "apply", "venture", "--position", str(position), *texts, "--out", str(out_path)
    )
    assert status == 0, err
    assert out.splitlines() == [*lines, f"wrote {out_path}"]
    assert any("(" in line for line in lines), "the acting seat sees what it drew"
    assert snapshot(GAME.load_position(out_path.read_text())) == snapshot(expected)
    assert position.read_text() == before


def test_apply_without_out_overwrites_the_position(
    position: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = GAME.load_position(position.read_text())
    action = state.legal_actions()[0]
    state.apply(action)
    status, out, _ = run(capsys, "apply", "venture", "--position", str(position), str(action))
    assert status == 0
    assert out.splitlines()[-1] == f"wrote {position}"
    assert snapshot(GAME.load_position(position.read_text())) == snapshot(state)


@pytest.mark.parametrize(
    ("actions", "number", "reason"),
    [
        (["end"], 1, "not legal"),
        (["take ZZ-A"], 1, "not legal"),
        (["xyzzy"], 1, "cannot read"),
        (["take"], 1, "cannot read"),
        ([None, "end", "xyzzy"], 3, "cannot read"),
    ],
)
def test_refused_action_exits_2_and_writes_nothing(
    position: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    actions: list[str | None],
    number: int,
    reason: str,
) -> None:
    before = position.read_text()
    state = GAME.load_position(before)
    texts: list[str] = []
    for text in actions:
        if text is None:  # a legal 'take', so that 'end' is legal next
            text = next(str(a) for a in state.legal_actions() if str(a).startswith("take "))
        texts.append(text)
    out_path = tmp_path / "next.json"
    for extra in (["--out", str(out_path)], []):
        status, out, err = run(capsys, "apply", "venture", "--position", str(position), *texts, *extra)
        assert status == 2
        assert_refused(status, out, err)
        assert err.startswith(f"parlour: error: action {number} ({texts[number - 1]!r}): ")
        assert reason in err
        assert err.strip().endswith("nothing written")
        assert not out_path.exists()
        assert position.read_text() == before
        assert not [p for p in tmp_path.iterdir() if p.name not in ("game.json",)]


def test_apply_by_a_seat_that_may_not_act(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = position.read_text()
    state = GAME.load_position(before)
    other = (_mover(state) + 1) % 4
    action = str(state.legal_actions()[0])
    status, out, err = run(
        capsys, "apply", "venture", "--position", str(position), action, "--seat", str(other)
    )
    assert_refused(status, out, err)
    assert f"seat {other} may not act now" in err
    assert position.read_text() == before


def test_show_as_a_seat_and_as_a_spectator(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = GAME.load_position(position.read_text())
    status, seat_view, _ = run(capsys, "show", "venture", "--position", str(position), "--seat", "2")
    assert status == 0
    hand = " ".join(cast(list[str], state.observation(2)["hand"]))
    assert f"Your hand: {hand}" in seat_view
    assert seat_view.strip() == state.render(2).strip()
    status, public, _ = run(capsys, "show", "venture", "--position", str(position))
    assert status == 0
    assert "Your hand" not in public
    assert "Center:" in public


def test_show_refuses_a_seat_out_of_range(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "show", "venture", "--position", str(position), "--seat", "9")
    assert_refused(status, out, err)


def test_show_refuses_a_negative_seat(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "show", "venture", "--position", str(position), "--seat", "-1")
    assert_refused(status, out, err)
    assert "Your hand" not in out


# ---------------------------------------------------------------- replay
@pytest.fixture(scope="module")
def finished() -> Any:
    agents = [RandomBot(16 + s) for s in range(3)]
    return play_match(GAME, agents, 2)


def test_replay_prints_the_final_scores(
    finished: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(finished.record.dumps())
    status, out, err = run(capsys, "replay", str(path))
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == f"Venture, 3 players, seed 2, {finished.actions} actions"
    ranks = finished.state.ranking()
    assert lines[1:] == [
        f"seat {s} (random): {score:g}  rank {ranks[s]}" for s, score in enumerate(finished.state.scores())
    ]


def test_replay_of_an_unfinished_record_says_so(
    finished: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(finished.record.dumps())
    data["moves"] = data["moves"][:10]
    data["scores"] = None
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert "10 actions" in out.splitlines()[0]
    assert out.splitlines()[-1].startswith("(the record ends before the game does: no scores or ranks")
    # Every seat ranked 1 (scores all 0 mid-game) was printed here once: no ranks, no seed before the end.
    assert "rank" not in out.replace("ranks until", "") and "seed" not in out


def test_replay_of_a_record_with_an_illegal_move(
    finished: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(finished.record.dumps())
    data["moves"][4]["action"] = "take ZZ-A"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "replay", str(path))
    assert_refused(status, out, err)
    assert "move 5" in err


# ---------------------------------------------------------------- simulate, options
SIM = ["simulate", "venture", "-n", "6", "--seats", "greedy,random,random,random", "--json", "--seed", "3"]


@pytest.mark.slow
def test_simulate_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *SIM)
    assert status == 0, err
    summary = json.loads(out)
    assert {"games", "actions", "seconds", "mean_length", "seats"} <= set(summary)
    assert summary["games"] == 6
    assert summary["actions"] > 0
    assert summary["mean_length"] == pytest.approx(summary["actions"] / 6)
    assert summary["seconds"] > 0
    seats = summary["seats"]
    assert [row["bot"] for row in seats] == ["greedy", "random", "random", "random"]
    assert sum(row["wins"] for row in seats) == pytest.approx(6)
    for row in seats:
        assert {"bot", "wins", "win_rate", "ci95", "mean_score"} <= set(row)
        low, high = row["ci95"]
        assert 0 <= low <= high <= 1
        assert low - 1e-9 <= row["win_rate"] <= high + 1e-9
        assert row["win_rate"] == pytest.approx(row["wins"] / 6)
        assert row["mean_score"] >= 0


@pytest.mark.parametrize("games", [6, 100])
def test_ci95_contains_a_perfect_win_rate(games: int) -> None:
    low, high = wilson(games, games)
    assert low <= 1.0 <= high


def test_simulate_is_the_same_for_any_worker_count(capsys: pytest.CaptureFixture[str]) -> None:
    status, one, _ = run(capsys, *SIM, "--workers", "1")
    assert status == 0
    status, two, err = run(capsys, *SIM, "--workers", "2", "--workers-max", "2")
    assert status == 0, err
    first, second = json.loads(one), json.loads(two)
    first.pop("seconds")
    second.pop("seconds")
    assert first == second


def test_simulate_seed_changes_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "venture", "-n", "2", "--seats", "random,random", "--json"]
    _, a, _ = run(capsys, *args, "--seed", "1")
    _, b, _ = run(capsys, *args, "--seed", "2")
    assert json.loads(a)["actions"] != json.loads(b)["actions"]


def test_simulate_prints_tables_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "simulate", "venture", "-n", "2", "--seats", "greedy,random", "--seed", "1"
    )
    assert status == 0, err
    assert "greedy: win rate" in out
    assert "random: win rate" in out
    assert "game length:" in out


def test_options_lists_options_and_bots(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "options", "venture")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Venture: 2 to 6 players"
    for spec in GAME.option_specs:
        assert any(line.strip().startswith(f"--option {spec.name}=") for line in lines), spec.name
    assert "  --option payment=turn|each  (default turn): " in out
    assert "max_turns=integer  (default 400)" in out
    assert lines[-4] == "bots: human, greedy, ismcts, learned, quick, random"
    # The search bot's name: its budget, playout bot and every setting with its range (Venture's horizon).
    assert lines[-3].startswith("search bot: ismcts[:BUDGET[:PLAYOUT[:SETTINGS]]]")
    assert (
        "1ms to 3600s, or 1it to 10000000it (default 200ms)" in lines[-2] and "(default quick)" in lines[-2]
    )
    assert "power 0 to 2 (0.5)" in lines[-1] and "horizon 0 to 1000 (12)" in lines[-1]


# ---------------------------------------------------------------- refusals
def _new(path: Path, *extra: str) -> list[str]:
    return ["new", "venture", "--players", "4", "--seed", "1", "--out", str(path), *extra]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "chess", "--players", "4", "--out", "{out}"], "invalid choice"),
        (["options", "chess"], "invalid choice"),
        (["new", "venture", "--players", "four", "--out", "{out}"], "invalid int"),
        (["new", "venture", "--out", "{out}"], "--players"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
        (["new", "venture", "--players", "9", "--out", "{out}"], "takes 2 to 6 players, not 9"),
        (["new", "venture", "--players", "1", "--out", "{out}"], "takes 2 to 6 players, not 1"),
        ([*_new(Path("{out}"), "--option", "payment")], "--option takes name=value, not 'payment'"),
        ([*_new(Path("{out}"), "--option", "=each")], "--option takes name=value"),
        ([*_new(Path("{out}"), "--option", "colour=red")], "venture has no option 'colour'"),
        ([*_new(Path("{out}"), "--option", "payment=weekly")], "must be one of turn, each"),
        ([*_new(Path("{out}"), "--option", "max_turns=-3")], "at least 0"),
        ([*_new(Path("{out}"), "--option", "deck={missing}")], "option deck must name a content set"),
        (["simulate", "venture", "-n", "2", "--seats", "greedy,wizard"], "no bot 'wizard'"),
        (["simulate", "venture", "-n", "2", "--seats", "human,random"], "bots only"),
        (["simulate", "venture", "-n", "2", "--seats", "random"], "takes 2 to 6 players, not 1"),
        (
            ["simulate", "venture", "-n", "0", "--seats", "random,random"],
            "-n and --workers must be at least 1",
        ),
        (["simulate", "venture", "-n", "2", "--seats", "random,random", "--workers", "0"], "at least 1"),
        (["play", "venture", "--seats", "random,wizard", "--records", "{dir}"], "no bot 'wizard'"),
        (["play", "venture", "--seats", "human", "--records", "{dir}"], "takes 2 to 6 players, not 1"),
        (["legal", "venture", "--position", "{missing}"], "cannot read"),
        (["show", "venture", "--position", "{missing}"], "cannot read"),
        (["apply", "venture", "--position", "{missing}", "end"], "cannot read"),
        (["replay", "{missing}"], "cannot read"),
    ],
)
def test_bad_arguments_exit_non_zero_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    values = {
        "out": str(tmp_path / "out.json"),
        "missing": str(tmp_path / "missing.json"),
        "dir": str(tmp_path),
    }
    args = [a.format(**values) for a in argv]
    status, out, err = run(capsys, *args)
    assert_refused(status, out, err)
    assert message in err
    assert not (tmp_path / "out.json").exists()


def _position_text() -> dict[str, Any]:
    return GAME.new_state(3, 4).to_position()


def _corrupt(change: Any) -> str:
    data = _position_text()
    change(data)
    return json.dumps(data)


CORRUPT = {
    "not json": "{not json",
    "empty": "",
    "a list": "[]",
    "missing players": _corrupt(lambda d: d.pop("players")),
    "bad format": _corrupt(lambda d: d.update(format="chess/1")),
    "bogus card": _corrupt(lambda d: d["hands"][0].__setitem__(0, "joker")),
    "lost card": _corrupt(lambda d: d["hands"][0].pop()),
    "players string": _corrupt(lambda d: d.update(players="3")),
    "bad option": _corrupt(lambda d: d["options"].update(payment="weekly")),
    "chance seed": _corrupt(lambda d: d["chance"].update(seed="x")),
    "bad decision seat": _corrupt(lambda d: d["decisions"][0].update(seats=[7])),
}


@pytest.mark.parametrize("command", ["legal", "show", "apply"])
@pytest.mark.parametrize("name", sorted(CORRUPT))
def test_corrupt_position_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, command: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(CORRUPT[name])
    extra = ["end"] if command == "apply" else []
    status, out, err = run(capsys, command, "venture", "--position", str(path), *extra)
    assert_refused(status, out, err)
    assert err.startswith("parlour: error: ")
    assert path.read_text() == CORRUPT[name]


def test_corrupt_position_with_forced_not_a_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(_corrupt(lambda d: d["chance"].update(forced=5)))
    status, out, err = run(capsys, "show", "venture", "--position", str(path))
    assert_refused(status, out, err)


@pytest.mark.parametrize(
    "text", ["", "{", "[]", '{"format": "parlour-record/1"}', '{"format": "parlour-record/1", "moves": 3}']
)
def test_corrupt_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(text)
    status, out, err = run(capsys, "replay", str(path))
    assert_refused(status, out, err)


def test_record_of_an_unknown_game_is_refused(
    finished: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(finished.record.dumps())
    data["game"] = "chess"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "replay", str(path))
    assert_refused(status, out, err)
    assert "unknown game 'chess'" in err


# ---------------------------------------------------------------- help
@pytest.mark.parametrize("command", [[], *([c] for c in SUBCOMMANDS)])
def test_help_exits_0(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    status, out, err = run(capsys, *command, "--help")
    assert status == 0
    assert out.startswith("usage: parlour")
    assert err == ""


def _script() -> Path:
    for candidate in (Path(sys.executable).parent / "parlour", ROOT / ".venv" / "bin" / "parlour"):
        if candidate.exists():
            return candidate
    raise AssertionError("the parlour script is not installed in the virtual environment")


def test_installed_script_help() -> None:
    result = subprocess.run([str(_script()), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.startswith("usage: parlour")
    for command in SUBCOMMANDS:
        assert command in result.stdout
    assert result.stderr == ""


def test_out_refuses_a_path_that_is_not_a_regular_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Saving never replaces a directory or a device with a file."""
    status, _out, err = run(capsys, "new", "venture", "--players", "3", "--out", str(tmp_path))
    assert status == 2 and "not a regular file" in err
    assert tmp_path.is_dir()


def test_a_position_file_that_is_not_text_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x81")
    status, _out, err = run(capsys, "show", "venture", "--position", str(path))
    assert status == 2 and "not UTF-8" in err and "Traceback" not in err


README_TURN = [
    "take RR-AE",
    "take OI-BCDEF",
    "place on RR-AE",
    "end",
    "pay 20",
    "pay 12",
    "pay 3c",
    "pay 1s",
    "done",
]


def test_the_readme_tour_turn_is_legal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's example turn (four players, seed 7) stays a legal turn."""
    game, after = tmp_path / "game.json", tmp_path / "next.json"
    assert run(capsys, "new", "venture", "--players", "4", "--seed", "7", "--out", str(game))[0] == 0
    status, out, _ = run(
        capsys, "apply", "venture", "--position", str(game), *README_TURN, "--out", str(after)
    )
    assert status == 0 and "seat 3 pays 36 with 20 12 3c 1s" in out
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert all(f'"{action}"' in readme or f" {action} " in readme for action in README_TURN)
