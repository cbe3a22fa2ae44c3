"""Malformed I'm the Boss! positions (issue 10, part 4): a one-line PositionError naming the field.

Windows that deadlocked the game (an empty Stop or bargaining window, a seat listed twice) and keys
that crashed the Python API (integer seats in payments and tips) are refused when loading; every
decision's seats, data and window type are read against what legal play produces
(``parlour/games/im_the_boss/readers.py``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from parlour.core.errors import PositionError
from parlour.games.im_the_boss import BossGameState

from ..typed import BOSS as GAME
from .scenario import deal_record, negotiation, play, position

Position = dict[str, Any]


def refusal(data: Position, as_text: bool = True) -> PositionError:
    """Loads a position that must be refused (as data, and as JSON text); returns the error."""
    before = copy.deepcopy(data)
    with pytest.raises(PositionError) as err:
        GAME.state_from_position(data)
    assert data == before, "refusing must not change the caller's data"
    assert "\n" not in str(err.value)
    if as_text:
        with pytest.raises(PositionError):
            GAME.load_position(json.dumps(data))
    return err.value


def bargaining() -> Position:
    """Seat 0 has just opened a negotiation on space 4 (three players): everyone may act."""
    return negotiation().to_position()


def stop_window() -> Position:
    """Seat 2 has played a Travel card: seats 0 and 1, from its left, may answer with a Stop."""
    state = negotiation(hands=[[], [], ["travel:O"]])
    play(state, "1: offer O 2", "0: accept O @1", "2: travel O")
    data = state.to_position()
    assert [d["kind"] for d in data["decisions"]] == ["bargain", "respond"]
    return data


def closing_round() -> Position:
    """Seat 0, the Boss, has called the deal: seats 1 and 2 may still play a card or pass."""
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1", "0: call")
    data = state.to_position()
    assert [d["kind"] for d in data["decisions"]] == ["bargain", "closing"]
    return data


def with_seats(data: Position, index: int, seats: Any) -> Position:
    """Returns the position with decision ``index`` asking ``seats``."""
    data["decisions"][index]["seats"] = seats
    return data


def test_the_windows_load_as_written() -> None:
    for data in (bargaining(), stop_window(), closing_round()):
        GAME.state_from_position(data)


@pytest.mark.parametrize("seats", [[], [0, 0], [1, 0], [2, 0], [0, 1, 2], [3]])
def test_a_stop_window_that_legal_play_cannot_open(seats: list[int]) -> None:
    """Empty (it deadlocked: nobody asked, 'apply pass' said the game was over), a seat twice, out of
    order from the player's left, or asking the player who played the card."""
    assert refusal(with_seats(stop_window(), 1, seats)).field.startswith("decisions[1].seats")


def test_a_stop_window_some_seats_have_passed_loads() -> None:
    state = GAME.state_from_position(with_seats(stop_window(), 1, [1]))
    assert state.deciders() == (1,)


@pytest.mark.parametrize("seats", [[], [1, 1], [2, 1], [0, 0, 1, 2], [0, 1, 2, 0]])
def test_a_bargaining_window_that_legal_play_cannot_open(seats: list[int]) -> None:
    assert refusal(with_seats(bargaining(), 0, seats)).field == "decisions[0].seats"


def test_a_bargaining_window_after_some_passes_loads() -> None:
    state = GAME.state_from_position(with_seats(bargaining(), 0, [0, 2]))
    assert state.deciders() == (0, 2)


def test_a_quiet_bargaining_window_asks_only_the_boss() -> None:
    data = bargaining()
    data["decisions"][0]["data"]["quiet"] = True
    assert refusal(with_seats(copy.deepcopy(data), 0, [1])).field == "decisions[0].seats"
    assert GAME.state_from_position(with_seats(data, 0, [0])).deciders() == (0,)


@pytest.mark.parametrize("seats", [[], [2, 1], [1, 1], [1], [0, 1, 2]])
def test_a_closing_round_is_the_seats_after_the_boss_still_to_pass(seats: list[int]) -> None:
    assert refusal(with_seats(closing_round(), 1, seats)).field == "decisions[1].seats"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "decisions[0].data.quiet"),
        ({"quiet": 1}, "decisions[0].data.quiet"),
        ({"quiet": False, "x": 0}, "decisions[0].data.x"),
    ],
)
def test_bargaining_data_is_exactly_the_quiet_flag(data: dict[str, Any], field: str) -> None:
    position_ = bargaining()
    position_["decisions"][0]["data"] = data
    assert refusal(position_).field == field


