"""Game records: JSON form, refusals, and replays that reproduce matches exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.core.chance import DIE, ORDER, Chance, Forced
from parlour.core.errors import RecordError
from parlour.core.match import MatchResult, play_match
from parlour.core.record import FORMAT, GameRecord, Move, replay
from parlour.core.registry import load_game
from parlour.testing.kit import snapshot

GAME = load_game("venture")


def _match(players: int = 3, seed: int = 5, state: Any = None) -> MatchResult:
    agents = [RandomBot(seed * 8 + s) for s in range(players)]
    return play_match(GAME, agents, seed, state=state)


@pytest.fixture(scope="module")
def match() -> MatchResult:
    return _match()


# ---------------------------------------------------------------- JSON form
def test_json_round_trip_with_forced_outcomes() -> None:
    record = GameRecord(
        "venture",
        3,
        seed=12,
        options={"payment": "each", "max_turns": 50},
        seats=["human", "greedy", "random"],
        moves=[
            Move(0, "take ST-ABC"),
            Move(0, "end", (Forced(ORDER, ["10", "3c", "x1"]), Forced(DIE, 4))),
            Move(1, "discard 14"),
        ],
        scores=[3.0, 0.0, 8.0],
    )
    text = record.dumps()
    data = json.loads(text)
    assert data["format"] == FORMAT
    assert data["moves"][0] == {"seat": 0, "action": "take ST-ABC"}
    assert data["moves"][1]["forced"] == [
        {"kind": "order", "value": ["10", "3c", "x1"]},
        {"kind": "die", "value": 4},
    ]
    again = GameRecord.loads(text)
    assert again == record
    assert again.moves[1].forced == (Forced(ORDER, ["10", "3c", "x1"]), Forced(DIE, 4))
    assert again.dumps() == text


def test_unfinished_record_has_null_scores() -> None:
    record = GameRecord("venture", 2, 1)
    again = GameRecord.loads(record.dumps())
    assert again.scores is None
    assert again.moves == []
    assert again == record


def test_optional_fields_default() -> None:
    data = {"format": FORMAT, "game": "venture", "players": 2, "seed": 3, "moves": []}
    record = GameRecord.loads(json.dumps(data))
    assert record == GameRecord("venture", 2, 3, {}, [], [], None)


def _valid() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": "venture",
        "players": 2,
        "options": {},
        "seats": ["random", "random"],
        "seed": 3,
        "moves": [{"seat": 0, "action": "end"}],
        "scores": None,
    }


def _without(name: str) -> dict[str, Any]:
    data = _valid()
    del data[name]
    return data


def _with(**changes: Any) -> dict[str, Any]:
    data = _valid()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("{'format': 1}", "not valid JSON"),
        ("[]", "not a Parlour record"),
        ("42", "not a Parlour record"),
        (json.dumps(_without("format")), "not a Parlour record"),
        (json.dumps(_with(format="parlour-record/2")), "not a Parlour record"),
        (json.dumps(_with(format="parlour-venture-position/1")), "not a Parlour record"),
        (json.dumps(_without("game")), "missing or malformed"),
        (json.dumps(_without("players")), "missing or malformed"),
        (json.dumps(_without("seed")), "missing or malformed"),
        (json.dumps(_without("moves")), "missing or malformed"),
        (json.dumps(_with(players="four")), "missing or malformed"),
        (json.dumps(_with(seed=None)), "missing or malformed"),
        (json.dumps(_with(moves=7)), "missing or malformed"),
        (json.dumps(_with(moves=[{"seat": 0}])), "missing or malformed"),
        (json.dumps(_with(moves=[{"action": "end"}])), "missing or malformed"),
        (json.dumps(_with(moves=[{"seat": "first", "action": "end"}])), "missing or malformed"),
        (json.dumps(_with(moves=["end"])), "missing or malformed"),
        (json.dumps(_with(moves=[{"seat": 0, "action": "end", "forced": [{"kind": "die"}]}])), "malformed"),
        (json.dumps(_with(moves=[{"seat": 0, "action": "end", "forced": ["die"]}])), "malformed"),
        (json.dumps(_with(options=5)), "missing or malformed"),
    ],
)
def test_loads_refusals_raise_record_error(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


# ---------------------------------------------------------------- replay
def test_replay_reproduces_the_match(match: MatchResult) -> None:
    assert match.state.is_over()
    assert match.actions == len(match.record.moves) > 0
    assert match.record.scores == match.state.scores()
    assert match.record.seats == ["random"] * 3
    record = GameRecord.loads(match.record.dumps())
    final = replay(GAME, record)
    assert snapshot(final) == snapshot(match.state)
    assert final.scores() == record.scores
    assert final.is_over()


def test_play_match_is_deterministic(match: MatchResult) -> None:
    again = _match()
    assert again.record == match.record
    assert snapshot(again.state) == snapshot(match.state)


def test_replay_of_a_prefix_stops_midway(match: MatchResult) -> None:
    record = GameRecord.loads(match.record.dumps())
    record.moves = record.moves[:25]
    state = replay(GAME, record)
    assert not state.is_over()
    assert state.actions_applied == 25


def test_replay_uses_the_record_options() -> None:
    agents = [RandomBot(s) for s in range(2)]
    result = play_match(GAME, agents, 4, {"max_turns": 6, "payment": "each"})
    assert result.record.options["max_turns"] == 6
    assert result.state.is_over()
    final = replay(GAME, GameRecord.loads(result.record.dumps()))
    assert snapshot(final) == snapshot(result.state)
    assert final.to_position()["options"]["payment"] == "each"


def _spoiled(match: MatchResult, number: int, action: str) -> GameRecord:
    record = GameRecord.loads(match.record.dumps())
    record.moves[number - 1] = Move(record.moves[number - 1].seat, action)
    return record


@pytest.mark.parametrize("action", ["take ZZ-A", "done", "xyzzy", "take"])
def test_illegal_or_malformed_move_names_the_move_number(match: MatchResult, action: str) -> None:
    record = _spoiled(match, 7, action)
    with pytest.raises(RecordError, match=rf"^move 7 \({action!r} by seat \d\): "):
        replay(GAME, record)


def test_move_by_the_wrong_seat_names_the_move_number(match: MatchResult) -> None:
    record = GameRecord.loads(match.record.dumps())
    move = record.moves[11]
    record.moves[11] = Move((move.seat + 1) % 3, move.action)
    with pytest.raises(RecordError, match=r"^move 12 .*may not act now"):
        replay(GAME, record)


def _reshuffle_piles(players: int, seed: int) -> list[list[str]]:
    """Returns the names of every pile shuffled during a random match (after the deal)."""
    piles: list[list[str]] = []
    original = Chance.shuffle

    def spy(self: Chance, items: Any, name_of: Any = str) -> Any:
        piles.append([name_of(i) for i in items])
        return original(self, items, name_of)

    state = GAME.new_state(players, seed)
    Chance.shuffle = spy  # type: ignore[method-assign]
    try:
        _match(players, seed, state=state)
    finally:
        Chance.shuffle = original  # type: ignore[method-assign]
    return piles


def test_forced_outcomes_are_recorded_and_replayed() -> None:
    """A table that enters the real order of a reshuffle gets it in the record, and replay uses it."""
    piles = _reshuffle_piles(3, 5)
    assert piles, "the match never reshuffled the drawing deck"
    forced_order = list(reversed(piles[0]))
    state = GAME.new_state(3, 5)
    state.chance.forced = [Forced(ORDER, forced_order)]
    result = _match(3, 5, state=state)
    assert result.state.chance.forced == []
    with_forced = [(n, m) for n, m in enumerate(result.record.moves, 1) if m.forced]
    assert len(with_forced) == 1
    number, move = with_forced[0]
    assert move.forced == (Forced(ORDER, forced_order),)
    record = GameRecord.loads(result.record.dumps())
    assert record.moves[number - 1].forced == (Forced(ORDER, forced_order),)
    final = replay(GAME, record)
    assert snapshot(final) == snapshot(result.state)
    # Without the forced outcome the replay takes another path (or refuses a move).
    plain = GameRecord.loads(result.record.dumps())
    plain.moves[number - 1] = Move(move.seat, move.action)
    try:
        other = replay(GAME, plain)
    except RecordError:
        return
    assert snapshot(other) != snapshot(result.state)


def test_impossible_forced_order_names_the_move_number() -> None:
    piles = _reshuffle_piles(3, 5)
    state = GAME.new_state(3, 5)
    state.chance.forced = [Forced(ORDER, list(reversed(piles[0])))]
    result = _match(3, 5, state=state)
    number = next(n for n, m in enumerate(result.record.moves, 1) if m.forced)
    record = GameRecord.loads(result.record.dumps())
    move = record.moves[number - 1]
    record.moves[number - 1] = Move(move.seat, move.action, (Forced(ORDER, ["nonesuch"]),))
    with pytest.raises(RecordError, match=rf"^move {number} .*'nonesuch'"):
        replay(GAME, record)


def test_malformed_forced_outcome_in_a_record_is_a_record_error() -> None:
    piles = _reshuffle_piles(3, 5)
    state = GAME.new_state(3, 5)
    state.chance.forced = [Forced(ORDER, list(reversed(piles[0])))]
    result = _match(3, 5, state=state)
    data = json.loads(result.record.dumps())
    number = next(n for n, m in enumerate(data["moves"], 1) if "forced" in m)
    data["moves"][number - 1]["forced"] = [{"kind": "order", "value": 5}]
    with pytest.raises(RecordError, match=rf"move {number}|forced"):
        replay(GAME, GameRecord.loads(json.dumps(data)))
