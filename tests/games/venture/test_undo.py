"""Ruling A-17: undo and cancel take back a turn's steps that revealed nothing, exactly, a bounded
number of times a turn; ruling A-16 with them: every reorganisation ends and reaches every arrangement."""

from __future__ import annotations

import json
import random
from collections import deque
from typing import Any

import pytest

from parlour.core.errors import IllegalActionError, PositionError
from parlour.games.venture import VentureState
from parlour.games.venture.actions import Cancel, Undo
from parlour.games.venture.arrangements import current, moves, parse
from parlour.games.venture.reorganisation import Reorganisation
from parlour.games.venture.rules import Payment, Turn
from parlour.games.venture.takeovers import Placement
from parlour.games.venture.undo import UNDO_LIMIT
from parlour.testing import kit

from ..typed import VENTURE as GAME
from ..typed import states_along
from .scenario import hand, legal, load, names, play, stacks

WIDE = {0: [["OI-BCD", "ST-DF"], ["RR-CD"], ["RE-DEF"], ["SH-BD"]]}


def _position(state: VentureState) -> dict[str, Any]:
    """Returns the position without the take-back counter (the one field a take-back moves)."""
    data = state.to_position()
    del data["undos"]
    return data


def _turn(**kwargs: Any) -> VentureState:
    """Returns seat 0 at the start of a turn with money, a pair and a center to buy from."""
    return load(
        hands=[["20", "10", "12", "3c", "5c", "x1"], ["x1/2"], []],
        holdings={0: [["OI-BCD", "ST-DF"], ["RR-CD"]], 1: [["RE-DEF"]]},
        center=["SH-BD", "AU-B", "ST-A"],
        **kwargs,
    )


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_every_step_taken_back_restores_the_position_exactly(seed: int) -> None:
    """Along random games, each legal step followed by undo gives back the very position before it;
    only the counter of take-backs moves, by one."""
    checked = 0
    for state in states_along(GAME, 2 + seed, seed, every=9):
        if state.is_over():
            continue
        seat = state.deciders()[0]
        for action in state.legal_actions(seat):
            if isinstance(action, Undo | Cancel):
                continue
            after = state.clone()
            after.apply(action, seat)
            if after.is_over() or after.current != seat or not after.undo_log:
                continue
            if after.undo_log[-1].action != str(action) or Undo() not in after.legal_actions(seat):
                continue
            after.apply(Undo(), seat)
            assert _position(after) == _position(state), f"undo after {action} changed the position"
            assert after.undos == state.undos + 1
            checked += 1
    assert checked > 50


def test_undo_takes_back_a_take_over_its_placement_and_a_laid_card_one_by_one() -> None:
    """take, place, end and pay each come back, last first, to the turn's start."""
    state = _turn()
    start = _position(state)
    play(state, "take SH-BD", "place on RR-CD", "end", "pay 20")
    assert hand(state, 0) == ["10", "12", "3c", "5c", "x1"]
    play(state, "undo")
    assert hand(state, 0) == ["10", "12", "20", "3c", "5c", "x1"] and names(state, "payment") == []
    play(state, "undo")
    assert state.stack.top.kind == "turn" and state.owed == 12
    play(state, "undo")
    assert state.stack.top.kind == "place"
    play(state, "undo")
    assert _position(state) == start and state.undos == 4
    assert "undo" not in legal(state, conveniences=True)


def test_cancel_restores_the_holdings_and_the_fee() -> None:
    """A reorganisation found useless is cancelled: holdings, debt and the turn's flag as before."""
    state = _turn()
    start = _position(state)
    play(state, "reorganise", "move ST-DF alone", "move RR-CD on ST-DF")
    assert state.owed == 3
    assert "cancel" in legal(state, conveniences=True)
    play(state, "cancel")
    assert _position(state) == start
    assert state.transacted is False and "discard 20" in legal(state)


def test_undo_in_a_reorganisation_steps_back_one_move_then_the_start_and_fee() -> None:
    """Each move comes back alone (its arrangement leaves the record), then the reorganisation."""
    state = _turn()
    play(state, "reorganise", "move ST-DF alone")
    play(state, "undo")
    assert stacks(state, 0) == [["OI-BCD", "ST-DF"], ["RR-CD"]]
    assert state.stack.top.data["seen"] == ["OI-BCD ST-DF / RR-CD"]
    assert "move ST-DF alone" in legal(state)  # the move may be made again
    play(state, "undo")
    assert state.stack.top.kind == "turn" and state.owed == 0


