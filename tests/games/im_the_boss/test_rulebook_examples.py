"""The rulebook's own examples, as tests."""

from __future__ import annotations

from parlour.games.im_the_boss import GAME
from parlour.games.im_the_boss.supply import covers


def test_the_rulebooks_board_example_needs_red_blue_yellow_and_two_of_magenta_orange_green() -> None:
    """'The space requires the participation of the Red, Blue and Yellow Clans, plus 2 investors from
    the Clans of Magenta, Orange, Green, a total of 5 investors in all.' (space 1 of the board)"""
    space = GAME.content(GAME.options()).spaces[0]
    assert space.text() == "R B Y + 2 of M O G" and space.investors_needed() == 5
    assert covers(space, "RBYMO") and covers(space, "RBYOG") and covers(space, "RBYMOG")
    assert not covers(space, "RBYM")  # only one of the three
    assert not covers(space, "RBMOG")  # Yellow is required
    assert not covers(space, "RBYGG")  # two cards of one colour are one clan


def test_the_bosss_own_placards_agree_automatically() -> None:
    """'If a deal requires the Red and Orange Investors, and you hold both of these Investor placards,
    then you automatically get their agreement.' (space 4 needs R O)"""
    state = GAME.new_state(3, 0)
    state.owners = {"R": 0, "O": 0, "M": 1, "G": 1, "B": 2, "Y": 2}
    state.stack.pop()
    from parlour.games.im_the_boss.turn import Turn

    state.marker, state.turn, state.current = 3, 1, 0
    state.stack.push(Turn(seats=[0]))
    state.apply_notation("deal", 0)
    assert state.nego is not None and set(state.nego.items) == {"R", "O"}
    assert all(t.agreed and t.amount == 0 for t in state.nego.items.values())
    assert state.apply_notation("call", 0) is not None
