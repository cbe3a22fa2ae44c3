"""Environments for learning agents: PettingZoo (``make``), one seat against bots as a Gymnasium
environment (``single``, registered as ``parlour/Venture-v0`` ...) and OpenSpiel
(``parlour.envs.openspiel``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.envs.pettingzoo_env import ParlourEnv
    from parlour.envs.single_seat import SingleSeatEnv


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


def single(
    name: str,
    /,
    players: int = 4,
    opponents: Sequence[str] = ("random",),
    seat: int | str = 0,
    reward: str = "win",
    **settings: Any,
) -> SingleSeatEnv:
    """Returns a Gymnasium environment for one learning ``seat`` (or ``"rotate"``) of game ``name``
    against Parlour's bots ``opponents`` (one name for all, or one a seat); ``reward`` is ``win`` or
    ``score``; further settings (``illegal``, ``illegal_penalty``, ``observations``, ``max_steps``,
    ``render_mode``) and the game's options as keyword arguments (docs/environments.md)."""
    from parlour.envs.single_seat import SingleSeatEnv

    return SingleSeatEnv(name, players, opponents, seat, reward, **settings)


def _register() -> None:
    """Registers the single-seat environments with Gymnasium when it is installed (the ``rl`` extra)."""
    try:
        from parlour.envs.registration import register
    except ImportError:  # no Gymnasium: ``make`` and ``single`` say so when called
        return
    register()


_register()
