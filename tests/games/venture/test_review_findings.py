"""Regression tests for the findings of the fresh-eyes review (positions, deck file, odd inputs)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.core.content import read_json_file
from parlour.core.errors import ContentError, IllegalActionError, NotationError, OptionError, PositionError
from parlour.core.match import play_match
from parlour.core.record import GameRecord, replay
from parlour.games.venture import GAME
from parlour.games.venture.content import parse_deck

from .scenario import load, play, position

DECK_FILE = Path(__file__).parents[3] / "parlour" / "games" / "venture" / "data" / "deck.json"


def _deck() -> dict:
    return json.loads(DECK_FILE.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ decision shapes
def test_a_pending_place_under_a_payment_is_refused() -> None:
    """Legal play never pays while a won corporation waits to be placed: such a stack is refused."""
    data = position(hands=[["10", "12"], [], []], center=["ST-A", "OI-BC", "RR-C", "RE-D", "AU-E"])
    data["transacted"], data["owed"] = True, 8
    data["decisions"] += [
        {"kind": "place", "seats": [0], "data": {"corp": "OI-BC"}, "concurrent": False},
        {"kind": "pay", "seats": [0], "data": {"then": "finish"}, "concurrent": False},
    ]
    data["center"].remove("OI-BC")
    with pytest.raises(PositionError, match=r"^decisions: must be one of"):
        GAME.state_from_position(data)


def test_continue_payment_needs_payment_each() -> None:
    data = position(hands=[["10"], [], []])
    data["transacted"], data["owed"] = True, 8
    data["decisions"].append({"kind": "pay", "seats": [0], "data": {"then": "continue"}, "concurrent": False})
    with pytest.raises(PositionError, match="then"):
        GAME.state_from_position(data)


# ------------------------------------------------------------------ a word of caution
def test_an_offending_stack_at_turn_start_needs_the_flag() -> None:
    """Ruling A-6: at the start of the owner's turn the duty to reorganise is part of the position."""
    with pytest.raises(PositionError, match="must_reorganise: must be true"):
        load(hands=[["20"], [], []], holdings={0: [["ST-A", "OI-AE", "ST-AB"]]})
    state = load(
        hands=[["20"], [], []],
        holdings={0: [["ST-A", "OI-AE", "ST-AB"]]},
        turn_data={"must_reorganise": True},
    )
    assert [str(a) for a in state.legal_actions()] == ["reorganise", "reorganise best"]


def test_the_flag_without_an_offending_stack_is_refused() -> None:
    with pytest.raises(PositionError, match="must_reorganise"):
        load(hands=[["20"], [], []], holdings={0: [["ST-A"]]}, turn_data={"must_reorganise": True})


def test_a_profit_card_in_a_hand_is_refused() -> None:
    data = position(hands=[["10"], [], []])
    source = next(z for z in ("draw", "discard") if "profit" in data[z])
    data[source].remove("profit")
    data["hands"][1].append("profit")
    with pytest.raises(PositionError, match=r"^hands: a Profit card"):
        GAME.state_from_position(data)


# ------------------------------------------------------------------ the deck file
def _rename_steel(data: dict) -> None:
    """Gives Steel a three-letter code, which the notation CC-LETTERS cannot write."""
    data["industries"]["items"][0]["code"] = "STL"
    for card in data["corporations"]["cards"]:
        if card["industry"] == "ST":
            card["industry"] = "STL"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["corporation_value"].update(base=5), "corporation_value"),
        (lambda d: d["set_values"].update({"2": 1}), "set_values"),
        (_rename_steel, "industries"),
        (lambda d: d["proxy"]["cards"][0].update(count=4), "proxy"),
    ],
)
def test_a_deck_file_breaking_a_sourced_fact_is_refused(change, field: str) -> None:
    data = _deck()
    change(data)
    with pytest.raises(ContentError, match=field):
        parse_deck(data)


def test_the_house_deck_keeps_every_sourced_fact() -> None:
    deck = parse_deck(_deck())
    assert {c.value for c in deck.corporations} == {8, 12, 16, 20, 24}
    assert deck.set_values == {2: 16, 3: 32, 4: 64}


def test_a_deck_file_that_is_not_text_is_a_content_error(tmp_path: Path) -> None:
    path = tmp_path / "deck.bin"
    path.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(ContentError, match="not UTF-8"):
        read_json_file(path, "deck file")
    with pytest.raises(OptionError, match="option deck must name a content set"):
        GAME.new_state(3, 1, {"deck": str(path)})


# ------------------------------------------------------------------ odd inputs
def test_deeply_nested_json_is_refused_cleanly() -> None:
    with pytest.raises(PositionError):
        GAME.load_position("[" * 100_000)


@pytest.mark.parametrize("action", [[1], {}, None, b"end", 3.5])
def test_odd_action_objects_are_refused(action) -> None:
    state = GAME.new_state(3, 1)
    before = json.dumps(state.to_position())
    with pytest.raises((IllegalActionError, NotationError)):
        state.apply(action)
    with pytest.raises(NotationError):
        state.apply_notation(action)  # type: ignore[arg-type]
    assert json.dumps(state.to_position()) == before


@pytest.mark.parametrize("seat", ["0", True, 1.0, -1, 3])
def test_odd_seats_are_refused(seat) -> None:
    state = GAME.new_state(3, 1)
    action = state.legal_actions()[0]
    with pytest.raises(IllegalActionError, match="no seat"):
        state.apply(action, seat)


def test_opposite_seeds_deal_different_games() -> None:
    """Seeds s and -s are different games (the generator is seeded from a sign-safe string)."""
    a, b = GAME.new_state(4, 5), GAME.new_state(4, -5)
    assert a.to_position()["stock"] != b.to_position()["stock"]


def test_a_match_from_a_given_state_records_its_start() -> None:
    """A record of a game that began from a position replays that game, not the seed's deal."""
    start = load(hands=[["20", "20"], ["10"], ["12"]])
    result = play_match(GAME, [RandomBot(s) for s in range(3)], 99, state=copy.deepcopy(start))
    record = GameRecord.loads(result.record.dumps())
    assert record.start is not None
    assert json.dumps(replay(GAME, record).to_position()) == json.dumps(result.state.to_position())


def test_exposed_profit_cards_score_once_per_draw() -> None:
    """With only Profit cards left to draw, each scores once (they reach the discard after the draw)."""
    state = load(hands=[[], ["x1"], []], draw=["profit"], discard=["profit"], spare_resources=2)
    play(state, "end")
    assert state.profit_rounds == 2
