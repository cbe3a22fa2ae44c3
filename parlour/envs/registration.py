"""Gymnasium's ids of the single-seat environments (``gymnasium.make("parlour/Venture-v0", players=4)``),
registered when ``parlour.envs`` is imported (without importing the games or the bots)."""

from __future__ import annotations

import gymnasium

ENV_IDS = {
    "venture": "parlour/Venture-v0",
    "im-the-boss": "parlour/ImTheBoss-v0",
    "venus-needs-men": "parlour/VenusNeedsMen-v0",
}
"""Gymnasium's ids of the three games' single-seat environments."""
ENTRY_POINT = "parlour.envs.single_seat:SingleSeatEnv"


def register() -> None:
    """Registers the three games with Gymnasium (``gymnasium.make("parlour/Venture-v0", players=4)``);
    safe to call again."""
    for game, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ENTRY_POINT, kwargs={"game_name": game})
