"""A fresh-eyes review of I'm the Boss!: each confirmed defect as a test of the correct behaviour.

The defects found have since been fixed, and the tests stay as regression tests.  A defect still open
would be marked ``xfail(strict=True)``, with a reason naming the rule it holds the engine to.  Other
tests pin behaviour the review checked and found right.  Three players unless said otherwise
(scenario.py's default placards: seat 0 R M, seat 1 O G, seat 2 B Y; with five, seat i holds the i-th
colour of R M O G B and Y is a spare).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from parlour.core.errors import PositionError
from parlour.games.im_the_boss import GAME, BossState
from parlour.games.im_the_boss.actions import Travel
from parlour.games.im_the_boss.bots import GreedyBot

from .scenario import deal_record, everyone_passes, legal, load, negotiation, play, position, terms

Position = dict[str, Any]


def loads(data: Position) -> BossState:
    """Returns the state of a position, read through its JSON text as a user's file would be."""
    return GAME.load_position(json.dumps(data))


def nego_position(players: int = 3, space: int = 4, boss: int = 0, **kwargs: Any) -> Position:
    """Returns the position just after seat ``boss`` said "Let's make a deal" on ``space``."""
    return negotiation(players, space=space, boss=boss, **kwargs).to_position()


# ------------------------------------------------------------------ the negotiation limit


def test_a_self_sufficient_boss_can_still_close_after_another_seat_exhausts_the_limit() -> None:
    """Seat 0 holds R and O (all space 4 needs); seat 1 re-prices up to the limit; seat 0 may call.

    Fixed by rulings B-5 (own placards join the terms by themselves) and B-2 (a budget per seat).
    """
    state = negotiation(
        space=4,
        boss=0,
        options={"negotiation_limit": 3},
        placards={"R": 0, "O": 0, "M": 1, "G": 1, "B": 2, "Y": 2},
        hands={1: ["clan:R"]},
    )
    assert terms(state) == {"O": (0, 0, True), "R": (0, 0, True)}
    play(state, "1: lay R", "1: offer R 1", "1: offer R 2")
    # Seat 1 has used its own actions only: it may pass; the Boss still has all of its own.
    assert legal(state, 1) == ["pass"]
    assert "call" in legal(state, 0)
    play(state, "0: call")
    everyone_passes(state)
    assert state.money == [6, 0, 0]


def test_at_the_limit_the_boss_can_always_fail() -> None:
    """However the limits are reached, the Boss keeps a way out: 'fail' ends the negotiation."""
    state = negotiation(space=4, boss=0, options={"negotiation_limit": 2}, hands={1: ["clan:R"]})
    play(state, "1: lay R", "1: offer R 1", "0: drop R", "0: include R @1 1")
    # Both have used their actions; the terms do not stand (seat 1 has not agreed, O is missing).
    assert legal(state, 0) == ["pass", "fail"]
    assert legal(state, 1) == ["pass", "agree", "refuse"]
    everyone_passes(state)
    assert legal(state, 0) == ["fail"]
    play(state, "0: fail")
    assert state.nego is None and state.deciders() == (1,)


# ------------------------------------------------------------------ positions


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


def test_the_uncovered_closing_round_really_closes_an_empty_deal() -> None:
    """Why the previous test matters: once loaded, three passes pay the Boss for a deal nobody joined."""
    try:
        state = loads(closing_round_without_cover())
    except PositionError:
        return  # fixed: the loader refuses it
    everyone_passes(state)
    assert state.deals and state.deals[0]["payments"] == {} and state.money[0] == 6


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


def test_the_greedy_bot_survives_any_loadable_position() -> None:
    """Whatever a position loads with, the greedy bot chooses a legal action."""
    try:
        state = loads(bad_deal_records())
    except PositionError:
        return
    play(state, "0: deal")
    assert GreedyBot().choose(state, 1) in state.legal_actions(1)


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
def test_positions_the_loader_already_refuses(build: Callable[[], Position]) -> None:
    """Checked and right: these impossible positions are refused."""
    with pytest.raises(PositionError):
        loads(build())


# ------------------------------------------------------------------ hints and messages


def test_the_hint_counts_a_laid_clan_card() -> None:
    """After laying its O Clan card on space 15 (M O), seat 2 is told it can bring O."""
    state = negotiation(space=15, boss=0, hands={2: ["clan:O"]})
    play(state, "2: lay O")
    assert "you can bring O yourself" in state.hints(2)[0]


