"""The negotiation's exact public counts (issue 35): each seat's proposals as the Boss that ended unagreed
(``Negotiation.refused``) and its Travel and Boss cards played (``Negotiation.interfered``), which the
greedy bot reads as ``struck`` and ``ventured``; their position fields.

Three players unless a test says otherwise: seat 0 holds the R and M placards, seat 1 O and G, seat 2 B
and Y; space 4 needs R and O (proceeds 6), and seat 0 opens it, its own R joining the terms by itself.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from parlour.core.errors import PositionError
from parlour.core.positions import JSONObject
from parlour.games.im_the_boss.actions import BossAction, BossCard, Fail, Pass, Travel
from parlour.games.im_the_boss.bots import GreedyBot, struck, ventured
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.negotiation import Negotiation, Term
from parlour.games.im_the_boss.options import QUICK_OPTIONS

from ..typed import BOSS as GAME
from .scenario import everyone_passes, nego, negotiation, passes, play, terms


def counts(state: BossGameState) -> tuple[list[int], list[int]]:
    """Returns the negotiation's ``refused`` and ``interfered``."""
    return nego(state).refused, nego(state).interfered


# ------------------------------------------------------------------ refused (struck)
def test_a_refused_proposal_counts_one_against_the_boss() -> None:
    state = negotiation()
    assert counts(state) == ([0, 0, 0], [0, 0, 0])
    play(state, "0: include O @1 1", "1: refuse")
    assert counts(state) == ([1, 0, 0], [0, 0, 0]) and struck(nego(state), 0) == 1
    play(state, "0: include O @1 2", "1: refuse")
    assert nego(state).refused == [2, 0, 0] and nego(state).counted == [2, 0, 0]


def test_a_refusal_strikes_each_unagreed_line_naming_the_seat_and_counts_each() -> None:
    state = negotiation(space=8)  # M G + 1 of B Y: seat 1 supplies G, seat 2 B and Y
    play(state, "0: include G @1 1", "0: tip @1 1", "1: refuse")
    assert nego(state).refused == [2, 0, 0]


def test_agreed_proposals_accepted_offers_and_a_call_count_nothing() -> None:
    state = negotiation()
    play(state, "0: include O @1 1", "1: agree", "0: call")
    assert counts(state) == ([0, 0, 0], [0, 0, 0]) and nego(state).counted == [2, 0, 0]
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1", "0: call")
    assert counts(state) == ([0, 0, 0], [0, 0, 0]) and nego(state).counted == [2, 1, 0]


def test_the_bosss_own_withdrawals_count() -> None:
    """Replacing an unagreed proposal, dropping it and ``tip @S 0`` each withdraw one."""
    state = negotiation()
    play(state, "0: include O @1 1", "0: include O @1 2")  # the first replaced before an answer
    assert nego(state).refused == [1, 0, 0]
    play(state, "0: drop O")
    assert nego(state).refused == [2, 0, 0]
    play(state, "0: tip @2 1", "0: tip @2 0")
    assert nego(state).refused == [3, 0, 0]
    # Replacing or dropping an agreed line withdraws no proposal.
    play(state, "0: include O @1 2", "1: agree", "0: include O @1 3", "1: agree", "0: drop O")
    assert nego(state).refused == [3, 0, 0]


def test_a_call_strikes_the_unagreed_lines_and_counts_them() -> None:
    """Ruling B-4: calling strikes the lines not agreed; the Boss withdrew them."""
    state = negotiation()
    play(state, "1: offer O 2", "0: accept O @1", "0: tip @2 1", "0: call")
    assert nego(state).tips == {} and nego(state).refused == [1, 0, 0]


def test_accepting_the_proposed_seats_offer_at_the_proposed_amount_agrees_it() -> None:
    state = negotiation()
    play(state, "1: offer O 2", "0: include O @1 2", "0: accept O @1")
    assert terms(state)["O"] == (1, 2, True) and nego(state).refused == [0, 0, 0]
    state = negotiation()
    play(state, "1: offer O 1", "0: include O @1 2", "0: accept O @1")  # at another amount: withdrawn
    assert terms(state)["O"] == (1, 1, True) and nego(state).refused == [1, 0, 0]


def test_withdrawing_the_offer_under_an_unagreed_line_refuses_it() -> None:
    state = negotiation()
    play(state, "1: offer O 2", "0: include O @1 1", "1: withdraw O")
    assert "O" not in terms(state) and nego(state).refused == [1, 0, 0]


