"""Information-set Monte Carlo tree search (single-observer ISMCTS) over any Parlour game.

Each iteration deals a fresh *determinisation* of the hidden information (the
engine's ``determinize``: a state the bot cannot tell from the real one, with a
fresh generator, so it never sees future draws), walks a tree shared by all
determinisations (nodes keyed by the actions taken), expands one action, plays
on with a playout policy (random, or a game's own bot for games where random
playouts are hopeless) for a few turns, and backs up a reward for every seat
from the game's estimate where the playout stopped.

Selection is UCB1 over the actions available in this determinisation, counting
availability rather than parent visits (Cowling, Powley and Whitehouse, 2012).
A node opens its actions one at a time (progressive widening): the playout
policy's own choice first, then the others at random as the node's visits grow,
so a short search refines the policy's line instead of trying every action once.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from parlour.bots.random_bot import RandomBot
from parlour.bots.values import Evaluator
from parlour.core.agents import Agent
from parlour.core.notation import Action
from parlour.core.state import GameState

EXPLORATION = 0.7
"""UCB1's exploration constant (rewards lie in 0..1)."""
PRIOR = 1.0
"""Progressive bias towards the adviser's own choice at the root (fades as 1 / visits)."""
WIDENING = 1.0
"""Progressive widening: a node visited n times may have ``WIDENING * n ** WIDENING_POWER`` children."""
INNER_WIDENING = 0.5
"""Progressive widening below the root (as ``WIDENING``)."""
WIDENING_POWER = 0.5
"""How fast a node opens further actions with its visits (0: never beyond the first, 1: linearly)."""
HORIZON = 4
"""Turns, counted from the searched decision, a playout plays before the game's estimate judges it."""
DEEPEN = 0
"""Turns added to the horizon, once a search, when no raced action's playouts differed at all from the
adviser's (0: never)."""
PLAYOUT_CAP = 120
"""Actions a playout may take before it is scored as it stands (also bounds games without turns)."""
RACE = 4
"""Root actions raced on each determinisation: the adviser's choice and others that replace the losers."""
MARGIN = 1.0
"""How sure the race must be (in standard errors of the paired difference) before overruling the adviser."""
SAMPLES = 2
"""Shared worlds a raced action must have been played on before it may overrule the adviser."""
SOFTNESS = 0.0
"""The softmax temperature, as a fraction of the top estimate, that judges unfinished playouts."""
STEP_BACK = frozenset({"undo", "cancel"})
"""Verbs that take back a step that revealed nothing (Venture's ruling A-17): the search leaves them out,
as whatever they lead to it could have chosen directly."""
MAX_MILLISECONDS = 3_600_000
"""The longest search budget accepted: an hour a move."""
MAX_ITERATIONS = 10_000_000
"""The most iterations a search budget may ask for."""
BUDGET_RANGE = f"1ms to {MAX_MILLISECONDS // 1000}s, or 1it to {MAX_ITERATIONS}it"
"""The budgets accepted, as error messages and docs/search.md write them."""
RANGES: dict[str, tuple[int | float, int | float]] = {
    "explore": (0, 10),
    "prior": (0, 100),
    "widening": (0, 100),
    "inner": (0, 100),
    "power": (0, 2),
    "horizon": (0, 1000),
    "deepen": (0, 1000),
    "cap": (0, 10_000),
    "race": (0, 100),
    "margin": (0, 10),
    "samples": (0, 1000),
    "soft": (0, 10),
    "value": (0, 1),
}
"""The lowest and highest value of each ``Settings`` field (docs/search.md lists them): beyond them a
setting changes nothing more, or the search would overflow (``power``) or never end a move."""
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?", re.ASCII | re.IGNORECASE)
"""A number as a bot name may write it: ASCII digits, an optional sign, point and exponent."""
_BUDGET = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)(ms|s|it)?", re.ASCII)
"""A budget: a number and its unit (none: iterations)."""
_SHOWN = 24
"""The most characters of a refused text an error message repeats."""
_LONGEST = 40
"""The most characters a setting's number may take."""