def test_the_hint_does_not_count_a_travelling_placard() -> None:
    """Seat 1's O placard is sent travelling: the hint no longer says seat 1 can bring O."""
    state = negotiation(space=4, boss=0, hands={2: ["travel:O"]})
    play(state, "2: travel O")
    everyone_passes(state)
    assert "O" in state.nego.travelling
    assert "you can bring none of them yourself" in state.hints(1)[0]


def test_the_closing_event_names_the_unit_of_each_payment() -> None:
    """'The Boss pays seat 1 2 million', not 'seat 1 2'."""
    state = negotiation(space=4, boss=0)
    play(state, "1: offer O 2", "0: accept O @1", "0: call", "1: pass")
    events = state.apply_notation("pass", 2)
    text = next(e.text for e in events if "is closed" in e.text)
    paid = text.split("the Boss pays ")[1].split(". Deal card")[0]
    assert all(re.fullmatch(r"seat \d+ \d+ million", part) for part in paid.split(", ")), text


def test_the_board_rows_keep_the_dividends_in_one_column() -> None:
    """Every board row of the rendered table puts 'div' at the same column."""
    rows = [line for line in load().render(0).splitlines() if re.match(r" [ >]\[", line)]
    assert len(rows) == 16
    assert len({row.index(" div") for row in rows}) == 1


# ------------------------------------------------------------------ the greedy bot


def leading_boss_table() -> BossState:
    """Five players; seat 4 (O placard) leads on money and opens space 11 (B R O); B is a spare.

    Seat 1 holds a B Clan card and a B Travel card: once it lays B it is the deal's only B.
    """
    data = position(
        5,
        placards={"R": 0, "M": 1, "O": 4, "G": 3, "B": None, "Y": 2},
        covered={1: 1},
        deals=[deal_record(1, 1, boss=4)],
        marker=11,
        current=4,
        hands={1: ["clan:B", "travel:B"]},
        money=[0, 0, 0, 0, 12],
    )
    state = loads(data)
    play(state, "4: deal", "1: lay B")
    assert terms(state) == {"O": (4, 0, True)}
    return state


def test_greedy_never_sends_its_own_investor_travelling() -> None:
    """The issue's greedy plays Travel against a rival's investor, never against its own."""
    state = leading_boss_table()
    action = GreedyBot().choose(state, 1)
    travel = isinstance(action, Travel)
    own = travel and (action.seat == 1 or (action.seat == -1 and state.owners.get(action.colour) == 1))
    assert not own, str(action)


def test_greedy_boss_drops_a_redundant_paid_line_before_calling() -> None:
    """Space 7 needs one of B M: with both agreed at 2, the Boss drops one before it calls."""
    state = negotiation(5, space=7, boss=0)
    play(state, "0: include M @1 2", "1: agree", "0: include B @4 2", "4: agree")
    play(state, "0: include O @2 2", "2: agree")
    assert set(terms(state)) == {"R", "M", "B", "O"}
    assert str(GreedyBot().choose(state, 0)) in ("drop M", "drop B")


def test_greedy_plays_a_boss_card_it_only_considered_earlier() -> None:
    """A bot that agreed instead of playing its Boss card still plays it later, like a fresh bot."""
    state = negotiation(5, space=5, boss=0, hands={1: ["boss", "clan:O", "clan:G", "clan:B"]})
    bot = GreedyBot()
    play(state, "0: include M @1 2")
    assert str(bot.choose(state, 1)) == "agree"
    play(state, "1: agree", "0: drop M")
    assert str(GreedyBot().choose(state, 1)) == "boss"
    assert str(bot.choose(state, 1)) == "boss"


def test_greedy_uses_only_what_its_seat_may_know() -> None:
    """Re-dealing the other hands and the deck never changes the greedy bot's choice."""
    import random

    state = negotiation(5, space=5, boss=0, hands={1: ["boss", "clan:O"], 2: ["stop", "travel:any"]})
    play(state, "0: include M @1 2")
    rng = random.Random(3)
    for seat in range(5):
        if seat in state.deciders():
            choice = GreedyBot().choose(state, seat)
            for _ in range(3):
                assert GreedyBot().choose(state.determinize(seat, rng), seat) == choice