def test_a_finished_reorganisation_can_be_reopened_with_its_record() -> None:
    """undo after done goes back into the reorganisation, arrangements seen and all."""
    state = _turn()
    play(state, "reorganise", "move ST-DF alone", "done")
    play(state, "undo")
    assert state.stack.top.kind == "reorganise"
    assert len(state.stack.top.data["seen"]) == 2


def test_a_proxy_fight_and_everything_before_it_cannot_be_taken_back() -> None:
    """A proxy fight shows a hidden card and takes another player's corporation: it stays."""
    state = _turn()
    play(state, "take AU-B")
    assert "undo" in legal(state, conveniences=True)
    play(state, "proxy x1 RE-DEF")
    assert state.stack.top.kind == "place"  # RE-DEF fits on OI-BCD ST-DF: where it goes is asked
    assert "undo" not in legal(state, conveniences=True)
    play(state, "place alone")
    play(state, "undo")  # the placement that followed may still be taken back, and no more
    assert state.stack.top.kind == "place" and state.stack.top.data["corp"] == "RE-DEF"
    assert "undo" not in legal(state, conveniences=True)
    assert "AU-B" not in names(state, "center") and stacks(state, 1) == []
    with pytest.raises(IllegalActionError, match="proxy fight"):
        play(state, "undo")


def test_a_payment_made_cannot_be_taken_back() -> None:
    """With payment=each, the payment's done discards the cards: earlier steps stay too."""
    state = _turn(options={"payment": "each"})
    play(state, "take AU-B", "pay 10", "done")
    assert "undo" not in legal(state, conveniences=True)
    assert state.discard and names(state, "discard")[-1] == "10"


def test_at_most_the_limit_of_take_backs_in_a_turn() -> None:
    """After UNDO_LIMIT take-backs neither undo nor cancel is offered until the next turn."""
    state = _turn()
    for _ in range(UNDO_LIMIT):
        play(state, "take AU-B", "undo")
    play(state, "reorganise")
    assert not {"undo", "cancel"} & set(legal(state, conveniences=True))
    with pytest.raises(IllegalActionError, match=f"taken back {UNDO_LIMIT} steps"):
        play(state, "cancel")
    play(state, "done", "end", "pay 3c", "done")
    assert state.current != 0 and state.undos == 0


@pytest.mark.parametrize("seed", range(12))
def test_random_playouts_still_end(seed: int) -> None:
    """Random play (undo and cancel among the choices) finishes every game."""
    state = kit.playout(GAME, 2 + seed % 5, seed, max_actions=40_000)
    assert state.is_over()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lowest_action_policy_reaches_the_end_or_the_turn_limit(players: int) -> None:
    """Always playing the first action in notation order (cancel, done and undo come early) ends."""
    state = GAME.new_state(players, players, {"max_turns": 120})
    for _ in range(40_000):
        if state.is_over():
            break
        state.apply(min(state.legal_actions(), key=str))
    assert state.is_over()


def test_a_record_of_steps_round_trips_through_a_position() -> None:
    """A saved game mid-turn keeps what can be taken back, and the count already used."""
    state = _turn()
    play(state, "take AU-B", "undo", "reorganise", "move ST-DF alone")
    loaded = GAME.load_position(json.dumps(state.to_position()))
    assert loaded.to_position() == state.to_position()
    play(loaded, "cancel")
    play(state, "cancel")
    assert loaded.to_position() == state.to_position() and loaded.undos == 2


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d["undo"].append({"action": "proxy x1 RE-DEF", "holdings": []}), "not a step that can"),
        (lambda d: d["undo"][-1].update(holdings=[["OI-BCD", "ST-DF", "RR-CD"]]), "arrangement the move"),
        (lambda d: d["undo"][0].update(owed=99), "bad position"),
        (lambda d: d["undo"].insert(0, {"action": "pay 10", "at": [0]}), "payment step"),
        (lambda d: d["undo"][0].pop("center"), "needs exactly the fields"),
        (lambda d: d.update(undos=UNDO_LIMIT + 1), "undos"),
        (lambda d: d.update(undo={}), "list of steps"),
    ],
)
def test_a_record_legal_play_cannot_make_is_refused(spoil: Any, message: str) -> None:
    """Every step of a loaded record is tried back: a step that does not fit is refused."""
    state = _turn()
    play(state, "reorganise", "move ST-DF alone")
    data = state.to_position()
    spoil(data)
    with pytest.raises(PositionError, match=message):
        GAME.state_from_position(data)


def _directly_reachable(state: VentureState) -> set[str]:
    """Returns the arrangements moves can still reach, never passing one recorded (ruling A-16)."""
    seen = set(state.stack.top.data["seen"])
    start = current(state, 0)
    found, queue = {start}, deque([start])
    while queue:
        text = queue.popleft()
        for _, after in moves(state.deck, parse(state.deck, text) or []):
            if after not in seen and after not in found:
                found.add(after)
                queue.append(after)
    return found


