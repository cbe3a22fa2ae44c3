"""The terminal table: the whole story since your last prompt, 'log', menus without gaps, 'info', the
end screen, bots answering first in open windows, the thinking line, Ctrl-C, and replay stepping."""

from __future__ import annotations

import io
import random
import time
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from parlour.bots.registry import make_bot
from parlour.cli.files import load_record
from parlour.cli.main import main
from parlour.cli.play import TerminalPlay, find_cards
from parlour.cli.screen import action_menu
from parlour.cli.stepper import ReplayStepper
from parlour.core.errors import OptionError
from parlour.core.match import play_match
from parlour.core.record import GameRecord
from parlour.core.registry import load_game

from .scripted import Script

VENTURE = load_game("venture")
BOSS = load_game("im-the-boss")


def start(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lines: Iterable[Any],
    seats: list[str],
    game: Any = VENTURE,
    seed: int = 12,
) -> tuple[TerminalPlay, Script, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=400, color_system=None, force_terminal=False)
    play = TerminalPlay(game, seats, seed, {}, str(tmp_path), console=console)
    script = Script(lines)
    monkeypatch.setattr(console, "input", script)
    return play, script, out


def test_the_news_tells_every_action_since_the_last_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play, _, out = start(tmp_path, monkeypatch, ["discard 18"], ["human", "greedy", "greedy", "greedy"])
    legal = [str(a) for a in play.state.legal_actions(0)]
    play, _, out = start(tmp_path, monkeypatch, [legal[-1]], ["human", "greedy", "greedy", "greedy"])
    play.run()
    text = out.getvalue()
    later = [entry for entry in play.log if entry.seat != 0]
    assert later, "the bots played between the human's prompts"
    for entry in later:
        for line in entry.lines(0):
            assert line in text
    assert "Since your last turn" in text
    assert f"Turn {later[0].turn}" in text


def test_log_shows_the_last_actions_or_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seats = ["human", "greedy"]
    first = [str(a) for a in VENTURE.new_state(2, 12).legal_actions(0)][-1]
    play, _, out = start(tmp_path, monkeypatch, ["log", first, "log 1", "log all", "log x"], seats)
    play.run()
    text = out.getvalue()
    assert "Nothing has happened yet." in text
    assert f"Log: the last 1 of {len(play.log)} actions" in text
    assert f"Log: the last {len(play.log)} of {len(play.log)} actions" in text
    assert "Type 'log', 'log N' (the last N actions) or 'log all'." in text


def test_the_menu_is_numbered_without_gaps() -> None:
    texts = ["pass", *(f"offer R {n}" for n in range(31)), "lay Y", "boss"]
    menu = action_menu(texts)
    plain = [label.plain for label in menu.labels]
    assert plain == ["1 pass", "offer R N (type it; N = 0–30)", "2 lay Y", "3 boss"]
    assert [texts[i] for i in menu.numbered] == ["pass", "lay Y", "boss"]


def test_numbers_choose_from_the_menu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, _ = start(tmp_path, monkeypatch, ["1"], ["human", "greedy"])
    play.run()
    assert play.record.moves[0].action == str(VENTURE.new_state(2, 12).legal_actions(0)[0])


def test_info_finds_a_card_by_a_part_of_its_name() -> None:
    texts = {"Evasive Maneuvers": "a", "Mind Control": "b", "Mine Field": "c"}
    assert find_cards("evasive maneuvers", texts) == ["Evasive Maneuvers"]
    assert find_cards("min", texts) == ["Mind Control", "Mine Field"]
    assert find_cards("control", texts) == ["Mind Control"]
    assert find_cards("zz", texts) == [] and find_cards("  ", texts) == []


def test_info_prints_the_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, out = start(
        tmp_path, monkeypatch, ["info mind", "info m", "info zz", "info", "help"], ["human", "greedy"]
    )
    monkeypatch.setattr(
        play.state, "card_texts", lambda: {"Mind Control": "Take a ship.", "Mine Field": "Boom."}
    )
    play.run()
    text = out.getvalue()
    assert "Mind Control" in text and "Take a ship." in text
    assert "2 cards match 'm': Mind Control, Mine Field." in text
    assert "No card is called 'zz'" in text
    assert "Type 'info' and a card's name" in text
    assert "Cards ('info NAME' shows the text): Mind Control, Mine Field" in text


