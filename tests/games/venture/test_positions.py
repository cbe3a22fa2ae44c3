"""Venture positions: the whole state as JSON round-trips, and impossible positions are refused by field."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.core.errors import PositionError
from parlour.core.match import play_match
from parlour.core.record import GameRecord, replay
from parlour.core.state import GameState

from ..typed import VENTURE as GAME
from .scenario import load, position


def text_of(state: GameState) -> str:
    """Returns the state's position as canonical JSON text."""
    return json.dumps(state.to_position(), sort_keys=True)


# ------------------------------------------------------------------ round trips
def test_a_new_game_round_trips() -> None:
    """A dealt game written as a position and read back is the same game."""
    state = GAME.new_state(4, 21, {"payment": "each", "max_turns": 90})
    loaded = GAME.load_position(json.dumps(state.to_position()))
    assert text_of(loaded) == text_of(state)
    assert loaded.legal_actions() == state.legal_actions()
    assert loaded.options == state.options


@pytest.mark.slow
def test_positions_round_trip_along_random_games_and_keep_the_same_future() -> None:
    """Any state met in play (paying, placing, reorganising) round-trips, and plays on identically."""
    kinds = set()
    for seed in range(4):
        state = GAME.new_state(2 + seed, seed, {"max_turns": 50})
        rng = random.Random(seed)
        step = 0
        while not state.is_over():
            if step % 5 == 0:
                loaded = GAME.load_position(json.dumps(state.to_position()))
                assert text_of(loaded) == text_of(state)
                assert loaded.legal_actions() == state.legal_actions()
                kinds.add(state.stack.top.kind)
                # The same generator state: the same actions lead to the same positions (draws included).
                original, probe = state.clone(), random.Random(step)
                for _ in range(8):
                    if original.is_over():
                        break
                    action = probe.choice(original.legal_actions())
                    original.apply(action)
                    loaded.apply(action)
                    assert text_of(loaded) == text_of(original)
            state.apply(rng.choice(state.legal_actions()))
            step += 1
        assert text_of(GAME.load_position(json.dumps(state.to_position()))) == text_of(state)
    assert kinds == {"turn", "pay", "place", "reorganise"}


def test_a_pending_placement_round_trips() -> None:
    """The corporation waiting to be placed lives in the decision; the position keeps it."""
    data = position(
        hands=[["20"], [], []], holdings={0: [["ST-A"]]}, center=["RE-A", "OI-B", "RR-C", "RE-D", "AU-E"]
    )
    state = GAME.state_from_position(data)
    state.apply_notation("take RE-A")
    written = state.to_position()
    assert written["decisions"][-1] == {
        "kind": "place",
        "seats": [0],
        "data": {"corp": "RE-A"},
        "concurrent": False,
    }
    loaded = GAME.load_position(json.dumps(written))
    assert text_of(loaded) == text_of(state)
    assert [str(a) for a in loaded.legal_actions()] == ["place on ST-A", "place alone", "undo"]


def test_a_match_from_a_given_state_records_its_start() -> None:
    """A record of a game that began from a position replays that game, not the seed's deal."""
    start = load(hands=[["20", "20"], ["10"], ["12"]])
    result = play_match(GAME, [RandomBot(s) for s in range(3)], 99, state=copy.deepcopy(start))
    record = GameRecord.loads(result.record.dumps())
    assert record.start is not None
    assert json.dumps(replay(GAME, record).to_position()) == json.dumps(result.state.to_position())


def test_card_names_are_read_in_any_case_and_written_as_the_deck_writes_them() -> None:
    """A hand-written position may say ``st-a`` or ``X1``: it reads as ``ST-A`` and ``x1``."""
    data = copy.deepcopy(BASE)
    data["holdings"][0] = [["st-a", "Re-A"]]
    data["hands"][2] = ["X1"]
    written = GAME.state_from_position(data).to_position()
    assert written["holdings"][0] == [["ST-A", "RE-A"]] and written["hands"][2] == ["x1"]
    assert text_of(GAME.state_from_position(written)) == text_of(GAME.state_from_position(BASE))


