"""Training the learned evaluator (``parlour.bots.values``) from the outcomes of bots' games.

Games are played as ``parlour simulate`` plays them (the same seeds, on local workers or Ray); at a few
turn starts of each game every seat's observation tensor is kept, labelled with the reward that seat
finally got (``ismcts.reward`` of the finished game). A small network (two ReLU layers, a sigmoid) is
fitted to them with Adam on the squared error, a tenth of the games held out to measure it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from parlour.bots.ismcts import reward
from parlour.bots.registry import make_bot
from parlour.bots.simulation import DEFAULT_BATCH, Batch, chunks, game_seed
from parlour.bots.values import ValueNet
from parlour.bots.workers import open_runner
from parlour.core.encoding import Encoding, observation
from parlour.core.match import play_match
from parlour.core.positions import JSONObject
from parlour.core.registry import load_game
from parlour.core.state import Event, GameState

SAMPLES_PER_GAME = 8
"""Turn starts kept from each game (each gives one example a seat)."""
PATIENCE = 3
"""Epochs without a better held-out loss after which training stops (the best epoch's weights kept)."""


@dataclass(frozen=True)
class Examples:
    """Observation tensors (rows), the reward each seat finally got, and the game each row came from."""

    rows: np.ndarray
    targets: np.ndarray
    games: np.ndarray


class _TurnStarts:
    """Keeps every seat's observation tensor at each turn start of one game."""

    def __init__(self, adapter: Encoding, players: int) -> None:
        self.adapter, self.players = adapter, players
        self.kept: list[list[np.ndarray]] = []
        self.turn = -1

    def keep(self, state: GameState, events: list[Event]) -> None:
        """Keeps the tensors when a new turn has started (the match calls it after every action)."""
        turn = state.turns_played()
        if turn != self.turn and not state.is_over():
            self.turn = turn
            self.kept.append([observation(self.adapter, state, s) for s in range(self.players)])


def _collect_chunk(job: tuple[str, list[str], int, list[int], JSONObject, int]) -> Examples:
    """Plays some games of a collection in a worker and returns their examples."""
    game_name, seats, seed, indexes, options, samples = job
    game = load_game(game_name)
    adapter = game.encoding(len(seats), options)
    rows: list[np.ndarray] = []
    targets: list[float] = []
    games: list[int] = []
    for index in indexes:
        own_seed = game_seed(seed, index)
        agents = [make_bot(game, name, own_seed * 8 + s, options=options) for s, name in enumerate(seats)]
        turns = _TurnStarts(adapter, len(seats))
        final = play_match(game, agents, own_seed, options, on_events=turns.keep, recorded=False).state
        picked = random.Random(own_seed).sample(range(len(turns.kept)), min(samples, len(turns.kept)))
        finals = reward(final)
        for turn in sorted(picked):
            for s, tensor in enumerate(turns.kept[turn]):
                rows.append(tensor)
                targets.append(finals[s])
                games.append(index)
    width = adapter.encode(game.new_state(len(seats), 0, options), 0).size
    return Examples(
        np.stack(rows) if rows else np.zeros((0, width), np.float32),
        np.array(targets, np.float32),
        np.array(games, np.int64),
    )


def collect(
    game_name: str,
    seats: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    samples: int = SAMPLES_PER_GAME,
    batch: Batch = DEFAULT_BATCH,
) -> Examples:
    """Plays ``games`` games of bots (``seats``, Parlour's own) and returns their examples, the same for
    any backend and number of workers."""
    game = load_game(game_name)
    values = game.options(options)
    game.check_players(len(seats))
    for name in set(seats):
        make_bot(game, name, 0)  # an unknown bot (or a cmd: program) is refused before any game
    parts: list[Examples] = []
    with open_runner(batch.backend, batch.workers, batch.workers_max) as runner:
        jobs = [(game.name, list(seats), seed, c, values, samples) for c in chunks(games, runner.workers)]
        for part in runner.run(_collect_chunk, jobs):
            parts.append(part)
            if batch.progress:
                batch.progress(len(set(part.games.tolist())))
    order = np.argsort(np.concatenate([p.games for p in parts]), kind="stable")
    return Examples(
        np.concatenate([p.rows for p in parts])[order],
        np.concatenate([p.targets for p in parts])[order],
        np.concatenate([p.games for p in parts])[order],
    )


@dataclass(frozen=True)
class Fit:
    """How a network was fitted: sizes, losses (mean squared error), time."""

    hidden: int
    epochs: int
    """The epoch whose weights were kept (the held-out games fitted best)."""
    train_examples: int
    held_out_examples: int
    train_loss: float
    held_out_loss: float
    held_out_baseline: float
    """The held-out loss of always predicting the training targets' mean (what the network must beat)."""
    seconds: float


def train(
    game_name: str,
    data: Examples,
    seed: int = 0,
    hidden: int = 64,
    epochs: int = 30,
    rate: float = 1e-3,
    progress: Callable[[int], None] | None = None,
) -> tuple[ValueNet, Fit]:
    """Fits a network to the examples and returns it with the fit: a tenth of the games (index ending in
    9) held out, the weights of the epoch that fits them best kept (at most ``epochs``; examples of one
    game share its outcome, so a network soon learns the games rather than the game)."""
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    held = data.games % 10 == 9
    x, y = data.rows[~held], data.targets[~held]
    if len(x) == 0:
        raise ValueError("no examples to train on: play more games")
    weights = _initial(x.shape[1], hidden, rng)
    adam = _Adam(weights, rate)
    held_x, held_y = data.rows[held], data.targets[held]
    best, best_loss, used = [w.copy() for w in weights], float("inf"), 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        for at in range(0, len(x), 256):
            part = order[at : at + 256]
            adam.step(_gradients(weights, x[part], y[part]))
        if progress:
            progress(epoch + 1)
        if len(held_x):  # early stopping: the epoch whose held-out games are fitted best is kept
            loss = _loss(ValueNet(game_name, tuple(weights)), held_x, held_y)
            if loss < best_loss:
                best, best_loss, used = [w.copy() for w in weights], loss, epoch + 1
            elif epoch + 1 - used >= PATIENCE:
                break
        else:
            best, used = [w.copy() for w in weights], epoch + 1
    net = ValueNet(game_name, tuple(w.astype(np.float32) for w in best))
    mean = float(y.mean())
    fit = Fit(
        hidden,
        used,
        len(x),
        len(held_x),
        _loss(net, x, y),
        _loss(net, held_x, held_y) if len(held_x) else float("nan"),
        float(((held_y - mean) ** 2).mean()) if len(held_x) else float("nan"),
        time.perf_counter() - start,
    )
    return net, fit


def _loss(net: ValueNet, x: np.ndarray, y: np.ndarray) -> float:
    """Returns the mean squared error of the network on examples."""
    return float(((net.predict(x) - y) ** 2).mean())


def _initial(inputs: int, hidden: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Returns He-initialised weights and zero biases for inputs → hidden → hidden → 1."""
    sizes = [(inputs, hidden), (hidden, hidden), (hidden, 1)]
    weights: list[np.ndarray] = []
    for fan_in, fan_out in sizes:
        weights.append(rng.normal(0.0, np.sqrt(2.0 / fan_in), (fan_in, fan_out)))
        weights.append(np.zeros(fan_out))
    return weights


def _gradients(weights: list[np.ndarray], x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """Returns the gradients of the mean squared error of a batch (backpropagation by hand)."""
    w1, b1, w2, b2, w3, b3 = weights
    a1 = x @ w1 + b1
    h1 = np.maximum(a1, 0.0)
    a2 = h1 @ w2 + b2
    h2 = np.maximum(a2, 0.0)
    out = 1.0 / (1.0 + np.exp(-np.clip((h2 @ w3 + b3)[:, 0], -30.0, 30.0)))
    d_out = (2.0 / len(x)) * (out - y) * out * (1.0 - out)
    d3 = d_out[:, None]
    g_w3, g_b3 = h2.T @ d3, d3.sum(axis=0)
    d2 = (d3 @ w3.T) * (a2 > 0)
    g_w2, g_b2 = h1.T @ d2, d2.sum(axis=0)
    d1 = (d2 @ w2.T) * (a1 > 0)
    g_w1, g_b1 = x.T @ d1, d1.sum(axis=0)
    return [g_w1, g_b1, g_w2, g_b2, g_w3, g_b3]


class _Adam:
    """Adam's updates of a list of arrays, in place."""

    def __init__(self, weights: list[np.ndarray], rate: float) -> None:
        self.weights, self.rate, self.steps = weights, rate, 0
        self.m = [np.zeros_like(w) for w in weights]
        self.v = [np.zeros_like(w) for w in weights]

    def step(self, gradients: list[np.ndarray]) -> None:
        """Moves every array against its gradient."""
        self.steps += 1
        beta1, beta2 = 0.9, 0.999
        for i, g in enumerate(gradients):
            self.m[i] = beta1 * self.m[i] + (1 - beta1) * g
            self.v[i] = beta2 * self.v[i] + (1 - beta2) * g * g
            m = self.m[i] / (1 - beta1**self.steps)
            v = self.v[i] / (1 - beta2**self.steps)
            self.weights[i] -= self.rate * m / (np.sqrt(v) + 1e-8)
