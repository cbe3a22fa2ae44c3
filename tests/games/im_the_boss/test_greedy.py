"""The greedy negotiator: prices by need, buys cheaply, interferes with the leader, protects itself."""

from __future__ import annotations

import json

import pytest

from parlour.bots.simulation import simulate
from parlour.games.im_the_boss.actions import Offer, Travel
from parlour.games.im_the_boss.bots import GreedyBot
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.turn import Limit, Turn

from ..typed import BOSS as GAME
from .scenario import deal_record, negotiation, play, position, terms


def give(state: BossGameState, seat: int, *names: str) -> None:
    """Moves cards called ``names`` from the deck into a seat's hand."""
    for name in names:
        card = next(c for c in state.draw if state.name(c) == name)
        state.draw.remove(card)
        state.hands[seat].append(card)


def table(space: int, boss: int, owners: dict[str, int | None]) -> BossGameState:
    """Five players, empty hands, seat ``boss`` about to open a negotiation on ``space`` (1–16)."""
    state = GAME.new_state(5, 3)
    for seat in range(5):
        state.draw += state.hands[seat]
        state.hands[seat] = []
    state.owners = {c: owners.get(c) for c in "RMOGBY"}
    state.stack.pop()
    state.marker, state.first, state.turn, state.current = space - 1, boss, 1, boss
    state.stack.push(Turn(seats=[boss]))
    return state


def opened(state: BossGameState) -> BossGameState:
    """Opens the negotiation for the current player."""
    state.apply_notation("deal", state.current)
    return state


def test_a_sole_source_of_a_required_colour_asks_a_high_price() -> None:
    """Space 4 (R O, 3 dividends × 2 = 6): seat 1 alone holds O, so it asks 30% or more."""
    state = opened(table(4, 0, {"R": 0, "O": 1}))
    action = GreedyBot().choose(state, 1)
    assert (
        isinstance(action, Offer)
        and action.verb == "offer"
        and action.colour == "O"
        and action.number >= 6 * 3 // 10
    )


def test_an_undercut_investor_lowers_its_ask_below_the_rival() -> None:
    """Two suppliers of O: facing a rival's ask of 3, the bot asks 2."""
    state = opened(table(4, 0, {"R": 0, "O": 1}))
    give(state, 2, "clan:O")
    state.apply_notation("lay O", 2)
    state.apply_notation("offer O 3", 2)
    assert str(GreedyBot().choose(state, 1)) == "offer O 2"


def test_as_boss_it_accepts_the_cheapest_offer_then_calls() -> None:
    """The Boss's own R joins the terms by itself; it takes the cheaper of two O offers and calls."""
    state = opened(table(4, 0, {"R": 0, "O": 1}))
    give(state, 2, "clan:O")
    bot = GreedyBot()
    assert "R" in state.nego.items  # type: ignore[union-attr]
    state.apply_notation("offer O 4", 1)
    state.apply_notation("lay O", 2)
    state.apply_notation("offer O 2", 2)
    assert str(bot.choose(state, 0)) == "accept O @2"
    state.apply_notation("accept O @2", 0)
    assert str(bot.choose(state, 0)) == "call"


def test_a_cheaper_offer_replaces_its_own_pending_proposal() -> None:
    """After proposing 2 to seat 1 for O, the Boss accepts seat 2's offer of O at 1 instead of waiting."""
    state = opened(table(4, 0, {"R": 0, "O": 1}))
    give(state, 2, "clan:O")
    state.apply_notation("include O @1 2", 0)
    state.apply_notation("lay O", 2)
    state.apply_notation("offer O 1", 2)
    assert str(GreedyBot().choose(state, 0)) == "accept O @2"


def test_before_calling_it_drops_a_paid_line_the_space_does_not_need() -> None:
    """Space 7 needs one of each pair: with both B and M agreed at a price, the dearer is dropped first."""
    state = opened(table(7, 0, {"R": 0, "M": 1, "B": 2, "O": 3}))
    state.apply_notation("include M @1 2", 0)
    state.apply_notation("include B @2 3", 0)
    state.apply_notation("include O @3 1", 0)
    for seat in (1, 2, 3):
        state.apply_notation("agree", seat)
    bot = GreedyBot()
    assert str(bot.choose(state, 0)) == "drop B"
    state.apply_notation("drop B", 0)
    assert str(bot.choose(state, 0)) == "call"