# ------------------------------------------------------------------ refusals
def refusal(data: object) -> PositionError:
    """Loads a position that must be refused and returns the error."""
    with pytest.raises(PositionError) as err:
        GAME.load_position(data if isinstance(data, str) else json.dumps(data))
    return err.value


def base() -> dict[str, Any]:
    """Returns a lawful three-player position to spoil."""
    return copy.deepcopy(BASE)


BASE = position(
    hands=[["20", "10"], ["12"], ["x1"]],
    holdings={0: [["ST-A", "RE-A"]], 1: [["SH-F"]]},
    center=["OI-B", "RR-C", "RE-D", "AU-E", "ST-D"],
)


def test_the_base_position_loads() -> None:
    """The position the refusal tests spoil is itself lawful."""
    assert GAME.state_from_position(base()).invariant_errors() == []


def test_bad_json_is_refused() -> None:
    """Text that is not JSON is refused with the parser's reason."""
    err = refusal('{"format": ')
    assert err.field == ""
    assert "not valid JSON" in str(err)


def test_deeply_nested_json_is_refused_cleanly() -> None:
    with pytest.raises(PositionError):
        GAME.load_position("[" * 100_000)


def test_not_an_object_is_refused() -> None:
    """A position is a JSON object."""
    assert "must be a JSON object" in str(refusal([1, 2]))


def test_unknown_field_is_refused() -> None:
    """A field the format does not know is named."""
    data = base()
    data["colour"] = "red"
    err = refusal(data)
    assert err.field == "colour"
    assert "unknown field" in str(err)


def test_missing_field_is_refused() -> None:
    """A required field that is absent is named."""
    data = base()
    del data["turn"]
    assert refusal(data).field == "turn"


def test_wrong_format_is_refused() -> None:
    """Another format tag is refused."""
    data = base()
    data["format"] = "chess/1"
    assert refusal(data).field == "format"


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (lambda d: d.update(discard=["20"]), "discard[0]", "more '20' cards than the 4 there are"),
        (lambda d: d["draw"].remove("x3/2"), "hands", "cards missing from every zone: x3/2"),
        (lambda d: d["stock"].remove("OI-BCDEF"), "stock", "corporations missing from every zone: OI-BCDEF"),
    ],
)
def test_a_card_too_many_or_missing_is_refused(
    edit: Callable[[dict[str, Any]], object], field: str, message: str
) -> None:
    """One card too many of a name (a card in two places) is refused where the extra one is; a card
    found in no zone is named."""
    data = base()
    edit(data)
    err = refusal(data)
    assert err.field == field
    assert message in str(err)


def test_a_corporation_in_two_places_is_refused() -> None:
    """A corporation in the center and in the stock is refused where it is met the second time."""
    data = base()
    data["center"][0] = data["stock"][0]
    data["stock"].append("OI-B")
    err = refusal(data)
    assert err.field == "stock[0]"
    assert f"{data['stock'][0]} is also at center[0]" in str(err)


def test_a_corporation_in_two_holdings_is_refused() -> None:
    """The same corporation owned by two seats is refused, naming both places."""
    data = base()
    data["holdings"][2] = [["ST-A"]]  # seat 0 holds ST-A already
    err = refusal(data)
    assert err.field == "holdings[2][0][0]"
    assert "ST-A is also at holdings[0][0][0]" in str(err)


def test_a_profit_card_in_a_hand_is_refused() -> None:
    data = position(hands=[["10"], [], []])
    source = next(z for z in ("draw", "discard") if "profit" in data[z])
    data[source].remove("profit")
    data["hands"][1].append("profit")
    with pytest.raises(PositionError, match=r"^hands: a Profit card"):
        GAME.state_from_position(data)


@pytest.mark.parametrize(
    ("zone", "value", "field", "message"),
    [
        ("hands", [["25"], ["12"], ["x1"]], "hands[0][0]", "there is no resources card '25'"),
        ("discard", ["x2"], "discard[0]", "there is no resources card 'x2'"),
        ("center", ["ST-G"], "center[0]", "there is no corporation 'ST-G'"),
        ("center", ["ZZ-A"], "center[0]", "there is no corporation 'ZZ-A'"),
        ("center", ["AU-DEF"], "center[0]", "there is no corporation 'AU-DEF'"),
        ("draw", [7], "draw[0]", "there is no resources card 7"),
    ],
)
def test_unknown_card_names_are_refused(zone: str, value: object, field: str, message: str) -> None:
    """Names that are no card of the deck are refused with their place."""
    data = base()
    data[zone] = value
    err = refusal(data)
    assert err.field == field
    assert message in str(err)


