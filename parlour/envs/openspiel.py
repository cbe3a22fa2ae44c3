"""OpenSpiel: ``import parlour.envs.openspiel`` registers every game as a Python game for ``pyspiel``.

``pyspiel.load_game("parlour_venture", {"players": 4})`` (also ``parlour_im_the_boss``,
``parlour_venus_needs_men``); the game options are game parameters, with ``max_game_length``.
Chance is *explicit* (``EXPLICIT_STOCHASTIC``), as in OpenSpiel's own card games: every deal, draw
pile, reshuffle and die is a chance node with ``chance_outcomes()``, so no parameter fixes the hidden
cards.  The engine finds out which chance events an action asks for by trying it with a
:class:`~parlour.core.chance.ProbeChance` (a legal action on the state itself, which a recent copy and the
actions since restore if the action asks for chance); the outcomes chosen at the chance nodes are then
forced, on a copy.
A shuffle is a run of chance nodes, "which item comes next" (one outcome per distinct name left,
probability by multiplicity).  Outcome ids: ``0..faces`` a die showing that number, then one id per
item name of :attr:`ParlourSpielGame.chance_names`.  Actions are the ids of the game's catalogue;
information-state strings are the seat's observation plus the (public) history of player actions,
tensors are the PettingZoo tensors, and ``resample_from_infostate`` is the engine's determinisation.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import pyspiel

from parlour.core.chance import DIE, Chance, ChanceRequest, Forced, NeedChance, ProbeChance
from parlour.core.encoding import Encoding, observation
from parlour.core.errors import IllegalActionError
from parlour.core.game import Game
from parlour.core.positions import JSONObject
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState, rank
from parlour.envs.ids import action_id

CHANCE = int(pyspiel.PlayerId.CHANCE)
"""OpenSpiel's player id of a chance node."""
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
"""OpenSpiel's player id of a terminal node."""
CHECKPOINT = 16
"""The most player actions applied in place before the state is copied again: an action that asks for
chance is undone by replaying at most these from the copy (one copy per action was the wrapper's cost)."""


def short_name(name: str) -> str:
    """Returns the OpenSpiel name of a Parlour game (``parlour_im_the_boss``)."""
    return "parlour_" + name.replace("-", "_")


def _defaults(game: Game) -> JSONObject:
    """Returns the game parameters and their defaults: players, max_game_length, and every option."""
    params: JSONObject = {"players": min(4, game.max_players)}
    params["max_game_length"] = game.max_actions
    for spec in game.option_specs:
        params[spec.name] = spec.default
    return params


def _attempt(
    game: ParlourSpielGame,
    inner: GameState | None,
    pending: tuple[int, str] | None,
    outcomes: list[Forced],
    listed: object = None,
) -> GameState | ChanceRequest:
    """Tries the deal (``inner`` None) or a player's action with the outcomes chosen so far, on a copy.

    ``listed``: the action object itself when it was taken from ``inner``'s legal actions (no text to
    read, no legality to check); else the pending text is read and checked.  Returns the state after
    it, or the next chance event it asks for.  An illegal action raises IllegalActionError and changes
    nothing.
    """
    probe = ProbeChance(0, forced=[Forced(f.kind, f.value) for f in outcomes])
    try:
        if inner is None:
            state = game.parlour.new_state(game.players, 0, game.options, chance=probe)
        else:
            assert pending is not None
            seat, text = pending
            action = listed
            if action is None:
                action = inner.parse_action(text)
                if not inner.is_legal(action, seat):  # checked on ``inner``, whose legal actions are cached
                    why = inner.why_illegal(action, seat)
                    raise IllegalActionError(f"{text} is not legal for seat {seat} now: {why}")
            state = inner.clone()
            state.chance = probe
            state.apply_legal(action, seat)
    except NeedChance as need:
        return need.request
    if probe.forced:
        raise RuntimeError(f"the engine left {len(probe.forced)} chance outcomes unused")
    state.chance = Chance(0)  # never drawn from: every chance event is a chance node
    return state


