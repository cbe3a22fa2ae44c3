"""The pure-Python exact search (``packing``) against the MILP: the same best profit on every hand, and
the MILP's very arrangement whenever the search says one arrangement alone earns it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.venture import optimiser, packing
from parlour.games.venture.content import load_deck
from parlour.games.venture.optimiser import DEFAULT_TABLE, OptimiserCard, best_arrangement
from parlour.games.venture.reorganisation import best_names, best_profit, best_stacks, reorganise_best

from ..typed import VENTURE as GAME
from .scenario import load

INDUSTRIES = ("ST", "OI", "RR", "RE", "AU", "SH")
TABLE = tuple(sorted(DEFAULT_TABLE.items()))
DECK = load_deck()


def snapshot(cards: list[OptimiserCard]) -> tuple[packing.CardKey, ...]:
    """Returns the optimiser's snapshot of the cards."""
    return tuple(sorted((c.id, c.industry, tuple(sorted(c.letters))) for c in cards))


def agree(cards: list[OptimiserCard], table: tuple[tuple[int, int], ...] = TABLE) -> packing.Solution | None:
    """Asserts the search and the MILP agree on the cards (profit, and arrangement when the search gives
    one); returns the search's answer."""
    keys = snapshot(cards)
    quick = packing.solve.__wrapped__(keys, table)
    stacks, profit = optimiser._solve_by_milp(keys, table)
    if quick is not None:
        assert quick.profit == profit, cards
        if quick.stacks is not None:
            assert quick.stacks == stacks, cards
    return quick


def deck_hand(rng: random.Random, size: int) -> list[OptimiserCard]:
    """Returns ``size`` corporations of the house deck, at random."""
    return [OptimiserCard(c.name, c.industry, c.letters) for c in rng.sample(DECK.corporations, size)]


def random_hand(rng: random.Random, size: int) -> list[OptimiserCard]:
    """Returns ``size`` made-up cards, few letters and industries so that stacks and ties are common."""
    letters = "ABCDEF"[: rng.randint(2, 6)]
    industries = INDUSTRIES[: rng.randint(2, 6)]
    return [
        OptimiserCard(
            f"C{i}", rng.choice(industries), frozenset(rng.sample(letters, rng.randint(1, len(letters))))
        )
        for i in range(size)
    ]


@pytest.mark.parametrize("seed, hands", [(15, 120), pytest.param(150, 1000, marks=pytest.mark.slow)])
def test_the_search_and_the_milp_agree_on_many_hands_of_the_deck(seed: int, hands: int) -> None:
    """Hands of the house deck of every size the search takes: unique answers are the MILP's."""
    rng = random.Random(seed)
    answers = [agree(deck_hand(rng, rng.randint(0, packing.SIZE_LIMIT))) for _ in range(hands)]
    unique = sum(1 for a in answers if a is not None and a.stacks is not None)
    ties = sum(1 for a in answers if a is not None and a.stacks is None)
    assert unique > hands // 4 and ties > hands // 20  # both kinds of answer were compared


@pytest.mark.parametrize("seed, hands", [(16, 100), pytest.param(160, 1000, marks=pytest.mark.slow)])
def test_the_search_and_the_milp_agree_on_made_up_hands_and_tables(seed: int, hands: int) -> None:
    """Dense made-up hands under random tables (pairs and lone cards may earn too)."""
    rng = random.Random(seed)
    for _ in range(hands):
        table = TABLE
        if rng.random() < 0.5:
            table = tuple(
                sorted({k: rng.randint(0, 9) for k in rng.sample(range(1, 7), rng.randint(0, 6))}.items())
            )
        agree(random_hand(rng, rng.randint(0, 12)), table)


letter_sets = st.frozensets(st.sampled_from("ABCD"), min_size=1, max_size=4)
hands = st.lists(st.tuples(st.sampled_from(INDUSTRIES[:5]), letter_sets), max_size=11).map(
    lambda specs: [OptimiserCard(f"C{i}", ind, ls) for i, (ind, ls) in enumerate(specs)]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands)
def test_the_search_agrees_with_the_milp(cards: list[OptimiserCard]) -> None:
    agree(cards)


def test_a_tie_is_left_to_the_milp() -> None:
    """Three cards of a letter in three industries and a fourth that could replace one: two best
    arrangements, so the search names none."""
    cards = [OptimiserCard(n, n[:2], frozenset(n[3:])) for n in ("ST-A", "OI-A", "RR-A", "RR-AB")]
    quick = agree(cards)
    assert quick == packing.Solution(1, None)


def test_a_unique_best_arrangement_is_the_search_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """One best arrangement: the optimiser answers without the MILP, with the stacks in its order."""
    cards = [OptimiserCard(n, n[:2], frozenset(n[3:])) for n in ("ST-AB", "OI-A", "RR-ABC", "RE-CD")]

    def boom(*args: object) -> None:
        raise AssertionError("the MILP was asked")

    monkeypatch.setattr(optimiser, "_solve_milp", boom)
    optimiser.clear_cache()
    result = best_arrangement(cards)
    assert result.profit == 1
    assert result.stacks == (("OI-A", "ST-AB", "RR-ABC"), ("RE-CD",))


