"""The bots of a simulated game, seeded as ``parlour simulate`` seeds them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parlour.bots.registry import make_bot
from parlour.bots.simulation import game_seed
from parlour.core.agents import Agent
from parlour.core.game import Game


def seat_bots(
    game: Game, seats: Sequence[str], seed: int, index: int, options: Mapping[str, object]
) -> list[Agent]:
    """Returns the bots of game ``index`` of a simulation with ``seed`` (the same as ``play_one``'s)."""
    own_seed = game_seed(seed, index)
    return [make_bot(game, name, own_seed * 8 + s, False, options) for s, name in enumerate(seats)]