def test_a_line_a_travel_strikes_is_not_refused() -> None:
    """Ruling A-09: the investor sent travelling takes its line with it; nobody refused it."""
    state = negotiation(hands=[[], [], ["travel:O"]])
    play(state, "0: include O @1 1", "2: travel O")
    passes(state, 0, 1)
    assert "O" not in terms(state) and counts(state) == ([0, 0, 0], [0, 0, 1])


# ------------------------------------------------------------------ interfered (ventured)
def test_a_stop_card_counts_neither_but_the_stopped_card_is_interference() -> None:
    state = negotiation(hands=[[], ["stop"], ["travel:O"]])
    play(state, "2: travel O", "1: stop")
    assert counts(state) == ([0, 0, 0], [0, 0, 1]) and nego(state).counted == [0, 1, 1]
    assert ventured(nego(state), 2) == 1 and ventured(nego(state), 1) == 0


def test_offers_lays_and_answers_are_not_interference() -> None:
    state = negotiation(space=11, hands=[[], ["clan:B"], []])  # B R O
    play(state, "1: lay B", "1: offer B 3", "1: offer B 2", "1: withdraw B", "1: offer O 2")
    play(state, "0: include B @1 1", "1: refuse")
    assert nego(state).interfered == [0, 0, 0] and nego(state).counted == [1, 5, 0]


def test_a_card_in_the_closing_round_is_interference() -> None:
    hands = [[], ["stop", "travel:any"], ["travel:R", "stop"]]
    state = negotiation(hands=hands)
    play(state, "1: offer O 2", "0: accept O @1", "0: call", "1: travel R", "2: stop")
    assert counts(state) == ([0, 0, 0], [0, 1, 0])


def test_a_boss_card_is_interference_and_the_new_boss_counts_its_own_proposals() -> None:
    """A Boss card counts as its player's interference; the cleared terms are nobody's refusal; the new
    Boss's ``struck`` is its own count (0: it was never the Boss here), the old Boss keeps its own."""
    state = negotiation(hands=[[], ["boss"], []])
    play(state, "0: include O @1 1", "1: refuse", "0: include O @1 2", "1: boss")
    passes(state, 2, 0)
    assert nego(state).boss == 1 and terms(state) == {"O": (1, 0, True)}
    assert counts(state) == ([1, 0, 0], [0, 1, 0])
    assert struck(nego(state), 1) == 0 and struck(nego(state), 0) == 1
    play(state, "1: include R @0 1", "0: refuse")
    assert nego(state).refused == [1, 1, 0] and struck(nego(state), 1) == 1


def test_a_new_negotiation_starts_every_count_at_zero() -> None:
    state = negotiation(hands=[[], [], ["travel:O"]])
    play(state, "0: include O @1 1", "1: refuse", "2: travel O")
    passes(state, 0, 1)
    play(state, "0: fail")
    assert state.nego is None
    play(state, "1: deal")
    assert counts(state) == ([0, 0, 0], [0, 0, 0])


# ------------------------------------------------------------------ the greedy bot reads them
def test_greedy_as_boss_asks_more_after_each_refusal() -> None:
    """Space 4 (proceeds 6, two investors): the fair price 6 // 3 = 2 refused, the bot asks 2 more each
    time, up to what the terms leave it (5: it keeps at least 1)."""
    state = negotiation()
    bot = GreedyBot()
    asks = []
    for _ in range(3):
        everyone_passes(state)
        action = bot.choose(state, 0)
        asks.append(str(action))
        play(state, f"0: {action}", "1: refuse")
    assert asks == ["include O @1 2", "include O @1 4", "include O @1 5"]
    assert nego(state).refused == [3, 0, 0]


# ------------------------------------------------------------------ exact along whole games
def recount(players: int, seed: int, greedy: bool) -> int:
    """Plays a game (greedy or random moves) checking after every action that the counts are what its
    actions give, counted apart: a card played by its seat; an unagreed line gone or changed (seat or
    amount) after an action of the game that is not a pass (passes only close windows: a Travel or a
    Boss card takes effect on one) nor a fail. Every 25th action the counts also survive a position.
    Returns the proposals counted."""
    state = GAME.new_state(players, seed, QUICK_OPTIONS)
    rng = random.Random(seed)
    bots = [GreedyBot(seed * 8 + s) for s in range(players)]
    refused, interfered, total = [0] * players, [0] * players, 0
    while not state.is_over():
        seat = state.deciders()[0]
        action: BossAction = (
            bots[seat].choose(state, seat) if greedy else rng.choice(state.legal_actions(seat))
        )
        before = state.nego
        lines = unagreed(before) if before is not None else {}
        boss = before.boss if before is not None else -1
        state.apply(action, seat)
        after = state.nego
        if after is None:
            continue
        if before is None:
            refused, interfered = [0] * players, [0] * players
        if isinstance(action, Travel | BossCard):
            interfered[seat] += 1
        if not isinstance(action, Pass | Fail):
            now = {k: (t.seat, t.amount) for k, t in all_lines(after).items()}
            gone = sum(1 for k, line in lines.items() if now.get(k) != line)
            refused[boss] += gone
            total += gone
        assert (after.refused, after.interfered) == (refused, interfered), (seed, action)
        if state.actions_applied % 25 == 0:
            again = GAME.load_position(json.dumps(state.to_position()))
            assert again.nego is not None
            assert (again.nego.refused, again.nego.interfered) == (refused, interfered)
    return total


