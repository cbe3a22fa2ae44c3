"""Ruling A-16: a reorganisation never returns to an arrangement, yet reaches every one and always ends."""

from __future__ import annotations

import json
import random
from collections import deque
from typing import Any

import pytest

from parlour.core.errors import IllegalActionError, PositionError
from parlour.games.venture import VentureState
from parlour.games.venture.arrangements import arrangement, current, moves, parse
from parlour.games.venture.reorganisation import move_cap

from ..typed import VENTURE as GAME
from .scenario import legal, load, play, stacks

# ST-DF sits on OI-BCD (common letter D); RR-CD fits on either stack.
LOOP = {0: [["OI-BCD", "ST-DF"], ["RR-CD"]]}
WIDE = {0: [["OI-BCD", "ST-DF"], ["RR-CD"], ["RE-DEF"], ["SH-BD"]]}


def reorganising(holdings: dict[int, list[list[str]]], **kwargs: object) -> VentureState:
    """Returns seat 0 in the middle of a reorganisation of ``holdings``."""
    state = load(hands=[["20", "10"], [], []], holdings=holdings, **kwargs)  # type: ignore[arg-type]
    play(state, "reorganise")
    return state


def test_a_move_back_to_an_arrangement_already_held_is_not_offered() -> None:
    """The lowest-id policy's loop: 'move ST-DF alone', 'move ST-DF on OI-BCD', ... is impossible."""
    state = reorganising(LOOP)
    assert "move ST-DF alone" in legal(state)
    play(state, "move ST-DF alone")
    assert "move ST-DF on OI-BCD" not in legal(state)
    with pytest.raises(IllegalActionError):
        play(state, "move ST-DF on OI-BCD")
    # Another way to the start (OI-BCD onto ST-DF would be a new arrangement, if it fitted).
    assert all(not a.startswith("move ST-DF on OI-BCD") for a in legal(state))
    assert state.stack.top.data["seen"] == ["OI-BCD ST-DF / RR-CD", "OI-BCD / RR-CD / ST-DF"]


def test_stack_order_on_the_table_does_not_make_a_new_arrangement() -> None:
    """Stacks are compared as a set: the same stacks listed in another order are the same arrangement."""
    state = reorganising(WIDE)
    deck = state.deck
    assert arrangement(deck, state.holdings[0]) == arrangement(deck, list(reversed(state.holdings[0])))
    assert arrangement(deck, parse(deck, current(state, 0)) or []) == current(state, 0)


def _reachable(state: VentureState) -> dict[str, list[str]]:
    """Returns every arrangement the moves reach from the seat's holdings (ignoring A-16), with a
    shortest way to each (its moves in notation)."""
    start = current(state, 0)
    ways: dict[str, list[str]] = {start: []}
    queue = deque([start])
    while queue:
        text = queue.popleft()
        stacks_ = parse(state.deck, text)
        assert stacks_ is not None
        for move, after in moves(state.deck, stacks_):
            if after not in ways:
                ways[after] = [*ways[text], str(move)]
                queue.append(after)
    return ways


def test_every_arrangement_reachable_at_the_start_is_still_reachable() -> None:
    """A shortest way never repeats an arrangement: the rules let every one of them be played out."""
    start = reorganising(WIDE)
    ways = _reachable(start)
    assert len(ways) > 20
    assert max(len(way) for way in ways.values()) <= move_cap(start.holdings[0]), "the cap forbids none"
    for target, way in ways.items():
        state = start.clone()
        play(state, *way)
        assert current(state, 0) == target
        assert len(state.stack.top.data["seen"]) == len(way) + 1


@pytest.mark.parametrize("seed", range(8))
def test_a_reorganisation_that_keeps_moving_still_ends(seed: int) -> None:
    """Moving while any move is offered (as the lowest-id policy does) ends: no arrangement twice,
    and never stuck, even from a stack holding two corporations of one industry (ruling A-6)."""
    state = reorganising(
        {0: [["ST-A", "OI-AE", "ST-AB"], ["RR-ACDF"], ["AU-AC"]]}, turn_data={"must_reorganise": True}
    )
    bound = len(_reachable(state))
    rng = random.Random(seed)
    held = set()
    for _ in range(bound + 1):
        actions = state.legal_actions()
        assert actions, "a reorganisation may never leave the player without a choice"
        held.add(current(state, 0))
        found = [a for a in actions if str(a).startswith("move")]
        if not found:
            break
        state.apply(rng.choice(found))
        assert current(state, 0) not in held
    assert legal(state) == ["done"]
    play(state, "done")
    assert state.stack.top.kind == "turn"


@pytest.mark.parametrize("seed", range(4))
def test_a_reorganisation_allows_two_moves_per_corporation_held(seed: int) -> None:
    """However a seat wanders, after 2 moves per corporation held only 'done' is left (ruling A-16):
    a hostile seat cannot grow the reorganisation's record without end."""
    state = reorganising(WIDE)
    cap = move_cap(state.holdings[0])
    rng = random.Random(seed)
    made = 0
    while found := [a for a in state.legal_actions() if str(a).startswith("move")]:
        state.apply(rng.choice(found))
        made += 1
        assert made <= cap
    assert legal(state) == ["done"]
    assert len(state.stack.top.data["seen"]) <= cap + 1


