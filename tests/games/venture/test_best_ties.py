"""Option ``best_ties`` (ruling A-19): which of several best arrangements ``reorganise best`` takes.

``first``: the least best arrangement written as sorted lists of card names (pure Python, the same on
every machine); ``solver``: the MILP's pick, as before the option, and what records and positions
made before it mean."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from parlour.core.record import GameRecord, replay
from parlour.games.venture import optimiser, packing
from parlour.games.venture.content import load_deck
from parlour.games.venture.optimiser import DEFAULT_TABLE, OptimiserCard
from parlour.games.venture.reorganisation import best_names

from ..typed import VENTURE as GAME
from .test_packing import deck_hand, random_hand, snapshot

TABLE = tuple(sorted(DEFAULT_TABLE.items()))
DECK = load_deck()
TIES = json.loads((Path(__file__).parent / "data" / "milp_ties.json").read_text(encoding="utf-8"))
"""Hands of random playouts that several arrangements tie on (and a few too large for the search),
with the arrangement the MILP picked (scipy 1.17.1): ``best_ties=solver``'s."""


def keys(hand: str) -> tuple[packing.CardKey, ...]:
    """Returns the optimiser's snapshot of a hand written as corporation names."""
    by_name = {c.name: c for c in DECK.corporations}
    return tuple(sorted((n, by_name[n].industry, tuple(sorted(by_name[n].letters))) for n in hand.split()))


def stacks_text(stacks: packing.Stacks) -> str:
    """Returns an arrangement as the data file writes it."""
    return " / ".join(" ".join(s) for s in stacks)


def earns(cards: tuple[packing.CardKey, ...], table: dict[int, int]) -> int:
    """Returns what a stack earns, -1 unless it is a lone card or a lawful stack that earns."""
    if len(cards) == 1:
        return table.get(1, 0) * len(cards[0][2])
    if len({c[1] for c in cards}) < len(cards):
        return -1
    common = set(cards[0][2]).intersection(*(c[2] for c in cards[1:]))
    worth = table.get(len(cards), 0) * len(common)
    return worth if worth > 0 else -1


def partitions(items: list[int]) -> list[list[tuple[int, ...]]]:
    """Returns every partition of the items, each part in ascending order."""
    if not items:
        return [[]]
    head, rest = items[0], items[1:]
    found = []
    for size in range(len(rest) + 1):
        for others in combinations(rest, size):
            left = [i for i in rest if i not in others]
            found += [[(head, *others), *p] for p in partitions(left)]
    return found


def least_best(cards: tuple[packing.CardKey, ...], table: dict[int, int]) -> tuple[int, list[list[str]]]:
    """Returns the best profit and, by brute force, the least best arrangement (stacks as sorted names,
    sorted)."""
    scored = []
    for p in partitions(list(range(len(cards)))):
        worths = [earns(tuple(cards[i] for i in part), table) for part in p]
        if min(worths, default=0) >= 0:
            scored.append((sum(worths), sorted(sorted(cards[i][0] for i in part) for part in p)))
    top = max(total for total, _ in scored)
    return top, min(names for total, names in scored if total == top)


def as_names(stacks: packing.Stacks) -> list[list[str]]:
    """Returns an arrangement as sorted lists of sorted names."""
    return sorted(sorted(s) for s in stacks)


@pytest.mark.parametrize("seed", range(4))
def test_first_is_the_least_best_arrangement(seed: int) -> None:
    """On hands small enough for brute force, ``first`` is the least of all best arrangements."""
    rng = random.Random(seed)
    for _ in range(40):
        made_up = rng.random() < 0.6
        cards = snapshot(
            random_hand(rng, rng.randint(0, 8)) if made_up else deck_hand(rng, rng.randint(0, 8))
        )
        found = packing.first.__wrapped__(cards, TABLE)
        assert found is not None and found.stacks is not None
        profit, names = least_best(cards, dict(TABLE))
        assert (found.profit, as_names(found.stacks)) == (profit, names), cards


def test_first_among_ties() -> None:
    """Three cards of a letter in three industries and a fourth that could replace one: the stack
    without RR-AB comes first (OI-A RR-A ST-A before OI-A RR-AB ST-A)."""
    cards = snapshot([OptimiserCard(n, n[:2], frozenset(n[3:])) for n in ("ST-A", "OI-A", "RR-A", "RR-AB")])
    assert packing.solve.__wrapped__(cards, TABLE) == packing.Solution(1, None)
    found = packing.first.__wrapped__(cards, TABLE)
    assert found == packing.Solution(1, (("OI-A", "RR-A", "ST-A"), ("RR-AB",)))