_NO_OUTCOMES = ProbeChance(0)
"""Chance for actions applied in place: any event with more than one outcome raises NeedChance (it has no
forced outcome to take, so it never changes: one for every state)."""


def _replay(state: GameState, played: list[tuple[int, object]]) -> GameState:
    """Applies actions that asked no chance event (``ParlourSpielState._base``'s record) to ``state``."""
    chance = state.chance
    state.chance = _NO_OUTCOMES  # they asked none before, so they ask none now
    for seat, action in played:
        state.apply_legal(action, seat)
    state.chance = chance
    return state


class ParlourSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a Parlour state, with explicit chance nodes."""

    def __init__(self, game: ParlourSpielGame, inner: GameState | None = None) -> None:
        super().__init__(game)
        self._spiel_game = game
        self.inner: GameState | None = inner
        """The engine's state; before a pending action (or None while dealing) at a chance node."""
        self.moves: list[str] = []
        """Every player action's notation, in order (public)."""
        self.pending: tuple[int, str] | None = None
        """The seat and action waiting for chance outcomes (None: none, or the deal)."""
        self.outcomes: list[Forced] = []
        """The chance outcomes chosen so far for the pending action or the deal."""
        self.request: ChanceRequest | None = None
        """The chance event being chosen (a chance node), or None at a player or terminal node."""
        self.drawn: list[str] = []
        """For a shuffle being chosen: the item names placed so far, top of pile first."""
        self.listed: object = None
        """The pending action's object, when it was among ``inner``'s legal actions (else None)."""
        self._base: GameState | None = None
        """A copy of ``inner`` before the actions of ``_played`` (None: none taken since ``inner`` was
        set): ``inner`` takes player actions in place, and is rebuilt from it when one asks for chance."""
        self._played: list[tuple[int, object]] = []
        """The seats and actions applied to ``inner`` in place since ``_base`` was copied."""
        self._player: int | None = None
        """``current_player()``, remembered until the state changes."""
        self._sorted: tuple[list[int] | None, list[int]] = (None, [])
        """The last list of catalogue ids asked for, and the same ids ascending."""
        self._remaining: Counter[str] = Counter()
        """For a shuffle being chosen: the names not placed yet, with their counts (none at zero)."""
        if inner is None:
            start = game.deal_start()
            if isinstance(start, ChanceRequest):
                self.request = start
                self._remaining = +Counter(start.names)
            else:
                self.inner = start.clone()

    # ------------------------------------------------------------ nodes
    def current_player(self) -> int:
        """Returns CHANCE at a chance node, TERMINAL at the end, else the seat to act (first decider)."""
        player = self._player
        if player is None:
            player = self._player = self._find_player()
        return player

    def _find_player(self) -> int:
        """Works out ``current_player()`` (OpenSpiel asks it several times an action: remembered)."""
        if self.request is not None:
            return CHANCE
        inner = self.inner
        assert inner is not None
        if inner.is_over() or len(self.moves) >= self._spiel_game.max_length:
            return TERMINAL
        return int(inner.deciders()[0])

    def is_terminal(self) -> bool:
        """Returns whether the game is over, or truncated at ``max_game_length`` player actions."""
        player = self._player
        if player is None:
            player = self._player = self._find_player()
        return player == TERMINAL

    def truncated(self) -> bool:
        """Returns whether the game stopped at ``max_game_length`` player actions before its end."""
        return (
            self.request is None
            and self.inner is not None
            and not self.inner.is_over()
            and len(self.moves) >= self._spiel_game.max_length
        )

    def returns(self) -> list[float]:
        """Returns 1 shared among the winners (truncated: the leaders by the engine's estimate), else 0."""
        players = self._spiel_game.players
        if not self.is_terminal():
            return [0.0] * players
        assert self.inner is not None
        if self.inner.is_over():
            winners = self.inner.winners()
        else:
            winners = [s for s, r in enumerate(rank(self.inner.estimate())) if r == 1]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]

    # ------------------------------------------------------------ player nodes
    def _legal_actions(self, player: int) -> list[int]:
        """Returns the catalogue ids of the player's legal actions, ascending."""
        if self.is_terminal() or self.inner is None or player not in self.inner.deciders():
            return []
        ids = self._listed(player)[1]
        known = self._sorted
        if known[0] is not ids:  # the same list comes back while the state does not change
            known = self._sorted = (ids, sorted(ids))
        return list(known[1])

    def _listed(self, player: int) -> tuple[list[object], list[int]]:
        """Returns the player's legal action objects and their catalogue ids, in the engine's order."""
        assert self.inner is not None
        legal: list[object] = self.inner.legal_actions(player)
        return legal, self._spiel_game.adapter.ids.of(legal, self.inner.format_action)

    def _action_to_string(self, player: int, action: int) -> str:
        """Returns an action id's notation, or a chance outcome's (``roll 7``, ``next ST-DF``)."""
        if player == CHANCE:
            return self._spiel_game.outcome_text(action)
        return str(self._spiel_game.adapter.catalogue[action])

    # ------------------------------------------------------------ chance nodes
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the outcomes of this chance node and their probabilities, ids ascending."""
        request = self.request
        if request is None:
            raise ValueError("chance_outcomes() asked at a node that is not a chance node")
        if request.kind == DIE:
            faces = request.high - request.low + 1
            return [(face, 1.0 / faces) for face in range(request.low, request.high + 1)]
        left = self._remaining
        total = sum(left.values())
        index = self._spiel_game.chance_index
        return sorted((index[name], count / total) for name, count in left.items())

    # ------------------------------------------------------------ applying
    def apply_action(self, action: int) -> None:
        """Applies a chance outcome or a player's action id: an int or NumPy integer in range, anything
        else (a float, even 2.0; a bool; -1) raising ValueError with the state unchanged (pyspiel alone
        would take True as 1, and refuse a float or a huge id with TypeError)."""
        super().apply_action(self._id(action))

    def apply_action_with_legality_check(self, action: int) -> None:
        """Applies an action after OpenSpiel's own legality check; only ids, as ``apply_action``."""
        super().apply_action_with_legality_check(self._id(action))

    def _id(self, action: object) -> int:
        """Returns the action id or chance outcome given, or raises ValueError if it is not one."""
        game = self._spiel_game
        outcomes = game.adapter.faces + 1 + len(game.chance_names)  # as ``max_chance_outcomes()``
        return action_id(action, outcomes if self.request else len(game.adapter.catalogue))

    def _apply_action(self, action: int) -> None:
        """Applies a chance outcome or a player's action id."""
        if self.request is not None:
            self._apply_outcome(action)
            return
        if self.is_terminal():
            raise ValueError("the game is over")
        assert self.inner is not None
        catalogue = self._spiel_game.adapter.catalogue
        if not 0 <= action < len(catalogue):
            raise ValueError(f"there is no action id {action}")
        pending = (self.current_player(), str(catalogue[action]))
        legal, ids = self._listed(pending[0])
        listed = legal[ids.index(action)] if action in ids else None
        self.listed = listed
        # An illegal action changes nothing.
        if listed is None:
            result = _attempt(self._spiel_game, self.inner, pending, [], listed)
        else:
            result = self._apply_in_place(pending[0], listed)
        self.moves.append(pending[1])
        self._settle(pending, result)

    def _apply_in_place(self, seat: int, action: object) -> GameState | ChanceRequest:
        """Applies a listed action to ``inner`` itself (no copy), or returns the chance event it asks for
        with ``inner`` as it was before: rebuilt from ``_base`` and the actions played since."""
        inner = self.inner
        assert inner is not None
        if self._base is None or len(self._played) >= CHECKPOINT:
            self._base, self._played = inner.clone(), []
        chance, inner.chance = inner.chance, _NO_OUTCOMES
        try:
            inner.apply_legal(action, seat)
        except BaseException as error:
            # The action was cut short: ``inner`` is the state before it again, as a copy would have left it.
            self.inner, self._base = _replay(self._base, self._played), None
            self._player = None
            if isinstance(error, NeedChance):
                return error.request
            raise
        inner.chance = chance  # never drawn from: every chance event is a chance node
        self._played.append((seat, action))
        return inner

    def _apply_outcome(self, outcome: int) -> None:
        """Records a chance outcome; completes the action (or the deal) once every outcome is chosen."""
        request = self.request
        assert request is not None
        if request.kind == DIE:
            if not request.low <= outcome <= request.high:
                raise ValueError(f"chance outcome {outcome} is not a result of this die")
            self.outcomes.append(Forced(DIE, outcome))
        else:
            name = self._spiel_game.outcome_name(outcome)
            left = self._remaining
            if not left[name]:
                raise ValueError(f"chance outcome {outcome} ({name}) is not left in this pile")
            self.drawn.append(name)
            left[name] -= 1
            if not left[name]:
                del left[name]
            if len(left) > 1:
                return  # the next item of the same pile is another chance node
            self.drawn.extend(left.elements())  # one name left: the rest of the pile is known
            self.outcomes.append(Forced("order", self.drawn))
            self.drawn = []
        result = _attempt(self._spiel_game, self.inner, self.pending, self.outcomes, self.listed)
        self._settle(self.pending, result)

    def _settle(self, pending: tuple[int, str] | None, result: GameState | ChanceRequest) -> None:
        """Opens the next chance node, or takes the state the action (or the deal) led to."""
        self._player = None
        if isinstance(result, ChanceRequest):
            self.pending, self.request, self.drawn = pending, result, []
            self._remaining = +Counter(result.names)
            return
        if result is not self.inner:  # a new state: no copy of it is taken yet
            self._base = None
        self.inner, self.pending, self.request, self.outcomes, self.drawn = result, None, None, [], []

    # ------------------------------------------------------------ information
    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> ParlourSpielState:
        """Returns a state the player cannot tell from this one: the engine's determinisation.

        Only at a player or terminal node.  The new state's ``history()`` is empty: the real chance
        outcomes are not carried into the resampled world.
        """
        if self.request is not None or self.inner is None:
            raise ValueError("resample_from_infostate is defined at player and terminal nodes only")
        rng = random.Random(int(probability_sampler() * 2**31))
        other = ParlourSpielState(self._spiel_game, self.inner.determinize(player_id, rng))
        other.moves = list(self.moves)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> ParlourSpielState:
        """Copies the wrapped state with the engine's deep clone (``history()`` is not copied)."""
        other = ParlourSpielState(self._spiel_game, self.inner.clone() if self.inner is not None else None)
        other.moves, other.pending, other.request = list(self.moves), self.pending, self.request
        other.outcomes = [Forced(f.kind, copy.deepcopy(f.value)) for f in self.outcomes]
        other.drawn, other._remaining = list(self.drawn), Counter(self._remaining)
        other.listed = self.listed  # actions never change: shared
        return other

    def __str__(self) -> str:
        """Returns the table as a spectator sees it, and what a chance node is choosing (no outcome)."""
        table = "(dealing)" if self.inner is None else str(self.inner.render(None))
        if self.request is None:
            return table + ("\n(truncated at max_game_length)" if self.truncated() else "")
        what = "the deal" if self.pending is None else repr(self.pending[1])
        if self.request.kind == DIE:
            event = f"a die {self.request.low}..{self.request.high}"
        else:
            event = f"item {len(self.drawn) + 1} of a pile of {len(self.request.names)}"
        return f"{table}\n(chance: {what} waits for {event}; {len(self.outcomes)} events chosen)"