def test_the_arrangements_seen_round_trip_through_a_position() -> None:
    state = reorganising(LOOP)
    play(state, "move ST-DF alone")
    loaded = GAME.load_position(json.dumps(state.to_position()))
    assert loaded.stack.top.data["seen"] == state.stack.top.data["seen"]
    assert legal(loaded) == legal(state)
    assert "move ST-DF on OI-BCD" not in legal(loaded)


def _spoiled(seen: object) -> dict[str, Any]:
    """Returns the position of LOOP after 'move ST-DF alone' with another record of arrangements."""
    state = reorganising(LOOP)
    play(state, "move ST-DF alone")
    data = state.to_position()
    data["decisions"][-1]["data"]["seen"] = seen
    return data


@pytest.mark.parametrize(
    ("seen", "message"),
    [
        ("OI-BCD / RR-CD / ST-DF", "must be a list"),
        ([3], "must be a string"),
        (["OI-BCD / RR-CD / ST-DF", "OI-BCD / RR-CD / ST-DF"], "passed through once"),
        (["OI-BCD ST-DF / RR-CD"], "must end with the holdings"),
        (["OI-BCD RR-CD ST-DF", "OI-BCD / RR-CD / ST-DF"], "one move from the arrangement before"),
        (["RR-CD ST-DF OI-BCD", "OI-BCD / RR-CD / ST-DF"], "one move from the arrangement before"),
        (["OI-BCD / RR-CD / ST-DF / ST-A"], "exactly the corporations the player holds"),
        (["OI-BCD / RR-CD"], "exactly the corporations the player holds"),
        (["XX-Q / RR-CD / ST-DF"], "exactly the corporations the player holds"),
        (["OI-BCD /  / RR-CD ST-DF"], "exactly the corporations the player holds"),
    ],
)
def test_a_record_of_arrangements_legal_play_cannot_make_is_refused(seen: object, message: str) -> None:
    with pytest.raises(PositionError, match=message) as err:
        GAME.state_from_position(_spoiled(seen))
    assert err.value.field.startswith("decisions[1].data.seen")


@pytest.mark.parametrize("empty", [True, False])
def test_a_position_without_the_record_starts_it_afresh(empty: bool) -> None:
    data = _spoiled([])
    if not empty:
        del data["decisions"][-1]["data"]["seen"]
    del data["undo"], data["undos"]  # an older position has neither
    state = GAME.state_from_position(data)
    assert state.stack.top.data["seen"] == ["OI-BCD / RR-CD / ST-DF"]
    assert "move ST-DF on OI-BCD" in legal(state)
    assert stacks(state, 0) == [["OI-BCD"], ["RR-CD"], ["ST-DF"]]


# Four corporations with D in common, split over two stacks: together they earn 3 a scoring.
SPLIT = {0: [["OI-BCD", "ST-DF"], ["RR-CD", "RE-DEF"]]}


def test_reorganise_best_reaches_the_best_arrangement_in_one_action_fee_included() -> None:
    """Ruling A-19: the optimiser's arrangement, for the usual fee, as one transaction."""
    state = load(hands=[["20", "10"], [], []], holdings=SPLIT)
    events = state.apply_notation("reorganise best")
    assert state.owed == 4 and state.stack.top.kind == "turn"
    assert sorted(len(s) for s in stacks(state, 0)) == [4]
    assert "earns 3 a scoring instead of 0" in events[0].text
    play(state, "undo")
    assert stacks(state, 0) == SPLIT[0] and state.owed == 0


def test_reorganise_best_leaves_holdings_that_already_earn_the_most() -> None:
    """No pair is broken up for nothing: the arrangement stays when none earns more."""
    pair = {0: [["OI-BCD", "ST-DF"], ["RR-F"]]}  # no three share a letter: nothing earns
    state = load(hands=[["20", "10"], [], []], holdings=pair)
    play(state, "reorganise best")
    assert stacks(state, 0) == pair[0] and state.owed == 3


def test_reorganise_best_clears_a_word_of_caution() -> None:
    """Two of one industry in a stack (ruling A-6): the best arrangement is lawful."""
    state = load(
        hands=[["20", "10"], [], []],
        holdings={0: [["ST-A", "OI-AE", "ST-AB"]]},
        turn_data={"must_reorganise": True},
    )
    assert legal(state, conveniences=True) == ["reorganise", "reorganise best"]
    play(state, "reorganise best")
    assert all(len({c[:2] for c in s}) == len(s) for s in stacks(state, 0))


def test_the_hint_at_a_turns_start_gives_the_best_arrangement() -> None:
    """GameState.hints names the stacks of the best arrangement and the action that makes it."""
    state = load(hands=[["20", "10"], [], []], holdings=SPLIT)
    hint = next(h for h in state.hints(0) if "best arrangement" in h)
    assert "score 0 a scoring now; your best arrangement would score 3" in hint
    assert "'reorganise best' does it for 4 million" in hint
    for corp in ("OI-BCD", "ST-DF", "RR-CD", "RE-DEF"):
        assert corp in hint
    best = load(hands=[["20"], [], []], holdings={0: [["OI-BCD", "ST-DF", "RR-CD"]]})
    assert best.hints(0) == ["Your holdings score 1 a scoring now; your best arrangement would score 1 too."]
