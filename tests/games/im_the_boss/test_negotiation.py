"""Negotiation, Influence cards, closing and failing (rulebook: 'Let's make a Deal' to 'End of the Game').

Unless a test says otherwise: three players, seat 0 holds the R and M placards, seat 1 O and G,
seat 2 B and Y; deal card 1 (2 million a dividend) is on top.  Space 4 needs R and O (3 dividends,
proceeds 6), space 8 needs M and G plus one of B Y (4 dividends, proceeds 8), space 11 needs B R O
(4 dividends, proceeds 8).
"""

from __future__ import annotations

from typing import Any

import pytest

from parlour.core.errors import IllegalActionError
from parlour.games.im_the_boss import BossGameState
from parlour.testing.kit import snapshot

from .scenario import (
    check,
    everyone_passes,
    force_die,
    hand,
    kinds,
    laid,
    legal,
    marker,
    names,
    nego,
    negotiation,
    passes,
    play,
    terms,
    verbs,
)


def refused(state: BossGameState, line: str, match: str = "") -> None:
    """Asserts that the action is refused with a message (matching ``match``) and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=match or None) as err:
        play(state, line)
    assert str(err.value)
    assert snapshot(state) == before


def closing_space_4(state: BossGameState) -> None:
    """Seat 0, the Boss of space 4, has its R in the terms by itself (ruling B-5), takes seat 1's O for 2
    and calls."""
    play(state, "1: offer O 2", "0: accept O @1", "0: call")


# ------------------------------------------------------------------ opening a negotiation


def test_deal_opens_a_negotiation_where_every_seat_may_act() -> None:
    """'Let's make a Deal': the player is the Boss; every seat may act, listed from the Boss clockwise."""
    state = negotiation(space=4, boss=1)
    assert kinds(state) == ["bargain"]
    assert state.deciders() == (1, 2, 0)
    assert nego(state).boss == nego(state).opener == 1
    assert nego(state).proceeds == 3 * 2


def test_the_proceeds_are_the_dividends_times_the_top_deal_card() -> None:
    """'the top deal card determines the value of each dividend': 4 dividends on card 13 (5) pay 20."""
    state = negotiation(
        space=8, covered={1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 9: 8, 10: 9, 11: 10, 12: 11, 13: 12}
    )
    assert (top := state.top_card()) is not None and top.number == 13
    assert nego(state).proceeds == 4 * 5


def test_a_pass_waits_until_someone_acts() -> None:
    """A seat that passes is not asked again until another seat acts; then everyone is asked again."""
    state = negotiation()
    passes(state, 1)
    assert state.deciders() == (0, 2)
    refused(state, "1: offer O 2", "may not act now")
    play(state, "2: pass", "0: include O @1 2")
    assert state.deciders() == (0, 1, 2)


def test_when_everyone_has_passed_only_the_boss_is_asked_and_may_not_pass() -> None:
    """Ruling B-2: once every seat has passed, only the Boss is asked; it keeps its actions but 'pass'."""
    state = negotiation()
    assert terms(state) == {"R": (0, 0, True)}
    everyone_passes(state)
    assert state.deciders() == (0,)
    assert "pass" not in legal(state, 0) and "call" not in legal(state, 0)
    assert {"include O @1 2", "tip @1 1", "drop R", "fail"} <= set(legal(state, 0))
    refused(state, "0: pass", "seat 0 may")
    refused(state, "1: offer O 2", "may not act now")


def test_a_quiet_bosss_proposal_asks_everyone_again() -> None:
    """Ruling B-2: a Boss that proposes, passes to let the others answer and meets a refusal keeps
    bargaining once everyone has passed: a better proposal reopens the window and the deal closes."""
    state = negotiation()
    play(state, "0: include O @1 1", "0: pass", "1: refuse")
    assert terms(state) == {"R": (0, 0, True)} and state.deciders() == (0, 1, 2)
    everyone_passes(state)
    assert state.deciders() == (0,) and "include O @1 3" in legal(state, 0)
    play(state, "0: include O @1 3")
    assert state.deciders() == (0, 1, 2) and nego(state).counted == [2, 0, 0]
    play(state, "1: agree")
    everyone_passes(state)
    assert state.deciders() == (0,) and "call" in legal(state, 0)
    play(state, "0: call")
    everyone_passes(state)
    assert state.money == [3, 3, 0]


def test_a_quiet_boss_out_of_actions_may_only_call_or_fail() -> None:
    """Ruling B-2: a quiet Boss that has used its actions may only call (if the deal stands) or fail."""
    state = negotiation(options={"negotiation_limit": 1})
    play(state, "1: offer O 2", "0: accept O @1")
    everyone_passes(state)
    assert legal(state, 0) == ["call", "fail"]


def test_the_negotiation_limit_counts_each_seats_actions() -> None:
    """Ruling B-2: a budget per seat; every action but pass, agree and refuse counts against its seat."""
    state = negotiation()
    assert state.options["negotiation_limit"] == 20 and nego(state).counted == [0, 0, 0]
    play(state, "1: pass", "2: pass", "0: include O @1 1", "1: agree", "0: tip @2 1", "2: refuse")
    play(state, "1: offer O 2", "2: pass")
    assert nego(state).counted == [2, 1, 0]


def test_the_negotiation_limit_leaves_the_boss_only_pass_call_or_fail() -> None:
    """Ruling B-2: a Boss that has used its actions may only pass, call (the deal stands) or fail."""
    state = negotiation(options={"negotiation_limit": 3})
    play(state, "1: pass", "2: pass", "0: tip @2 1", "1: offer O 2", "0: tip @2 0")
    assert nego(state).counted == [2, 1, 0]
    play(state, "0: accept O @1")
    assert nego(state).counted == [3, 1, 0]
    assert state.deciders() == (0, 1, 2)
    assert legal(state, 0) == ["pass", "call", "fail"]
    refused(state, "0: drop O", "seat 0 may: call, fail, pass")
    # The other seats keep their own actions.
    play(state, "1: offer O 3")
    assert nego(state).offers == {("O", 1): 3}


