"""Every worked example of the I'm the Boss! rulebook, played through the engine.

The rulebook has two ('The Board' and 'Let's make a Deal'); each test quotes its example and plays it
from a position built by scenario.py.  Deal card 1 (2 million a dividend) is on top.  Three players: seat
0 R M, seat 1 O G, seat 2 B Y; five: seat i holds the i-th colour of R M O G B, and Y is a spare.
"""

from __future__ import annotations

from parlour.games.im_the_boss import GAME
from parlour.games.im_the_boss.supply import covers

from .scenario import everyone_passes, hand, kinds, legal, nego, negotiation, play, terms


# ------------------------------------------------------------------ The Board
def test_the_rulebooks_board_example_needs_red_blue_yellow_and_two_of_magenta_orange_green() -> None:
    """'The space requires the participation of the Red, Blue and Yellow Clans, plus 2 investors from
    the Clans of Magenta, Orange, Green, a total of 5 investors in all.' (space 1 of the board)"""
    space = GAME.content(GAME.options()).spaces[0]
    assert space.text() == "R B Y + 2 of M O G" and space.investors_needed() == 5
    assert covers(space, "RBYMO") and covers(space, "RBYOG") and covers(space, "RBYMOG")
    assert not covers(space, "RBYM")  # only one of the three
    assert not covers(space, "RBMOG")  # Yellow is required
    assert not covers(space, "RBYGG")  # two cards of one colour are one clan


def test_the_board_example_is_closed_with_five_investors_and_not_with_four() -> None:
    """The same space played: 'plus 2 investors from the Clans of Magenta, Orange, Green, a total of 5
    investors in all.' (five players: the Boss holds R, seat 4 offers B, seat 3 brings Y with a Clan card;
    with M alone of the three the deal cannot be called, with M and O it can)"""
    state = negotiation(5, space=1, boss=0, hands={3: ["clan:Y"]})
    assert nego(state).proceeds == 12 and terms(state) == {"R": (0, 0, True)}  # 6 dividends × 2 million
    play(state, "3: lay Y", "3: offer Y 1", "4: offer B 2", "1: offer M 1", "2: offer O 1")
    play(state, "0: accept Y @3", "0: accept B @4", "0: accept M @1")
    assert "call" not in legal(state, 0)
    play(state, "0: accept O @2", "0: call")
    assert kinds(state) == ["bargain", "closing"]
    everyone_passes(state)
    assert state.nego is None and state.money == [12 - 5, 1, 1, 1, 2]
    assert state.deals[0]["payments"] == {"1": 1, "2": 1, "3": 1, "4": 2}
    assert hand(state, 3) == []  # the Clan card was involved in the deal: it is discarded


# ------------------------------------------------------------------ Let's make a Deal
def test_the_bosss_own_placards_agree_automatically() -> None:
    """'If a deal requires the Red and Orange Investors, and you hold both of these Investor placards,
    then you automatically get their agreement.' (space 4 needs R O; seat 0 holds both)"""
    state = negotiation(space=4, boss=0, placards={"R": 0, "O": 0, "M": 1, "G": 1, "B": 2, "Y": 2})
    assert terms(state) == {"O": (0, 0, True), "R": (0, 0, True)}
    assert "call" in legal(state, 0)
    play(state, "0: call")
    assert nego(state).called and kinds(state) == ["bargain", "closing"] and state.deciders() == (1,)
    everyone_passes(state)
    assert state.nego is None and state.money == [6, 0, 0]  # 3 dividends × deal card 1's 2 million
