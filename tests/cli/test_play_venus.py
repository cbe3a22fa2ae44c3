"""Terminal play of Venus Needs Men!: a human with greedy bots, Zap windows, manual dice, the map."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from parlour.cli.files import load_record
from parlour.cli.main import main
from parlour.cli.play import TerminalPlay
from parlour.core.record import replay
from parlour.core.registry import load_game
from parlour.testing.kit import snapshot

from .scripted import Script

GAME = load_game("venus-needs-men")


def start(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    options: dict[str, Any],
    manual: bool = False,
) -> tuple[TerminalPlay, Script, io.StringIO]:
    """Returns a terminal game (human in seat 0 against two greedy bots) with scripted input."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    play = TerminalPlay(
        GAME, ["human", "greedy", "greedy"], 4, options, str(tmp_path), console=console, manual_dice=manual
    )
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    return play, script, out


@pytest.mark.slow
def test_a_whole_enhanced_game_is_played_and_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A human who takes the first choice (or 'done') reaches the end; the record replays exactly."""
    lines = ["1" if i % 2 else "done" for i in range(4000)]
    play, _, out = start(tmp_path, monkeypatch, lines, {"game": "enhanced", "max_turns": 30})
    assert play.run() == 0
    text = out.getvalue()
    assert "Your Zap hand" in text and "Face-up Upgrades" in text and "Game over" in text
    record = load_record(play.path)
    assert snapshot(replay(GAME, record)) == snapshot(play.state)


@pytest.mark.slow
def test_manual_dice_are_asked_for_each_roll(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --dice manual every attack die is asked; the answers are recorded and replay exactly."""
    lines = ["1"] * 4000
    answers = iter(["11", "7", *["0"] * 2000])

    def script_or_die(prompt: Any = "", **_: Any) -> str:
        return next(answers) if "Roll the die" in str(prompt) else lines.pop(0)

    play, _, out = start(tmp_path, monkeypatch, [], {"max_turns": 60}, manual=True)
    monkeypatch.setattr(play.console, "input", script_or_die)
    play.run()
    record = load_record(play.path)
    forced = [f.value for m in record.moves for f in m.forced]
    assert forced[:2] == [7, 10] and "Type a whole number from 1 to 10" in out.getvalue()  # 0 counts as 10
    assert snapshot(replay(GAME, record)) == snapshot(play.state)


def test_board_command_writes_an_svg_with_the_positions_ships(tmp_path: Path) -> None:
    """`parlour board venus-needs-men --svg` draws the map; with --position it shows the ships."""
    position, svg = tmp_path / "p.json", tmp_path / "map.svg"
    assert main(["new", "venus-needs-men", "--players", "4", "--seed", "3", "--out", str(position)]) == 0
    assert main(["board", "venus-needs-men", "--svg", str(svg), "--position", str(position)]) == 0
    root = ElementTree.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and "Orbit" in svg.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", ["venture", "im-the-boss", "venus-needs-men"])
def test_every_game_draws_its_board_from_a_position(tmp_path: Path, game: str) -> None:
    """`parlour board GAME --svg FILE --position P` draws every game (an SVG that parses)."""
    position = tmp_path / "p.json"
    assert main(["new", game, "--players", "4", "--seed", "3", "--out", str(position)]) == 0
    svg = tmp_path / "board.svg"
    assert main(["board", game, "--svg", str(svg), "--position", str(position)]) == 0
    assert ElementTree.fromstring(svg.read_text(encoding="utf-8")).tag.endswith("svg")


# ---------------------------------------------------------------- auto-pass
def table(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    seats: list[str],
    lines: list[Any],
    auto_pass: bool = True,
) -> tuple[TerminalPlay, Script]:
    """Returns a terminal game from a Venus turn whose start window asks seats 0 and 1, in that order:
    seat 0 (Venus) holds Rapid Deployment, seat 1 (Mars) only a Deflector Shield, so it may only pass."""
    console = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    play = TerminalPlay(GAME, seats, 4, {}, str(tmp_path), console=console, auto_pass=auto_pass)
    data = GAME.new_state(3, 4).to_position()
    data["ships"] = {ship: "orbit" if ship == "V1" else None for ship in data["ships"]}
    data["hands"], data["decks"], data["discards"] = [[6], [10], []], [[], [], []], [[], [], []]
    data["aside"] = [card for card in range(1, 37) if card not in (6, 10)]
    data["current"] = data["planets"].index("venus")
    window = {"kind": "zap", "seats": [], "data": {"moment": "start", "open": False}, "concurrent": False}
    data["decisions"] = [
        {"kind": "finish", "seats": [], "data": {}, "concurrent": False},
        {**window, "data": {"moment": "end", "open": False}},
        {"kind": "extend", "seats": [0], "data": {}, "concurrent": False},
        {"kind": "act", "seats": [0], "data": {}, "concurrent": False},
        window,
    ]
    play.state = GAME.state_from_position(data)
    play.record.start = play.state.to_position()
    assert play.state.stack.top.seats == [0, 1]
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    return play, script


