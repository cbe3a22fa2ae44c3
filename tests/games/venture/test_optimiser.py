"""Tests for the exact Venture reorganisation optimiser."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.venture import optimiser
from parlour.games.venture.optimiser import (
    DEFAULT_TABLE,
    Arrangement,
    arrangement_profit,
    best_arrangement,
    best_profit,
    brute_force_profit,
    common_letters,
    is_valid_stack,
    stack_profit,
)

INDUSTRIES = ("ST", "OI", "RR", "RE", "AU", "SH")


@dataclass(frozen=True)
class Corp:
    """A corporation card for tests."""

    id: str
    industry: str
    letters: frozenset[str]


def corp(industry: str, letters: str, tag: str = "") -> Corp:
    """Return a card with id ``INDUSTRY-LETTERS[tag]``."""
    return Corp(f"{industry}-{letters}{tag}", industry, frozenset(letters))


def check(corps: Sequence[Corp], arrangement: Arrangement, table: Any = DEFAULT_TABLE) -> None:
    """Assert the arrangement partitions the cards into valid stacks scoring its profit."""
    by_id = {c.id: c for c in corps}
    ids = [cid for stack in arrangement.stacks for cid in stack]
    assert sorted(ids) == sorted(by_id)
    stacks = [[by_id[cid] for cid in stack] for stack in arrangement.stacks]
    assert all(is_valid_stack(s) for s in stacks)
    assert arrangement_profit(stacks, table) == arrangement.profit


def check_optimal(corps: Sequence[Corp], table: Mapping[int, int] = DEFAULT_TABLE) -> None:
    """Assert the optimiser's arrangement is valid and scores what an exhaustive search finds."""
    result = best_arrangement(corps, table)
    assert result.profit == brute_force_profit(corps, table)
    check(corps, result, table)


# --- helpers -------------------------------------------------------------------------------


def test_common_letters_and_validity() -> None:
    a, b, c = corp("ST", "ABD"), corp("OI", "BDE"), corp("ST", "BD", "x")
    assert common_letters([a, b]) == frozenset("BD")
    assert common_letters([]) == frozenset()
    assert is_valid_stack([a])
    assert is_valid_stack([a, b])
    assert not is_valid_stack([a, c])  # same industry
    assert not is_valid_stack([corp("ST", "A"), corp("OI", "B")])  # no common letter
    assert not is_valid_stack([])


def test_stack_profit() -> None:
    five = [corp(ind, "AB" if i else "A") for i, ind in enumerate(INDUSTRIES[:5])]
    assert stack_profit(five) == 8
    assert stack_profit(five[:2]) == 0
    assert stack_profit(five[:1]) == 0
    assert stack_profit(five[:3], {3: 7}) == 7
    with pytest.raises(ValueError, match="invalid stack"):
        stack_profit([corp("ST", "A"), corp("ST", "A", "x")])
    with pytest.raises(ValueError, match="invalid stack"):
        arrangement_profit([[corp("ST", "A"), corp("OI", "B")]])


# --- hand-made optimisation cases ----------------------------------------------------------


def test_rulebook_example_two_common_letters_in_four() -> None:
    corps = [corp("ST", "ADE"), corp("OI", "BDE"), corp("RR", "CDEF"), corp("RE", "DE")]
    result = best_arrangement(corps)
    assert result.profit == 6
    assert len(result.stacks) == 1
    check(corps, result)


def test_five_stack_one_common_letter() -> None:
    corps = [corp("ST", "AB"), corp("OI", "AC"), corp("RR", "AD"), corp("RE", "AE"), corp("AU", "AF")]
    assert best_profit(corps) == 8
    assert brute_force_profit(corps) == 8


def test_same_industry_cannot_share_a_stack() -> None:
    corps = [corp("ST", "AB"), corp("ST", "AB", "2"), corp("OI", "AB")]
    result = best_arrangement(corps)
    assert result.profit == 0
    assert all(len(s) <= 2 for s in result.stacks)
    check(corps, result)


def test_full_six_stack() -> None:
    corps = [corp(ind, "ABCDE") for ind in INDUSTRIES]
    result = best_arrangement(corps)
    assert result.profit == 100
    assert len(result.stacks) == 1
    check(corps, result)


def test_two_six_stacks_of_one_type_are_dealt_apart() -> None:
    corps = [corp(ind, "AB", tag) for ind in INDUSTRIES for tag in ("1", "2")]
    result = best_arrangement(corps)
    assert result.profit == 80
    assert sorted(len(s) for s in result.stacks) == [6, 6]
    check(corps, result)


def test_two_groups_of_three_from_single_cards() -> None:
    # One card per industry, all sharing "A": one 6-stack (20) beats two 3-stacks (2).
    corps = [corp(ind, "A") for ind in INDUSTRIES]
    assert best_profit(corps) == 20
    # Without a 6-stack score, two 3-stacks of the same type are best.
    result = best_arrangement(corps, {3: 1})
    assert result.profit == 2
    assert sorted(len(s) for s in result.stacks) == [3, 3]
    check(corps, result, {3: 1})