def test_a_boss_at_its_limit_without_standing_terms_can_only_pass_or_fail() -> None:
    """Ruling B-2: at the limit, terms that do not cover the space leave the Boss only 'pass' or 'fail'."""
    state = negotiation(options={"negotiation_limit": 2})
    play(state, "1: offer O 2", "0: tip @1 1", "0: tip @1 0")
    assert legal(state, 0) == ["pass", "fail"]
    everyone_passes(state)
    assert state.deciders() == (0,) and legal(state, 0) == ["fail"]


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


def test_a_seat_that_has_used_its_actions_may_only_pass_or_answer_the_terms() -> None:
    """Ruling B-2: a seat out of actions may pass, and agree or refuse when the terms name it."""
    state = negotiation(options={"negotiation_limit": 2})
    play(state, "1: offer O 3", "1: offer O 2")
    assert nego(state).counted == [0, 2, 0]
    assert legal(state, 1) == ["pass"]
    refused(state, "1: withdraw O", "seat 1 may: pass")
    play(state, "0: include O @1 1")
    assert legal(state, 1) == ["pass", "agree", "refuse"]
    play(state, "1: agree")
    assert nego(state).counted == [1, 2, 0] and terms(state)["O"] == (1, 1, True)
    assert legal(state, 1) == ["pass"] and "call" in legal(state, 0)


def test_another_seats_actions_never_use_up_the_bosss() -> None:
    """Ruling B-2: 'no seat can use up the others' chances: a Boss whose own investors cover the deal
    can always call'."""
    state = negotiation(
        options={"negotiation_limit": 3},
        placards={"R": 0, "O": 0, "M": 1, "G": 1, "B": 2, "Y": 2},
        hands={1: ["clan:R"]},
    )
    play(state, "1: lay R", "1: offer R 1", "1: offer R 2")
    assert legal(state, 1) == ["pass"]
    assert "call" in legal(state, 0)
    play(state, "0: call")
    everyone_passes(state)
    assert state.money == [6, 0, 0]


def test_stops_and_closing_round_cards_count_but_are_not_limited() -> None:
    """Ruling B-2: a Stop and a card in the closing round count against their seat but stay playable."""
    hands = [[], ["stop", "travel:any"], ["travel:R", "stop"]]
    state = negotiation(options={"negotiation_limit": 1}, hands=hands)
    play(state, "1: offer O 2", "2: travel R")
    assert legal(state, 1) == ["stop", "pass"]
    play(state, "1: stop")
    assert nego(state).counted == [0, 2, 1]
    play(state, "0: accept O @1", "0: call")
    assert nego(state).counted == [2, 2, 1] and legal(state, 1) == ["pass", "travel R", "travel O"]
    play(state, "1: travel R")
    assert nego(state).counted == [2, 3, 1]
    play(state, "2: stop")
    assert nego(state).counted == [2, 3, 2]
    assert kinds(state) == ["bargain", "closing"]


# ------------------------------------------------------------------ who may supply an investor


def test_the_bosss_own_placards_join_the_terms_by_themselves() -> None:
    """Ruling B-5: 'the Investor(s) you represent will automatically agree': an agreed line paying nothing."""
    state = negotiation()
    assert terms(state) == {"R": (0, 0, True)}
    assert "use R" not in legal(state, 0)
    refused(state, "0: use R")
    # Only colours printed on the space: seat 1's G is not on space 4, its O is.
    state = negotiation(boss=1)
    assert terms(state) == {"O": (1, 0, True)}


def test_the_boss_brings_back_a_dropped_placard_with_use() -> None:
    """Ruling B-5: a placard line the Boss dropped comes back with 'use C', agreed at once."""
    state = negotiation()
    play(state, "0: drop R")
    assert terms(state) == {}
    play(state, "0: use R")
    assert terms(state) == {"R": (0, 0, True)}


def test_a_dropped_placard_line_stays_out_until_the_boss_uses_it() -> None:
    """Ruling B-5: placards join by themselves only at the opening, after a Boss card or a recruitment
    by the Boss; other actions, and other seats' cards, leave a dropped line out."""
    state = negotiation(hands=[[], [], ["travel:O"]])
    play(state, "0: drop R", "1: offer O 2", "0: accept O @1", "0: tip @2 1", "2: refuse", "2: travel O")
    passes(state, 0, 1)
    assert terms(state) == {}
    assert "use R" in legal(state, 0)


def test_a_dropped_placard_line_stays_out_after_the_bosss_own_travel() -> None:
    """Ruling B-5: a Travel played by the Boss is not one of the moments its placards join the terms."""
    state = negotiation(hands=[["travel:O"], [], []])
    play(state, "0: drop R", "0: travel O")
    passes(state, 1, 2)
    assert "O" in nego(state).travelling
    assert terms(state) == {}


def test_a_seat_holding_the_placard_may_offer_it() -> None:
    """'If the player has an Investor placard, she can offer the use of that Investor ... immediately'."""
    state = negotiation()
    assert [a for a in legal(state, 1) if a.startswith("offer")] == [f"offer O {n}" for n in range(7)]
    play(state, "1: offer O 4")
    assert nego(state).offers == {("O", 1): 4}


def test_a_seat_without_the_placard_or_a_clan_card_may_not_offer() -> None:
    """Only a supplier of a colour may offer it: seat 2 holds no R or O."""
    state = negotiation()
    assert legal(state, 2) == ["pass"]
    refused(state, "2: offer O 1", "seat 2 may: pass")


def test_the_boss_may_not_offer_and_others_may_not_shape_the_terms() -> None:
    """Offers are made to the Boss; accept, include, use, drop, tip and call are the Boss's alone."""
    state = negotiation(hands=[["clan:O"], ["clan:R"], []])
    play(state, "0: lay O", "1: lay R", "1: offer R 1")
    refused(state, "0: offer O 1")
    for line in ["1: accept R @1", "1: use O", "1: include O @0 1", "1: tip @2 1", "1: call", "1: fail"]:
        refused(state, line)


