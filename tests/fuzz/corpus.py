"""Valid positions to mutate: states met along seeded random playouts of a game, varied in kind."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from parlour.core.registry import load_game
from parlour.core.state import GameState

VARIANTS: dict[str, list[Mapping[str, Any]]] = {
    "venture": [{}, {"payment": "each"}],
    "im-the-boss": [{"negotiation_limit": 4}, {"negotiation_limit": 3, "length": "short"}],
    "venus-needs-men": [{"length": "short"}, {"game": "enhanced", "length": "short"}],
}
"""Option sets the playouts use (besides each game's quick options), so every decision kind shows up."""


def _signature(state: GameState) -> tuple[str, ...]:
    """Returns what kind of moment a state is: its decision kinds bottom to top."""
    return tuple(d.kind for d in state.stack)


@cache
def _positions(name: str, count: int, seed: int) -> tuple[str, ...]:
    """Returns (cached, as JSON text) ``count`` positions of game ``name``, rare moments first."""
    import json

    game = load_game(name)
    rng = random.Random(seed)
    found: dict[tuple[str, ...], list[str]] = {}
    variants = VARIANTS.get(name, [{}])
    for game_number in range(max(4, count // 10)):
        players = rng.randint(game.min_players, game.max_players)
        options = {**game.quick_options, **variants[game_number % len(variants)]}
        state = game.new_state(players, rng.randrange(2**31), options)
        step = 0
        while not state.is_over() and step < 3000:
            if rng.random() < 0.15:
                found.setdefault(_signature(state), []).append(json.dumps(state.to_position()))
            seat = rng.choice(state.deciders())
            state.apply(rng.choice(state.legal_actions(seat)), seat)
            step += 1
        found.setdefault(("over",), []).append(json.dumps(state.to_position()))
    # Round robin over the kinds of moment, so rare ones (a Stop window, a save) are well represented.
    groups = [list(reversed(group)) for _, group in sorted(found.items())]
    chosen: list[str] = []
    while len(chosen) < count and any(groups):
        for group in groups:
            if group and len(chosen) < count:
                chosen.append(group.pop())
    return tuple(chosen)


def positions(name: str, count: int = 60, seed: int = 0) -> list[dict[str, Any]]:
    """Returns ``count`` valid positions of game ``name`` (fresh copies), from seeded random playouts."""
    import json

    return [json.loads(text) for text in _positions(name, count, seed)]
