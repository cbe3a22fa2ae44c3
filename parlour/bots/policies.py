"""The learned policy bot (``learned``): a policy network trained outside Parlour (sb3-contrib's
MaskablePPO, ``examples/sb3_maskable_ppo.py --export``) played as one of Parlour's bots.

The network (format ``parlour-policy/1``, ``parlour.bots.networks``; tanh hidden layers) reads the
seat's observation tensor (only what the seat may know) and gives one logit per catalogue id; the bot
plays the legal action of the highest logit (ties: the first in ``legal_actions`` order). Its weights
ship as ``parlour/bots/data/policies/GAME.npz``; a game without them has no ``learned`` bot.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from parlour.bots.networks import Network, NetworkError, TableEncoding, read_network
from parlour.bots.networks import shipped as shipped_network
from parlour.core.encoding import observation
from parlour.core.errors import OptionError
from parlour.core.game import Game
from parlour.core.state import GameState

FORMAT = "parlour-policy/1"
NAME = "learned"
"""The bot's name (``--seats learned,greedy``) in the games that ship a policy."""


def shipped(game: str) -> Path:
    """Returns where the shipped policy of ``game`` is (the file may not exist)."""
    return shipped_network("policies", game)


def has_policy(game: str) -> bool:
    """Returns whether ``game`` ships a learned policy."""
    return shipped(game).is_file()


_SHIPPED: dict[str, Network] = {}
"""The shipped policies read so far, by game."""


def shipped_policy(game: str) -> Network:
    """Returns the shipped policy of ``game`` (read once a process); refuses one that has none."""
    net = _SHIPPED.get(game)
    if net is None:
        path = shipped(game)
        if not path.is_file():
            raise NetworkError(f"no learned policy for {game} is shipped")
        net = _SHIPPED[game] = read_network(path, FORMAT, game)
    return net


def check_fits(game: Game, players: int, options: Mapping[str, object] | None = None) -> None:
    """Refuses (OptionError, one line) the ``learned`` bot at a table its shipped policy cannot read: a
    network reads one tensor size and names one catalogue, both of which depend on the player count
    (and may on the options), so a policy trained at four players plays four-player tables only."""
    net = shipped_policy(game.name)
    values = game.options(dict(options or {}))
    adapter = game.encoding(players, values)
    inputs = observation(adapter, game.new_state(players, 0, values), 0).shape[-1]
    if inputs != net.inputs or len(adapter.catalogue) != net.outputs:
        trained = net.about.get("players")
        said = f" (it was trained at {trained} players)" if isinstance(trained, int) else ""
        raise OptionError(
            f"the learned policy of {game.name} does not fit a table of {players} players with these "
            f"options{said}: it reads {net.inputs} numbers for {net.outputs} actions, the table has "
            f"{inputs} and {len(adapter.catalogue)}"
        )


class LearnedBot:
    """Plays the legal action its policy network rates highest, from the seat's observation only."""

    name = NAME

    def __init__(self, seed: int = 0, net: Network | None = None) -> None:
        self.net = net
        """The policy (None: the shipped one of the first state's game)."""
        self._tables = TableEncoding()

    def choose(self, state: GameState, seat: int) -> object:
        """Returns the legal action of the highest logit."""
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        net = self.net
        if net is None or net.game != state.game_name:
            net = self.net = shipped_policy(state.game_name)
        adapter = self._tables.of(state)
        tensor = observation(adapter, state, seat)[None, :]
        if tensor.shape[1] != net.inputs or len(adapter.catalogue) != net.outputs:
            raise NetworkError(
                f"the {net.game} policy reads {net.inputs} numbers for {net.outputs} actions; this table "
                f"has {tensor.shape[1]} and {len(adapter.catalogue)}"
            )
        logits = net.outputs_of(tensor, "tanh")[0]
        ids = adapter.ids.of(legal, state.format_action)
        return legal[int(np.argmax(logits[ids]))]
