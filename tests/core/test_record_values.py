"""A move's values (what a ``cmd:`` bot said of each legal action): kept in records, sealed in the key
until the game ends, refused when malformed, checked against the legal actions on replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlour.core.errors import RecordError
from parlour.core.match import play_match
from parlour.core.record import MAX_VALUES, GameRecord, Move, replay
from parlour.core.registry import load_game
from parlour.core.state import GameState

GAME = load_game("venture")


class ValuingBot:
    """Plays at random and gives each legal action a value: its index (the last is valued most)."""

    name = "valuing"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.last_values: tuple[float, ...] | None = None

    def choose(self, state: GameState, seat: int) -> object:
        """Returns a random legal action; keeps one value per legal action."""
        legal = state.legal_actions(seat)
        self.last_values = tuple(float(i) for i in range(len(legal)))
        return self.rng.choice(legal)


def _record(players: int = 3, seed: int = 4) -> GameRecord:
    agents = [ValuingBot(seed * 8 + s) for s in range(players)]
    return play_match(GAME, agents, seed).record


def test_a_match_records_the_values_its_agents_gave_one_per_legal_action() -> None:
    record = _record()
    state = GAME.new_state(record.players, record.seed, record.options)
    for move in record.moves:
        legal = state.legal_actions(move.seat)
        assert move.values == tuple(float(i) for i in range(len(legal)))
        state.apply(state.parse_action(move.action), move.seat)
    assert state.is_over()


def test_values_round_trip_through_the_json_form_and_replay() -> None:
    record = _record()
    again = GameRecord.loads(record.dumps())
    assert again == record
    assert json.loads(record.dumps())["moves"][0]["values"] == list(record.moves[0].values or ())
    assert replay(GAME, again).scores() == record.scores


def test_a_move_without_values_writes_none() -> None:
    record = GameRecord("venture", 2, 1, moves=[Move(0, "end")])
    assert "values" not in json.loads(record.dumps())["moves"][0]


def test_a_sealed_record_keeps_the_values_in_its_key_only() -> None:
    record = _record()
    readable, key = record.seal()
    assert all("values" not in move for move in readable["moves"])
    assert "values" not in json.dumps(readable)
    assert key["values"]["0"] == list(record.moves[0].values or ())
    assert GameRecord.from_json(readable, key) == GameRecord(**{**record.__dict__, "key_id": record.key_id})


def test_a_key_naming_values_twice_is_refused() -> None:
    record = _record()
    readable, key = record.seal()
    readable["moves"][0]["values"] = [1.0]
    with pytest.raises(RecordError, match="values in the record as well as in its key"):
        GameRecord.from_json(readable, key)


def test_a_key_whose_values_are_not_an_object_is_refused() -> None:
    readable, key = _record().seal()
    key["values"] = [1, 2]
    with pytest.raises(RecordError, match="key field values must be an object"):
        GameRecord.from_json(readable, key)


def _with_values(values: Any) -> str:
    return json.dumps(
        {
            "format": "parlour-record/1",
            "game": "venture",
            "players": 2,
            "seed": 3,
            "moves": [{"seat": 0, "action": "end", "values": values}],
        }
    )


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ("high", "must be a list of at most"),
        ({"a": 1}, "must be a list of at most"),
        ([0.0] * (MAX_VALUES + 1), "must be a list of at most"),
        ([1, "two"], "finite numbers only"),
        ([True], "finite numbers only"),
        ([None], "finite numbers only"),
        ([[1]], "finite numbers only"),
    ],
)
def test_malformed_values_are_refused_in_one_line(values: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message) as caught:
        GameRecord.loads(_with_values(values))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_values_that_are_not_finite_are_refused(number: str) -> None:
    text = _with_values([1.5]).replace("1.5", number)
    assert number in text
    with pytest.raises(RecordError):
        GameRecord.loads(text)
    data = json.loads(_with_values([1.5]))
    data["moves"][0]["values"] = [float(number.replace("Infinity", "inf"))]
    with pytest.raises(RecordError, match="finite numbers only"):
        GameRecord.from_json(data)


def test_replay_refuses_values_that_do_not_match_the_legal_actions() -> None:
    record = _record()
    first = record.moves[0]
    assert first.values is not None
    record.moves[0] = Move(first.seat, first.action, first.forced, (*first.values, 9.0))
    with pytest.raises(RecordError, match=r"move 1 .*values for .* legal actions"):
        replay(GAME, record)