def test_bigger_stack_beats_more_letters() -> None:
    rich = [corp(ind, "ABCDE") for ind in INDUSTRIES[:3]]
    poor = [corp(ind, "AF") for ind in INDUSTRIES[3:]]
    # A 6-stack sharing only A (20) beats a 3-stack sharing ABCDE (5).
    assert best_profit(rich + poor) == 20


def test_two_stacks_when_no_letter_is_shared() -> None:
    left = [corp(ind, "ABCDE") for ind in INDUSTRIES[:3]]
    right = [corp(ind, "BCDEF") for ind in INDUSTRIES[3:]]
    # Together they share BCDE: one 6-stack scores 20 * 4 = 80, far more than 5 + 5.
    assert best_profit(left + right) == 80
    # With nothing shared across, two 3-stacks: ABCDE (5) and F (1).
    right = [corp(ind, "F") for ind in INDUSTRIES[3:]]
    result = best_arrangement(left + right)
    assert result.profit == 5 + 1
    check(left + right, result)


def test_most_valuable_card_on_top() -> None:
    corps = [corp("ST", "ABCDE"), corp("OI", "A"), corp("RR", "AB"), corp("RE", "ABC")]
    result = best_arrangement(corps)
    (stack,) = result.stacks
    assert stack[-1] == "ST-ABCDE"
    assert stack == ("OI-A", "RR-AB", "RE-ABC", "ST-ABCDE")


def test_trivial_inputs_skip_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("solver called")

    monkeypatch.setattr(optimiser, "_solve_milp", boom)
    optimiser.clear_cache()
    assert best_arrangement([]) == Arrangement(stacks=(), profit=0)
    two = [corp("ST", "AB"), corp("OI", "AB")]
    assert best_arrangement(two).profit == 0
    disjoint = [corp(ind, letter) for ind, letter in zip(INDUSTRIES, "ABCDEF", strict=True)]
    result = best_arrangement(disjoint)
    assert result.profit == 0
    assert sorted(result.stacks) == sorted((c.id,) for c in disjoint)
    one_industry = [corp("ST", "ABC", str(i)) for i in range(5)]
    assert best_arrangement(one_industry).profit == 0


def test_input_order_does_not_matter() -> None:
    rng = random.Random(7)
    corps = random_corps(rng, 14)
    first = best_arrangement(corps)
    for _ in range(3):
        shuffled = corps[:]
        rng.shuffle(shuffled)
        optimiser.clear_cache()
        assert best_arrangement(shuffled) == first
    check(corps, first)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        best_arrangement([corp("ST", "A"), corp("ST", "A")])
    with pytest.raises(ValueError, match="no letters"):
        best_arrangement([Corp("X", "ST", frozenset())])
    with pytest.raises(ValueError, match="table"):
        best_arrangement([corp("ST", "A")], {3: -1})
    with pytest.raises(ValueError, match="limited"):
        brute_force_profit(random_corps(random.Random(1), 17))


def test_medium_hand_matches_brute_force() -> None:
    rng = random.Random(2024)
    for _ in range(3):
        check_optimal(random_corps(rng, 11))


def test_larger_hand_is_consistent() -> None:
    corps = random_corps(random.Random(5), 30)
    result = best_arrangement(corps)
    check(corps, result)
    assert best_profit(corps) == result.profit


# --- property tests ------------------------------------------------------------------------


def random_corps(rng: random.Random, n: int) -> list[Corp]:
    """Return ``n`` random cards with unique ids."""
    return [
        Corp(f"C{i}", rng.choice(INDUSTRIES), frozenset(rng.sample("ABCDEF", rng.randint(1, 5))))
        for i in range(n)
    ]


letter_sets = st.frozensets(st.sampled_from("ABCDEF"), min_size=1, max_size=5)
card_specs = st.tuples(st.sampled_from(INDUSTRIES), letter_sets)
hands = st.lists(card_specs, max_size=8).map(
    lambda specs: [Corp(f"C{i}", ind, ls) for i, (ind, ls) in enumerate(specs)]
)
# Few letters and industries make scoring stacks (and clashes) common.
dense_hands = st.lists(
    st.tuples(
        st.sampled_from(INDUSTRIES[:5]),
        st.frozensets(st.sampled_from("ABC"), min_size=1, max_size=3),
    ),
    min_size=3,
    max_size=9,
).map(lambda specs: [Corp(f"C{i}", ind, ls) for i, (ind, ls) in enumerate(specs)])
tables = st.dictionaries(st.integers(1, 6), st.integers(0, 9), max_size=6)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(hands)
def test_optimum_matches_brute_force(corps: list[Corp]) -> None:
    check_optimal(corps)


@SETTINGS
@given(dense_hands)
def test_dense_optimum_matches_brute_force(corps: list[Corp]) -> None:
    check_optimal(corps)


@settings(max_examples=80, deadline=None)
@given(dense_hands, tables)
def test_any_table_matches_brute_force(corps: list[Corp], table: dict[int, int]) -> None:
    check_optimal(corps, table)
