"""Golden playthroughs: a seeded random game written out step by step, diffed in tests.

Every change of rules shows up as a reviewable text diff; regenerate with ``make playthroughs``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from parlour.core.agents import Agent
from parlour.core.game import Game


def playthrough(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    agents: Sequence[Agent] | None = None,
) -> str:
    """Returns the text of a game (random, or played by ``agents``): every action with its public events."""
    state = game.new_state(players, seed, options)
    rng = random.Random(seed)
    names = ",".join(a.name for a in agents) if agents else "random"
    values = dict(game.options(options))
    for spec in game.option_specs:
        reference = values[spec.name]
        if spec.content is not None and isinstance(reference, dict):
            values[spec.name] = reference["name"]  # the set by name (positions hold its digest)
    lines = [f"# {game.name} players={players} seed={seed} agents={names} options={values}", ""]
    lines += ["## start", state.render(None), ""]
    step = 0
    while not state.is_over():
        seat = state.deciders()[0]
        action = agents[seat].choose(state, seat) if agents else rng.choice(state.legal_actions(seat))
        events = state.apply(action, seat)
        step += 1
        lines.append(f"{step}. seat {seat}: {state.format_action(action)}")
        lines.extend(f"   - {event.for_seat(None)}" for event in events)
    lines += ["", "## end", state.render(None), f"scores {state.scores()} ranking {state.ranking()}", ""]
    return "\n".join(lines)