def test_a_clan_card_must_be_laid_before_it_is_offered() -> None:
    """'if she holds a Clan card, she must first lay that card face up in front of her'."""
    state = negotiation(hands=[[], [], ["clan:R", "clan:R"]])
    refused(state, "2: offer R 1")
    play(state, "2: lay R")
    assert laid(state, 2) == ["clan:R"] and hand(state, 2) == ["clan:R"]
    play(state, "2: offer R 1")
    assert nego(state).offers == {("R", 2): 1}
    check(state)


def test_only_colours_printed_on_the_space_may_be_laid() -> None:
    """Ruling A-11: a Clan card of a colour the space does not print cannot be laid."""
    state = negotiation(hands=[[], [], ["clan:G", "clan:R"]])
    assert [a for a in legal(state, 2) if a.startswith("lay")] == ["lay R"]
    refused(state, "2: lay G", "does not list G")


def test_a_clan_card_may_be_laid_where_the_boss_supplies_the_colour() -> None:
    """Ruling A-11: laying a second card of a needed colour (insurance against a Travel) is allowed."""
    state = negotiation(hands=[["clan:R"], [], []])
    play(state, "0: lay R")
    assert laid(state, 0) == ["clan:R"]


def test_the_boss_may_lay_a_clan_card_and_use_it() -> None:
    """The Boss, too, may play Clan cards from its hand to bring in a required investor."""
    state = negotiation(hands=[["clan:O"], [], []])
    assert "use O" not in legal(state, 0)
    play(state, "0: lay O", "0: use O")
    assert terms(state) == {"O": (0, 0, True), "R": (0, 0, True)}
    assert "call" in legal(state, 0)


# ------------------------------------------------------------------ the terms


def test_accept_takes_an_offer_at_its_ask() -> None:
    """'accept C @S' makes an agreed line at the seat's ask."""
    state = negotiation()
    play(state, "1: offer O 3", "0: accept O @1")
    assert terms(state) == {"O": (1, 3, True), "R": (0, 0, True)}


def test_a_proposal_needs_the_seats_agreement() -> None:
    """'include C @S N' is a proposal: it does not count for a call until seat S agrees."""
    state = negotiation()
    play(state, "0: include O @1 2")
    assert terms(state)["O"] == (1, 2, False)
    assert "call" not in legal(state, 0)
    assert {"agree", "refuse"} <= verbs(state, 1)
    play(state, "1: agree")
    assert terms(state)["O"] == (1, 2, True)
    assert "call" in legal(state, 0)


def test_refusing_strikes_the_proposal() -> None:
    """'refuse' strikes the lines naming the seat that it has not agreed to."""
    state = negotiation()
    play(state, "0: include O @1 1", "1: refuse")
    assert terms(state) == {"R": (0, 0, True)}
    assert "agree" not in legal(state, 1)


def test_calling_strikes_the_lines_not_yet_agreed() -> None:
    """Ruling B-4: the call needs the agreed lines to cover the space, and strikes lines not yet agreed."""
    state = negotiation(space=8, hands=[[], [], ["clan:G"]])
    play(state, "2: lay G", "2: offer G 1", "0: accept G @2", "0: include B @2 2")
    # M and G agreed, B only proposed: the agreed lines do not cover '1 of B Y'.
    assert "call" not in legal(state, 0)
    play(state, "2: offer Y 1", "0: accept Y @2", "0: tip @1 1")
    assert terms(state)["B"] == (2, 2, False) and "call" in legal(state, 0)
    play(state, "0: call")
    assert terms(state) == {"G": (2, 1, True), "M": (0, 0, True), "Y": (2, 1, True)}
    assert nego(state).tips == {}
    everyone_passes(state)
    assert state.money == [6, 0, 2]


def test_withdrawing_an_offer_strikes_its_line() -> None:
    """Ruling A-09 (ii): a supplier may withdraw its offer, which strikes its line."""
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1", "1: withdraw O")
    assert nego(state).offers == {} and terms(state) == {"R": (0, 0, True)}


def test_the_boss_may_drop_or_replace_a_line() -> None:
    """Ruling A-09 (i): before the close the Boss may drop any line or give the colour to another supplier."""
    state = negotiation(hands=[[], [], ["clan:O"]])
    play(state, "1: offer O 3", "0: accept O @1", "2: lay O", "2: offer O 1", "0: accept O @2")
    assert terms(state) == {"O": (2, 1, True), "R": (0, 0, True)}
    play(state, "0: drop O")
    assert terms(state) == {"R": (0, 0, True)}
    play(state, "0: drop R")
    assert terms(state) == {}


def test_a_payment_for_no_investor_must_be_agreed() -> None:
    """Ruling A-08: 'tip @S N' pays a seat that supplies nothing; the seat agrees; 'tip @S 0' withdraws it."""
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1", "0: tip @2 3")
    assert "call" in legal(state, 0)
    assert nego(state).unagreed(2)
    play(state, "2: agree")
    assert not nego(state).unagreed(2) and nego(state).payments() == {0: 0, 1: 2, 2: 3}
    play(state, "0: tip @2 0")
    assert nego(state).tips == {}


def test_the_terms_never_exceed_the_proceeds() -> None:
    """Ruling A-07: offers ask at most the proceeds, and the terms never total more than the proceeds."""
    state = negotiation(hands=[[], [], ["clan:R"]])
    refused(state, "1: offer O 7", "the proceeds are 6 million")
    play(state, "1: offer O 4", "0: accept O @1", "2: lay R", "2: offer R 3")
    # 4 are promised: 2 are left for anything else.
    assert "accept R @2" not in legal(state, 0)
    assert max(int(a.split()[-1]) for a in legal(state, 0) if a.startswith("include R")) == 2
    assert max(int(a.split()[-1]) for a in legal(state, 0) if a.startswith("tip @2")) == 2
    refused(state, "0: accept R @2")
    refused(state, "0: include R @2 3")
    refused(state, "0: tip @2 3")
    play(state, "0: include R @2 2")
    assert nego(state).committed() == 6
    assert not [a for a in legal(state, 0) if a.startswith("tip")]


