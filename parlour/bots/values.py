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

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from parlour.core.encoding import Encoding, observation
from parlour.core.errors import ParlourError
from parlour.core.positions import JSONObject
from parlour.core.registry import load_game
from parlour.core.state import GameState

FORMAT = "parlour-values/1"
LAYERS = 3
"""Weight matrices of a network: inputs → hidden → hidden → 1."""
MAX_WIDTH = 4_096
"""The widest layer a weights file may hold (a few MB at most, as shipped)."""
MAX_FILE = 16 * 1024 * 1024
"""The largest weights file read."""


class ValuesError(ParlourError):
    """A weights file that is missing, malformed or for another game."""


@dataclass(frozen=True)
class ValueNet:
    """A trained network: its game, its layers' weights and biases, and how it was trained."""

    game: str
    weights: tuple[np.ndarray, ...]
    """``W1, b1, W2, b2, W3, b3``: float32; hidden layers ReLU, the output a sigmoid."""
    about: JSONObject = field(default_factory=dict)
    """How it was trained: the command, the seed, the games, the samples, the loss."""

    @property
    def inputs(self) -> int:
        """The length of the observation tensor it reads."""
        return int(self.weights[0].shape[0])

    def predict(self, rows: np.ndarray) -> np.ndarray:
        """Returns the value in 0..1 of each row (an observation tensor)."""
        w1, b1, w2, b2, w3, b3 = self.weights
        hidden = np.maximum(rows @ w1 + b1, 0.0)
        hidden = np.maximum(hidden @ w2 + b2, 0.0)
        out = (hidden @ w3 + b3)[:, 0]
        values: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(out, -30.0, 30.0)))
        return values

    def save(self, path: Path) -> None:
        """Writes the weights and what trained them (``parlour-values/1``: an .npz without pickles)."""
        head = json.dumps({"format": FORMAT, "game": self.game, "about": self.about})
        with path.open("wb") as out:
            np.savez(out, *self.weights, head=np.array(head))  # the layers as arr_0 ... arr_5


def read(path: Path | str, game: str | None = None) -> ValueNet:
    """Reads a weights file (refusing a malformed one, or one for another ``game``, in one line)."""
    source = Path(path)
    try:
        if source.stat().st_size > MAX_FILE:
            raise ValuesError(f"{source.name}: larger than {MAX_FILE // 2**20} MB")
        with np.load(source, allow_pickle=False) as data:
            head = json.loads(str(data["head"]))
            weights = tuple(np.asarray(data[f"arr_{i}"], dtype=np.float32) for i in range(2 * LAYERS))
    except ValuesError:
        raise
    except (OSError, KeyError, ValueError, TypeError) as err:
        raise ValuesError(f"{source.name}: not a Parlour weights file ({_short(err)})") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ValuesError(f"{source.name}: not a Parlour weights file (expected format {FORMAT!r})")
    if game is not None and head.get("game") != game:
        raise ValuesError(f"{source.name}: weights for {str(head.get('game'))[:40]!r}, not {game!r}")
    _check_shapes(weights, source.name)
    about = head.get("about")
    return ValueNet(str(head.get("game")), weights, about if isinstance(about, dict) else {})


def _check_shapes(weights: tuple[np.ndarray, ...], name: str) -> None:
    """Refuses layers that do not chain (inputs → hidden → hidden → 1), are too wide, or not finite."""
    width = weights[0].shape[0] if weights[0].ndim == 2 else -1
    for i in range(LAYERS):
        matrix, bias = weights[2 * i], weights[2 * i + 1]
        wide = 1 if i == LAYERS - 1 else (matrix.shape[1] if matrix.ndim == 2 else -1)
        if matrix.shape != (width, wide) or bias.shape != (wide,) or not 0 < width <= MAX_WIDTH * 4:
            raise ValuesError(f"{name}: layer {i + 1}'s weights do not fit the layers around it")
        if not (np.isfinite(matrix).all() and np.isfinite(bias).all()) or wide > MAX_WIDTH:
            raise ValuesError(f"{name}: layer {i + 1} holds numbers that are not finite or is too wide")
        width = wide


def _short(err: Exception) -> str:
    """Returns an error's message on one short line."""
    text = " ".join(str(err).split())
    return text if len(text) <= 80 else text[:77] + "..."


def shipped(game: str) -> Path:
    """Returns where the shipped weights of ``game`` are (the file may not exist)."""
    return Path(str(resources.files("parlour.bots").joinpath("data", "values", f"{game}.npz")))


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
        self._table: tuple[str, int, object] | None = None
        self._encoding: Encoding | None = None

    def __call__(self, state: GameState) -> list[float]:
        """Returns each seat's value in 0..1 (what that seat may know only)."""
        net = self.net
        if net is None or net.game != state.game_name:
            net = self.net = shipped_net(state.game_name)
        players = len(state.scores())
        adapter = self._adapter(state, players)
        rows = np.stack([observation(adapter, state, seat) for seat in range(players)])
        if rows.shape[1] != net.inputs:
            raise ValuesError(
                f"the {net.game} weights read {net.inputs} numbers, the observation has {rows.shape[1]}"
            )
        return [float(v) for v in net.predict(rows)]

    def _adapter(self, state: GameState, players: int) -> Encoding:
        """Returns the game's encoding for the table (made again only when the table changes)."""
        options: object = getattr(state, "options", {})
        table = (state.game_name, players, options)
        if self._encoding is None or self._table != table:
            values = dict(options) if isinstance(options, dict) else {}
            self._encoding = load_game(state.game_name).encoding(players, values)
            self._table = table
        return self._encoding