@dataclass(slots=True)
class Node:
    """Statistics of one information set: the seat that acted into it and its children by action."""

    seat: int = -1
    """The seat whose action led here (-1: the root of a fresh search)."""
    visits: int = 0
    reward: float = 0.0
    """Summed reward of the seat that acted into this node (its parent's decider)."""
    available: int = 0
    children: dict[object, Node] = field(default_factory=dict)


@dataclass(frozen=True)
class Budget:
    """How long a search may run: iterations, or milliseconds of wall time."""

    iterations: int = 0
    milliseconds: int = 0

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Reads ``200ms``, ``1s``, ``0.5s``, ``500`` or ``500it`` in ``BUDGET_RANGE``, else ValueError."""
        word = text.strip().lower()
        found = _BUDGET.fullmatch(word)
        if found is None or (found[2] != "s" and "." in found[1]):
            raise ValueError(f"ismcts budget {shown(text)} is not like 200ms, 0.5s or 500it ({BUDGET_RANGE})")
        unit = found[2]
        milliseconds = unit in ("s", "ms")
        number = float(found[1])  # inf for a long enough run of digits, never an error
        if unit == "s" and math.isfinite(number):
            number = round(number * 1000)
        if not 1 <= number <= (MAX_MILLISECONDS if milliseconds else MAX_ITERATIONS):
            raise ValueError(f"ismcts budget {shown(text)} is out of range: {BUDGET_RANGE}")
        return cls(milliseconds=int(number)) if milliseconds else cls(iterations=int(number))

    def describe(self) -> str:
        """Returns the budget as text."""
        return f"{self.milliseconds}ms" if self.milliseconds else f"{self.iterations}it"


@dataclass(frozen=True)
class Settings:
    """The search's tunables; a bot name may set them after its playout bot (``horizon=2,explore=0.5``)."""

    explore: float = EXPLORATION
    """UCB1's exploration constant."""
    prior: float = PRIOR
    """The root bias towards the adviser's choice."""
    widening: float = WIDENING
    """Children the root may have per square root (by default) of its visits."""
    inner: float = INNER_WIDENING
    """The same for the nodes below the root (where the policy's line matters more than alternatives)."""
    power: float = WIDENING_POWER
    """The power of the visits in progressive widening."""
    horizon: int = HORIZON
    """Turns from the searched decision a playout plays (0: to the end of the game or the cap)."""
    deepen: int = DEEPEN
    """Turns the horizon grows by (once) when the race could tell no action from the adviser's."""
    cap: int = PLAYOUT_CAP
    """Actions a playout may take at most."""
    race: int = RACE
    """Root actions evaluated side by side on each determinisation (0: plain UCB1 at the root)."""
    margin: float = MARGIN
    """Standard errors by which an action must beat the adviser's choice on shared worlds to replace it."""
    samples: int = SAMPLES
    """Shared worlds a raced action needs before it may replace the adviser's choice (fewer: a lucky
    draw or two could pass the margin, and the best of many rivals is the likeliest to be lucky)."""
    soft: float = SOFTNESS
    """How an unfinished game's leader is judged: 0 the leader takes the win's share, more shares it
    out by a softmax over the estimates with this fraction of the top estimate as its temperature."""
    value: float = 0.0
    """The weight of the learned evaluator (``parlour.bots.values``: the game's shipped network) in the
    judgement of an unfinished playout, the hand-written estimate's being 1 − value (0: not used)."""

    def __post_init__(self) -> None:
        """Refuses a value of the wrong kind or outside its range (``RANGES``) with ValueError."""
        for f in fields(self):
            value = getattr(self, f.name)
            whole = f.type == "int"
            kinds = (int,) if whole else (int, float)
            if isinstance(value, bool) or not isinstance(value, kinds):
                raise ValueError(
                    f"ismcts setting {f.name}={shown(repr(value))} is not {_kind(f.name, whole)}"
                )
            if isinstance(value, int) and abs(value) > 10**100:
                raise ValueError(f"ismcts setting {f.name} is out of range: {_kind(f.name, whole)}")
            _check_range(f.name, value, f"{value:g}")

    @classmethod
    def parse(cls, text: str) -> Settings:
        """Reads comma-separated ``name=number`` pairs (``horizon=2,explore=0.5``), each in its range
        (``RANGES``); empty: the defaults. Raises ValueError naming the setting, the value and the range."""
        names = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for pair in filter(None, (p.strip() for p in text.split(","))):
            name, equals, value = pair.partition("=")
            name = name.strip()
            if name in names and not equals:
                raise ValueError(f"ismcts setting {name} needs =number, {_kind(name, names[name] == 'int')}")
            if name not in names:
                raise ValueError(
                    f"ismcts setting {shown(pair)} is unknown: write name=number, the names being "
                    + ", ".join(names)
                )
            values[name] = _setting(name, value.strip(), names[name] == "int")
        return cls(**values)

    def describe(self) -> str:
        """Returns the settings that differ from the defaults, as a bot name writes them."""
        default = Settings()
        return ",".join(
            f"{f.name}={getattr(self, f.name):g}"
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        )