def test_a_group_counts_clans_not_cards() -> None:
    """Ruling A-06: 'plus 2 investors from the Clans of ...' means two different colours of the list."""
    # Space 9: M O G + 2 of R B Y.  Seat 0 has R and M, seat 1 O and G, seat 2 B (and Y).
    state = negotiation(space=9, hands=[["clan:R"], [], []])
    assert terms(state) == {"M": (0, 0, True), "R": (0, 0, True)}
    play(state, "1: offer O 0", "1: offer G 0", "0: accept O @1", "0: accept G @1", "0: lay R")
    assert "call" not in legal(state, 0)
    play(state, "2: offer B 0", "0: accept B @2")
    assert "call" in legal(state, 0)


def test_extra_investors_may_be_named_and_paid() -> None:
    """Ruling A-05: the terms may name more listed investors than needed; the proceeds stay the same."""
    state = negotiation(space=8, hands=[[], [], []])
    play(
        state,
        "1: offer G 1",
        "0: accept G @1",
        "2: offer B 1",
        "2: offer Y 2",
        "0: accept B @2",
        "0: accept Y @2",
        "0: call",
    )
    everyone_passes(state)
    assert state.money == [8 - 1 - 3, 1, 3]
    assert state.deals[-1]["payments"] == {"1": 1, "2": 3}


# ------------------------------------------------------------------ Travel cards


def test_travel_on_a_placard_disqualifies_it_until_the_negotiation_ends() -> None:
    """'A Travel card can be played on a matching Investor placard ... disqualifying that card'."""
    state = negotiation(hands=[[], [], ["travel:O"]])
    play(state, "1: offer O 2", "0: accept O @1", "2: travel O")
    # The Stop window asks the other seats from the player's left.
    assert kinds(state) == ["bargain", "respond"] and state.deciders() == (0, 1)
    assert nego(state).pending is not None
    passes(state, 0, 1)
    assert nego(state).travelling.keys() == {"O"}
    assert terms(state) == {"R": (0, 0, True)} and nego(state).offers == {}
    assert not [a for a in legal(state, 1) if a.startswith("offer O")]
    assert state.deciders() == (0, 1, 2)
    check(state)
    # 'it stays on that Investor until the end of the negotiation round, after which it goes to the discard'.
    play(state, "0: fail")
    assert names(state, state.discard) == ["travel:O"]


def test_a_travelling_placard_stays_out_after_a_change_of_boss() -> None:
    """'Investors ... who have been sent Traveling continue to be out of play after the change of Boss'."""
    state = negotiation(hands=[[], ["boss"], ["travel:R"]])
    play(state, "2: travel R")
    passes(state, 0, 1)
    play(state, "1: boss")
    passes(state, 2, 0)
    assert nego(state).boss == 1 and "R" in nego(state).travelling
    assert not [a for a in legal(state, 0) if a.startswith("offer R")]


def test_a_player_may_send_its_own_placard_travelling() -> None:
    """Settled point: there is no ownership limit on Travel targets."""
    state = negotiation(hands=[[], ["travel:O"], []])
    assert "travel O" in legal(state, 1)


def test_travel_on_a_clan_card_discards_both_at_once() -> None:
    """'When a Travel card is played on a Clan card, both cards are immediately discarded'."""
    state = negotiation(hands=[["travel:any"], [], ["clan:O", "clan:O"]])
    play(state, "2: lay O", "2: lay O", "2: offer O 1", "0: accept O @2")
    assert "travel O @2" in legal(state, 0)
    play(state, "0: travel O @2")
    passes(state, 1, 2)
    assert laid(state, 2) == ["clan:O"]
    assert names(state, state.discard) == ["clan:O", "travel:any"]
    # The seat still has a laid O: its offer and line stand.
    assert terms(state) == {"O": (2, 1, True), "R": (0, 0, True)}
    play(state, "0: pass")
    check(state)


def test_travel_on_the_last_clan_card_strikes_its_line() -> None:
    """Ruling A-09 (iii): a line whose investor goes travelling is struck; nothing is owed for it."""
    state = negotiation(hands=[["travel:O"], [], ["clan:O"]])
    play(state, "2: lay O", "2: offer O 1", "0: accept O @2", "0: travel O @2")
    passes(state, 1, 2)
    assert laid(state, 2) == [] and terms(state) == {"R": (0, 0, True)} and nego(state).offers == {}


def test_travel_targets_only_investors_that_could_take_part() -> None:
    """Ruling A-12: colours printed on the space, held (not spare) and not already travelling."""
    # Four players: B and Y are spares.  Space 11 needs B R O.
    state = negotiation(4, space=11, hands=[[], [], [], ["travel:any", "travel:any"]])
    assert [a for a in legal(state, 3) if a.startswith("travel")] == ["travel R", "travel O"]
    play(state, "3: travel R")
    passes(state, 0, 1, 2)
    assert [a for a in legal(state, 3) if a.startswith("travel")] == ["travel O"]


def test_a_coloured_travel_card_is_played_before_a_grey_one() -> None:
    """Ruling B-7: 'travel C' uses a C Travel card when held, keeping the grey one."""
    state = negotiation(hands=[[], [], ["travel:any", "travel:O"]])
    play(state, "2: travel O")
    passes(state, 0, 1)
    assert hand(state, 2) == ["travel:any"]


def test_a_stop_cancels_a_travel() -> None:
    """'A STOP card can be played immediately after a Travel card ... to cancel the effect of that play'."""
    state = negotiation(hands=[[], ["stop"], ["travel:O"]])
    play(state, "1: offer O 2", "0: accept O @1", "2: travel O")
    assert legal(state, 1) == ["stop", "pass"] and legal(state, 0) == ["pass"]
    play(state, "1: stop")
    assert kinds(state) == ["bargain"] and nego(state).pending is None
    assert nego(state).travelling == {} and terms(state) == {"O": (1, 2, True), "R": (0, 0, True)}
    assert names(state, state.discard) == ["travel:O", "stop"]
    assert state.deciders() == (0, 1, 2)
    check(state)


def test_a_stop_cancels_a_travel_on_a_clan_card() -> None:
    """Settled point: a Stop on a Travel played on a Clan card keeps the Clan card on the table."""
    state = negotiation(hands=[["stop"], ["travel:R"], ["clan:R"]])
    play(state, "2: lay R", "1: travel R @2", "0: stop")
    assert laid(state, 2) == ["clan:R"]
    assert names(state, state.discard) == ["travel:R", "stop"]


