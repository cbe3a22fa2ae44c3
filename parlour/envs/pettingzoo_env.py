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
        self._action_spaces = {agent: spaces.Discrete(len(self.catalogue)) for agent in self.possible_agents}
        self.state_: GameState = probe
        self._seen: dict[tuple[int, int, str], dict[str, np.ndarray]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
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

    def _seat(self, agent: str) -> int:
        """Returns an agent's seat."""
        return self._seats[agent]

    def _next_agent(self) -> str:
        """Returns the agent that acts now (the first decider)."""
        deciders = self.state_.deciders()
        return self.possible_agents[deciders[0]] if deciders else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Returns the agent's tensor and its action mask (all zeros when it may not act); cached per step."""
        key = (id(self.state_), self.state_.actions_applied, agent)
        cached = self._seen.get(key)
        if cached is None:
            cached = self._seen[key] = self._observe(agent)
            if len(self._seen) > 4 * self.players:
                self._seen = {key: cached}
        return {name: value.copy() for name, value in cached.items()}

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        """Computes an agent's tensor and action mask."""
        seat, state = self._seats[agent], self.state_
        mask = np.zeros(len(self.catalogue), dtype=np.int8)
        if seat in state.deciders():  # nobody decides once the game is over
            ids = self.adapter.ids.of(state.legal_actions(seat), state.format_action)
            mask.put(ids, 1)
        return {"observation": observation(self.adapter, state, seat), "action_mask": mask}

    def _legal_ids(self, seat: int) -> tuple[list[object], list[int]]:
        """Returns the seat's legal actions and their catalogue ids."""
        legal: list[object] = self.state_.legal_actions(seat)
        return legal, self.adapter.ids.of(legal, self.state_.format_action)

    def _chosen(self, seat: int, action: int) -> tuple[object, bool] | None:
        """Returns the legal action with this id for ``seat`` and whether the state listed it (else a
        decision accepts it: ``Decision.accepts``), or None if it is not legal."""
        legal, ids = self._legal_ids(seat)
        if action in ids:
            return legal[ids.index(action)], True
        state = self.state_
        parsed = state.parse_action(self.catalogue[action])
        return (parsed, False) if state.is_legal(parsed, seat) else None

    def step(self, action: int | None) -> None:
        """Applies the acting agent's action id; an illegal id raises ValueError and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self.catalogue):
            raise ValueError(f"action must be an id 0..{len(self.catalogue) - 1}, not {action!r}")
        seat = self._seat(agent)
        chosen = self._chosen(seat, int(action))
        if chosen is None:
            raise ValueError(f"action {action} ({self.catalogue[int(action)]}) is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        if chosen[1]:
            self.state_.apply_legal(chosen[0], seat)  # listed, so legal; nobody reads the events
        else:
            self.state_.apply(chosen[0], seat)
        self.steps += 1
        if self.state_.is_over():
            winners = self.state_.winners()
            for a in self.agents:
                self.rewards[a] = 1.0 / len(winners) if self._seat(a) in winners else 0.0
                self.terminations[a] = True
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            if self.steps >= self.max_steps:
                # Truncated: the game is unfinished, so nobody is rewarded.
                for a in self.agents:
                    self.truncations[a] = True
                    self.infos[a] = {"steps": self.steps}
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """Returns the table as text seen by a spectator (render_mode ``ansi``)."""
        if self.render_mode != "ansi":
            return None
        return self.state_.render(None)

    def close(self) -> None:
        """Nothing to release."""