def test_large_hands_and_long_searches_go_to_the_milp(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    assert packing.solve.__wrapped__(snapshot(deck_hand(rng, packing.SIZE_LIMIT + 1)), TABLE) is None
    monkeypatch.setattr(packing, "STEP_BUDGET", 2)
    dense = random_hand(random.Random(4), 10)
    assert packing.solve.__wrapped__(snapshot(dense), TABLE) is None


def test_reorganise_best_keeps_best_holdings_without_asking_for_an_arrangement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ruling A-19: lawful holdings that earn the most stay; only the best profit is needed for that."""
    best = (("RE-BF", "AU-AEF", "RR-BDF", "SH-ABF"), ("OI-AE",))
    state = load(hands=[["20", "10"], [], []], holdings={0: [list(s) for s in best]})
    assert best_profit(state, 0) == 3
    assert best_names(state, 0) == best
    before = [list(s) for s in state.holdings[0]]

    def boom(*args: object) -> None:
        raise AssertionError("an arrangement was asked for")

    monkeypatch.setattr("parlour.games.venture.reorganisation.best_stacks", boom)
    reorganise_best(state, 0)
    assert state.holdings[0] == before


def test_best_stacks_are_the_optimiser_s_on_game_hands() -> None:
    """With ``best_ties=solver``, the game's best arrangement (search first, optimiser for ties) is the
    optimiser's, card for card."""
    rng = random.Random(5)
    for seed in range(12):
        state = GAME.new_state(4, seed, {"best_ties": "solver"})
        cards = rng.sample(range(len(state.deck.corporations)), rng.randint(2, 16))
        state.holdings[0] = [[c] for c in cards]
        expected = optimiser.arrange(state.corp(c) for c in cards)
        assert best_profit(state, 0) == expected.profit
        names = [[state.corp(c).name for c in s] for s in best_stacks(state, 0)]
        assert names == [list(s) for s in expected.stacks]


@pytest.mark.parametrize("seed, hands", [(21, 40), pytest.param(210, 400, marks=pytest.mark.slow)])
def test_the_bounded_search_finds_the_milp_s_best_profit_on_large_hands(seed: int, hands: int) -> None:
    """Hands of the house deck, most too large for the search: the bounded search's profit (within its
    budget) is the MILP's, and the first arrangement earning it earns exactly that."""
    rng = random.Random(seed)
    answered = 0
    for _ in range(hands):
        cards = snapshot(deck_hand(rng, rng.randint(6, 20)))
        found = packing.best_reached.__wrapped__(cards, TABLE)
        _, profit = optimiser._solve_by_milp(cards, TABLE)
        if found is not None:
            answered += 1
            assert found == profit, cards
    assert answered > hands * 3 // 4


def test_made_up_hands_and_tables_have_the_milp_s_best_profit() -> None:
    """Dense made-up hands under random tables (pairs and lone cards may earn too)."""
    rng = random.Random(22)
    for _ in range(80):
        table = tuple(
            sorted({k: rng.randint(0, 9) for k in rng.sample(range(1, 7), rng.randint(0, 6))}.items())
        )
        cards = snapshot(random_hand(rng, rng.randint(0, 12)))
        found = packing.best_reached.__wrapped__(cards, table)
        assert found is None or found == optimiser._solve_by_milp(cards, table)[1], (cards, table)


def test_a_bounded_search_over_its_budget_leaves_the_hand_to_the_milp(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(packing, "BEST_BUDGET", 2)
    cards = snapshot(deck_hand(random.Random(23), 16))
    assert packing.best_reached.__wrapped__(cards, TABLE) is None


def test_large_hands_are_arranged_without_the_milp_when_the_bounded_search_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Option best_ties=first, a hand too large for the search: the best profit and the first
    arrangement earning it, as the MILP's profit gives them, without asking the MILP."""
    rng = random.Random(24)
    cards = snapshot(deck_hand(rng, packing.SIZE_LIMIT + 3))
    _, profit = optimiser._solve_by_milp(cards, TABLE)
    expected = packing.first_reaching.__wrapped__(cards, TABLE, profit)
    assert expected is not None

    def boom(*args: object) -> None:
        raise AssertionError("the MILP was asked")

    monkeypatch.setattr(optimiser, "_solve_milp", boom)
    optimiser.clear_cache()
    state = GAME.new_state(4, 0, {"best_ties": "first"})
    names = {c[0] for c in cards}
    state.holdings[0] = [[c.id] for c in state.deck.corporations if c.name in names]
    assert best_profit(state, 0) == profit
    assert best_names(state, 0) == expected