def all_lines(nego: Negotiation) -> dict[tuple[str, int], Term]:
    """Returns every line of the terms by key: ``(colour, -1)`` for an investor, ``("", seat)`` a tip."""
    found: dict[tuple[str, int], Term] = {(c, -1): t for c, t in nego.items.items()}
    found.update({("", s): t for s, t in nego.tips.items()})
    return found


def unagreed(nego: Negotiation) -> dict[tuple[str, int], tuple[int, int]]:
    """Returns the unagreed lines by key, as (seat, amount)."""
    return {k: (t.seat, t.amount) for k, t in all_lines(nego).items() if not t.agreed}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_counts_are_exact_in_random_games(seed: int) -> None:
    assert recount(3 + seed % 3, seed, greedy=False) > 0


@pytest.mark.parametrize("seed", [4, 5])
def test_the_counts_are_exact_in_greedy_games(seed: int) -> None:
    recount(3 + seed % 3, seed, greedy=True)


# ------------------------------------------------------------------ positions
def counted_position() -> JSONObject:
    """A position where seat 0 had a proposal refused and seat 2's Travel was stopped."""
    state = negotiation(hands=[[], ["stop"], ["travel:O"]])
    play(state, "0: include O @1 1", "1: refuse", "2: travel O", "1: stop")
    assert counts(state) == ([1, 0, 0], [0, 0, 1])
    return state.to_position()


def test_the_counts_round_trip_through_a_position() -> None:
    data = counted_position()
    assert data["negotiation"]["refused"] == [1, 0, 0] and data["negotiation"]["interfered"] == [0, 0, 1]
    state = GAME.load_position(json.dumps(data))
    assert counts(state) == ([1, 0, 0], [0, 0, 1])
    assert state.to_position() == data
    assert nego(state).copy() == nego(state) and nego(state).copy().refused is not nego(state).refused


def test_a_position_without_the_counts_loads_with_zeros_and_is_written_with_them() -> None:
    """Positions written before the counts existed still load (as zeros)."""
    data = counted_position()
    del data["negotiation"]["refused"], data["negotiation"]["interfered"]
    state = GAME.load_position(json.dumps(data))
    assert counts(state) == ([0, 0, 0], [0, 0, 0])
    written = state.to_position()["negotiation"]
    assert written["refused"] == [0, 0, 0] and written["interfered"] == [0, 0, 0]


@pytest.mark.parametrize("field", ["refused", "interfered"])
@pytest.mark.parametrize(
    ("value", "where", "message"),
    [
        ([0, -1, 0], "[1]", "must be at least 0"),
        ([0, 0], "", "must list 3 seats'"),
        ([0, 0, 0, 0], "", "must list 3 seats'"),
        ([0, "1", 0], "[1]", "must be an integer"),
        ([0, 1.0, 0], "[1]", "must be an integer"),
        ([0, True, 0], "[1]", "must be an integer"),
        ("0 0 0", "", "must be a list"),
        (None, "", "must be a list"),
        ([0, 0, 9], "[2]", "at most the seat's counted actions"),
    ],
)
def test_malformed_counts_are_refused(field: str, value: object, where: str, message: str) -> None:
    """A count below 0 or not an integer, a list of the wrong length or not a list, or a count above the
    seat's counted actions: a one-line PositionError naming the entry."""
    data = counted_position()
    data["negotiation"][field] = value
    for as_text in (False, True):
        with pytest.raises(PositionError) as err:
            if as_text:
                GAME.load_position(json.dumps(data))
            else:
                GAME.state_from_position(copy.deepcopy(data))
        assert err.value.field == f"negotiation.{field}{where}" and message in str(err.value)
        assert "\n" not in str(err.value)