def test_a_stop_cannot_be_stopped() -> None:
    """'A STOP card cannot be played to cancel another STOP card': after a Stop there is no window."""
    state = negotiation(hands=[["stop"], ["stop"], ["travel:O", "stop"]])
    play(state, "2: travel O", "0: stop")
    assert kinds(state) == ["bargain"]
    assert "stop" not in legal(state, 1) and "stop" not in legal(state, 2)
    refused(state, "2: stop", "may: ")
    assert hand(state, 1) == ["stop"]


def test_a_stop_answers_only_a_play_just_made() -> None:
    """A Stop is played 'immediately after' a play: with nothing pending, no seat may play one."""
    state = negotiation(hands=[["stop"], ["stop"], ["stop"]])
    for seat in range(3):
        assert "stop" not in legal(state, seat)
    refused(state, "1: stop")


def test_the_player_of_a_card_is_not_asked_in_its_stop_window() -> None:
    """The Stop window asks every other seat; the player cannot stop its own card."""
    state = negotiation(hands=[["travel:O", "stop"], [], []])
    play(state, "0: travel O")
    assert state.deciders() == (1, 2)
    refused(state, "0: stop", "may not act now")


# ------------------------------------------------------------------ Boss cards


def test_a_boss_card_unseats_the_boss_and_clears_the_terms() -> None:
    """'The player of this card becomes the Boss'; ruling B-9: terms start empty, own offers lapse;
    ruling B-5: the new Boss's own placards then join by themselves."""
    state = negotiation(space=11, hands=[[], ["boss"], []])
    play(state, "1: offer O 2", "2: offer B 1", "0: accept O @1", "0: tip @2 1", "1: boss")
    assert terms(state) == {"O": (1, 2, True), "R": (0, 0, True)}
    passes(state, 2, 0)
    assert nego(state).boss == 1 and nego(state).opener == 0
    # Seat 0's R line and the O line at 2 million are gone; seat 1's own O is in, paying nothing.
    assert terms(state) == {"O": (1, 0, True)} and nego(state).tips == {}
    assert nego(state).offers == {("B", 2): 1}
    # The former Boss takes part like any other player now.
    assert "offer R 0" in legal(state, 0)
    assert "accept B @2" in legal(state, 1) and "include R @0 0" in legal(state, 1)
    assert state.deciders() == (1, 2, 0)


def test_a_new_boss_without_placards_on_the_space_starts_with_empty_terms() -> None:
    """Ruling B-9: after a Boss card the terms start empty; nothing of the new Boss's joins on space 4."""
    state = negotiation(hands=[[], [], ["boss"]])
    play(state, "1: offer O 2", "0: accept O @1", "2: boss")
    passes(state, 0, 1)
    assert nego(state).boss == 2 and terms(state) == {}
    assert "accept O @1" in legal(state, 2)


def test_the_boss_cannot_play_a_boss_card() -> None:
    """Ruling A-13: the Boss has nobody to unseat, so it cannot play a Boss card."""
    state = negotiation(hands=[["boss"], [], []])
    assert "boss" not in legal(state, 0)
    refused(state, "0: boss")


def test_a_stop_cancels_a_boss_card() -> None:
    """A Stop after 'I'm the Boss!' keeps the Boss and the terms as they were."""
    state = negotiation(hands=[[], ["boss"], ["stop"]])
    play(state, "1: offer O 2", "0: accept O @1", "1: boss", "2: stop")
    assert nego(state).boss == 0 and terms(state) == {"O": (1, 2, True), "R": (0, 0, True)}
    assert names(state, state.discard) == ["boss", "stop"]


def test_multiple_boss_cards_the_last_one_standing_wins() -> None:
    """'Multiple Boss cards can be played in a negotiation round': the deal belongs to the final Boss card."""
    state = negotiation(hands=[["boss"], ["boss"], ["boss"]])
    play(state, "1: boss")
    passes(state, 2, 0)
    play(state, "2: boss")
    passes(state, 0, 1)
    play(state, "0: boss")
    passes(state, 1, 2)
    assert nego(state).boss == 0 and nego(state).opener == 0


def test_the_player_left_of_the_final_boss_moves_next() -> None:
    """'the player to the left of that Boss will take the next turn, ... some players might be skipped'."""
    state = negotiation(hands=[[], [], ["boss"]])
    play(state, "2: boss")
    passes(state, 0, 1)
    play(state, "2: fail")
    assert state.current == 0 and kinds(state) == ["turn"]


def test_a_boss_card_changes_who_moves_after_a_closed_deal() -> None:
    """After a deal closed by the new Boss, the player to its left moves next (seat 1 is skipped)."""
    state = negotiation(hands=[[], [], ["boss"]])
    play(state, "2: boss")
    passes(state, 0, 1)
    play(state, "0: offer R 1", "1: offer O 1", "2: accept R @0", "2: accept O @1", "2: call")
    everyone_passes(state)
    assert state.money == [1, 1, 4]
    assert state.current == 0


def test_turn_order_opener_ignores_boss_cards() -> None:
    """Variant turn_order=opener: 'Turn order does not change after a Boss card is played'."""
    state = negotiation(options={"turn_order": "opener"}, hands=[[], [], ["boss"]])
    play(state, "2: boss")
    passes(state, 0, 1)
    play(state, "0: offer R 1", "1: offer O 1", "2: accept R @0", "2: accept O @1", "2: call")
    everyone_passes(state)
    assert state.deals[-1]["boss"] == 2
    assert state.current == 1


def test_turn_order_opener_after_a_failure() -> None:
    """Variant turn_order=opener also applies when the final Boss fails."""
    state = negotiation(options={"turn_order": "opener"}, hands=[[], [], ["boss"]])
    play(state, "2: boss")
    passes(state, 0, 1)
    play(state, "2: fail")
    assert state.current == 1


# ------------------------------------------------------------------ Recruitment triples


