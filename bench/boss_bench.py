"""I'm the Boss! figures: greedy against random, negotiation lengths and how often deals close."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from parlour.bots.registry import make_bot
from parlour.bots.simulation import wilson
from parlour.core.registry import load_game

GAME = "im-the-boss"


def _play(args: tuple[list[str], int]) -> dict[str, Any]:
    """Plays one game; returns the winners and every negotiation's length and outcome."""
    seats, seed = args
    game = load_game(GAME)
    agents = [make_bot(game, name, seed * 8 + s) for s, name in enumerate(seats)]
    state = game.new_state(len(seats), seed)
    negotiations: list[tuple[int, bool]] = []
    length, deals = 0, 0
    while not state.is_over():
        seat = state.deciders()[0]
        state.apply(agents[seat].choose(state, seat), seat)
        in_nego = state.nego is not None  # type: ignore[attr-defined]
        if in_nego or length:
            length += 1
        if not in_nego and length:
            closed = len(state.deals) > deals  # type: ignore[attr-defined]
            negotiations.append((length, closed))
            deals, length = len(state.deals), 0  # type: ignore[attr-defined]
    return {"winners": state.winners(), "negotiations": negotiations, "turns": state.turns_played()}


def bot_games(seats: list[str], games: int, seed: int, workers: int = 2) -> dict[str, Any]:
    """Plays many games; returns seat 0's win rate and negotiation statistics."""
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_play, [(seats, seed + i) for i in range(games)], chunksize=4))
    wins = sum(1 / len(r["winners"]) for r in results if 0 in r["winners"])
    negotiations = [n for r in results for n in r["negotiations"]]
    lengths = [length for length, _ in negotiations]
    return {
        "seats": seats,
        "games": games,
        "seat0_win_rate": wins / games,
        "seat0_ci95": list(wilson(wins, games)),
        "negotiations": len(negotiations),
        "mean_negotiation_actions": sum(lengths) / max(1, len(lengths)),
        "longest_negotiation_actions": max(lengths, default=0),
        "deals_closed_rate": sum(1 for _, c in negotiations if c) / max(1, len(negotiations)),
        "mean_turns": sum(r["turns"] for r in results) / games,
        "seconds": time.perf_counter() - start,
    }