def test_wrong_number_of_hands_is_refused() -> None:
    """Three players need three hands (and three holdings, three profits)."""
    data = base()
    data["draw"] += data["hands"].pop()
    err = refusal(data)
    assert err.field == "hands"
    assert "needs 3 entries" in str(err)
    data = base()
    data["holdings"] = data["holdings"][:2]
    assert refusal(data).field == "holdings"
    data = base()
    data["profits"] = [0, 0]
    assert refusal(data).field == "profits"


def test_owed_more_than_the_hand_can_pay_is_refused() -> None:
    """Seat 0 holds 30 million: owing 31 is impossible."""
    data = base()
    data["owed"], data["transacted"] = 31, True
    err = refusal(data)
    assert err.field == "owed"
    assert "31 is more than seat 0 can pay" in str(err)
    data["owed"] = 30
    assert GAME.state_from_position(data).owed == 30


def test_owed_without_a_transaction_is_refused() -> None:
    """Nothing is owed before a transaction."""
    data = base()
    data["owed"] = 8
    assert refusal(data).field == "owed"


@pytest.mark.parametrize(
    ("decisions", "field"),
    [
        ([], "decisions"),
        ({"kind": "turn"}, "decisions"),
        ([{"kind": "dance", "seats": [0], "data": {}}], "decisions[0].kind"),
        ([{"kind": "turn", "seats": [1], "data": {}}], "decisions[0].seats"),
        ([{"kind": "turn", "seats": [7], "data": {}}], "decisions[0].seats[0]"),
        ([{"kind": "turn", "seats": [0], "data": {}, "extra": 1}], "decisions[0].extra"),
        ([{"kind": "turn", "seats": [0], "data": {}}] * 2, "decisions"),
        ([{"kind": "pay", "seats": [0], "data": {"then": "finish"}}], "decisions"),
        (
            [{"kind": "turn", "seats": [0], "data": {}}, {"kind": "pay", "seats": [0], "data": {}}],
            "decisions[1].data.then",
        ),
        (
            [
                {"kind": "turn", "seats": [0], "data": {}},
                {"kind": "place", "seats": [0], "data": {"corp": "ST-A"}},
            ],
            "decisions[1].data.corp",
        ),
    ],
)
def test_bad_decision_stack_is_refused(decisions: object, field: str) -> None:
    """The decision stack must be one turn of the current player, then at most one of each sub-decision."""
    data = base()
    data["decisions"] = decisions
    assert refusal(data).field == field


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


def test_a_finished_game_has_no_decisions() -> None:
    """A position marked over may not have pending decisions."""
    data = base()
    data["over"] = True
    err = refusal(data)
    assert err.field == "decisions"
    data["decisions"] = []
    assert GAME.state_from_position(data).is_over()


@pytest.mark.parametrize(
    ("chance", "field"),
    [
        ("seed", "chance"),
        ({"events": 0}, "chance.seed"),
        ({"seed": "7"}, "chance.seed"),
        ({"seed": True}, "chance.seed"),
        ({"seed": 7, "events": -1}, "chance.events"),
        ({"seed": 7, "colour": 1}, "chance.colour"),
        ({"seed": 7, "forced": [{"kind": "order"}]}, "chance.forced[0]"),
        ({"seed": 7, "forced": [{"kind": "coin", "value": 1}]}, "chance.forced[0]"),
        ({"seed": 7, "forced": [{"kind": "order", "value": "10 12"}]}, "chance.forced[0]"),
        ({"seed": 7, "forced": [{"kind": "die", "value": "six"}]}, "chance.forced[0]"),
    ],
)
def test_bad_chance_fields_are_refused(chance: object, field: str) -> None:
    """The chance object's seed, event count and forced outcomes are checked field by field."""
    data = base()
    data["chance"] = chance
    assert refusal(data).field == field