class ParlourObserver:
    """OpenSpiel's observer protocol: a tensor (the PettingZoo one) and strings, for one player."""

    def __init__(self, game: ParlourSpielGame, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        size = game.adapter.encode(game.parlour.new_state(game.players, 0, game.options), 0).size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        """Fills the tensor from what the player may know (zeros while dealing)."""
        if state.inner is None:
            self.tensor[:] = 0.0
        else:
            self.tensor[:] = observation(self.game.adapter, state.inner, player)

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        """Returns what the player may know (with the public history for perfect recall): no outcome."""
        inner = state.inner
        seen = "(dealing)" if inner is None else json.dumps(inner.observation(player), sort_keys=True)
        return f"{seen} | {' ; '.join(state.moves)}" if self.perfect_recall else seen


_SETTINGS = ("players", "max_length", "options", "adapter", "ids", "chance_names", "chance_index", "_deal")
"""The attributes ``ParlourSpielGame._configure`` sets."""


class ParlourSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game wrapping a Parlour game with its parameters."""

    parlour: Game
    game_type: pyspiel.GameType

    def __init__(self, params: JSONObject | None = None) -> None:
        values = {**_defaults(self.parlour), **(params or {})}
        self._configure(values)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.adapter.catalogue),
            max_chance_outcomes=self.adapter.faces + 1 + len(self.chance_names),
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_length,
        )
        super().__init__(self.game_type, info, values)

    def _configure(self, values: JSONObject) -> None:
        """Sets players, options, the length limit, the adapter and the action and outcome ids."""
        self.players = int(values["players"])
        self.parlour.check_players(self.players)
        self.max_length = int(values["max_game_length"])
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be at least 1, not {self.max_length}")
        self.options = self.parlour.options({s.name: values[s.name] for s in self.parlour.option_specs})
        self.adapter: Encoding = self.parlour.encoding(self.players, self.options)
        self.ids = self.adapter.ids.by_text
        self.chance_names = tuple(dict.fromkeys(self.adapter.chance_names))
        offset = self.adapter.faces + 1
        self.chance_index = {name: offset + i for i, name in enumerate(self.chance_names)}
        self._deal: GameState | ChanceRequest | None = None

    def __getattr__(self, name: str) -> object:
        """Rebuilds the settings of a game OpenSpiel copied without calling ``__init__``."""
        if name in _SETTINGS:
            self._configure({**_defaults(self.parlour), **pyspiel.Game.get_parameters(self)})
            return self.__dict__[name]
        raise AttributeError(name)

    def __deepcopy__(self, memo: dict[int, object]) -> ParlourSpielGame:
        """A game never changes: copies of states share it."""
        return self

    def deal_start(self) -> GameState | ChanceRequest:
        """Returns the deal's first chance event (or the dealt state if it has none), computed once."""
        if self._deal is None:
            self._deal = _attempt(self, None, None, [])
        return self._deal

    def outcome_name(self, outcome: int) -> str:
        """Returns the item name of a shuffle's chance-outcome id; refuses a die's id or an unknown one."""
        index = outcome - self.adapter.faces - 1
        if not 0 <= index < len(self.chance_names):
            raise ValueError(f"chance outcome {outcome} names no item")
        return self.chance_names[index]

    def outcome_text(self, outcome: int) -> str:
        """Returns a chance outcome's text: ``roll N`` (ids 0..faces) or ``next NAME``."""
        if 0 <= outcome <= self.adapter.faces:
            return f"roll {outcome}"
        return f"next {self.outcome_name(outcome)}"

    def new_initial_state(self) -> ParlourSpielState:
        """Returns the game before the deal: a chance node (the deal's first shuffle)."""
        return ParlourSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: JSONObject | None = None
    ) -> ParlourObserver:
        """Returns an observer for information states or observations."""
        return ParlourObserver(self, iig_obs_type)


def _register(name: str) -> None:
    """Registers one Parlour game with pyspiel."""
    game = load_game(name)
    game_type = pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Parlour {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        # Explicit chance nodes for every shuffle and die, as OpenSpiel's own card games have.
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
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

__all__ = ["ParlourSpielGame", "ParlourSpielState", "short_name"]
