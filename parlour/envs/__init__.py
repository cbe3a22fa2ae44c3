"""Environments for learning agents: PettingZoo (``make``) and OpenSpiel (``parlour.envs.openspiel``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlour.envs.pettingzoo_env import ParlourEnv


def make(
    name: str,
    /,
    players: int,
    render_mode: str | None = None,
    max_steps: int | None = None,
    **options: object,
) -> ParlourEnv:
    """Returns a PettingZoo AEC environment for game ``name`` (its options as keyword arguments),
    truncated after ``max_steps`` actions (default: the game's limit in docs/environments.md)."""
    from parlour.envs.pettingzoo_env import ParlourEnv

    return ParlourEnv(name, players, options, render_mode, max_steps)
