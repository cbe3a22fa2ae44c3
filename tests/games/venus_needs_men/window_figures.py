"""Figures for ruling B-3: mean actions, Zap-window passes and windows per game, by bot.

    PYTHONPATH=. python tests/games/venus_needs_men/window_figures.py [GAMES] [PLAYERS]

Plays GAMES games (default 200) of seeds 0..GAMES-1 with four players, basic game,
all greedy and all random, and prints the means.
"""

from __future__ import annotations

import sys

from parlour.bots.registry import make_bot
from parlour.core.registry import load_game


def figures(bot: str, games: int, players: int, options: dict[str, str]) -> dict[str, float]:
    """Returns the mean actions, passes in Zap windows, windows opened and turns per game."""
    game = load_game("venus-needs-men")
    totals = {"actions": 0.0, "passes": 0.0, "turns": 0.0}
    for seed in range(games):
        state = game.new_state(players, seed, options)
        agents = [make_bot(game, bot, seed * 8 + s) for s in range(players)]
        while not state.is_over():
            seat = state.deciders()[0]
            action = agents[seat].choose(state, seat)
            if state.passing_window() and str(action) == "pass":
                totals["passes"] += 1
                moment = "passes at " + str(state.stack.top.data["moment"])
                totals[moment] = totals.get(moment, 0.0) + 1
            state.apply_legal(action, seat)
            totals["actions"] += 1
        totals["turns"] += state.turns_played()
    return {k: v / games for k, v in totals.items()}


def main() -> None:
    """Prints the figures."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    for options in ({"game": "basic"}, {"game": "enhanced"}):
        for bot in ("greedy", "random"):
            f = figures(bot, games, players, options)
            moments = ", ".join(
                f"{k[10:]} {v:.1f}" for k, v in sorted(f.items()) if k.startswith("passes at")
            )
            print(
                f"{options['game']:8} {bot:6} games {games}: actions {f['actions']:.1f}, "
                f"passes {f['passes']:.1f} ({moments}), turns {f['turns']:.1f} per game"
            )


if __name__ == "__main__":
    main()
