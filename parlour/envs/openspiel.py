"""OpenSpiel: ``import parlour.envs.openspiel`` registers every game as a Python game for ``pyspiel``.

``pyspiel.load_game("parlour_venture", {"players": 4, "seed": 7})`` (also ``parlour_im_the_boss``,
``parlour_venus_needs_men``); the game options are game parameters.  Chance is *sampled*: the engine
draws from its seeded generator (parameter ``seed``), so a game's chance events are fixed by the seed
and the actions.  Actions are the ids of the game's catalogue; information-state strings are the
seat's observation plus the (public) history of actions, tensors are the PettingZoo tensors, and
``resample_from_infostate`` is the engine's determinisation.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pyspiel

from parlour.core.game import Game
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState
from parlour.envs.encoders import ADAPTERS, Adapter

MAX_GAME_LENGTH = 200_000


def short_name(name: str) -> str:
    """Returns the OpenSpiel name of a Parlour game (``parlour_im_the_boss``)."""
    return "parlour_" + name.replace("-", "_")


def _defaults(game: Game) -> dict[str, Any]:
    """Returns the game parameters and their defaults: players, seed, and every option."""
    params: dict[str, Any] = {"players": min(4, game.max_players), "seed": 0}
    for spec in game.option_specs:
        params[spec.name] = spec.default
    return params


class ParlourSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a Parlour state."""

    def __init__(self, game: ParlourSpielGame, inner: GameState | None = None) -> None:
        super().__init__(game)
        self._spiel_game = game
        self.inner = (
            inner if inner is not None else game.parlour.new_state(game.players, game.seed, game.options)
        )
        self.moves: list[str] = []

    def current_player(self) -> int:
        """Returns the seat to act (the first decider), or TERMINAL."""
        if self.inner.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.inner.deciders()[0])

    def _legal_actions(self, player: int) -> list[int]:
        """Returns the catalogue ids of the player's legal actions, ascending."""
        if self.inner.is_over() or player not in self.inner.deciders():
            return []
        ids = self._spiel_game.ids
        return sorted(ids[self.inner.format_action(a)] for a in self.inner.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        """Applies an action id for the player to act."""
        text = self._spiel_game.adapter.catalogue[action]
        self.inner.apply(self.inner.parse_action(text), self.current_player())
        self.moves.append(text)

    def _action_to_string(self, player: int, action: int) -> str:
        """Returns an action id's notation."""
        return self._spiel_game.adapter.catalogue[action]

    def is_terminal(self) -> bool:
        """Returns whether the game is over."""
        return bool(self.inner.is_over())

    def returns(self) -> list[float]:
        """Returns 1 shared among the winners, 0 for the others (zeros before the end)."""
        if not self.inner.is_over():
            return [0.0] * self._spiel_game.players
        winners = self.inner.winners()
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self._spiel_game.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ParlourSpielState:
        """Returns a state the player cannot tell from this one: the engine's determinisation."""
        rng = random.Random(int(probability_sampler() * 2**31))
        other = ParlourSpielState(self._spiel_game, self.inner.determinize(player_id, rng))
        other.moves = list(self.moves)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> ParlourSpielState:
        """Copies the wrapped state with the engine's deep clone."""
        other = ParlourSpielState(self._spiel_game, self.inner.clone())
        other.moves = list(self.moves)
        return other

    def __str__(self) -> str:
        """Returns the table as a spectator sees it."""
        return str(self.inner.render(None))


class ParlourObserver:
    """OpenSpiel's observer protocol: a tensor (the PettingZoo one) and strings, for one player."""

    def __init__(self, game: ParlourSpielGame, iig_obs_type: Any) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        size = game.adapter.encode(game.parlour.new_state(game.players, 0, game.options), 0).size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        """Fills the tensor from what the player may know."""
        self.tensor[:] = self.game.adapter.encode(state.inner, player).array()

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        """Returns what the player may know (with the public history for perfect recall)."""
        seen = json.dumps(state.inner.observation(player), sort_keys=True)
        return f"{seen} | {' ; '.join(state.moves)}" if self.perfect_recall else seen


class ParlourSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game wrapping a Parlour game with its parameters."""

    parlour: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_defaults(self.parlour), **(params or {})}
        self._configure(values)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.adapter.catalogue),
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(self.game_type, info, values)

    def _configure(self, values: dict[str, Any]) -> None:
        """Sets players, seed, options, the adapter and the action ids from the parameters."""
        self.players = int(values["players"])
        self.parlour.check_players(self.players)
        self.seed = int(values["seed"])
        self.options = self.parlour.options({s.name: values[s.name] for s in self.parlour.option_specs})
        self.adapter: Adapter = ADAPTERS[self.parlour.name](self.parlour, self.players, self.options)
        self.ids = {text: i for i, text in enumerate(self.adapter.catalogue)}

    def __getattr__(self, name: str) -> Any:
        """Rebuilds the settings of a game OpenSpiel copied without calling ``__init__``."""
        if name in ("players", "seed", "options", "adapter", "ids"):
            self._configure({**_defaults(self.parlour), **self.get_parameters()})
            return self.__dict__[name]
        raise AttributeError(name)

    game_type: Any

    def new_initial_state(self) -> ParlourSpielState:
        """Returns the game after setup (chance fixed by the ``seed`` parameter)."""
        return ParlourSpielState(self)

    def get_rng_state(self) -> str:
        """Returns the chance state OpenSpiel keeps for sampled games: the seed every game starts from."""
        return str(self.seed)

    def set_rng_state(self, rng_state: str) -> None:
        """Sets the seed the next games start from."""
        self.seed = int(rng_state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        """Returns an observer for information states or observations."""
        return ParlourObserver(self, iig_obs_type)


def _register(name: str) -> None:
    """Registers one Parlour game with pyspiel."""
    game = load_game(name)
    game_type = pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Parlour {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        # Chance is sampled inside the engine from the seed parameter. OpenSpiel cannot copy the RNG of a
        # Python game declared SAMPLED_STOCHASTIC (GetRNGState is unimplemented for Python games), so the
        # game is declared DETERMINISTIC: given its parameters, the same actions give the same game.
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(game),
    )
    class_name = f"Spiel{name.title().replace('-', '')}"
    cls = type(
        class_name, (ParlourSpielGame,), {"parlour": game, "game_type": game_type, "__module__": __name__}
    )
    globals()[class_name] = cls  # pickling (OpenSpiel's serialisation) finds the class by name
    pyspiel.register_game(game_type, cls)


for _name in game_names():
    _register(_name)

__all__ = ["ParlourSpielGame", "ParlourSpielState", "copy", "short_name"]
