"""Judging one decision: determinisations for the deciding seat, every action considered played out on
each with the same rollout seeds (common random numbers), the shares compared in pairs."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from parlour.analysis.decisions import DecisionJob
from parlour.analysis.intervals import interval
from parlour.analysis.losses import best_by_halves, crossfit_loss
from parlour.analysis.report import ActionValue
from parlour.analysis.settings import KEEP, MAX_ACTIONS, MIN_SAMPLES, SCREEN
from parlour.analysis.share import shares
from parlour.bots.ismcts import searched
from parlour.bots.registry import make_bot
from parlour.core.agents import Agent
from parlour.core.game import Game
from parlour.core.registry import load_game
from parlour.core.state import GameState

ROLLOUT_CAP = 5_000
"""Actions a rollout may take before the game is judged by its estimate as it stands."""
DIGITS = 6
"""Decimals the figures are rounded to (the document stays small and round-trips exactly)."""


@dataclass(frozen=True)
class Verdict:
    """What a worker found at one decision: the actions best first, the best, the one played."""

    move: int
    legal: int
    actions: list[ActionValue]
    best: str
    played: str


def rollout_bot(game: Game) -> str:
    """Returns the bot every seat plays the rollouts with: the game's greedy bot, else its playout bot.

    A decision is judged by what this bot makes of each action, so the strongest affordable player
    judges: search playouts may trade strength for speed (Venture's ``quick`` never reorganises by
    choice), an analysis plays a few hundred rollouts a decision and can afford greedy (docs/analysis.md).
    """
    return adviser_bot(game)


def adviser_bot(game: Game) -> str:
    """Returns the bot whose choice is always considered: the game's greedy, else its playout bot."""
    return "greedy" if "greedy" in game.bots() else game.playout_bot


def judge(job: DecisionJob) -> Verdict:
    """Judges one decision (run in a worker): reads the job's position and asks that state for nothing
    but the seat's legal actions, its adviser's choice and determinisations for the seat (with
    ``job.hindsight``, the real state itself on every sample: only the rollouts differ)."""
    game = load_game(job.game).with_content(job.content)
    state = game.state_from_position(job.position)
    seat = job.seat
    rng = random.Random(job.seed)
    played = state.parse_action(job.played)
    legal = searched(list(state.legal_actions(seat)))
    listed = played in legal
    candidates = _candidates(game, state, seat, legal, played, rng)
    samples: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    budget = job.budget
    deadline = time.perf_counter() + budget.milliseconds / 1000 if budget.milliseconds else None
    done = 0
    while True:
        if deadline is None and done >= budget.samples:
            break
        if deadline is not None and done >= MIN_SAMPLES and time.perf_counter() >= deadline:
            break
        world = state.clone() if job.hindsight else state.determinize(seat, rng)
        seed = rng.randrange(2**31)
        for position, index in enumerate(active):
            copy = world.clone() if position < len(active) - 1 else world
            action = candidates[index]
            checked = not listed and action is played
            samples[index].append(_play_out(game, copy, seat, action, seed, checked)[seat])
        done += 1
        if done == SCREEN and len(active) > KEEP + 1:
            active = _screened(active, samples, candidates.index(played))
    return _verdict(job, state, len(legal), candidates, samples, played)


def _candidates(
    game: Game, state: GameState, seat: int, legal: list[object], played: object, rng: random.Random
) -> list[object]:
    """Returns the actions considered: every legal one, or at most MAX_ACTIONS: the one played, the
    adviser's choice (it reads only what the seat may know) and others drawn at random, in legal order."""
    if played not in legal:
        legal = [*legal, played]  # a line the rules accept without listing it (Venture's "pay 14 12")
    if len(legal) <= MAX_ACTIONS:
        return legal
    adviser = make_bot(game, adviser_bot(game), rng.randrange(2**31)).choose(state, seat)
    chosen = {legal.index(played)}
    if adviser in legal:
        chosen.add(legal.index(adviser))
    others = [i for i in range(len(legal)) if i not in chosen]
    chosen.update(rng.sample(others, MAX_ACTIONS - len(chosen)))
    return [legal[i] for i in sorted(chosen)]


def _screened(active: list[int], samples: list[list[float]], played: int) -> list[int]:
    """Returns the KEEP actions with the best means so far, and the one played."""
    ranked = sorted(active, key=lambda i: -sum(samples[i]))
    kept = set(ranked[:KEEP]) | {played}
    return [i for i in active if i in kept]


def _play_out(
    game: Game, world: GameState, seat: int, action: object, seed: int, checked: bool = False
) -> list[float]:
    """Applies the seat's action (``checked``: one the rules accept without listing it, through the
    checked path), plays the game out with the rollout bot at every seat (seeded by ``seed`` and the
    seat: the same for every action) and returns every seat's share."""
    if checked:
        world.apply(action, seat)
    else:
        world.apply_legal(action, seat)
    agents: dict[int, Agent] = {}
    name = rollout_bot(game)
    for _ in range(ROLLOUT_CAP):
        if world.is_over():
            break
        actor = world.deciders()[0]
        legal = world.legal_actions(actor)
        if len(legal) == 1:
            choice = legal[0]
        else:
            agent = agents.get(actor)
            if agent is None:
                agent = agents[actor] = make_bot(game, name, seed * 8 + actor)
            choice = agent.choose(world, actor)
        world.apply_legal(choice, actor)
    return shares(world)


def _verdict(
    job: DecisionJob,
    state: GameState,
    legal: int,
    candidates: list[object],
    samples: list[list[float]],
    played: object,
) -> Verdict:
    """Returns the actions' figures, best first: the best has the highest mean among those played out
    on every sample and loses nothing; every other action's loss is cross-fitted (losses.py): measured
    against the action best on the other half of the samples, free of the best-of-several bias."""
    full = max(len(s) for s in samples)
    complete = [i for i in range(len(candidates)) if len(samples[i]) == full]
    best = max(complete, key=lambda i: _mean(samples[i]))
    best_even, best_odd = best_by_halves(samples, complete)
    values = []
    for i, action in enumerate(candidates):
        mean, low, high = interval(samples[i])
        loss, loss_low, loss_high = (
            crossfit_loss(samples, i, best_even, best_odd) if i != best else (0.0, 0.0, 0.0)
        )
        values.append(
            ActionValue(
                state.format_action(action),
                len(samples[i]),
                *(round(x, DIGITS) for x in (mean, low, high, loss, loss_low, loss_high)),
            )
        )
    order = sorted(range(len(values)), key=lambda i: (i != best, values[i].loss, -values[i].mean))
    return Verdict(
        job.move,
        legal,
        [values[i] for i in order],
        values[best].action,
        state.format_action(played),
    )


def _mean(values: list[float]) -> float:
    """Returns the mean of a non-empty list."""
    return sum(values) / len(values)