def test_a_triple_in_a_negotiation_takes_a_spare_placard_first() -> None:
    """'With 4 or 5 players, the extra Investor placards near the board must be recruited first'."""
    state = negotiation(4, space=11, hands=[[], [], ["recruit"] * 3, []])
    assert [a for a in legal(state, 2) if a.startswith("recruit")] == ["recruit B", "recruit Y"]
    play(state, "2: recruit B")
    assert state.deciders() == (3, 0, 1)
    passes(state, 3, 0, 1)
    assert state.owners["B"] == 2 and state.spares() == "Y"
    assert names(state, state.discard) == ["recruit"] * 3
    assert "offer B 0" in legal(state, 2)
    check(state)


def test_without_spares_a_triple_takes_another_players_placard_and_its_line() -> None:
    """'you steal another player's Investor placard'; ruling A-09 (iv): the old owner's line is struck."""
    state = negotiation(hands=[[], [], ["recruit"] * 3])
    play(state, "1: offer O 2", "0: accept O @1", "2: recruit O")
    passes(state, 0, 1)
    assert state.owners["O"] == 2
    assert terms(state) == {"R": (0, 0, True)} and nego(state).offers == {}
    assert "offer O 0" in legal(state, 2)


def test_a_recruited_placard_keeps_the_line_of_an_owner_with_a_laid_clan_card() -> None:
    """Ruling A-09 (iv): the line stands when the old owner still has a Clan card of the colour laid."""
    state = negotiation(hands=[[], ["clan:O"], ["recruit"] * 3])
    play(state, "1: lay O", "1: offer O 2", "0: accept O @1", "2: recruit O")
    passes(state, 0, 1)
    assert state.owners["O"] == 2 and terms(state) == {"O": (1, 2, True), "R": (0, 0, True)}


def test_a_placard_the_boss_recruits_joins_the_terms_by_itself() -> None:
    """Ruling B-5: once the Boss's triple stands, the placard it took joins the terms, agreed at 0;
    the old owner's line for it is struck (ruling A-09 (iv))."""
    state = negotiation(hands=[["recruit"] * 3, [], []])
    play(state, "1: offer O 2", "0: accept O @1", "0: recruit O")
    assert terms(state) == {"O": (1, 2, True), "R": (0, 0, True)}
    passes(state, 1, 2)
    assert state.owners["O"] == 0
    assert terms(state) == {"O": (0, 0, True), "R": (0, 0, True)}
    assert "call" in legal(state, 0)


def test_a_recruited_travelling_placard_stays_out() -> None:
    """Settled point: a placard recruited while travelling stays out for this negotiation."""
    state = negotiation(hands=[[], [], ["recruit"] * 3 + ["travel:O"]])
    play(state, "2: travel O")
    passes(state, 0, 1)
    play(state, "2: recruit O")
    passes(state, 0, 1)
    assert state.owners["O"] == 2 and "O" in nego(state).travelling
    assert not [a for a in legal(state, 2) if a.startswith("offer O")]


def test_a_stop_cancels_a_triple() -> None:
    """A Stop after a Recruitment triple: the placard stays, the three cards are discarded."""
    state = negotiation(hands=[["stop"], [], ["recruit"] * 3])
    play(state, "2: recruit O", "0: stop")
    assert state.owners["O"] == 1
    assert names(state, state.discard) == ["recruit", "recruit", "recruit", "stop"]


def test_a_triple_needs_a_placard_to_take() -> None:
    """Ruling A-21: with every placard already its own, a seat cannot play a triple."""
    state = negotiation(placards=dict.fromkeys("RMOGBY", 2), hands=[[], [], ["recruit"] * 3])
    assert not [a for a in legal(state, 2) if a.startswith("recruit")]


# ------------------------------------------------------------------ closing


def test_call_opens_the_closing_round_from_the_bosss_left() -> None:
    """Ruling A-14: after 'call' each other seat, one at a time from the Boss's left, may play or pass."""
    state = negotiation(boss=1, space=4, placards={"R": 1, "M": 0, "O": 2, "G": 0, "B": 2, "Y": 0})
    play(state, "2: offer O 1", "1: accept O @2", "1: call")
    assert kinds(state) == ["bargain", "closing"] and nego(state).called
    assert state.deciders() == (2,)
    passes(state, 2)
    assert state.deciders() == (0,)
    passes(state, 0)
    assert kinds(state) == ["turn"] and state.current == 2


def test_no_clan_cards_or_offers_in_the_closing_round() -> None:
    """Ruling A-14 (ii): in the closing round only Travel, Boss cards, triples or a pass."""
    state = negotiation(hands=[[], ["clan:R"], ["clan:O", "boss", "travel:any"]])
    closing_space_4(state)
    assert legal(state, 1) == ["pass"]
    refused(state, "1: lay R")
    refused(state, "1: offer O 3")
    passes(state, 1)
    assert legal(state, 2) == ["pass", "travel R", "travel O", "boss"]


def test_a_closed_deal_pays_the_boss_and_the_terms() -> None:
    """'The banker pays the Boss the dividends'; the Boss 'must pay the other players the amounts agreed'."""
    state = negotiation(money=[5, 1, 0])
    play(state, "1: offer O 2", "0: accept O @1", "0: tip @2 1", "2: agree", "0: call")
    everyone_passes(state)
    assert state.money == [5 + 6 - 2 - 1, 1 + 2, 1]
    assert state.deals == [{"card": 1, "space": 4, "boss": 0, "proceeds": 6, "payments": {"1": 2, "2": 1}}]
    assert state.nego is None
    check(state)


def test_a_closed_deal_covers_the_space_and_moves_the_marker() -> None:
    """The top deal card covers the space, 'moving the marker clockwise to the next free space'."""
    state = negotiation(space=4, covered={5: 1, 6: 2})
    closing_space_4(state)
    everyone_passes(state)
    assert state.covered[3] == 3 and state.deal_cards[0] == 4
    assert marker(state) + 1 == 7
    assert state.current == 1 and state.turn == 2 and kinds(state) == ["turn"]


