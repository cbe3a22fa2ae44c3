"""Auto-pass for bots: every bot answers a window where it may only pass with the pass (issue 10)."""

from __future__ import annotations

import random

import pytest

from parlour.bots.registry import bot_names, make_bot
from parlour.core.registry import load_game
from parlour.core.state import GameState

WINDOWS = {"venus-needs-men": 3, "im-the-boss": 3}
"""The games with passing windows (Zap, Stop) and how many table sizes to look at."""


def only_pass_states(name: str, players: int, wanted: int = 5) -> list[tuple[GameState, int]]:
    """Returns states of random games where the seat to act may only pass in a passing window."""
    game = load_game(name)
    found: list[tuple[GameState, int]] = []
    for seed in range(20):
        state = game.new_state(players, seed, game.quick_options)
        rng = random.Random(seed)
        while not state.is_over() and len(found) < wanted:
            seat = state.deciders()[0]
            if state.only_pass(seat):
                found.append((state.clone(), seat))
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        if len(found) >= wanted:
            break
    return found


@pytest.mark.parametrize("name", sorted(WINDOWS))
def test_every_bot_passes_when_a_pass_is_all_it_may_do(name: str) -> None:
    """Random, greedy and search bots all return the pass in such windows (so bots auto-pass)."""
    game = load_game(name)
    for players in range(game.min_players, game.min_players + WINDOWS[name]):
        states = only_pass_states(name, players)
        assert states, f"no window where a seat may only pass in {name} with {players} players"
        for state, seat in states:
            for bot in bot_names(game):
                chosen = make_bot(game, f"{bot}:5it" if bot == "ismcts" else bot, 1).choose(state, seat)
                assert state.format_action(chosen) == "pass", f"{bot} chose {chosen}"


def test_only_pass_is_false_outside_passing_windows_and_for_seats_not_asked() -> None:
    """Venture has no passing window; in a Zap window only the seat asked, holding nothing playable, is
    passed for, never one that holds a card it may play."""
    venture = load_game("venture").new_state(3, 0)
    assert not any(venture.only_pass(s) for s in range(3))
    state, seat = only_pass_states("venus-needs-men", 4, 1)[0]
    assert state.stack.top.kind == "zap" and state.only_pass(seat)
    assert not any(state.only_pass(s) for s in range(4) if s != seat)
    game = load_game("venus-needs-men")
    state = game.new_state(4, 0, game.quick_options)
    rng = random.Random(0)
    while state.stack.top.kind != "zap" or len(state.legal_actions(state.deciders()[0])) == 1:
        state.apply(rng.choice(state.legal_actions(state.deciders()[0])), state.deciders()[0])
    assert not state.only_pass(state.deciders()[0])