def _setting(name: str, word: str, whole: bool) -> float:
    """Returns one setting's value read from its text, or raises ValueError if it is not a number of the
    setting's kind (whole or not) within its range."""
    if len(word) > _LONGEST or _NUMBER.fullmatch(word) is None:
        raise ValueError(f"ismcts setting {name}={shown(word)} is not {_kind(name, whole)}")
    number = float(word)  # inf for a large enough exponent, never an error
    if whole and math.isfinite(number) and not number.is_integer():
        raise ValueError(f"ismcts setting {name}={shown(word)} is not {_kind(name, whole)}")
    _check_range(name, number, shown(word))
    return int(number) if whole else number


def _kind(name: str, whole: bool) -> str:
    """Returns what a setting takes, for an error message: ``a whole number from 0 to 1000``."""
    low, high = RANGES[name]
    return f"{'a whole number' if whole else 'a number'} from {low:g} to {high:g}"


def _check_range(name: str, number: float, written: str) -> None:
    """Raises ValueError naming the setting, its value as written and its range if it lies outside."""
    low, high = RANGES[name]
    if not low <= number <= high:  # NaN too
        raise ValueError(f"ismcts setting {name}={written} is out of range: {low:g} to {high:g}")


def shown(text: str) -> str:
    """Returns text a user gave, for a one-line error message: short printable ASCII as it is, anything
    else escaped (``ascii``) and cut to its first characters."""
    if len(text) <= _SHOWN and text.isascii() and text.isprintable():
        return text
    return ascii(text[:_SHOWN]) + ("..." if len(text) > _SHOWN else "")


_STEPS_BACK: dict[type, bool] = {}
"""Whether each action class is a step back (by its ``Action.verb``), worked out once a class."""


def searched(legal: list[object]) -> list[object]:
    """Returns the legal actions the search considers: all but steps back (all if nothing else is left)."""
    kept = []
    for action in legal:
        kind = type(action)
        back = _STEPS_BACK.get(kind)
        if back is None:
            back = _STEPS_BACK[kind] = isinstance(action, Action) and action.verb in STEP_BACK
        if not back:
            kept.append(action)
    return kept or legal


def _lower(differences: list[float], margin: float) -> float:
    """Returns the mean of paired differences less ``margin`` standard errors (-inf for none)."""
    count = len(differences)
    if not count:
        return -math.inf
    mean = sum(differences) / count
    if count < 2:
        return mean
    variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
    return mean - margin * math.sqrt(variance / count)


def _beaten(differences: list[float], margin: float) -> bool:
    """Returns whether an action is clearly no better than the adviser's: after three shared worlds,
    its mean difference plus ``margin`` standard errors is not above zero."""
    return len(differences) >= 3 and -_lower([-d for d in differences], margin) <= 0


