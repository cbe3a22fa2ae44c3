"""Information-set Monte Carlo tree search (single-observer ISMCTS) over any Parlour game.

Each iteration deals a fresh *determinisation* of the hidden information (the
engine's ``determinize``: a state the bot cannot tell from the real one, with a
fresh generator, so it never sees future draws), walks a tree shared by all
determinisations (nodes keyed by the actions taken, in notation), expands one
action, finishes the game with a playout policy (random, or a game's own bot for
games where random playouts are hopeless), and backs up a reward for every seat.
Selection is UCB1 over the actions available in this determinisation, counting
availability rather than parent visits (Cowling, Powley and Whitehouse, 2012).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from parlour.core.agents import Agent
from parlour.core.state import GameState

EXPLORATION = 0.7
"""UCB1's exploration constant (rewards lie in 0..1)."""
PRIOR = 1.0
"""Progressive bias towards the playout bot's own choice at the root (fades as 1 / visits)."""
PLAYOUT_CAP = 120
"""Actions a playout may take before it is scored as it stands."""
MAX_MILLISECONDS = 3_600_000
"""The longest search budget accepted: an hour a move."""
MAX_ITERATIONS = 10_000_000
"""The most iterations a search budget may ask for."""


@dataclass
class Node:
    """Statistics of one information set: the seat that acts there and its children by action text."""

    seat: int = -1
    visits: int = 0
    reward: float = 0.0
    """Summed reward of the seat that acted into this node (its parent's decider)."""
    available: int = 0
    children: dict[str, Node] = field(default_factory=dict)


@dataclass(frozen=True)
class Budget:
    """How long a search may run: iterations, or milliseconds of wall time."""

    iterations: int = 0
    milliseconds: int = 0

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Reads ``200ms``, ``1s``, ``0.5s``, ``500`` or ``500it``: from 1 ms or 1 iteration to the maxima."""
        word = text.strip().lower()
        shape = f"a search budget is like 200ms, 1s or 500it, not {text[:40]!r}"
        if not word or len(word) > 12 or not word.isascii():
            raise ValueError(shape)
        try:
            if word.endswith("ms"):
                budget = cls(milliseconds=_whole(word[:-2]))
            elif word.endswith("s"):
                seconds = word[:-1]
                if not seconds.replace(".", "", 1).isdecimal():
                    raise ValueError(shape)
                budget = cls(milliseconds=round(float(seconds) * 1000))
            else:
                budget = cls(iterations=_whole(word.removesuffix("it")))
        except ValueError:
            raise ValueError(shape) from None
        if budget.milliseconds <= 0 and budget.iterations <= 0:
            raise ValueError(f"a search budget must be at least 1ms or 1it, not {text!r}")
        if budget.milliseconds > MAX_MILLISECONDS or budget.iterations > MAX_ITERATIONS:
            raise ValueError(
                f"a search budget is at most {MAX_MILLISECONDS // 1000}s or {MAX_ITERATIONS}it, not {text!r}"
            )
        return budget

    def describe(self) -> str:
        """Returns the budget as text."""
        return f"{self.milliseconds}ms" if self.milliseconds else f"{self.iterations}it"


def _whole(word: str) -> int:
    """Returns a whole number written in ASCII digits only (no sign, no underscore), or raises ValueError."""
    if not word.isdecimal():
        raise ValueError(word)
    return int(word)


def reward(state: GameState) -> list[float]:
    """Returns each seat's reward in 0..1: a (shared) win counts most, the score breaks ties."""
    scores = state.scores() if state.is_over() else state.estimate()
    best = max(scores)
    winners = state.winners() if state.is_over() else [s for s, x in enumerate(scores) if x == best]
    top = max(max(scores), 1e-9)
    low = min(min(scores), 0.0)
    spread = max(top - low, 1e-9)
    return [
        0.75 * (1.0 / len(winners) if s in winners else 0.0) + 0.25 * (x - low) / spread
        for s, x in enumerate(scores)
    ]


