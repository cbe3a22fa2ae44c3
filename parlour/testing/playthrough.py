"""Golden playthroughs: a seeded random game written out step by step, diffed in tests.

Any change of rules shows up as a reviewable text diff; regenerate with ``make playthroughs``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from parlour.core.game import Game


def playthrough(game: Game, players: int, seed: int, options: Mapping[str, Any] | None = None) -> str:
    """Returns the text of a random game: every action with its public events, then the end."""
    state = game.new_state(players, seed, options)
    rng = random.Random(seed)
    lines = [f"# {game.name} players={players} seed={seed} options={dict(game.options(options))}", ""]
    lines += ["## start", state.render(None), ""]
    step = 0
    while not state.is_over():
        seat = state.deciders()[0]
        action = rng.choice(state.legal_actions(seat))
        events = state.apply(action, seat)
        step += 1
        lines.append(f"{step}. seat {seat}: {state.format_action(action)}")
        lines.extend(f"   - {event.for_seat(None)}" for event in events)
    lines += ["", "## end", state.render(None), f"scores {state.scores()} ranking {state.ranking()}", ""]
    return "\n".join(lines)
