"""The bot protocol's messages (parlour.bots.protocol): what a seat is sent holds only what it may know,
and every line a bot may write is either understood or refused with a ProtocolError, nothing else."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots import protocol
from parlour.bots.protocol import (
    MAX_LINE,
    Answer,
    Hello,
    ProtocolError,
    ViewAgain,
    build_request,
    decision_kind,
    encode,
    end_message,
    parse_answer,
    parse_hello,
    read_line,
    start_message,
)
from parlour.core.registry import load_game
from parlour.core.state import GameState

GAMES = ["venture", "im-the-boss", "venus-needs-men", "embers"]
SEED = 987654321
"""A seed long enough that its digits appearing in a message by chance is all but impossible."""
REQUEST_FIELDS = {
    "type",
    "id",
    "game",
    "players",
    "seat",
    "names",
    "kind",
    "turn",
    "turn_player",
    "deciders",
    "summary",
    "passing_window",
    "only_pass",
    "observation",
    "actions",
    "time_ms",
}


def walk(game_name: str, players: int, steps: int, every: int) -> list[GameState]:
    """Returns copies of the states of a random game, one every ``every`` actions."""
    game = load_game(game_name)
    state = game.new_state(players, SEED, game.options(None))
    rng = random.Random(1)
    seen = []
    for n in range(steps):
        if state.is_over():
            break
        if n % every == 0:
            seen.append(state.clone())
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return seen


@pytest.mark.parametrize("game_name", GAMES)
def test_a_request_is_the_same_for_every_state_its_seat_cannot_tell_apart(game_name: str) -> None:
    rng = random.Random(2)
    asked = 0
    for state in walk(game_name, 4, 600, 7):
        for seat in state.deciders():
            request = build_request(state, seat, 1, 500)
            assert set(request) == REQUEST_FIELDS
            assert request["observation"] == json.loads(json.dumps(state.observation(seat)))
            assert str(SEED) not in encode(request).decode()
            other = state.determinize(seat, rng)
            assert build_request(other, seat, 1, 500) == request
            asked += 1
    assert asked > 10


@pytest.mark.parametrize("game_name", GAMES)
def test_start_and_end_hold_no_seed(game_name: str) -> None:
    game = load_game(game_name)
    state = game.new_state(3, SEED, game.options(None))
    text = encode(start_message(state, 0, 100, game.options(None))).decode()
    assert str(SEED) not in text and json.loads(text)["type"] == "start"
    rng = random.Random(0)
    while not state.is_over():
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    end = end_message(state, 1)
    assert str(SEED) not in encode(end).decode()
    assert end["over"] is True and end["scores"] == state.scores() and end["winners"] == state.winners()
    assert end_message(None, 1) == {"type": "end", "over": False}


def test_the_kind_of_decision_follows_the_window_and_the_turn() -> None:
    kinds: dict[str, set[str]] = {}
    for game_name in GAMES:
        for state in walk(game_name, 4, 800, 3):
            for seat in state.deciders():
                kind = decision_kind(state, seat)
                kinds.setdefault(game_name, set()).add(kind)
                window, player = state.passing_window(), state.turn_player()
                if kind == "turn":
                    assert not window and player in (None, seat)
                elif kind == "window":
                    assert window and player != seat
    assert {"turn", "window"} <= kinds["embers"] and "window" in kinds["venus-needs-men"]


GOOD_HELLO: dict[str, Any] = {
    "type": "hello",
    "name": "bot",
    "version": "2.1",
    "protocol": "parlour-bot/1",
    "games": {"venture": [3, 4], "*": []},
    "extra": {"ignored": True},
}


def test_a_hello_is_read_and_says_what_the_bot_plays() -> None:
    hello = parse_hello(GOOD_HELLO)
    assert hello == Hello("bot", "2.1", {"venture": (3, 4), "*": ()})
    assert hello.plays("venture", 3) and not hello.plays("venture", 5) and hello.plays("embers", 5)
    assert not Hello("b", "", {"venture": ()}).plays("embers", 3)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"type": "action"}, "not 'hello'"),
        ({"protocol": "parlour-bot/2"}, "not 'parlour-bot/1'"),
        ({"name": ""}, "name must be 1 to 64"),
        ({"name": "x" * 65}, "name must be 1 to 64"),
        ({"name": "a\nb"}, "printable"),
        ({"version": 3}, "version must be 0 to 64"),
        ({"games": []}, "games must be an object"),
        ({"games": {}}, "games must be an object"),
        ({"games": {"venture": "all"}}, "must be a list"),
        ({"games": {"venture": [True]}}, "whole numbers"),
        ({"games": {"venture": [0]}}, "whole numbers"),
        ({"games": {f"g{n}": [] for n in range(65)}}, "games must be an object"),
    ],
)
def test_a_bad_hello_is_refused_with_the_reason(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(ProtocolError, match=None) as caught:
        parse_hello({**GOOD_HELLO, **change})
    assert reason in str(caught.value)


ACTIONS = ["pass", "play 1", "play 2"]


def test_answers_by_id_or_text_with_values() -> None:
    assert parse_answer({"type": "action", "id": 4, "action": 2}, 4, ACTIONS) == Answer(4, 2)
    assert parse_answer({"type": "action", "id": 4, "action": " play 1 "}, 4, ACTIONS) == Answer(4, "play 1")
    with_values = {"type": "action", "id": 4, "action": 0, "values": [1, 0.5, -2], "note": "x"}
    assert parse_answer(with_values, 4, ACTIONS) == Answer(4, 0, (1.0, 0.5, -2.0))
    assert parse_answer({"type": "view", "id": 4}, 4, ACTIONS) == ViewAgain(4)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"type": "hello"}, "where an 'action' was due"),
        ({"id": 4, "action": 0}, "where an 'action' was due"),
        ({"type": "action", "id": 3, "action": 0}, "an answer to request 3 while request 4"),
        ({"type": "action", "id": True, "action": 0}, "an answer to request True"),
        ({"type": "action", "id": 4}, "without an action"),
        ({"type": "action", "id": 4, "action": 3}, "action id 3, not one of 0 to 2"),
        ({"type": "action", "id": 4, "action": -1}, "action id -1"),
        ({"type": "action", "id": 4, "action": True}, "without an action"),
        ({"type": "action", "id": 4, "action": 1.0}, "without an action"),
        ({"type": "action", "id": 4, "action": "play 9"}, "not one of the legal actions"),
        ({"type": "action", "id": 4, "action": 0, "values": [1, 2]}, "a list of 3 numbers"),
        ({"type": "action", "id": 4, "action": 0, "values": [1, 2, "3"]}, "finite numbers"),
        ({"type": "action", "id": 4, "action": 0, "values": [1, 2, 1e400]}, "finite numbers"),
        ({"type": "action", "id": 4, "action": 0, "values": [1, 2, False]}, "finite numbers"),
    ],
)
def test_a_bad_answer_is_refused_with_the_reason(answer: dict[str, Any], reason: str) -> None:
    with pytest.raises(ProtocolError, match=None) as caught:
        parse_answer(answer, 4, ACTIONS)
    assert reason in str(caught.value)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"x" * (MAX_LINE + 1), "longer than 65536"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"{", "not JSON"),
        (b'{"a": NaN}', "not JSON"),
        (b'{"a": Infinity}', "not JSON"),
        (b"[" * 30000 + b"]" * 30000, "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'"text"', "not a JSON object"),
    ],
)
def test_bad_lines_are_refused(line: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError, match=None) as caught:
        read_line(line)
    assert reason in str(caught.value) and "\n" not in str(caught.value)


def test_blank_lines_are_nothing() -> None:
    assert read_line(b"") is None and read_line(b"  \r") is None
    assert read_line(b'{"type": "action"}\r') == {"type": "action"}


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
MESSAGES = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["action", "view", "hello", "other"]) | st.text(max_size=5),
        "id": st.integers(-2, 6) | JSON_VALUES,
        "action": st.integers(-2, 4) | st.sampled_from([*ACTIONS, " pass", "pass\n"]) | JSON_VALUES,
        "values": st.lists(st.floats() | st.integers(), max_size=4) | JSON_VALUES,
        "protocol": st.just("parlour-bot/1") | st.text(max_size=5),
        "name": st.text(max_size=70),
        "version": JSON_VALUES,
        "games": st.dictionaries(st.text(max_size=8), st.lists(st.integers(-1, 70), max_size=3))
        | JSON_VALUES,
    },
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    try:
        message = read_line(data)
    except ProtocolError as err:
        assert "\n" not in str(err)
        return
    assert message is None or isinstance(message, dict)


@settings(max_examples=200, deadline=None)
@given(MESSAGES)
def test_any_message_is_understood_or_refused(message: dict[str, Any]) -> None:
    line = json.dumps(message).encode()
    try:
        data = read_line(line)
    except ProtocolError as err:
        assert (b"Infinity" in line or b"NaN" in line) and "not JSON" in str(err)  # floats JSON cannot hold
        return
    assert data is not None
    try:
        answer = parse_answer(data, 4, ACTIONS)
    except ProtocolError as err:
        assert "\n" not in str(err) and len(str(err)) < 300
    else:
        assert answer.id == 4
        if isinstance(answer, Answer):
            assert answer.action in ACTIONS or answer.action in range(len(ACTIONS))
            assert answer.values is None or len(answer.values) == len(ACTIONS)
    try:
        hello = parse_hello(data)
    except ProtocolError as err:
        assert "\n" not in str(err) and len(str(err)) < 300
    else:
        assert hello.name and all(isinstance(c, int) for counts in hello.games.values() for c in counts)


def test_shown_is_short_and_printable() -> None:
    assert protocol.shown("a\nb" * 100).isprintable() and len(protocol.shown("x" * 500)) <= 60