def test_first_is_the_unique_best_when_one() -> None:
    """With one best arrangement, ``first`` is it (the search's and the MILP's)."""
    rng = random.Random(17)
    for _ in range(60):
        cards = snapshot(deck_hand(rng, rng.randint(0, 12)))
        quick = packing.solve.__wrapped__(cards, TABLE)
        if quick is not None and quick.stacks is not None:
            assert packing.first.__wrapped__(cards, TABLE) == quick


def test_the_tied_hands_are_ties() -> None:
    """The data file's hands are the ones the search leaves to the MILP."""
    assert len(TIES) >= 100
    for entry in TIES:
        quick = packing.solve.__wrapped__(keys(entry["hand"]), TABLE)
        assert quick is None or (quick.stacks is None and quick.profit == entry["profit"])


def test_solver_keeps_the_milp_arrangement_of_tied_hands() -> None:
    """``best_ties=solver``: the MILP picks the very arrangement it picked before the option."""
    for entry in TIES:
        stacks, profit = optimiser._solve_by_milp(keys(entry["hand"]), TABLE)
        assert (stacks_text(stacks), profit) == (entry["best"], entry["profit"])


def test_first_earns_the_same_on_tied_hands() -> None:
    """``first`` earns what the MILP's pick earns, in another arrangement when it is not the first."""
    differ = 0
    for entry in TIES:
        found = packing.first.__wrapped__(keys(entry["hand"]), TABLE)
        if found is not None and found.stacks is not None:
            assert found.profit == entry["profit"]
            differ += stacks_text(found.stacks) != entry["best"]
    assert differ > 10


def test_the_game_follows_the_option() -> None:
    """``best_names`` under each value: the MILP's arrangement, or the first one."""
    entry = next(e for e in TIES if packing.first.__wrapped__(keys(e["hand"]), TABLE) is not None)
    names = entry["hand"].split()
    found = packing.first.__wrapped__(keys(entry["hand"]), TABLE)
    assert found is not None and found.stacks is not None
    assert stacks_text(found.stacks) != entry["best"]  # the MILP picks another arrangement
    for ties, text in (("solver", entry["best"]), ("first", stacks_text(found.stacks))):
        state = GAME.new_state(4, 0, {"best_ties": ties})
        state.holdings[0] = [[c.id] for c in state.deck.corporations if c.name in names]
        assert stacks_text(best_names(state, 0)) == text


def test_new_games_default_to_first_and_stored_options_to_solver() -> None:
    """The default for new games is ``first``; options read from a position or a record made before
    the option existed (without it) mean ``solver``; a value given is kept either way."""
    assert GAME.options()["best_ties"] == "first"
    assert GAME.options({}, stored=True)["best_ties"] == "solver"
    assert GAME.options({"best_ties": "first"}, stored=True)["best_ties"] == "first"
    position = GAME.new_state(3, 5).to_position()
    assert position["options"]["best_ties"] == "first"
    del position["options"]["best_ties"]
    assert GAME.state_from_position(position).options["best_ties"] == "solver"


def play(seed: int, options: dict[str, str]) -> tuple[list[tuple[int, str]], list[float]]:
    """Returns the moves and scores of a random four-player game under the options."""
    state = GAME.new_state(4, seed, options)
    rng = random.Random(seed)
    moves = []
    while not state.is_over():
        seat = state.deciders()[0]
        action = rng.choice(state.legal_actions(seat))
        moves.append((seat, state.format_action(action)))
        state.apply(action, seat)
    return moves, state.scores()


def test_an_old_record_replays_with_solver_and_a_new_one_names_its_value() -> None:
    """A record without ``best_ties`` (made before the option) replays as the solver played it, though
    ``first`` would play the same moves otherwise; a new game's options name the value."""
    moves, scores = play(2, {"best_ties": "solver"})
    assert play(2, {"best_ties": "first"})[0][: len(moves)] != moves  # the two values part in this game
    old = {k: v for k, v in GAME.options({"best_ties": "solver"}).items() if k != "best_ties"}
    record = GameRecord("venture", 4, 2, old, ["random"] * 4)
    for seat, action in moves:
        record.add(seat, action)
    assert replay(GAME, record).scores() == scores
    assert "best_ties" in GAME.new_state(4, 2).options


def test_first_reaching_a_known_best_is_first() -> None:
    """Given the best profit, the bounded search finds :func:`packing.first`'s arrangement."""
    rng = random.Random(18)
    for _ in range(80):
        cards = snapshot(deck_hand(rng, rng.randint(0, 12)))
        found = packing.first.__wrapped__(cards, TABLE)
        if found is not None:
            assert packing.first_reaching.__wrapped__(cards, TABLE, found.profit) == found.stacks


