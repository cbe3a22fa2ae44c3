"""Terminal play driven in-process with scripted input: choices, notation, bad input, help, quit."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from parlour.bots.registry import make_bot
from parlour.cli.files import load_record
from parlour.cli.main import main
from parlour.cli.play import COMMANDS, TerminalPlay
from parlour.core.record import GameRecord, Move, replay
from parlour.core.registry import load_game
from parlour.testing.kit import snapshot

from .scripted import Script

GAME = load_game("venture")
HUMAN_FIRST = ["human", "greedy", "greedy", "greedy"]
SEED = 12  # seat 0 moves first with four players


def start(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lines: Iterable[str | Callable[[], str]] = (),
    seats: list[str] | None = None,
    seed: int = SEED,
    options: dict[str, Any] | None = None,
) -> tuple[TerminalPlay, Script, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    play = TerminalPlay(GAME, list(seats or HUMAN_FIRST), seed, options or {}, str(tmp_path), console=console)
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    return play, script, out


def saved(play: TerminalPlay) -> GameRecord:
    """Returns the record on disk, after checking it replays to the play's state."""
    record = load_record(play.path)
    assert snapshot(replay(GAME, record)) == snapshot(play.state)
    return record


def first_legal(seed: int = SEED, players: int = 4) -> list[str]:
    state = GAME.new_state(players, seed)
    return [str(a) for a in state.legal_actions()]


def test_seat_zero_moves_first_with_this_seed() -> None:
    assert GAME.new_state(4, SEED).deciders() == (0,)


def test_a_number_chooses_that_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    legal = first_legal()
    play, script, out = start(tmp_path, monkeypatch, ["2", "quit"])
    assert play.run() == 0
    record = saved(play)
    assert record.moves == [Move(0, legal[1])]
    assert record.seats == HUMAN_FIRST
    assert record.scores is None
    assert script.prompts == ["seat 0> ", "seat 0> "]
    text = out.getvalue()
    assert f"1 {legal[0]}" in text and f"2 {legal[1]}" in text
    assert f"Game saved to {play.path}" in text
    assert Path(play.path).parent == tmp_path


def test_notation_chooses_that_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    take = next(a for a in first_legal() if a.startswith("take "))
    code, letters = take.split()[1].split("-")
    typed = f"  TAKE   {code.lower()}-{letters[::-1].lower()} "
    play, _, _ = start(tmp_path, monkeypatch, [typed, "quit"])
    assert play.run() == 0
    assert saved(play).moves == [Move(0, take)]


def test_bad_input_prints_a_message_and_asks_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    legal = first_legal()
    lines = ["xyzzy", "0", str(len(legal) + 1), "end", "", "   ", "take ZZ-A", "-1", "1", "quit"]
    play, script, out = start(tmp_path, monkeypatch, lines)
    assert play.run() == 0
    text = out.getvalue()
    assert "cannot read 'xyzzy'" in text
    assert f"Choose a number from 1 to {len(legal)}, or type the action." in text
    assert "'end' is not legal now:" in text
    assert "'take ZZ-A' is not legal now:" in text
    assert "cannot read '-1'" in text
    assert script.prompts == ["seat 0> "] * len(lines)
    assert saved(play).moves == [Move(0, legal[0])]


def test_unicode_digit_is_refused_without_crashing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, script, _ = start(tmp_path, monkeypatch, ["²", "1", "quit"])
    assert play.run() == 0
    assert len(script.prompts) == 3
    assert len(saved(play).moves) == 1


def test_help_shows_the_rules_panel_and_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, script, out = start(tmp_path, monkeypatch, ["help", "?", "quit"])
    assert play.run() == 0
    text = out.getvalue()
    assert text.count("Rules in short") == 2
    # COMMANDS is printed once on start and once after each help
    assert text.count(COMMANDS.split(";")[0]) == 3
    assert len(script.prompts) == 3
    assert play.record.moves == []


def test_help_shows_venture_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, out = start(tmp_path, monkeypatch, ["help", "quit"])
    assert play.run() == 0
    text = out.getvalue()
    assert "No summary." not in text
    assert GAME.rules_summary
    assert GAME.rules_summary.splitlines()[0].strip() in text


def test_hint_without_holdings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, out = start(tmp_path, monkeypatch, ["hint", "quit"])
    assert play.run() == 0
    assert "No hint here." in out.getvalue()


def test_hint_with_holdings_shows_the_best_arrangement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play, _, out = start(tmp_path, monkeypatch, ["hint", "quit"])
    state: Any = play.state
    bots = [make_bot(GAME, "greedy", s) for s in range(4)]
    for _ in range(5000):
        seat = state.deciders()[0]
        if seat == 0 and state.corporations_held(0) >= 3 and state.stack.kinds() == ["turn"]:
            break
        state.apply(bots[seat].choose(state, seat), seat)
    else:
        raise AssertionError("seat 0 never held three corporations")
    hints = state.hints(0)
    assert len(hints) == 1 and "best arrangement would score" in hints[0]
    assert play.run() == 0
    assert hints[0] in out.getvalue().splitlines()  # printed on a line of its own by 'hint'
    assert "No hint here." not in out.getvalue()


def test_list_redraws_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, out = start(tmp_path, monkeypatch, ["list", "quit"])
    assert play.run() == 0
    assert out.getvalue().count("Seat 0 (human)") == 2