@pytest.mark.parametrize(("make", "index"), [(bargaining, 0), (stop_window, 1)])
def test_open_windows_are_concurrent_and_the_others_are_not(make: Any, index: int) -> None:
    data = make()
    data["decisions"][index]["concurrent"] = False
    assert refusal(data).field == f"decisions[{index}].concurrent"
    turn = position()
    turn["decisions"][0]["concurrent"] = True
    assert refusal(turn).field == "decisions[0].concurrent"


def test_a_turn_decision_holds_no_data() -> None:
    data = position()
    data["decisions"][0]["data"] = {"quiet": False}
    assert refusal(data).field == "decisions[0].data.quiet"


# ------------------------------------------------------------------ keys that are not seat names
def test_integer_keys_in_deal_payments_are_refused() -> None:
    """Python API: a dict with integer keys raised AttributeError ('int' has no isdecimal)."""
    data = position(covered={5: 1}, deals=[deal_record(5, 1, payments={1: 1})])
    GAME.state_from_position(copy.deepcopy(data))
    data["deals"][0]["payments"] = {1: 1}
    assert refusal(data, as_text=False).field == "deals[0].payments"


@pytest.mark.parametrize("key", ["01", "-1", "3", "x", " 1"])
def test_payments_keyed_by_anything_but_a_seat_are_refused(key: str) -> None:
    data = position(covered={5: 1}, deals=[deal_record(5, 1)])
    data["deals"][0]["payments"] = {key: 1}
    assert refusal(data).field == "deals[0].payments"


def test_integer_keys_in_tips_are_refused() -> None:
    state = negotiation()
    play(state, "0: tip @1 1")
    data = state.to_position()
    assert data["negotiation"]["tips"] == {"1": [1, False]}
    GAME.state_from_position(copy.deepcopy(data))
    data["negotiation"]["tips"] = {1: [1, False]}
    assert refusal(data, as_text=False).field == "negotiation.tips"
    data["negotiation"]["tips"] = {"01": [1, False]}
    assert refusal(data).field == "negotiation.tips.01"


@pytest.mark.parametrize("colour", ["", "RM", "r", "OG"])
def test_offers_and_terms_name_one_colour_exactly(colour: str) -> None:
    """The colours were checked as a substring of 'RMOGBY': an empty colour crashed the deal (KeyError)."""
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1")
    data = state.to_position()
    offers = copy.deepcopy(data)
    offers["negotiation"]["offers"][0][0] = colour
    assert refusal(offers).field == "negotiation.offers[0]"
    terms = copy.deepcopy(data)
    terms["negotiation"]["terms"][colour] = terms["negotiation"]["terms"].pop("O")
    assert refusal(terms).field.startswith("negotiation.terms")


# ------------------------------------------------------------------ positions legal play cannot reach
def loads(data: Position) -> BossGameState:
    """Returns the state of a position, read through its JSON text as a user's file would be."""
    return GAME.load_position(json.dumps(data))


def nego_position(players: int = 3, space: int = 4, boss: int = 0, **kwargs: Any) -> Position:
    """Returns the position just after seat ``boss`` said "Let's make a deal" on ``space``."""
    return negotiation(players, space=space, boss=boss, **kwargs).to_position()


def closing_round_without_cover() -> Position:
    """A closing round on the stack while the terms are empty."""
    data = nego_position()
    data["negotiation"]["called"] = True
    data["decisions"].append({"kind": "closing", "seats": [1, 2], "data": {}, "concurrent": False})
    return data


def test_a_closing_round_whose_terms_do_not_cover_the_space_is_refused() -> None:
    """A position in its closing round with terms that cannot stand is refused on load."""
    with pytest.raises(PositionError, match=r"^negotiation\.called"):
        loads(closing_round_without_cover())


def test_a_turn_stacked_on_a_negotiation_is_refused() -> None:
    """The decision stack [bargain, turn] cannot arise in play and is refused on load."""
    state = negotiation(space=4, boss=0, hands={1: ["clan:O"]})
    play(state, "1: lay O")
    data = state.to_position()
    data["decisions"].append({"kind": "turn", "seats": [0], "data": {}, "concurrent": False})
    with pytest.raises(PositionError):
        loads(data)


def bad_deal_records() -> Position:
    """A game whose public record of deals holds an entry without its fields (space 1 is covered)."""
    data = position(5, covered={1: 1}, marker=4, current=0)
    data["deals"] = [{"card": 1}]
    return data


def test_a_malformed_record_of_deals_is_refused() -> None:
    """A deal record without boss, proceeds and payments is refused on load."""
    with pytest.raises(PositionError, match=r"^deals\[0\]"):
        loads(bad_deal_records())


def deal_cards_upside_down() -> Position:
    """Deal card 15 on top of the stack."""
    return position(deal_cards=list(range(15, 0, -1)))


def deal_cards_missing() -> Position:
    """Only deal cards 1-3 anywhere."""
    return position(deal_cards=[1, 2, 3])


