"""Properties that hold after every action of random games (hypothesis chooses seeds and actions)."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.venture import VentureState
from parlour.games.venture.content import load_deck
from parlour.games.venture.payment import payment_value

from ..typed import VENTURE as GAME
from .scenario import load, placement_errors

DECK = load_deck()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SET_VALUE = {2: 16, 3: 32, 4: 64}


@cache
def _best_partition(denominations: tuple[int, ...]) -> int:
    """Returns the best value of one symbol's cards by trying every partition into sets and singles."""
    if not denominations:
        return 0
    first, rest = denominations[0], denominations[1:]
    best = first + _best_partition(rest)  # the first card paid at face value
    for mask in range(1, 1 << len(rest)):
        chosen = [rest[i] for i in range(len(rest)) if mask >> i & 1]
        group = [first, *chosen]
        if len(group) <= 4 and len(set(group)) == len(group):
            left = tuple(rest[i] for i in range(len(rest)) if not mask >> i & 1)
            best = max(best, SET_VALUE[len(group)] + _best_partition(left))
    return best


def brute_wealth(names: list[str]) -> int:
    """Returns what capital cards (by name) can pay at most, by brute force over all groupings."""
    total = 0
    by_symbol: dict[str, list[int]] = {}
    for name in names:
        if name[0].isdigit():
            if name[-1] in "tcs":
                by_symbol.setdefault(name[-1], []).append(int(name[:-1]))
            else:
                total += int(name)
    return total + sum(_best_partition(tuple(sorted(d))) for d in by_symbol.values())


def seat_wealth(state: VentureState, seat: int) -> int:
    """Returns what a seat's capital in hand and laid down can pay (brute force)."""
    return brute_wealth([state.card(r).name for r in state.hands[seat] + state.payment])


def check_turn_rules(state: VentureState) -> None:
    """On a turn decision, checks take-overs, proxies, end and discard against the rules, independently."""
    seat, top = state.current, state.stack.top
    legal = {str(a) for a in state.legal_actions()}
    if top.kind != "turn" or top.data.get("must_reorganise"):
        return
    money = seat_wealth(state, seat) - state.owed
    for cid in state.center:
        corp = state.corp(cid)
        assert (f"take {corp.name}" in legal) == (corp.value <= money), corp.name
    halves = {"x1/2": 1, "x1": 2, "x3/2": 3}
    cards = {state.card(r).name for r in state.hands[seat]} & set(halves)
    tops = [
        state.corp(s[-1]) for other in range(state.players) if other != seat for s in state.holdings[other]
    ]
    expected = {f"proxy {c} {t.name}" for c in cards for t in tops if t.value * halves[c] / 2 <= money}
    assert {a for a in legal if a.startswith("proxy")} == expected
    held = sum(len(s) for s in state.holdings[seat])
    assert ("reorganise" in legal) == (2 <= held <= money)
    assert ("end" in legal) == (state.transacted or not state.hands[seat])
    assert any(a.startswith("discard") for a in legal) == (not state.transacted and bool(state.hands[seat]))


def check_after_action(state: VentureState, scores: list[float], action: object) -> list[float]:
    """Checks every invariant after an action and returns the new scores."""
    assert state.invariant_errors() == [], f"after {action}"
    assert placement_errors(state) == [], f"after {action}"
    now = state.scores()
    assert all(b >= a for a, b in zip(scores, now, strict=True)), f"a score fell after {action}"
    if not state.is_over():
        assert state.owed <= seat_wealth(state, state.current), f"after {action}"
        check_turn_rules(state)
    return now


def play_out(state: VentureState, choices: list[int], rng: random.Random, limit: int = 20_000) -> None:
    """Plays to the end: hypothesis's choices first, then the generator's; checks after every action."""
    assert state.invariant_errors() == []
    assert placement_errors(state) == []
    scores = state.scores()
    steps = 0
    while not state.is_over():
        legal = state.legal_actions()
        assert legal, f"seat {state.deciders()} has no legal action"
        index = choices[steps] % len(legal) if steps < len(choices) else rng.randrange(len(legal))
        state.apply(legal[index])
        steps += 1
        scores = check_after_action(state, scores, legal[index])
        assert steps < limit
    assert state.deciders() == ()
    assert state.legal_actions(0) == []


@pytest.mark.slow
@SETTINGS
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    max_turns=st.sampled_from([12, 40, 400]),
    payment=st.sampled_from(["turn", "each"]),
    placement=st.sampled_from(["stack", "alone"]),
    last_draw=st.sampled_from(["no", "yes"]),
    choices=st.lists(st.integers(0, 2**16), max_size=400),
)
def test_every_action_keeps_the_invariants(
    players: int, seed: int, max_turns: int, payment: str, placement: str, last_draw: str, choices: list[int]
) -> None:
    """After every action: no invariant broken, each card in one place, scores never fall, debts payable.

    Hypothesis chooses the first actions (an index into the legal actions); the
    rest of the game is played by a generator seeded with ``seed``.
    """
    options = {
        "max_turns": max_turns,
        "payment": payment,
        "proxy_placement": placement,
        "last_draw": last_draw,
    }
    play_out(GAME.new_state(players, seed, options), choices, random.Random(seed))


OFFENDING_STACKS = [
    [["ST-A", "OI-AE", "ST-AB"]],
    [["RR-CD", "RE-DEF", "RR-CDE"], ["AU-EF"]],
    [["ST-A", "OI-AE", "RR-AE", "ST-AB", "OI-ACE"]],
]


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    owner=st.integers(0, 2),
    stacks=st.sampled_from(OFFENDING_STACKS),
    choices=st.lists(st.integers(0, 2**16), max_size=200),
)
def test_a_word_of_caution_position_plays_on_lawfully(
    seed: int, owner: int, stacks: list[list[str]], choices: list[int]
) -> None:
    """A loaded position with two corporations of one industry in a stack plays on lawfully."""
    state = load(seed=seed, holdings={owner: stacks}, current=(owner + 2) % 3, options={"max_turns": 30})
    play_out(state, choices, random.Random(seed))


@given(st.lists(st.sampled_from([c.name for c in DECK.resources if c.kind == "capital"]), max_size=12))
@settings(max_examples=200, deadline=None)
def test_payment_value_is_the_best_grouping_into_sets(names: list[str]) -> None:
    """What a handful pays equals the best of every way of grouping its symbol cards into sets."""
    by_name = {c.name: c for c in DECK.resources}
    assert payment_value([by_name[n] for n in names], DECK.set_values) == brute_wealth(names)
