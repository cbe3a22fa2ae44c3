"""A learned evaluator for the search: a small value network per game (numpy, on the CPU).

The network reads one seat's observation tensor (``Game.encoding``: only what that seat may know) and
gives the seat's expected reward in 0..1, the reward the search gives a finished game
(``ismcts.reward``: 0.75 × its share of the win + 0.25 × its place between the lowest and highest
score). ``ismcts`` blends it with the game's hand-written estimate where a playout stops at its
horizon (the ``value`` setting, docs/search.md). Weights ship as package data,
``parlour/bots/data/values/GAME.npz`` (format ``parlour-values/1``), with the command and seed that
trained them (``parlour train-value``, ``parlour.bots.value_training``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from parlour.bots.networks import Network, NetworkError, TableEncoding, read_network
from parlour.bots.networks import shipped as shipped_network
from parlour.core.encoding import observation
from parlour.core.positions import JSONObject
from parlour.core.state import GameState

FORMAT = "parlour-values/1"


class ValuesError(NetworkError):
    """A value network that is missing, malformed or for another game."""


@dataclass(frozen=True)
class ValueNet:
    """A trained value network: its game, its layers' weights and biases, and how it was trained."""

    game: str
    weights: tuple[np.ndarray, ...]
    """``W1, b1, W2, b2, W3, b3``: float32; hidden layers ReLU, the one output a sigmoid."""
    about: JSONObject = field(default_factory=dict)
    """How it was trained: the command, the seed, the games, the samples, the loss."""

    @property
    def network(self) -> Network:
        """The network as its file holds it."""
        return Network(FORMAT, self.game, self.weights, self.about)

    @property
    def inputs(self) -> int:
        """The length of the observation tensor it reads."""
        return self.network.inputs

    def predict(self, rows: np.ndarray) -> np.ndarray:
        """Returns the value in 0..1 of each row (an observation tensor)."""
        out = self.network.outputs_of(rows, "relu")[:, 0]
        values: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(out, -30.0, 30.0)))
        return values

    def save(self, path: Path) -> None:
        """Writes the weights and what trained them (``parlour-values/1``)."""
        self.network.save(path)


def read(path: Path | str, game: str | None = None) -> ValueNet:
    """Reads a value network's file (refusing a malformed one, or one for another ``game``, in one line)."""
    try:
        network = read_network(path, FORMAT, game)
    except NetworkError as err:
        raise ValuesError(str(err)) from None
    if network.outputs != 1:
        raise ValuesError(f"{Path(path).name}: a value network gives one number, not {network.outputs}")
    return ValueNet(network.game, network.weights, network.about)


def shipped(game: str) -> Path:
    """Returns where the shipped weights of ``game`` are (the file may not exist)."""
    return shipped_network("values", game)


_SHIPPED: dict[str, ValueNet] = {}
"""The shipped networks read so far, by game (read once a process: the files never change)."""


def shipped_net(game: str) -> ValueNet:
    """Returns the shipped network of ``game``; refuses a game that has none in one line."""
    net = _SHIPPED.get(game)
    if net is None:
        path = shipped(game)
        if not path.is_file():
            raise ValuesError(
                f"no learned evaluator for {game} is shipped: train one with parlour train-value {game}"
            )
        net = _SHIPPED[game] = read(path, game)
    return net


class Evaluator:
    """Values every seat of a state with a game's network, each from its own observation tensor."""

    def __init__(self, net: ValueNet | None = None) -> None:
        self.net = net
        """The network (None: the shipped one of the first state's game)."""
        self._tables = TableEncoding()

    def __call__(self, state: GameState) -> list[float]:
        """Returns each seat's value in 0..1 (what that seat may know only)."""
        net = self.net
        if net is None or net.game != state.game_name:
            net = self.net = shipped_net(state.game_name)
        players = len(state.scores())
        adapter = self._tables.of(state)
        rows = np.stack([observation(adapter, state, seat) for seat in range(players)])
        if rows.shape[1] != net.inputs:
            raise ValuesError(
                f"the {net.game} weights read {net.inputs} numbers, the observation has {rows.shape[1]}"
            )
        return [float(v) for v in net.predict(rows)]