def test_a_deal_closed_with_clan_cards() -> None:
    """A laid Clan card used in the deal is discarded; 'a Clan card ... that wasn't involved ... returns'."""
    state = negotiation(
        hands=[[], [], ["clan:R", "clan:R", "clan:O", "stop"]],
        placards={"R": 1, "M": 0, "O": 1, "G": 1, "B": 2, "Y": 2},
    )
    play(
        state,
        "2: lay R",
        "2: lay R",
        "2: lay O",
        "2: offer R 2",
        "1: offer O 1",
        "0: accept R @2",
        "0: accept O @1",
        "0: call",
    )
    everyone_passes(state)
    assert names(state, state.discard) == ["clan:R"]
    assert hand(state, 2) == ["clan:O", "clan:R", "stop"]
    assert state.money == [3, 1, 2]
    check(state)


def test_a_placard_at_home_is_used_before_a_laid_clan_card() -> None:
    """Ruling B-10: a supplier holding the placard uses it, and its laid Clan card of that colour returns."""
    state = negotiation(hands=[[], ["clan:O"], []])
    play(state, "1: lay O", "1: offer O 2", "0: accept O @1", "0: call")
    everyone_passes(state)
    assert hand(state, 1) == ["clan:O"] and state.discard == []


def test_a_travelling_placards_owner_supplies_with_its_laid_clan_card() -> None:
    """Ruling B-10: with its placard travelling, a seat supplies through a laid Clan card, used up then."""
    state = negotiation(hands=[[], ["clan:O"], ["travel:O"]])
    play(state, "1: lay O", "2: travel O")
    passes(state, 0, 1)
    play(state, "1: offer O 2", "0: accept O @1", "0: call")
    everyone_passes(state)
    assert hand(state, 1) == [] and sorted(names(state, state.discard)) == ["clan:O", "travel:O"]
    assert state.money == [4, 2, 0]


def test_the_boss_may_fail_a_deal_that_stands() -> None:
    """Ruling A-15: 'sometimes you'll choose this option because other players are demanding too much'."""
    state = negotiation()
    play(state, "1: offer O 6", "0: accept O @1")
    assert {"call", "fail"} <= set(legal(state, 0))
    play(state, "0: fail")
    assert state.money == [0, 0, 0] and state.deals == []


def test_a_failure_returns_clan_cards_and_leaves_the_marker() -> None:
    """On failure 'Clan cards on the table are returned to the players' hands'; the rest is discarded."""
    state = negotiation(hands=[[], ["clan:R", "travel:any"], ["clan:O", "clan:R"]])
    play(state, "2: lay O", "2: lay R", "1: lay R", "1: travel O")
    passes(state, 2, 0)
    play(state, "0: fail")
    assert hand(state, 2) == ["clan:O", "clan:R"] and hand(state, 1) == ["clan:R"]
    assert names(state, state.discard) == ["travel:any"]
    assert (
        state.marker is not None
        and marker(state) + 1 == 4
        and state.covered == [None] * 16
        and state.deal_cards[0] == 1
    )
    assert state.nego is None and state.current == 1 and kinds(state) == ["turn"]
    check(state)


def test_after_a_failure_the_next_player_may_try_the_same_deal() -> None:
    """On failure the marker stays: the next player may 'Try to make the deal where the marker stands'."""
    state = negotiation()
    play(state, "0: fail", "1: deal")
    assert nego(state).space + 1 == 4 and nego(state).boss == 1


def test_a_card_in_the_closing_round_restarts_it_from_the_bosss_left() -> None:
    """Ruling A-14 (i): after a card the round restarts from the Boss's left if the deal still stands."""
    state = negotiation(hands=[[], ["stop"], ["travel:any"]])
    closing_space_4(state)
    passes(state, 1)
    play(state, "2: travel O", "1: stop")
    assert kinds(state) == ["bargain", "closing"] and state.deciders() == (1,)
    passes(state, 1, 2)
    assert state.deals and state.money == [4, 2, 0]


def test_an_unstopped_card_that_spares_the_terms_also_restarts_the_round() -> None:
    """A Travel on an investor outside the terms leaves the deal standing: the round restarts."""
    state = negotiation(
        space=8, hands=[[], [], ["travel:any"]], placards={"R": 0, "M": 0, "O": 1, "G": 1, "B": 1, "Y": 2}
    )
    play(state, "1: offer G 1", "1: offer B 1", "0: accept G @1", "0: accept B @1", "0: call")
    passes(state, 1)
    play(state, "2: travel Y")
    passes(state, 0, 1)
    assert kinds(state) == ["bargain", "closing"] and state.deciders() == (1,)


def test_a_closing_round_falls_back_to_bargaining_when_the_deal_no_longer_stands() -> None:
    """A Travel on a line's investor in the closing round: the call lapses and everyone may bargain again."""
    state = negotiation(hands=[[], [], ["travel:O", "clan:O"]])
    closing_space_4(state)
    passes(state, 1)
    play(state, "2: travel O")
    passes(state, 0, 1)
    assert kinds(state) == ["bargain"] and not nego(state).called
    assert terms(state) == {"R": (0, 0, True)}
    assert state.deciders() == (0, 1, 2)
    # The bargaining goes on: seat 2 may now lay its O and sell it.
    play(state, "2: lay O", "2: offer O 3", "0: accept O @2", "0: call")
    everyone_passes(state)
    assert state.money == [3, 0, 3]


def test_a_boss_card_in_the_closing_round_takes_over_the_deal() -> None:
    """A Boss card that stands in the closing round unseats the Boss: the call lapses with the terms."""
    state = negotiation(hands=[[], [], ["boss"]])
    closing_space_4(state)
    passes(state, 1)
    play(state, "2: boss")
    passes(state, 0, 1)
    assert kinds(state) == ["bargain"] and nego(state).boss == 2 and terms(state) == {}


def test_at_the_limit_a_lapsed_call_leaves_only_failure() -> None:
    """Ruling B-2: a call lapsing after the Boss used its actions leaves it only 'pass' or 'fail'."""
    state = negotiation(options={"negotiation_limit": 2}, hands=[[], [], ["travel:O"]])
    closing_space_4(state)
    assert nego(state).counted[0] == 2
    passes(state, 1)
    play(state, "2: travel O")
    passes(state, 0, 1)
    assert kinds(state) == ["bargain"] and not nego(state).called
    assert legal(state, 0) == ["pass", "fail"]
    everyone_passes(state)
    assert state.deciders() == (0,) and legal(state, 0) == ["fail"]