def _letterless_stack(data: dict[str, Any]) -> None:
    """Gives seat 1 a stack OI-B on RR-C, which share no letter (refilling the center from the stock)."""
    data["holdings"][1].append(["OI-B", "RR-C"])
    data["center"] = [c for c in data["center"] if c not in ("OI-B", "RR-C")] + data["stock"][:2]
    del data["stock"][:2]


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.update(players=7), "players"),
        (lambda d: d.update(current=3), "current"),
        (lambda d: d.update(turn=0), "turn"),
        (lambda d: d.update(transacted="no"), "transacted"),
        (lambda d: d.update(profits=[0, -1, 0]), "profits[1]"),
        (lambda d: d.update(options={"payment": "never"}), "options"),
        (lambda d: d.update(options={"colour": "red"}), "options"),
        (lambda d: d["holdings"][0].append([]), "holdings[0][1]"),
        (_letterless_stack, "holdings[1][1]"),
        (lambda d: d["center"].extend([d["stock"].pop()]), "center"),
        (lambda d: d.update(payment=[d["draw"].pop(d["draw"].index("x1"))]), "payment"),
    ],
)
def test_other_impossible_fields_are_refused(edit: Callable[[dict[str, Any]], object], field: str) -> None:
    """Counters out of range, bad options, empty or letterless stacks, a crowded center, a proxy laid down."""
    data = base()
    edit(data)
    assert refusal(data).field == field


def test_two_players_need_fourteen_set_aside() -> None:
    """With two players the position must hold exactly 14 corporations aside."""
    data = position(2, hands=[["20"], ["10"]])
    assert len(data["aside"]) == 14
    GAME.state_from_position(data)
    data["stock"].append(data["aside"].pop())
    err = refusal(data)
    assert err.field == "aside"
    assert "must hold 14 corporations with 2 players" in str(err)


def test_the_must_reorganise_flag_round_trips() -> None:
    """A turn that must begin with a reorganisation ('a word of caution') keeps that duty when saved."""
    data = position(
        hands=[["10"], [], []],
        holdings={0: [["ST-A", "OI-AE", "ST-AB"]]},
        turn_data={"must_reorganise": True},
    )
    state = GAME.load_position(json.dumps(data))
    assert [str(a) for a in state.legal_actions()] == ["reorganise", "reorganise best"]
    assert text_of(GAME.load_position(json.dumps(state.to_position()))) == text_of(state)


def test_a_must_reorganise_duty_the_hand_cannot_pay_is_refused() -> None:
    """Seat 0 holds 3 corporations and 1 million: the forced reorganisation is impossible."""
    data = position(
        hands=[["1c"], [], []],
        holdings={0: [["ST-A", "OI-AE", "ST-AB"]]},
        turn_data={"must_reorganise": True},
    )
    err = refusal(data)
    assert err.field.startswith("decisions[0]")


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


# ------------------------------------------------------------------ loose acceptance (issue 10, part 4)
def test_no_venture_decision_is_open_to_several_seats_at_once() -> None:
    data = position()
    data["decisions"][0]["concurrent"] = True
    with pytest.raises(PositionError) as err:
        GAME.state_from_position(data)
    assert err.value.field == "decisions[0].concurrent"


@pytest.mark.parametrize(("turn", "over", "most"), [(1, False, 0), (5, False, 8), (5, True, 10)])
def test_profit_rounds_at_most_two_a_draw(turn: int, over: bool, most: int) -> None:
    """Each turn's draw exposes each of the two Profit cards at most once (ruling A-10); no draw comes
    before the first turn ends, and a game that is over had its last turn's draw."""
    data = position(turn=turn)
    data["profit_rounds"] = most
    if over:
        data["over"], data["decisions"] = True, []
    GAME.state_from_position(copy.deepcopy(data))
    data["profit_rounds"] = most + 1
    with pytest.raises(PositionError, match=f"at most {most}") as err:
        GAME.state_from_position(data)
    assert err.value.field == "profit_rounds"
