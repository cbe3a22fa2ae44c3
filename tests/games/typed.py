"""The four games' ``GAME`` objects as the tests use them, their states typed with each game's class.

``Game.new_state`` and the position readers are declared to return ``GameState``; each game's own
``deal`` and ``read`` return its state class. For mypy, ``BOSS`` and the others are the same objects
as ``parlour.games.im_the_boss.GAME`` and the rest, declared with those methods returning the game's
state class (a ``cast``: nothing is wrapped or checked at run time)::

    >>> from parlour.games import im_the_boss
    >>> BOSS is im_the_boss.GAME
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from parlour.games import embers, im_the_boss, venture, venus_needs_men
from parlour.testing import kit

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from parlour.core.agents import Agent
    from parlour.core.chance import Chance
    from parlour.core.game import Game, OptionsGiven
    from parlour.core.notation import Action
    from parlour.core.state import GameState
    from parlour.games.embers import EmbersGame, EmbersGameState
    from parlour.games.im_the_boss import BossGame, BossGameState
    from parlour.games.venture import VentureGame
    from parlour.games.venture.game_state import VentureGameState
    from parlour.games.venus_needs_men import VenusGame, VenusState

    S = TypeVar("S", bound=GameState[Any])
    A = TypeVar("A", bound=Action)

    class TypedGame(Game, Generic[S]):
        """The state-returning methods of ``Game``, returning the game's own state class."""

        def new_state(
            self,
            players: int,
            seed: int,
            options: OptionsGiven | None = None,
            *,
            chance: Chance | None = None,
        ) -> S: ...
        def state_from_position(self, data: Any) -> S: ...
        def read_position(self, data: Any) -> S: ...
        def load_position(self, text: str) -> S: ...

    class TypedEmbers(TypedGame[EmbersGameState], EmbersGame):
        """Embers with its states typed."""

    class TypedBoss(TypedGame[BossGameState], BossGame):
        """I'm the Boss! with its states typed."""

    class TypedVenture(TypedGame[VentureGameState], VentureGame):
        """Venture with its states typed."""

    class TypedVenus(TypedGame[VenusState], VenusGame):
        """Venus Needs Men with its states typed."""


EMBERS = cast("TypedEmbers", embers.GAME)
"""Embers (``parlour.games.embers.GAME``)."""
BOSS = cast("TypedBoss", im_the_boss.GAME)
"""I'm the Boss! (``parlour.games.im_the_boss.GAME``)."""
VENTURE = cast("TypedVenture", venture.GAME)
"""Venture (``parlour.games.venture.GAME``)."""
VENUS = cast("TypedVenus", venus_needs_men.GAME)
"""Venus Needs Men (``parlour.games.venus_needs_men.GAME``)."""


def states_along(
    game: TypedGame[S], players: int, seed: int, every: int = 7, options: Mapping[str, object] | None = None
) -> Iterator[S]:
    """``kit.states_along`` (copies of states along a random playout), typed with the game's state class."""
    return cast("Iterator[S]", kit.states_along(game, players, seed, every, options))


def playout(
    game: TypedGame[S],
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    each: Callable[[S, int], None] | None = None,
) -> S:
    """``kit.playout`` (random legal actions to the end, ``each`` called per step), typed with the game's
    state class."""
    checked = cast("Callable[[GameState, int], None] | None", each)
    return cast("S", kit.playout(game, players, seed, options, checked))


def choose(agent: Agent, state: GameState[A], seat: int) -> A:
    """``agent.choose(state, seat)``, the action typed as the state's (an agent is declared to return
    ``object``)."""
    return cast("A", agent.choose(state, seat))