def test_greedy_boss_drops_a_redundant_paid_line_before_calling() -> None:
    """Space 7 needs one of B M: with both agreed at 2, the Boss drops one before it calls."""
    state = negotiation(5, space=7, boss=0)
    play(state, "0: include M @1 2", "1: agree", "0: include B @4 2", "4: agree")
    play(state, "0: include O @2 2", "2: agree")
    assert set(terms(state)) == {"R", "M", "B", "O"}
    assert str(GreedyBot().choose(state, 0)) in ("drop M", "drop B")


def test_it_sends_a_leading_bosss_only_source_travelling() -> None:
    """The Boss leads on money; the bot holds a Travel for the deal's only O and plays it."""
    state = table(4, 0, {"R": 0, "O": 1})
    state.deals.append({"card": 0, "space": 1, "boss": 0, "proceeds": 10, "payments": {}})
    state.money[0] = 10
    give(state, 2, "travel:O")
    opened(state)
    state.apply_notation("include O @1 2", 0)
    assert str(GreedyBot().choose(state, 2)) == "travel O"


def test_it_never_sends_its_own_only_source_travelling() -> None:
    """The bot is the only source of B (a laid Clan card): it does not play a Travel on it."""
    state = table(11, 4, {"B": None, "R": 4, "O": 4})
    state.deals.append({"card": 0, "space": 1, "boss": 4, "proceeds": 10, "payments": {}})
    state.money[4] = 10
    give(state, 1, "clan:B", "travel:any")
    opened(state)
    state.apply_notation("lay B", 1)
    action = GreedyBot().choose(state, 1)
    assert str(action) == "travel R"  # the leading Boss's own R, not its own B


def leading_boss_table() -> BossGameState:
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
    state = GAME.load_position(json.dumps(data))
    play(state, "4: deal", "1: lay B")
    assert terms(state) == {"O": (4, 0, True)}
    return state


def test_greedy_never_sends_its_own_investor_travelling() -> None:
    """The issue's greedy plays Travel against a rival's investor, never against its own."""
    state = leading_boss_table()
    action = GreedyBot().choose(state, 1)
    own = isinstance(action, Travel) and (
        action.seat == 1 or (action.seat == -1 and state.owners.get(action.colour) == 1)
    )
    assert not own, str(action)


def test_the_boss_stops_a_boss_card() -> None:
    """A rival's Boss card against the bot's deal is answered with a Stop."""
    state = opened(table(4, 0, {"R": 0, "O": 1}))
    give(state, 3, "boss")
    give(state, 0, "stop")
    state.apply_notation("boss", 3)
    for seat in (4,):
        state.apply_notation("pass", seat)
    assert str(GreedyBot().choose(state, 0)) == "stop"


def test_greedy_plays_a_boss_card_it_only_considered_earlier() -> None:
    """A bot that agreed instead of playing its Boss card still plays it later, like a fresh bot."""
    state = negotiation(5, space=5, boss=0, hands={1: ["boss", "clan:O", "clan:G", "clan:B"]})
    bot = GreedyBot()
    play(state, "0: include M @1 2")
    assert str(bot.choose(state, 1)) == "agree"
    play(state, "1: agree", "0: drop M")
    assert str(GreedyBot().choose(state, 1)) == "boss"
    assert str(bot.choose(state, 1)) == "boss"


def test_over_the_hand_limit_it_recruits_a_placard_it_lacks() -> None:
    """With 13 cards including a triple and a spare placard beside the board, it recruits."""
    state = table(4, 0, {"R": 0, "O": 1, "G": 2, "B": 3, "M": 4})
    give(state, 0, *["recruit"] * 3, *["stop"] * 10)
    state.stack.pop()
    state.stack.push(Limit(seats=[0]))
    assert str(GreedyBot().choose(state, 0)) == "recruit Y"


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


@pytest.mark.slow
def test_greedy_beats_random_at_a_five_player_table() -> None:
    """Over a short sample (60-turn games), greedy in seat 0 wins most games against four random bots."""
    summary = simulate(
        "im-the-boss", ["greedy", "random", "random", "random", "random"], 12, 5, {"max_turns": 60}
    )
    assert summary["seats"][0]["win_rate"] >= 0.6
