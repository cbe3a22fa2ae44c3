"""Issue 35: the greedy Boss never proposes again, unchanged, what an investor has just refused."""

from __future__ import annotations

from parlour.games.im_the_boss.actions import Include, Refuse
from parlour.games.im_the_boss.bots import GreedyBot
from parlour.games.im_the_boss.state import BossState

from ..typed import BOSS as GAME

SEEDS = range(100)
"""Three greedy bots at the kit's short options: some of these seeds looped before the fix."""

Situation = tuple[int, int, int, str, int]
"""The Boss, the space, the proceeds, a colour and the investor's seat: a proposal's situation."""


def greedy_game(seed: int, players: int = 3) -> tuple[BossState, list[str]]:
    """Plays three greedy bots at the quick options; returns the final state and every proposal the
    Boss made again at or below an amount refused in the same situation (space, proceeds, colour, seat)."""
    state = GAME.new_state(players, seed, GAME.quick_options)
    bots = [GreedyBot(seed * 8 + s) for s in range(players)]
    refused: dict[Situation, int] = {}
    repeats: list[str] = []
    while not state.is_over():
        seat = state.deciders()[0]
        action = bots[seat].choose(state, seat)
        nego = state.nego
        if nego is not None and isinstance(action, Refuse):
            for colour, term in nego.items.items():
                if term.seat == seat and not term.agreed:
                    key = (nego.boss, nego.space, nego.proceeds, colour, seat)
                    refused[key] = max(refused.get(key, 0), term.amount)
        if nego is not None and isinstance(action, Include):
            key = (seat, nego.space, nego.proceeds, action.colour, action.seat)
            if action.number <= refused.get(key, 0):
                repeats.append(f"turn {state.turn}: {action} (refused at {refused[key]})")
        state.apply(action, seat)
    return state, repeats


def test_after_a_refusal_the_boss_never_proposes_the_same_or_less_again() -> None:
    """Over many greedy games, no Include repeats an amount refused for the same colour, seat, space
    and proceeds (before the fix seed 37 proposed ``include B @2 5`` every third turn to the end)."""
    for seed in SEEDS:
        _, repeats = greedy_game(seed)
        assert not repeats, f"seed {seed}: {repeats[:3]}"


def test_three_greedy_bots_rarely_play_to_the_turn_limit() -> None:
    """The refused deal is no longer tried again and again until the turn limit (24 turns at the quick
    options): before the fix 4 of these 100 seeds reached it (37, 66, 76, 88)."""
    limited = [seed for seed in SEEDS if "turn limit" in greedy_game(seed)[0].end_reason()]
    assert len(limited) <= 1, f"seeds reaching the turn limit: {limited}"
