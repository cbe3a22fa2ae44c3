"""Environments for learning agents: PettingZoo (``make``) and OpenSpiel (``parlour.envs.openspiel``)."""

from __future__ import annotations

from typing import Any


def make(name: str, /, players: int, render_mode: str | None = None, **options: Any) -> Any:
    """Returns a PettingZoo AEC environment for game ``name`` (its options as keyword arguments)."""
    from parlour.envs.pettingzoo_env import ParlourEnv

    return ParlourEnv(name, players, options, render_mode)