def test_the_end_screen_itemises_the_scoring_and_names_the_winners(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play, _, out = start(tmp_path, monkeypatch, [], ["greedy", "greedy", "greedy"], seed=5)
    assert play.run() == 0
    text = out.getvalue()
    for step in play.state.score_steps():
        assert step.label in text
    names = [f"Seat {s} (greedy)" for s in play.state.winners()]
    assert ("Winner: " if len(names) == 1 else "Winners (a shared win): ") + ", ".join(names) in text
    assert f"Record saved to {play.path}; 'parlour replay {play.path} --step'" in text


def open_window_state(seed: int) -> Any:
    """Returns an I'm the Boss! state in which several seats may act at once."""
    state = BOSS.new_state(4, seed)
    rng = random.Random(seed)
    while not state.is_over() and len(state.deciders()) < 2:
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert len(state.deciders()) >= 2
    return state


def test_bots_answer_first_in_an_open_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, _ = start(tmp_path, monkeypatch, [], ["human"] * 4, game=BOSS)
    play.state = open_window_state(3)
    deciders = play.state.deciders()
    bot = deciders[1]
    play.agents[bot] = make_bot(BOSS, "greedy", 1)
    assert play._next_seat() == bot
    play.agents[bot] = None
    play.last_human = deciders[-1]
    assert play._next_seat() == deciders[-1], "the person at the screen goes on: fewer hand-offs"
    play.last_human = None
    assert play._next_seat() == deciders[0]


def status_lines(monkeypatch: pytest.MonkeyPatch, console: Console) -> list[str]:
    """Returns the list that will hold every status line ("... is thinking") the console shows."""
    lines: list[str] = []

    @contextmanager
    def status(text: Any, **_: Any) -> Any:
        lines.append(str(text))
        yield

    monkeypatch.setattr(console, "status", status)
    return lines


def test_a_bot_thinks_aloud_when_people_watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play, _, _ = start(tmp_path, monkeypatch, [], ["greedy", "human"])
    said = status_lines(monkeypatch, play.console)
    assert play.agents[0] is not None and play.state.deciders() == (0,)
    play._think(0, play.agents[0])
    assert said == ["Seat 0 (greedy) is thinking..."]


def test_ctrl_c_says_where_the_game_is_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt() -> str:
        raise KeyboardInterrupt

    play, _, out = start(tmp_path, monkeypatch, [interrupt], ["human", "greedy"])
    with pytest.raises(KeyboardInterrupt):
        play.run()
    assert f"Game saved to {play.path}; 'parlour resume {play.path}' continues it." in out.getvalue()


def test_a_resumed_game_shows_its_last_actions_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = [str(a) for a in VENTURE.new_state(2, 12).legal_actions(0)][-1]
    play, _, _ = start(tmp_path, monkeypatch, [first, "quit"], ["human", "greedy"])
    play.run()
    out = io.StringIO()
    console = Console(file=out, width=400, color_system=None, force_terminal=False)
    monkeypatch.setattr(console, "input", Script(["quit"]))
    again = TerminalPlay.resume(str(play.path), console=console)
    assert [e.action for e in again.log] == [m.action for m in again.record.moves]
    again.run()
    assert "Since your last turn" in out.getvalue()


# ----------------------------------------------------------------- replay --step
def finished_record(seed: int = 4) -> GameRecord:
    agents = [make_bot(VENTURE, "greedy", seed + s) for s in range(3)]
    return play_match(VENTURE, agents, seed).record


def stepper(
    record: GameRecord, lines: list[str], view: str | None = None
) -> tuple[ReplayStepper, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=400, color_system=None, force_terminal=False)
    step = ReplayStepper(VENTURE, record, console, view)
    console.input = Script(lines)  # type: ignore[method-assign]
    return step, out


def test_replay_steps_forwards_and_backwards() -> None:
    record = finished_record()
    step, out = stepper(record, ["", "n", "p", "5", "end", "start", "xyz", "q"])
    step.run()
    text = out.getvalue()
    moves = len(record.moves)
    for at in (0, 1, 2, 1, 5, moves, 0):
        assert f"Action {at} of {moves}" in text
    assert "Enter or 'n' next" in text


def test_replay_views_a_seat_and_everything_only_once_over() -> None:
    record = finished_record()
    step, out = stepper(record, ["seat 1", "end", "all", "seat 9", "q"])
    step.run()
    text = out.getvalue()
    assert "view: seat 1" in text and "view: everything" in text and "there is no seat '9'" in text
    state = step.states[-1]
    drawn = [e for e in step.log if any(ev.secret for ev in e.events)]
    assert drawn, "a Venture game draws cards, whose faces are secrets"
    unfinished = GameRecord(record.game, record.players, record.seed, record.options, record.seats)
    unfinished.moves = record.moves[:10]
    with pytest.raises(OptionError, match="only once it is over"):
        stepper(unfinished, [], view="all")
    with pytest.raises(OptionError, match="shown only at its table"):
        stepper(unfinished, [], view="1")
    step, out = stepper(unfinished, ["seat 0", "end", "q"])
    step.run()
    assert "view: seat" not in out.getvalue() and "Your hand" not in out.getvalue()
    assert state.is_over()


def test_replay_step_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    path = tmp_path / "game.json"
    path.write_text(finished_record().dumps())
    monkeypatch.setattr("sys.stdin", io.StringIO("n\nq\n"))
    assert main(["replay", str(path), "--step", "--view", "0"]) == 0
    assert "Action 1 of" in capsys.readouterr().out
    assert main(["replay", str(path), "--view", "7"]) == 2
    assert load_record(str(path)).moves


def window_state(only_pass: bool) -> tuple[Any, int]:
    """Returns a Venus Needs Men! state with a bot seat asked in a Zap window, holding a playable card or
    not, and that seat."""
    game = load_game("venus-needs-men")
    for seed in range(200):
        state = game.new_state(3, seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_over():
                break
            seat = state.deciders()[0]
            if seat != 0 and state.passing_window() and state.only_pass(seat) == only_pass:
                return state, seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    raise AssertionError("no such window found")


@pytest.mark.parametrize("only_pass", [True, False])
def test_a_bot_in_a_window_takes_the_same_time_whether_or_not_it_could_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, only_pass: bool
) -> None:
    """A bot that may only pass is not passed for at once: like one that could play, it thinks (the
    thinking line) for at least the window's pace, and a search bot spends its whole budget."""
    game = load_game("venus-needs-men")
    state, seat = window_state(only_pass)
    seats = ["human", "ismcts:150ms", "ismcts:150ms"]
    play, _, _ = start(tmp_path, monkeypatch, [], seats, game=game)
    monkeypatch.setattr(TerminalPlay, "window_pace", 0.3)
    play.state = state
    shown = status_lines(monkeypatch, play.console)
    agent = play.agents[seat]
    assert agent is not None
    began = time.monotonic()
    play._think(seat, agent)
    assert time.monotonic() - began >= 0.3
    name = play.state.seat_name(seat)
    assert shown == [f"{name} (ismcts:150ms) is thinking..."] and agent.steady  # type: ignore[attr-defined]


def test_one_line_pays_with_several_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line such as `pay 14 3s 3s` is taken at the prompt (ruling A-18), not only by the engine: the
    terminal asks the engine whether an action is legal, never its own list of them."""
    seed = next(s for s in range(100) if VENTURE.new_state(3, s).deciders() == (0,))
    state = VENTURE.new_state(3, seed)
    take = max((str(a) for a in state.legal_actions() if str(a).startswith("take")), key=len)
    typed: list[str] = []

    def two_cards() -> str:
        cards = sorted(str(a).split()[1] for a in play.state.legal_actions(0) if str(a).startswith("pay "))
        typed.append(f"pay {cards[0]} {cards[1]}")
        return typed[-1]

    play, _, out = start(
        tmp_path, monkeypatch, [take, "end", two_cards, "quit"], ["human", "greedy", "greedy"], seed=seed
    )
    play.run()
    assert typed and typed[0] in [m.action for m in play.record.moves]
    assert "not legal now" not in out.getvalue()