def test_large_hands_take_the_first_arrangement_earning_the_milp_s_profit() -> None:
    """A hand too large for the search: the first arrangement, in the same order, that earns the MILP's
    best profit; none earns more, and the budget may leave the MILP's own (a hand none reaches)."""
    rng = random.Random(19)
    cards = snapshot(deck_hand(rng, packing.SIZE_LIMIT + 2))
    assert packing.first.__wrapped__(cards, TABLE) is None
    stacks, profit = optimiser._solve_by_milp(cards, TABLE)
    found = packing.first_reaching.__wrapped__(cards, TABLE, profit)
    assert found is not None
    by_name = {c[0]: c for c in cards}
    assert sum(earns(tuple(by_name[n] for n in s), dict(TABLE)) for s in found) == profit
    assert as_names(found) <= as_names(stacks)
    assert packing.first_reaching.__wrapped__(cards, TABLE, profit + 1) is None
    state = GAME.new_state(4, 0, {"best_ties": "first"})
    state.holdings[0] = [[c.id] for c in state.deck.corporations if c.name in by_name]
    assert best_names(state, 0) == found


def pack_first(
    cards: tuple[packing.CardKey, ...], table: tuple[tuple[int, int], ...]
) -> packing.Solution | None:
    """Returns ``first``'s answer as the memoised search of every set of cards (``_pack``) gives it."""
    found = packing._search(cards, table, True)
    return None if found is None else packing.Solution(found[0], packing._arrangement(cards, found[1]))


@pytest.mark.parametrize("seed, hands", [(24, 150), pytest.param(240, 1500, marks=pytest.mark.slow)])
def test_the_branch_and_bound_search_is_the_memoised_one(seed: int, hands: int) -> None:
    """``first``'s branch-and-bound search gives ``_pack``'s profit and least arrangement, on hands of
    the deck up to the size limit and on made-up hands under random tables (lone cards and pairs may
    earn too)."""
    rng = random.Random(seed)
    for _ in range(hands):
        table = TABLE
        if rng.random() < 0.4:
            cards = snapshot(random_hand(rng, rng.randint(0, 12)))
            drawn = {k: rng.randint(0, 9) for k in rng.sample(range(1, 7), rng.randint(0, 6))}
            table = tuple(sorted(drawn.items()))
        else:
            cards = snapshot(deck_hand(rng, rng.randint(0, packing.SIZE_LIMIT)))
        assert packing.first.__wrapped__(cards, table) == pack_first(cards, table), (cards, table)


def test_a_hand_all_in_stacks_past_the_budget_keeps_the_memoised_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hand whose cards in stacks could take ``_pack`` past its budget is left to ``_pack``, whose
    budget then says whether the hand is too large (as before the branch-and-bound search)."""
    cards = snapshot(random_hand(random.Random(4), 10))
    assert packing.first.__wrapped__(cards, TABLE) is not None
    monkeypatch.setattr(packing, "STEP_BUDGET", 2)
    assert packing.first.__wrapped__(cards, TABLE) is None


@pytest.mark.parametrize("seed", range(3))
def test_the_stacks_by_first_card_are_the_scoring_stacks(seed: int) -> None:
    """The searches' stacks by first card (cards ascending, in order) are exactly ``_scoring_stacks``'
    (profits times 60), on hands of the deck and made-up hands under random tables."""
    rng = random.Random(seed)
    for _ in range(60):
        table = dict(TABLE)
        if rng.random() < 0.5:
            cards = snapshot(random_hand(rng, rng.randint(0, 12)))
            table = {k: rng.randint(0, 9) for k in rng.sample(range(1, 7), rng.randint(0, 6))}
        else:
            cards = snapshot(deck_hand(rng, rng.randint(0, 18)))
        masks = packing._letter_masks(cards)
        industries = sorted({ind for _, ind, _ in cards})
        ind_of = [industries.index(ind) for _, ind, _ in cards]
        by_first = packing._stack_options(ind_of, masks, table)
        listed = [(bits, value) for options in by_first for _, bits, value, _ in options]
        expected = [(bits, 60 * value) for bits, value in packing._scoring_stacks(ind_of, masks, table)]
        assert sorted(listed) == sorted(expected)
        for first, options in enumerate(by_first):
            assert [o[0] for o in options] == sorted(o[0] for o in options)
            assert all(o[0][0] == first and sum(1 << c for c in o[0]) == o[1] for o in options)


def test_the_search_keeping_only_totals_has_pack_s_best_total() -> None:
    """``_pack_least`` (``first``'s memoised search, totals only) finds ``_pack``'s best total."""
    rng = random.Random(25)
    for _ in range(60):
        cards = snapshot(deck_hand(rng, rng.randint(0, packing.SIZE_LIMIT)))
        least = packing._search(cards, TABLE, True)
        counted = packing._search(cards, TABLE, False)
        assert least is not None and counted is not None
        assert least[0] == counted[0]