def reward(state: GameState, soft: float = 0.0) -> list[float]:
    """Returns each seat's reward in 0..1: a (shared) win counts most, the score breaks ties.

    An unfinished game is judged by its estimate: the leaders share the win's part, or (``soft`` > 0)
    every seat takes a softmax share of it, with ``soft`` times the top estimate as temperature.
    """
    over = state.is_over()
    scores = state.scores() if over else state.estimate()
    best = max(scores)
    top = max(best, 1e-9)
    low = min(scores)
    spread = max(top - low, 1e-9)
    if over or soft <= 0:
        winners = state.winners() if over else [s for s, x in enumerate(scores) if x == best]
        shares = [1.0 / len(winners) if s in winners else 0.0 for s in range(len(scores))]
    else:
        temperature = max(soft * abs(best), 1.0)
        weights = [math.exp((x - best) / temperature) for x in scores]
        total = sum(weights)
        shares = [w / total for w in weights]
    return [0.75 * share + 0.25 * (x - low) / spread for share, x in zip(shares, scores, strict=True)]


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
        settings: Settings | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget(milliseconds=200)
        self.policy = policy
        self.adviser = adviser or policy
        self.settings = settings or Settings()
        extra = self.settings.describe()
        self.name = f"ismcts:{self.budget.describe()}" + (f"::{extra}" if extra else "")
        self.iterations_done = 0
        self.steady = False
        """Whether to spend the whole budget in a reaction window even with nothing but a pass to play,
        so that how long the bot takes never tells people whether it held a playable card (front ends
        with people at the table set it; simulations leave it off)."""
        self.prior: object = None
        """The adviser's choice at the root of the current search (None: no adviser)."""
        self.last_root: Node | None = None
        """The tree of the last search (for inspection)."""
        self._adviser: Agent | None = None
        """The adviser advising this bot's seat (made at the first decision)."""
        self._root = Node()
        """The root of the current search."""
        self._after: tuple[GameState | None, int, Node | None] = (None, 0, None)
        """The state, its count of actions and the tree below the action this bot last returned: the
        root of its next search if only that action was applied in between (its own next decision)."""
        self._deadline: float | None = None
        """When the current search must stop (None: it counts iterations)."""
        self._iterations = 0
        """Iterations of the current search so far."""
        self._seed: int | None = None
        """The seed of the current iteration's playout bots (None: drawn from the bot's generator)."""
        self._until = 0
        """The turn at which the current search's playouts stop (see ``Settings.horizon``)."""
        self._deepened = False
        """Whether the current search has pushed its horizon further (see ``Settings.deepen``)."""
        self.evaluator: Evaluator | None = None
        """The learned evaluator (made at the first playout it judges, ``Settings.value``)."""

    def choose(self, state: GameState, seat: int) -> object:
        """Returns the action with the most visits after the search."""
        legal = state.legal_actions(seat)
        deadline = time.perf_counter() + self.budget.milliseconds / 1000 if self.budget.milliseconds else None
        carried = self._carried(state)
        advice = self._advice()
        if len(legal) == 1 or (state.routine_decision() and advice is not None):
            if len(legal) == 1:
                if deadline is not None and self.steady and state.passing_window():
                    # The same time whether or not the seat could have played (see ``steady``).
                    time.sleep(max(0.0, deadline - time.perf_counter()))
                action = legal[0]
            else:
                # Bookkeeping (paying, placing) is the adviser's: search spends its time on choices.
                assert advice is not None
                action = advice.choose(state, seat)
            # Such steps are not tree nodes: the tree below the last search's choice still fits.
            self._carry(state, carried)
            return action
        root = carried or Node()
        options = searched(legal)
        if len(options) == 1 and not self.steady:
            # Nothing to weigh: the other actions only step back (the search leaves them out).
            self._carry(state, root.children.get(options[0]))
            return options[0]
        self.prior = None
        if advice is not None:
            # The adviser's choice in the real state (a bot reads only what its seat may know).
            self.prior = advice.choose(state, seat)
        self._root = root
        self._until = state.turns_played() + self.settings.horizon
        self._deepened = False
        self._deadline = deadline
        self._iterations = 0
        if self.settings.race > 1:
            action = self._race(root, state, seat, legal)
        else:
            while not self._spent():
                self._iterate(root, state.determinize(seat, self.rng), seat)
            action = self._best(root, legal)
        self.iterations_done += self._iterations
        self.last_root = root
        self._carry(state, root.children.get(action))
        return action

    def _spent(self) -> bool:
        """Returns whether the budget is spent (at least one iteration is always made)."""
        if not self._iterations:
            return False
        if self._deadline is not None:
            return time.perf_counter() >= self._deadline
        return self._iterations >= self.budget.iterations

    def _race(self, root: Node, state: GameState, seat: int, legal: list[object]) -> object:
        """Returns the root action that beats the adviser's choice by the margin on shared worlds.

        Each round deals one determinisation and plays every racing action from a copy of it, with the
        same generator and the same playout bots, so luck cancels out of the paired differences. An action
        clearly no better than the adviser's leaves the race for one not tried yet.
        """
        settings = self.settings
        waiting = [a for a in searched(legal) if a != self.prior]
        self.rng.shuffle(waiting)
        base = self.prior if self.prior is not None and self.prior in legal else waiting.pop()
        racing = [base]
        differences: dict[object, list[float]] = {}
        while not self._spent():
            while len(racing) < settings.race and waiting:
                racing.append(waiting.pop())
                differences[racing[-1]] = []
            if len(racing) == 1:
                if self._deepen(differences):
                    waiting, differences = list(differences), {}  # every rival races again, further ahead
                    continue
                if not self.steady:
                    break  # every rival is beaten: the rest of the budget could change nothing
            world = state.determinize(seat, self.rng)
            seed = self.rng.randrange(2**31)
            first = 0.0
            for index, action in enumerate(racing):
                if index and self._spent():
                    break
                copy = world.clone() if index < len(racing) - 1 else world
                value = self._iterate(root, copy, seat, action, seed)
                if index:
                    differences[action].append(value - first)
                else:
                    first = value
            racing = [base, *(a for a in racing[1:] if not _beaten(differences[a], settings.margin))]
        return self._pick(base, differences)

    def _pick(self, base: object, differences: dict[object, list[float]]) -> object:
        """Returns the raced action whose paired differences beat the adviser's choice by the most, by the
        margin and on at least ``samples`` shared worlds; ``base`` if none does."""
        settings = self.settings
        best, best_score = base, 0.0
        for action, found in differences.items():
            score = _lower(found, settings.margin)
            if len(found) >= settings.samples and score > best_score:
                best, best_score = action, score
        return best

    def _deepen(self, differences: dict[object, list[float]]) -> bool:
        """Pushes the horizon further, once a search, if rivals raced and none of their playouts ended
        any differently from the adviser's (the horizon fell before the choice showed); says if it did."""
        step = self.settings.deepen
        if not step or self._deepened or not self.settings.horizon or not differences:
            return False
        if any(any(found) for found in differences.values()):
            return False
        self._deepened = True
        self._until += step
        return True

    def _carried(self, state: GameState) -> Node | None:
        """Returns the tree below this bot's last action if nobody else has acted since, else None."""
        if state is self._after[0] and state.actions_applied == self._after[1] + 1:
            return self._after[2]
        return None

    def _carry(self, state: GameState, node: Node | None) -> None:
        """Keeps the tree below the action about to be played, for this seat's next decision."""
        self._after = (state, state.actions_applied, node)

    def _advice(self) -> Agent | None:
        """Returns the adviser, one for the whole game: a bot that remembers (I'm the Boss!'s greedy
        counts the refusals of its proposals) remembers as it would playing the seat itself."""
        if self._adviser is None and self.adviser is not None:
            self._adviser = self.adviser(self.rng.randrange(2**31))
        return self._adviser

    def _best(self, root: Node, legal: list[object]) -> object:
        """Returns the legal root action with the most visits (ties: the better mean reward)."""
        best, key = None, (-1, -math.inf)
        for action in legal:
            child = root.children.get(action)
            if child is not None and child.visits:
                rank = (child.visits, child.reward / child.visits)
                if rank > key:
                    best, key = action, rank
        if best is None:
            return self.prior if self.prior is not None and self.prior in legal else self.rng.choice(legal)
        return best

    # ------------------------------------------------------------ one iteration
    def _iterate(
        self, root: Node, world: GameState, seat: int, first: object = None, seed: int | None = None
    ) -> float:
        """Selects (opening actions as visits allow; ``first`` at the root if given), expands, plays
        out and backs up in a determinisation; returns the searching seat's reward. ``seed`` seeds the
        playout bots (by default they draw from the bot's generator)."""
        self._iterations += 1
        agents: dict[int, Agent] = {}
        self._seed = seed
        path = [root]
        node = root
        while not world.is_over():
            # At the root the searching seat acts (others may be asked at once); below, the first asked.
            actor = seat if node is root else world.deciders()[0]
            legal = world.legal_actions(actor)
            if node is not root and (len(legal) == 1 or world.routine_decision()):
                # Forced and routine steps are not tree nodes: the playout policy takes them.
                world.apply_legal(self._policy_action(world, actor, legal, agents), actor)
                continue
            if node is root and first is not None:
                action, child = first, root.children.get(first) or Node(seat=actor)
                root.children[first] = child
            else:
                action, child = self._select(node, world, actor, searched(legal), agents)
            world.apply_legal(action, actor)
            path.append(child)
            if child.visits == 0:
                break
            node = child
        values = self._playout(world, agents)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += values[visited.seat]
        return values[seat]

    def _select(
        self, node: Node, world: GameState, actor: int, legal: list[object], agents: dict[int, Agent]
    ) -> tuple[object, Node]:
        """Returns the action to take at a node and its child: a new one while the node may widen, else
        the available child with the best UCB1 score."""
        children = node.children
        available = []
        for action in legal:
            child = children.get(action)
            if child is not None:
                child.available += 1
                available.append((action, child))
        settings = self.settings
        if len(available) < len(legal) and (
            not available
            or len(children)
            < (settings.widening if node is self._root else settings.inner)
            * (node.visits + 1) ** settings.power
        ):
            action = self._untried(node, world, actor, legal, agents)
            child = children[action] = Node(seat=actor, available=1)
            return action, child
        favoured = self.prior if node is self._root else None
        explore = settings.explore
        best, best_score = available[0], -math.inf
        for pair in available:
            child = pair[1]
            if not child.visits:
                return pair
            score = child.reward / child.visits + explore * math.sqrt(
                math.log(child.available) / child.visits
            )
            if favoured is not None and pair[0] == favoured:
                score += settings.prior / child.visits
            if score > best_score:
                best, best_score = pair, score
        return best

    def _untried(
        self, node: Node, world: GameState, actor: int, legal: list[object], agents: dict[int, Agent]
    ) -> object:
        """Returns the next action a node opens: the adviser's (root) or policy's choice, else any other."""
        children = node.children
        wanted = self.prior if node is self._root else self._policy_action(world, actor, legal, agents)
        if wanted is not None and wanted not in children and wanted in legal:
            return wanted
        return self.rng.choice([a for a in legal if a not in children])

    def _playout(self, world: GameState, agents: dict[int, Agent]) -> list[float]:
        """Plays on with the policy up to the horizon (or the cap) and returns every seat's reward."""
        until = self._until if self.settings.horizon else None
        for _ in range(self.settings.cap):
            if world.is_over() or (until is not None and world.turns_played() >= until):
                break
            actor = world.deciders()[0]
            world.apply_legal(self._policy_action(world, actor, world.legal_actions(actor), agents), actor)
        rewards = reward(world, self.settings.soft)
        weight = self.settings.value
        if weight and not world.is_over():
            if self.evaluator is None:
                self.evaluator = Evaluator()
            learned = self.evaluator(world)  # each seat's value from its own observation
            rewards = [(1 - weight) * r + weight * v for r, v in zip(rewards, learned, strict=True)]
        return rewards

    def _policy_action(
        self, world: GameState, actor: int, legal: list[object], agents: dict[int, Agent]
    ) -> object:
        """Returns the playout policy's action for the actor (one agent per seat per iteration)."""
        if len(legal) == 1:
            return legal[0]
        agent = agents.get(actor)
        if agent is None:
            seed = self.rng.randrange(2**31) if self._seed is None else self._seed + actor
            agent = agents[actor] = (self.policy or RandomBot)(seed)
        return agent.choose(world, actor)
