"""A Gymnasium environment for one learning seat against Parlour's own bots (``parlour.envs.single``).

The other seats are played by bots named as ``--seats`` names them (``random``, ``greedy``,
``ismcts:50``); whenever the learner is not the seat to act (the first of ``deciders()``), they act until
it is, or the game ends. The learner's observation is the tensor of its seat (what it may know) and the
mask of its legal ids; an episode ends when the game does (``terminated``) or after ``max_steps``
actions of all seats (``truncated``, paid 0, as PettingZoo pays it: docs/environments.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour.bots.registry import make_bot
from parlour.core.agents import Agent
from parlour.core.encoding import observation
from parlour.core.errors import ParlourError
from parlour.core.registry import load_game
from parlour.core.state import GameState
from parlour.envs.ids import action_id

REWARDS = ("win", "score")
"""``win``: 1 shared among the winners at the end (the default); ``score``: the learner's final score less
the best other seat's, at the end."""
ILLEGAL = ("raise", "penalty")
"""``raise``: an illegal id raises ValueError (the default); ``penalty``: it is answered with
``illegal_penalty``, no move, and counts as a step toward ``max_steps``."""
OBSERVATIONS = ("flat", "dict")
"""``flat``: a Box tensor, masks from ``action_masks()`` (SB3's MaskablePPO); ``dict``: ``{"observations",
"action_mask"}``, the mask as float32 (RLlib's action-masking module)."""