def moves(play: TerminalPlay) -> list[str]:
    """Returns the record's moves as ``seat: action``."""
    return [f"{m.seat}: {m.action}" for m in play.record.moves]


def asked_in(play: TerminalPlay, seen: list[tuple[str, list[str]]], answer: str) -> Any:
    """Returns a scripted line that notes the decision and seat 1's choices at the prompt, then answers."""

    def line() -> str:
        seen.append((play.state.stack.top.kind, [str(a) for a in play.state.legal_actions(1)]))
        return answer

    return line


def test_a_person_who_may_only_pass_passes_by_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Auto-pass (on by default): seat 1 is not prompted in the Zap windows where it may only pass; the
    first prompt comes with its own action."""
    seen: list[tuple[str, list[str]]] = []
    play, _ = table(tmp_path, monkeypatch, ["greedy", "human", "greedy"], [])
    monkeypatch.setattr(play.console, "input", Script([asked_in(play, seen, "quit")]))
    assert play.run() == 0
    assert seen[0][0] == "act" and "pass" in seen[0][1] and len(seen[0][1]) > 1
    assert "1: pass" in moves(play) and all(m == "1: pass" for m in moves(play) if m.startswith("1"))


def test_autopass_off_asks_and_autopass_on_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --auto-pass off the person is asked even with only 'pass'; 'autopass on' passes at once, and
    from then on the seat is not asked where it may only pass; 'autopass off' turns it off again."""
    seen: list[tuple[str, list[str]]] = []
    play, _ = table(tmp_path, monkeypatch, ["greedy", "human", "greedy"], [], auto_pass=False)
    answers = [asked_in(play, seen, "autopass on"), asked_in(play, seen, "quit")]
    monkeypatch.setattr(play.console, "input", Script(answers))
    assert play.run() == 0
    assert seen[0] == ("zap", ["pass"]) and seen[1][0] == "act"
    assert play.auto_pass == [True, True, True]
    play, _ = table(tmp_path, monkeypatch, ["greedy", "human", "greedy"], [])
    monkeypatch.setattr(play.console, "input", Script(["autopass off", "quit"]))
    assert play.run() == 0 and play.auto_pass == [True, False, True]


def test_people_sharing_the_screen_see_the_same_hand_over_either_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two people at one screen: the screen is handed to seat 1 although it may only pass, and seat 1 is
    told it passed; the others see what they would see had it chosen to pass."""
    play, script = table(tmp_path, monkeypatch, ["human", "human", "greedy"], ["", "pass", "", ""])
    assert play.run() == 0
    assert moves(play)[:2] == ["0: pass", "1: pass"]
    names = [play.state.seat_name(s) for s in range(3)]
    assert f"Pass the screen to {names[0]}" in script.prompts[0] and script.prompts[1] == f"{names[0]}> "
    assert f"Pass the screen to {names[1]}" in script.prompts[2]
    assert f"{names[1]} may only pass here: passed for you (auto-pass)" in script.prompts[3]


def test_play_command_takes_the_auto_pass_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--auto-pass off` is accepted (status 0); another value is refused with status 2."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    seats = "human,greedy,greedy"
    base = ["play", "venus-needs-men", "--seats", seats, "--seed", "5", "--records", str(tmp_path)]
    assert main([*base, "--auto-pass", "off"]) == 0
    with pytest.raises(SystemExit) as refused:
        main([*base, "--auto-pass", "maybe"])
    assert refused.value.code == 2


def test_manual_dice_accept_a_zero_as_ten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table entering the physical die's 0 gets a 10."""
    console = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    terminal = TerminalPlay(
        GAME, ["human", "greedy", "greedy"], 4, {}, str(tmp_path), console=console, manual_dice=True
    )
    answers = iter(["0", "3"])
    monkeypatch.setattr(console, "input", lambda prompt="", **_: next(answers))
    assert terminal._ask_die(1, 10) == 10