def test_no_cards_after_the_deal_is_closed() -> None:
    """'Once the deal is closed, players may not play any Influence cards!'."""
    state = negotiation(hands=[[], [], ["travel:any", "boss", "stop"]])
    closing_space_4(state)
    everyone_passes(state)
    for line in ["2: travel O", "2: boss", "2: stop"]:
        refused(state, line)


# ------------------------------------------------------------------ end of the game


TEN_DONE = {1: 1, 2: 2, 3: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 10: 9}
"""Nine deals already closed (space 4 free): the next deal uses deal card 10."""


def test_the_tenth_deal_ends_the_game_on_a_number_of_its_card() -> None:
    """'After the tenth deal ... the Boss ... rolls the die': a number on card 10's back ends the game."""
    state = negotiation(covered=TEN_DONE)
    assert nego(state).proceeds == 3 * 4
    closing_space_4(state)
    force_die(state, 1)
    everyone_passes(state)
    assert state.is_over() and state.deciders() == ()
    assert state.covered[3] == 10 and state.money == [10, 2, 0]
    assert state.winners() == [0]


def test_the_tenth_deal_continues_off_its_cards_numbers() -> None:
    """A roll not on card 10's back ({1}) lets play continue with the player left of the Boss."""
    state = negotiation(covered=TEN_DONE)
    closing_space_4(state)
    force_die(state, 2)
    everyone_passes(state)
    assert not state.is_over() and state.current == 1 and state.deal_cards[0] == 11


def test_no_end_roll_before_the_tenth_deal() -> None:
    """Deal cards 1 to 9 have no numbers: no die is rolled (a forced roll stays unused)."""
    state = negotiation(covered={1: 1, 2: 2})
    closing_space_4(state)
    force_die(state, 1)
    everyone_passes(state)
    assert not state.is_over() and len(state.chance.forced) == 1


def test_the_fourteenth_deal_ends_on_one_to_five() -> None:
    """Deal card 14 ends the game on 1 to 5; a 6 lets play continue."""
    covered = {n: n for n in range(1, 14) if n != 4}
    covered[16] = 4
    for roll, over in [(5, True), (6, False)]:
        state = negotiation(covered=covered)
        assert (top := state.top_card()) is not None and top.number == 14
        closing_space_4(state)
        force_die(state, roll)
        everyone_passes(state)
        assert state.is_over() is over


def test_the_game_ends_automatically_after_the_fifteenth_deal() -> None:
    """'The game automatically ends after the 15th deal', with no roll (card 15 has no numbers)."""
    covered = {n: n for n in range(1, 15) if n != 4}
    covered[16] = 4
    state = negotiation(covered=covered)
    assert state.deal_cards == [15]
    closing_space_4(state)
    everyone_passes(state)
    assert state.is_over() and state.deal_cards == [] and state.chance.forced == []


def test_the_short_game_still_rolls_from_card_ten() -> None:
    """Variant length=short: cards 3, 6, 9 are out; the seventh deal uses card 10 and its roll."""
    covered = {1: 1, 2: 2, 3: 4, 5: 5, 6: 7, 7: 8}
    state = negotiation(options={"length": "short"}, covered=covered)
    assert state.deal_cards[0] == 10
    closing_space_4(state)
    force_die(state, 1)
    everyone_passes(state)
    assert state.is_over()


# ------------------------------------------------------------------ money and views


def test_money_totals_are_hidden_by_default() -> None:
    """Ruling A-17: other players' totals are hidden (option money=hidden); each seat sees its own."""
    state = negotiation(money=[4, 7, 9])
    assert state.observation(1)["money"] == [None, 7, None]
    assert state.public_observation()["money"] == [None, None, None]


def test_money_public_shows_every_total() -> None:
    """Option money=public: every seat and spectator sees all totals."""
    state = negotiation(options={"money": "public"}, money=[4, 7, 9])
    assert state.observation(1)["money"] == [4, 7, 9]
    assert state.public_observation()["money"] == [4, 7, 9]


def test_the_negotiation_is_public() -> None:
    """Laid Clan cards, offers and terms are on the table: every seat and spectator sees them."""
    state = negotiation(hands=[[], [], ["clan:R"]])
    play(state, "2: lay R", "2: offer R 2", "0: accept R @2")
    view: Any = state.public_observation()["negotiation"]
    assert view["laid"] == [[], [], ["R"]] and view["offers"] == [["R", 2, 2]]
    assert view["terms"] == {"R": [2, 2, True]}
    assert state.observation(1)["negotiation"] == view


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    "line",
    [
        "1: call",
        "0: call",
        "2: lay R",
        "1: travel O",
        "1: boss",
        "0: accept O @1",
        "0: include O @2 1",
        "0: include O @1 7",
        "0: use O",
        "0: use R",
        "0: drop O",
        "0: tip @0 1",
        "0: tip @7 1",
        "1: agree",
        "1: withdraw O",
        "0: roll",
        "0: draw",
        "0: recruit O",
        "0: discard stop",
        "0: marker 3",
    ],
)
def test_illegal_negotiation_actions_are_refused_and_change_nothing(line: str) -> None:
    """An action the rules do not allow now is refused with a reason; the state is exactly as before."""
    state = negotiation(hands=[["stop", "recruit", "recruit"], [], []])
    refused(state, line)


def test_a_boss_card_in_the_closing_round_always_ends_the_call() -> None:
    """A Boss card that stands in the closing round sends the negotiation back to bargaining."""
    owners = {"R": 0, "O": 1, "M": 2, "G": 2, "B": 1, "Y": 0}
    state = negotiation(space=4, boss=0, placards=owners, hands={2: ["boss"]})
    state.apply_notation("include O @1 1", 0)
    state.apply_notation("agree", 1)
    state.apply_notation("call", 0)
    state.apply_notation("pass", 1)
    state.apply_notation("boss", 2)
    for seat in (0, 1):
        state.apply_notation("pass", seat)
    assert state.stack.kinds() == ["bargain"] and state.nego is not None
    assert nego(state).boss == 2 and not nego(state).called