class SingleSeatEnv(gymnasium.Env[Any, np.int64]):
    """One learning seat of game ``game_name`` for ``players`` seats; the others are Parlour bots. The
    game's options come as ``options`` or as keyword arguments (Venus Needs Men!'s ``game="enhanced"``)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game_name: str,
        players: int = 4,
        opponents: Sequence[str] = ("random",),
        seat: int | str = 0,
        reward: str = "win",
        illegal: str = "raise",
        illegal_penalty: float = -0.1,
        observations: str = "flat",
        max_steps: int | None = None,
        render_mode: str | None = None,
        options: Mapping[str, object] | None = None,
        **more_options: object,
    ) -> None:
        self.game = load_game(game_name)
        self.game.check_players(players)
        self.players = players
        self.options = self.game.options({**(options or {}), **more_options})
        self.opponents = _opponents(opponents, players)
        for name in set(self.opponents):
            make_bot(self.game, name, 0)  # an unknown bot is refused now, not at the first reset
        self.seat_choice = _seat(seat, players)
        self.reward_kind = _choice(reward, REWARDS, "reward")
        self.illegal = _choice(illegal, ILLEGAL, "illegal")
        self.illegal_penalty = float(illegal_penalty)
        self.observation_kind = _choice(observations, OBSERVATIONS, "observations")
        limit = self.game.max_actions if max_steps is None else max_steps
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise ValueError(f"max_steps must be a positive whole number of actions, not {limit!r}")
        self.max_steps = limit
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.adapter = self.game.encoding(players, self.options)
        self.catalogue = self.adapter.catalogue
        self._actions = len(self.catalogue)
        probe = self.game.new_state(players, 0, self.options)
        size = self.adapter.encode(probe, 0).size
        tensor = spaces.Box(0.0, 1.0, (size,), np.float32)
        mask = spaces.Box(0.0, 1.0, (self._actions,), np.float32)
        self.observation_space = (
            spaces.Dict({"observations": tensor, "action_mask": mask})
            if (self.observation_kind == "dict")
            else tensor
        )
        self.action_space = spaces.Discrete(self._actions)
        self.state_: GameState = probe
        self.seat = self.seat_choice if isinstance(self.seat_choice, int) else 0
        self.steps = 0
        self.episodes = 0
        self._bots: list[Agent | None] = []

    # ------------------------------------------------------------------ Gymnasium's API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Starts a new game (the seed fixes every shuffle, die and bot), plays the bots up to the learner's
        first decision; ``seat="rotate"`` moves the learner one seat on each episode."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        if self.seat_choice == "rotate":
            self.seat = self.episodes % self.players
        self.episodes += 1
        self.state_ = self.game.new_state(self.players, game_seed, self.options)
        self.steps = 0
        names = iter(self.opponents)
        self._bots = [
            None
            if s == self.seat
            else make_bot(self.game, next(names), game_seed * 8 + s, options=self.options)
            for s in range(self.players)
        ]
        self._play_bots()
        return self._observation(), self._info()

    def step(self, action: object) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Applies the learner's action id, then the bots' actions up to its next decision or the end."""
        if self.state_.is_over() or self.steps >= self.max_steps:
            raise ValueError("the episode has ended: call reset()")
        number = action_id(action, self._actions)
        chosen = self._legal_action(number)
        if chosen is None:
            if self.illegal == "raise":
                raise ValueError(
                    f"action {number} ({self.catalogue[number]}) is not legal for seat {self.seat} now"
                )
            self.steps += 1
            truncated = self.steps >= self.max_steps
            return self._observation(), self.illegal_penalty, False, truncated, self._info(illegal=True)
        self.state_.apply_legal(chosen, self.seat)
        self.steps += 1
        self._play_bots()
        over = self.state_.is_over()
        truncated = not over and self.steps >= self.max_steps
        return self._observation(), self._reward() if over else 0.0, over, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Returns the learner's legal ids as booleans (what MaskablePPO asks for)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:  # type: ignore[override]
        """Returns the table as the learner's seat sees it (render_mode ``ansi``)."""
        if self.render_mode != "ansi":
            return None
        return self.state_.render(self.seat)

    # ------------------------------------------------------------------ the steps
    def _play_bots(self) -> None:
        """Lets the bots act until the learner is the seat to act, the game ends or the limit is reached."""
        state = self.state_
        while not state.is_over() and self.steps < self.max_steps:
            seat = state.deciders()[0]
            bot = self._bots[seat]
            if bot is None:
                return
            state.apply(bot.choose(state, seat), seat)
            self.steps += 1

    def _legal_action(self, number: int) -> object | None:
        """Returns the learner's legal action of id ``number``, or None when it is not legal now."""
        state = self.state_
        legal = state.legal_actions(self.seat)
        ids = self.adapter.ids.of(legal, state.format_action)
        if number in ids:
            found: object = legal[ids.index(number)]
            return found
        try:  # not listed: a decision may accept it all the same (``Decision.accepts``)
            parsed = state.parse_action(self.catalogue[number])
        except ParlourError:
            return None
        return parsed if state.is_legal(parsed, self.seat) else None

    def _mask(self) -> np.ndarray:
        """Returns the learner's mask of legal ids (all zeros once the episode has ended)."""
        mask = np.zeros(self._actions, dtype=np.float32)
        state = self.state_
        if not state.is_over() and self.seat in state.deciders():
            mask.put(self.adapter.ids.of(state.legal_actions(self.seat), state.format_action), 1.0)
        return mask

    def _observation(self) -> Any:
        """Returns the learner's observation in the chosen form."""
        tensor = observation(self.adapter, self.state_, self.seat)
        if self.observation_kind == "dict":
            return {"observations": tensor, "action_mask": self._mask()}
        return tensor

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        """Returns the step's info: the seat, the steps so far, the mask, whether the id was illegal."""
        return {"seat": self.seat, "steps": self.steps, "action_mask": self._mask(), "illegal": illegal}

    def _reward(self) -> float:
        """Returns the learner's reward at the end of the game."""
        state = self.state_
        if self.reward_kind == "score":
            scores = state.scores()
            return float(scores[self.seat] - max(s for i, s in enumerate(scores) if i != self.seat))
        winners = state.winners()
        return 1.0 / len(winners) if self.seat in winners else 0.0


def _opponents(names: Sequence[str], players: int) -> list[str]:
    """Returns one bot name for each other seat: one name for all of them, or exactly ``players - 1``."""
    if isinstance(names, str):
        names = [names]
    listed = list(names)
    if not listed or not all(isinstance(n, str) for n in listed):
        raise ValueError("opponents must be a list of bot names (random, greedy, ismcts:50, ...)")
    if any(n.startswith("cmd") for n in listed):
        raise ValueError(
            "opponents are Parlour's own bots: a cmd: program is not started from an environment"
        )
    if len(listed) == 1:
        return listed * (players - 1)
    if len(listed) != players - 1:
        raise ValueError(
            f"opponents must name one bot or {players - 1} (one for each other seat), not {len(listed)}"
        )
    return listed


def _seat(value: int | str, players: int) -> int | str:
    """Returns the learner's seat (0..players-1) or ``rotate``."""
    if value == "rotate":
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise ValueError(f"seat must be a whole number from 0 to {players - 1} or 'rotate', not {value!r}")
    return value


def _choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    """Returns ``value`` if it is one of ``allowed``; else raises ValueError naming them."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value