def short_game_with_3_6_9() -> Position:
    """A short game that still stacks cards 3, 6 and 9."""
    return position(options={"length": "short"}, deal_cards=list(range(1, 16)))


def higher_card_on_the_board() -> Position:
    """Deal card 5 covers a space while cards 1-4 are still stacked."""
    return position(covered={2: 5}, marker=5)


def thirteen_cards_at_a_turn() -> Position:
    """A hand over the limit outside the hand-limit decision."""
    return position(hands={0: ["recruit"] * 13})


def limit_decision_with_one_card() -> Position:
    """A hand-limit decision for a seat holding one card."""
    return position(hands={0: ["stop"]}, decision="limit")


def laid_colour_not_on_the_space() -> Position:
    """A G Clan card laid on space 4 (R O), against ruling A-11."""
    data = nego_position()
    data["negotiation"]["laid"][1] = ["clan:G"]
    data["draw"].remove("clan:G")
    return data


def ask_over_the_proceeds() -> Position:
    """An offer asking 50 million of a deal worth 6 (ruling A-07: at most the proceeds)."""
    data = nego_position()
    data["negotiation"]["offers"] = [["O", 1, 50]]
    return data


def called_without_closing_round() -> Position:
    """``called`` is true but no closing round is on the stack."""
    data = nego_position()
    data["negotiation"]["called"] = True
    return data


def covered_space_without_its_record() -> Position:
    """Deal card 1 covers space 2, but the public record of deals is empty."""
    return position(covered={2: 1}, deals=[], marker=5)


def record_of_another_card() -> Position:
    """The record says deal card 2 closed the deal on space 2; card 1 lies there."""
    return position(covered={2: 1}, deals=[deal_record(2, 2)], marker=5)


def turn_of_another_seat() -> Position:
    """Seat 0's turn, but the turn decision asks seat 1."""
    data = position(current=0)
    data["decisions"][0]["seats"] = [1]
    return data


IMPOSSIBLE: list[Any] = [
    # (the position, the field the refusal must name, the rule it breaks)
    pytest.param(fn, field, id=fn.__name__)
    for fn, field, _why in [
        (deal_cards_upside_down, "deal_cards", "deal cards are stacked 1 on top to 15"),
        (deal_cards_missing, "deal_cards", "every deal card must be stacked or on the board"),
        (short_game_with_3_6_9, "deal_cards", "length=short removes cards 3, 6, 9"),
        (higher_card_on_the_board, "deal_cards", "cards leave the stack from the top"),
        (thirteen_cards_at_a_turn, r"hands\[0\]", "hand limit 12 outside the hand-limit decision"),
        (limit_decision_with_one_card, r"hands\[0\]", "a hand-limit decision needs a hand over 12"),
        (laid_colour_not_on_the_space, r"negotiation\.laid\[1\]", "A-11: only colours printed on the space"),
        (ask_over_the_proceeds, r"negotiation\.offers", "A-07: an ask is at most the proceeds"),
        (called_without_closing_round, r"negotiation\.called", "called and the closing round go together"),
        (covered_space_without_its_record, "deals", "every closed deal is in the public record"),
        (record_of_another_card, r"deals\[0\]\.card", "the record names the card covering the space"),
        (turn_of_another_seat, "decisions", "the turn decision asks the current seat"),
    ]
]


@pytest.mark.parametrize(("build", "field"), IMPOSSIBLE)
def test_positions_that_cannot_arise_are_refused(build: Callable[[], Position], field: str) -> None:
    """A position no game could reach is refused on load with a PositionError naming the field."""
    with pytest.raises(PositionError, match=f"^{field}"):
        loads(build())


def terms_by_a_non_supplier() -> Position:
    """A line for O held by seat 2, which cannot supply O."""
    data = nego_position()
    data["negotiation"]["terms"] = {"O": [2, 2, True]}
    return data


def wrong_proceeds() -> Position:
    """Proceeds that are not dividends × the top card's value."""
    data = nego_position()
    data["negotiation"]["proceeds"] = 999
    return data


def unfinished_without_deal_cards() -> Position:
    """No deal card left (all 15 on the board) but the game not over."""
    return position(covered={n: n for n in range(1, 16)}, marker=16, deal_cards=[])


@pytest.mark.parametrize("build", [terms_by_a_non_supplier, wrong_proceeds, unfinished_without_deal_cards])
def test_terms_by_a_non_supplier_wrong_proceeds_and_an_endless_game_are_refused(
    build: Callable[[], Position],
) -> None:
    """A line nobody can supply, proceeds not dividends × the top card, a game without deal cards not over."""
    with pytest.raises(PositionError):
        loads(build())
