"""Small feed-forward networks kept as numpy arrays in .npz files (no pickles), read as hostile input:
the learned evaluator (``values.py``, ``parlour-values/1``) and the learned policy (``policies.py``,
``parlour-policy/1``) are two of them. A file holds the layers' weights ``arr_0`` (inputs × width),
``arr_1`` (width), ... and ``head``: JSON naming its format, its game and how it was trained."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from parlour.core.encoding import Encoding
from parlour.core.errors import ParlourError
from parlour.core.positions import JSONObject
from parlour.core.registry import load_game
from parlour.core.state import GameState

LAYERS = 3
"""Weight matrices of a network: inputs → hidden → hidden → outputs."""
MAX_WIDTH = 16_384
"""The widest layer a file may hold (a catalogue of actions is up to a few thousand)."""
MAX_FILE = 16 * 1024 * 1024
"""The largest network file read."""


class NetworkError(ParlourError):
    """A network file that is missing, malformed or for another game."""


@dataclass(frozen=True)
class Network:
    """A network's game, layers (``W1, b1, W2, b2, W3, b3``, float32) and how it was trained."""

    format: str
    game: str
    weights: tuple[np.ndarray, ...]
    about: JSONObject = field(default_factory=dict)

    @property
    def inputs(self) -> int:
        """The length of the observation tensor it reads."""
        return int(self.weights[0].shape[0])

    @property
    def outputs(self) -> int:
        """The numbers it gives for each row."""
        return int(self.weights[-1].shape[0])

    def hidden(self, rows: np.ndarray, activation: str) -> np.ndarray:
        """Returns the last hidden layer of each row (``relu`` or ``tanh`` between layers)."""
        w1, b1, w2, b2 = self.weights[:4]
        act = np.tanh if activation == "tanh" else _relu
        return act(act(rows @ w1 + b1) @ w2 + b2)

    def outputs_of(self, rows: np.ndarray, activation: str) -> np.ndarray:
        """Returns the output layer of each row, before any squashing."""
        found: np.ndarray = self.hidden(rows, activation) @ self.weights[4] + self.weights[5]
        return found

    def save(self, path: Path) -> None:
        """Writes the network (an .npz of arrays and a JSON head, no pickles)."""
        head = json.dumps({"format": self.format, "game": self.game, "about": self.about})
        with path.open("wb") as out:
            np.savez(out, *self.weights, head=np.array(head))


def _relu(x: np.ndarray) -> np.ndarray:
    """Returns max(x, 0)."""
    found: np.ndarray = np.maximum(x, 0.0)
    return found


def read_network(path: Path | str, kind: str, game: str | None = None) -> Network:
    """Reads a network file of format ``kind`` (refusing a malformed one, or one for another ``game``,
    in one line)."""
    source = Path(path)
    try:
        if source.stat().st_size > MAX_FILE:
            raise NetworkError(f"{source.name}: larger than {MAX_FILE // 2**20} MB")
        with np.load(source, allow_pickle=False) as data:
            head = json.loads(str(data["head"]))
            weights = tuple(np.asarray(data[f"arr_{i}"], dtype=np.float32) for i in range(2 * LAYERS))
    except NetworkError:
        raise
    except (OSError, KeyError, ValueError, TypeError) as err:
        raise NetworkError(f"{source.name}: not a Parlour network file ({_short(err)})") from None
    if not isinstance(head, dict) or head.get("format") != kind:
        raise NetworkError(f"{source.name}: not a Parlour network file (expected format {kind!r})")
    if game is not None and head.get("game") != game:
        raise NetworkError(f"{source.name}: weights for {str(head.get('game'))[:40]!r}, not {game!r}")
    _check_shapes(weights, source.name)
    about = head.get("about")
    return Network(kind, str(head.get("game")), weights, about if isinstance(about, dict) else {})


def _check_shapes(weights: tuple[np.ndarray, ...], name: str) -> None:
    """Refuses layers that do not chain (inputs → hidden → hidden → outputs), are too wide, or hold
    numbers that are not finite."""
    width = weights[0].shape[0] if weights[0].ndim == 2 else -1
    for i in range(LAYERS):
        matrix, bias = weights[2 * i], weights[2 * i + 1]
        wide = matrix.shape[1] if matrix.ndim == 2 else -1
        if matrix.shape != (width, wide) or bias.shape != (wide,) or not 0 < width <= MAX_WIDTH:
            raise NetworkError(f"{name}: layer {i + 1}'s weights do not fit the layers around it")
        if not (np.isfinite(matrix).all() and np.isfinite(bias).all()) or not 0 < wide <= MAX_WIDTH:
            raise NetworkError(f"{name}: layer {i + 1} holds numbers that are not finite or is too wide")
        width = wide


def _short(err: Exception) -> str:
    """Returns an error's message on one short line."""
    text = " ".join(str(err).split())
    return text if len(text) <= 80 else text[:77] + "..."


def shipped(folder: str, game: str) -> Path:
    """Returns where the shipped network of ``game`` in ``folder`` (``values``, ``policies``) is; the
    file may not exist."""
    return Path(str(resources.files("parlour.bots").joinpath("data", folder, f"{game}.npz")))


class TableEncoding:
    """The game's encoding for the table a state is at, made again only when the table changes (its game,
    its players, its options): what a network reads a seat's tensor with."""

    def __init__(self) -> None:
        self._table: tuple[str, int, object] | None = None
        self._encoding: Encoding | None = None

    def of(self, state: GameState) -> Encoding:
        """Returns the encoding of ``state``'s table."""
        players = len(state.scores())
        options: object = getattr(state, "options", {})
        table = (state.game_name, players, options)
        if self._encoding is None or self._table != table:
            values = dict(options) if isinstance(options, dict) else {}
            self._encoding = load_game(state.game_name).encoding(players, values)
            self._table = table
        return self._encoding
