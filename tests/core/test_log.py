"""The game log: every action with its events, redacted per seat, grouped by turn; replays rebuild it."""

from __future__ import annotations

from parlour.core.log import GameLog
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game
from parlour.core.state import Event, ScoreStep


def play(log: GameLog, name: str, actions: int, seed: int = 3) -> GameRecord:
    game = load_game(name)
    state = game.new_state(4, seed)
    record = GameRecord(game.name, 4, seed, game.options(), ["random"] * 4)
    for _ in range(actions):
        if state.is_over():
            break
        seat = state.deciders()[0]
        action = state.legal_actions(seat)[-1]
        record.add(seat, state.format_action(action), ())
        log.apply(state, action, seat)
    return record


def test_log_numbers_every_action_and_keeps_its_events() -> None:
    log = GameLog()
    play(log, "venture", 30)
    assert [e.number for e in log] == list(range(1, len(log) + 1))
    assert len(log) == 30
    assert any(entry.events for entry in log)
    assert log.since(28) == log.entries[28:] and len(log.last(5)) == 5 and log.last(0) == []


def test_secrets_are_shown_to_their_own_seat_only() -> None:
    log = GameLog()
    log.add(1, "draw", [Event("seat 1 draws a card", 1, "ST-ABC")], 1, 1)
    (entry,) = log
    assert entry.lines(1) == ["seat 1 draws a card (ST-ABC)"]
    assert entry.lines(0) == ["seat 1 draws a card"]
    assert entry.lines(None) == ["seat 1 draws a card"]


def test_grouping_follows_turns_and_turn_players() -> None:
    log = GameLog()
    for turn, player in [(1, 0), (1, 0), (2, 1), (2, 1), (2, 1), (3, 0)]:
        log.add(player, "x", [], turn, player)
    groups = GameLog.grouped(log.entries)
    assert [(g.turn, g.turn_player, len(g.entries)) for g in groups] == [(1, 0, 2), (2, 1, 3), (3, 0, 1)]


def test_replay_rebuilds_the_same_log() -> None:
    log = GameLog()
    record = play(log, "im-the-boss", 60)
    again = GameLog()
    replay(load_game("im-the-boss"), record, log=again)
    assert again.entries == log.entries


def test_default_people_hooks() -> None:
    state = load_game("venture").new_state(3, 1)
    assert state.seat_name(2) == "seat 2"
    assert state.decision_summary()
    assert state.end_reason() == ""
    assert all(isinstance(step, ScoreStep) for step in state.score_steps())