def _reachable_from_start(state: VentureState) -> set[str]:
    """Returns every arrangement moves reach from the holdings, ignoring the record."""
    start = current(state, 0)
    found, queue = {start}, deque([start])
    while queue:
        text = queue.popleft()
        for _, after in moves(state.deck, parse(state.deck, text) or []):
            if after not in found:
                found.add(after)
                queue.append(after)
    return found


@pytest.mark.parametrize("seed", range(10))
def test_every_arrangement_stays_reachable_with_undo_and_cancel(seed: int) -> None:
    """After any moves, each arrangement reachable at the start is still reached: by further moves,
    by undoing back to it, or by cancel and a fresh reorganisation (one take-back, no fee lost)."""
    start = load(hands=[["20", "10"], [], []], holdings=WIDE)
    play(start, "reorganise")
    everything = _reachable_from_start(start)
    state, rng = start.clone(), random.Random(seed)
    for _ in range(rng.randint(1, 12)):
        found = [a for a in state.legal_actions() if str(a).startswith("move")]
        state.apply(rng.choice(found))
    path = list(state.stack.top.data["seen"])
    assert _directly_reachable(state) <= everything
    for back in range(1, len(path)):
        undone = state.clone()
        play(undone, *["undo"] * back)
        assert current(undone, 0) == path[-1 - back]
    play(state, "cancel", "reorganise")
    assert current(state, 0) == current(start, 0)
    assert state.stack.top.data["seen"] == start.stack.top.data["seen"]
    assert _directly_reachable(state) == everything
    assert state.owed == start.owed


@pytest.mark.slow
def test_spoiled_records_are_refused_or_undo_cleanly() -> None:
    """Random damage to a record's steps: a one-line PositionError, or a state whose every undo keeps
    each card in one place."""
    rng = random.Random(0)
    junk: list[Any] = [
        None,
        -1,
        0,
        999,
        "x",
        "pay 10",
        "move ST-A alone",
        "take ST-A",
        [],
        [["ST-A"]],
        {},
        True,
    ]
    tried = 0
    for state in kit.states_along(GAME, 3, 1, every=5):
        data = state.to_position()
        if not data["undo"]:
            continue
        for _ in range(20):
            spoiled = json.loads(json.dumps(data))
            step = rng.choice(spoiled["undo"])
            step[rng.choice([*step, "zzz"])] = rng.choice(junk)
            if rng.random() < 0.3:
                rng.shuffle(spoiled["undo"])
            tried += 1
            try:
                loaded = GAME.state_from_position(spoiled)
            except PositionError as err:
                assert "\n" not in str(err)
                continue
            while "undo" in legal(loaded, conveniences=True):
                play(loaded, "undo")
                assert not loaded.invariant_errors()
    assert tried > 100


@pytest.mark.parametrize("prefer", ["undo", "move", "cancel"])
def test_a_reorganisation_ends_whatever_is_preferred(prefer: str) -> None:
    """Preferring a take-back, a move or a cancel at every step (else the first action): the turn
    still reaches its payment, within the moves' bound times the take-backs allowed."""
    state = load(hands=[["20", "10"], [], []], holdings=WIDE)
    play(state, "reorganise")
    bound = (len(_reachable_from_start(state)) + 3) * (UNDO_LIMIT + 1)
    for _ in range(bound):
        if state.stack.top.kind == "pay":
            break
        actions = state.legal_actions()
        chosen = next((a for a in actions if str(a).startswith(prefer)), actions[0])
        if str(chosen) == "done" and state.stack.top.kind == "turn":
            chosen = next(a for a in actions if str(a) == "end")
        state.apply(chosen)
    assert state.stack.top.kind == "pay"


def test_a_decision_s_copy_is_equal_and_shares_no_list() -> None:
    """Venture's decisions copy themselves (faster than the core's general copy): same kind and payload,
    and changing the copy's lists leaves the original as it was."""
    decisions = [
        Turn(seats=[1], must_reorganise=True),
        Placement(seats=[0], corp="ST-A"),
        Reorganisation(seats=[2], seen=["ST-A / OI-B"]),
        Payment(seats=[3], then="continue"),
    ]
    for decision in decisions:
        copy = decision.copy()
        assert type(copy) is type(decision) and copy.to_json() == decision.to_json()
        copy.seats.append(9)
        if isinstance(copy, Reorganisation):
            copy.seen.append("changed")
        assert 9 not in decision.seats and "changed" not in getattr(decision, "seen", [])
