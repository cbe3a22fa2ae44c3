"""The worked example of docs/negotiation.md, played move by move."""

from __future__ import annotations

from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.turn import Turn

from ..typed import BOSS as GAME


def give(state: BossGameState, seat: int, *names: str) -> None:
    """Moves cards called ``names`` from the deck into a seat's hand."""
    for name in names:
        card = next(c for c in state.draw if state.name(c) == name)
        state.draw.remove(card)
        state.hands[seat].append(card)


def example_table() -> BossGameState:
    """Five players; seat 2 to move with the marker on space 8; seat 2 holds M, seat 1 holds G."""
    state = GAME.new_state(5, 1)
    for seat in range(5):
        state.draw += state.hands[seat]
        state.hands[seat] = []
    state.owners = {"R": 0, "M": 2, "O": 3, "G": 1, "B": None, "Y": None}
    give(state, 3, "clan:Y")
    give(state, 4, "travel:G")
    give(state, 1, "stop")
    state.stack.pop()
    state.marker, state.first, state.turn = 7, 2, 1
    state.current = 2
    state.stack.push(Turn(seats=[2]))
    assert not state.invariant_errors()
    return state


SCRIPT = """\
2 deal
2 pass
1 offer G 4
2 include G @1 2
1 refuse
2 include G @1 3
1 agree
3 lay Y
3 offer Y 1
2 accept Y @3
2 call
3 pass
4 travel G
0 pass
1 stop
3 pass
4 pass
0 pass
1 pass"""


def test_the_documented_example_plays_and_pays_as_described() -> None:
    """Every move of the example is legal; the deal closes; the Boss gets 8 and pays 3 and 1."""
    state = example_table()
    for line in SCRIPT.splitlines():
        seat, text = line.split(" ", 1)
        assert int(seat) in state.deciders(), f"{line}: seat {seat} may not act ({state.deciders()})"
        state.apply_notation(text, int(seat))
    assert state.money == [0, 3, 8 - 3 - 1, 1, 0]
    assert state.covered[7] == 1 and state.nego is None
    assert state.deals[-1]["payments"] == {"1": 3, "3": 1}
    assert state.current == 3  # the player to the Boss's left moves next
    assert not state.invariant_errors()
