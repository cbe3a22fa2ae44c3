"""A PettingZoo AEC environment for any Parlour game: fixed action ids, masks, observation tensors.

The agent to act is the first of ``state.deciders()``: the deterministic order
the rules define for open windows (I'm the Boss!'s negotiation: the Boss, then
clockwise; Venus Needs Men!'s Zap windows: from the active seat clockwise).

An episode is truncated after ``max_steps`` actions (default: the game's entry in
``Game.max_actions``, docs/environments.md), so no policy can keep a game going for ever.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from parlour.core.encoding import observation
from parlour.core.registry import load_game
from parlour.core.state import GameState
from parlour.envs.ids import action_id


class ParlourEnv(AECEnv):  # type: ignore[misc]
    """One game of ``game`` for ``players`` agents named ``player_0``…; rewards at the end only."""

    metadata: dict[str, object] = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int,
        options: dict[str, object] | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        self.game = load_game(game)
        self.game.check_players(players)
        limit = self.game.max_actions if max_steps is None else max_steps
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise ValueError(f"max_steps must be a positive whole number of actions, not {limit!r}")
        self.max_steps = limit
        """Actions after which an unfinished episode is truncated."""
        self.steps = 0
        """Actions applied in this episode."""
        self.options = self.game.options(options)
        self.players = players
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"parlour_{self.game.name.replace('-', '_')}_v0"}
        self.adapter = self.game.encoding(players, self.options)
        self.catalogue = self.adapter.catalogue
        self.ids = self.adapter.ids.by_text
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        probe = self.game.new_state(players, 0, self.options)
        size = self.adapter.encode(probe, 0).size
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.catalogue),), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(len(self.catalogue)) for agent in self.possible_agents
        }
        self.state_: GameState = probe
        self._actions = len(self.catalogue)
        self._seen: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        """The tensor and mask of each agent observed in ``_seen_state`` after ``_seen_at`` actions."""
        self._seen_state: GameState | None = None
        self._seen_at = -1

    def observation_space(self, agent: str) -> spaces.Dict:
        """Returns an agent's observation space: the tensor and the action mask."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Returns an agent's action space: one id per catalogue entry."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """Starts a new game; the seed fixes every shuffle and die."""
        game_seed = seed if seed is not None else random.randrange(2**31)
        self.state_ = self.game.new_state(self.players, game_seed, self.options)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        """Returns the agent that acts now (the first decider)."""
        deciders = self.state_.deciders()
        return self.possible_agents[deciders[0]] if deciders else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Returns the agent's tensor and its action mask (all zeros when it may not act): worked out once a
        step for each agent (``last()`` then ``observe()`` ask twice), handed out as copies."""
        state = self.state_
        if self._seen_state is not state or self._seen_at != state.actions_applied:
            self._seen_state, self._seen_at, self._seen = state, state.actions_applied, {}
        cached = self._seen.get(agent)
        if cached is None:
            cached = self._seen[agent] = self._observe(agent)
        return {"observation": cached[0].copy(), "action_mask": cached[1].copy()}

    def _observe(self, agent: str) -> tuple[np.ndarray, np.ndarray]:
        """Computes an agent's tensor and action mask."""
        seat, state = self._seats[agent], self.state_
        mask = np.zeros(self._actions, dtype=np.int8)
        if seat in state.deciders():  # nobody decides once the game is over
            mask.put(self.adapter.ids.of(state.legal_actions(seat), state.format_action), 1)
        return observation(self.adapter, state, seat), mask

    def step(self, action: int | None) -> None:
        """Applies the acting agent's action id (an int or NumPy integer); an illegal id, or anything else
        (a float, even 2.0; a bool; None while the agent may act), raises ValueError and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = action_id(action, self._actions)  # a float, bool, text or None: ValueError
        seat, state = self._seats[agent], self.state_
        legal = state.legal_actions(seat)
        try:
            chosen = legal[self.adapter.ids.of(legal, state.format_action).index(number)]
        except ValueError:  # not listed: a decision may accept it all the same (``Decision.accepts``)
            parsed = state.parse_action(self.catalogue[number])
            if not state.is_legal(parsed, seat):
                raise ValueError(
                    f"action {number} ({self.catalogue[number]}) is not legal for {agent} now"
                ) from None
            self._cumulative_rewards[agent] = 0.0
            state.apply(parsed, seat)
        else:
            self._cumulative_rewards[agent] = 0.0
            state.apply_legal(chosen, seat)  # listed, so legal; nobody reads the events
        self.steps += 1
        if state.is_over():
            winners = state.winners()
            for a in self.agents:
                self.rewards[a] = 1.0 / len(winners) if self._seats[a] in winners else 0.0
                self.terminations[a] = True
            self._accumulate_rewards()
        elif self.steps >= self.max_steps:
            # Truncated: the game is unfinished, so nobody is rewarded.
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"steps": self.steps}
        # Otherwise every reward stays 0 (set so by ``reset``; only the end rewards): nothing to add up.
        self.agent_selection = self._next_agent()

    def render(self) -> str | None:
        """Returns the table as text seen by a spectator (render_mode ``ansi``)."""
        if self.render_mode != "ansi":
            return None
        return self.state_.render(None)

    def close(self) -> None:
        """Nothing to release."""