class IsmctsBot:
    """Chooses by ISMCTS within a budget.

    ``policy`` makes the playout agents (default: random moves); ``adviser`` (default: the
    policy) names the root action the search first favours, a bias that fades with visits.
    """

    def __init__(
        self,
        seed: int = 0,
        budget: Budget | None = None,
        policy: Callable[[int], Agent] | None = None,
        adviser: Callable[[int], Agent] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget(milliseconds=200)
        self.policy = policy
        self.adviser = adviser or policy
        self.name = f"ismcts:{self.budget.describe()}"
        self.iterations_done = 0
        self.steady = False
        """Whether to spend the whole budget in a reaction window even with nothing but a pass to play,
        so that how long the bot takes never tells people whether it held a playable card (front ends
        with people at the table set it; simulations leave it off)."""
        self.prior = ""
        self.last_root: Node | None = None
        """The tree of the last search (for inspection)."""

    def choose(self, state: GameState, seat: int) -> object:
        """Returns the action with the most visits after the search."""
        legal = state.legal_actions(seat)
        if len(legal) == 1 and not (self.steady and state.passing_window()):
            return legal[0]
        if state.routine_decision() and self.adviser is not None:
            # Bookkeeping (paying, placing) is the adviser's: search spends its time on choices.
            return self.adviser(self.rng.randrange(2**31)).choose(state, seat)
        root = Node(seat=seat)
        self.prior = ""
        if self.adviser is not None:
            # The adviser's choice in the real state (a bot reads only what its seat may know).
            self.prior = state.format_action(self.adviser(self.rng.randrange(2**31)).choose(state, seat))
        deadline = time.perf_counter() + self.budget.milliseconds / 1000 if self.budget.milliseconds else None
        iterations = 0
        while True:
            if deadline is not None and time.perf_counter() >= deadline and iterations:
                break
            if deadline is None and iterations >= max(1, self.budget.iterations):
                break
            self._iterate(root, state, seat)
            iterations += 1
        self.iterations_done += iterations
        self.last_root = root
        by_text = {state.format_action(a): a for a in legal}
        best = max(
            (c for c in root.children.items() if c[0] in by_text),
            key=lambda item: (item[1].visits, item[1].reward),
            default=None,
        )
        return by_text[best[0]] if best else self.rng.choice(legal)

    # ------------------------------------------------------------ one iteration
    def _iterate(self, root: Node, state: GameState, seat: int) -> None:
        """Determinise, select, expand, play out, back up."""
        world = state.determinize(seat, self.rng)
        agents: dict[int, Agent] = {}
        path = [root]
        node = root
        while not world.is_over():
            actor = world.deciders()[0]
            if node is not root and world.routine_decision():
                # Routine steps are not tree nodes: the playout policy takes them.
                world.apply_legal(self._policy_action(world, actor, agents), actor)
                continue
            legal = world.legal_actions(actor)
            texts = [world.format_action(a) for a in legal]
            untried = [i for i, t in enumerate(texts) if t not in node.children]
            for text in texts:
                if text in node.children:
                    node.children[text].available += 1
            if untried:
                favoured = [i for i in untried if node is root and texts[i] == self.prior]
                index = favoured[0] if favoured else self.rng.choice(untried)
                child = node.children[texts[index]] = Node(seat=actor, available=1)
                world.apply_legal(legal[index], actor)
                path.append(child)
                break
            index = max(
                range(len(legal)),
                key=lambda i: self._ucb(node.children[texts[i]], node is root and texts[i] == self.prior),
            )
            node = node.children[texts[index]]
            node.seat = actor
            world.apply_legal(legal[index], actor)
            path.append(node)
        values = self._playout(world, agents)
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += values[visited.seat]

    def _ucb(self, node: Node, favoured: bool = False) -> float:
        """Returns UCB1 with availability counts (plus a fading bias for the favoured root action)."""
        if node.visits == 0:
            return math.inf
        bias = PRIOR / node.visits if favoured else 0.0
        explore = EXPLORATION * math.sqrt(math.log(max(node.available, 1)) / node.visits)
        return node.reward / node.visits + explore + bias

    def _playout(self, world: GameState, agents: dict[int, Agent]) -> list[float]:
        """Finishes the game with the playout policy (capped) and returns every seat's reward."""
        for _ in range(PLAYOUT_CAP):
            if world.is_over():
                break
            actor = world.deciders()[0]
            world.apply_legal(self._policy_action(world, actor, agents), actor)
        return reward(world)

    def _policy_action(self, world: GameState, actor: int, agents: dict[int, Agent]) -> object:
        """Returns the playout policy's action for the actor (one agent per seat per iteration)."""
        if self.policy is None:
            return self.rng.choice(world.legal_actions(actor))
        agent = agents.get(actor)
        if agent is None:
            agent = agents[actor] = self.policy(self.rng.randrange(2**31))
        return agent.choose(world, actor)