def test_quit_saves_a_record_that_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    holder: list[TerminalPlay] = []

    def last() -> str:  # the last numbered choice: a discard that ends the turn, or the like
        return str(len(holder[0].state.legal_actions(0)))

    play, script, out = start(tmp_path, monkeypatch, [last] * 6 + ["quit"])
    holder.append(play)
    assert play.run() == 0
    record = saved(play)
    human = [m for m in record.moves if m.seat == 0]
    assert len(human) == 6
    assert any(m.seat != 0 for m in record.moves), "the bots played in between"
    assert f"Game saved to {play.path}" in out.getvalue()
    assert not play.state.is_over()
    assert len(script.prompts) == 7


def test_quit_at_the_first_prompt_saves_a_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, out = start(tmp_path, monkeypatch, ["quit"])
    assert play.run() == 0
    assert f"Game saved to {play.path}" in out.getvalue()
    assert saved(play).moves == []


@pytest.mark.parametrize("word", ["exit", "QUIT"])
def test_exit_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, word: str) -> None:
    play, script, _ = start(tmp_path, monkeypatch, ["1", word, "1"])
    assert play.run() == 0
    assert len(script.prompts) == 2
    assert len(saved(play).moves) == 1


def test_end_of_input_ends_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, script, out = start(tmp_path, monkeypatch, ["1"])
    assert play.run() == 0
    assert len(script.prompts) == 2  # the second prompt met end of input
    assert f"Game saved to {play.path}" in out.getvalue()
    assert len(saved(play).moves) == 1


def test_bots_move_before_the_human(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seats = ["greedy", "greedy", "human", "greedy"]
    assert GAME.new_state(4, 3).deciders() == (2,)
    play, _, _ = start(tmp_path, monkeypatch, ["1", "quit"], seats=seats, seed=3)
    assert play.run() == 0
    record = saved(play)
    assert record.moves[0].seat == 2
    assert all(m.seat == 2 for m in record.moves)


def test_two_humans_pass_the_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = GAME.new_state(2, 1)
    (first,) = state.deciders()
    discard = next(str(a) for a in state.legal_actions() if str(a).startswith("discard "))
    play, script, out = start(
        tmp_path, monkeypatch, ["", discard, "", "quit"], seats=["human", "human"], seed=1
    )
    assert play.run() == 0
    assert script.prompts == [
        f"Pass the screen to Seat {first} (human) and press Enter ",
        f"seat {first}> ",
        f"Pass the screen to Seat {1 - first} (human) and press Enter ",
        f"seat {1 - first}> ",
    ]
    assert saved(play).moves == [Move(first, discard)]
    assert f"Seat {1 - first} (human)" in out.getvalue()


def test_two_humans_end_of_input_at_pass_the_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, _ = start(tmp_path, monkeypatch, [], seats=["human", "human"], seed=1)
    assert play.run() == 0


@pytest.mark.slow
def test_full_game_with_bots_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, script, out = start(tmp_path, monkeypatch, [], seats=["greedy", "random", "random"], seed=5)
    assert play.run() == 0
    assert script.prompts == []
    assert play.state.is_over()
    record = saved(play)
    assert record.scores == play.state.scores()
    assert record.seats == ["greedy", "random", "random"]
    assert len(record.moves) > 50
    text = out.getvalue()
    assert "Game over" in text
    ranks = play.state.ranking()
    for seat, score in enumerate(play.state.scores()):
        assert f"{ranks[seat]}. Seat {seat} ({play.seats[seat]}): {score:g}" in text
    assert f"Record saved to {play.path}" in text.replace("\n", "")


def test_options_reach_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, _ = start(
        tmp_path, monkeypatch, [], seats=["random", "random"], seed=2, options={"max_turns": "4"}
    )
    assert play.run() == 0
    record = saved(play)
    assert record.options["max_turns"] == 4
    assert play.state.is_over()
    state: Any = play.state
    assert state.turn <= 5


@pytest.mark.slow
def test_play_command_runs_a_bot_game_and_saves_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["play", "venture", "--seats", "greedy,random", "--seed", "4", "--records", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0
    (path,) = tmp_path.iterdir()
    assert path.name.startswith("venture-") and path.name.endswith(".json") and "seed" not in path.name
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    final = replay(GAME, record)
    assert final.is_over()
    assert record.scores == final.scores()
    assert "Game over" in out


def test_games_in_the_same_second_get_their_own_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("parlour.cli.files.time.strftime", lambda *_: "20260101-120000")
    first, _, _ = start(tmp_path, monkeypatch, ["1", "quit"])
    first.run()
    second, _, _ = start(tmp_path, monkeypatch, ["quit"])
    second.run()
    assert first.path != second.path


def test_the_seed_is_shown_only_when_the_game_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed fixes every shuffle, so it would reveal the hands: not shown while playing."""
    play, _, out = start(tmp_path, monkeypatch, ["quit"], seed=SEED)
    assert play.run() == 0
    assert f"seed {SEED}" not in out.getvalue().lower()
    bots, _, bots_out = start(
        tmp_path, monkeypatch, [], seats=["random", "random"], seed=2, options={"max_turns": "4"}
    )
    assert bots.run() == 0
    assert "Seed 2." in bots_out.getvalue()
