"""The usual shape of a game state: its hooks delegate to the game's rules, views and notation modules."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from parlour.core.decisions import Seat
from parlour.core.errors import NotationError
from parlour.core.notation import Notation
from parlour.core.state import A, GameState

MAX_NOTATION = 200
"""The longest action text any game accepts (its longest legal action is under 40 characters)."""


class ModularState(GameState[A]):
    """A GameState whose views and notation live in modules or objects named by the subclass.

    ``notation`` is the game's :class:`~parlour.core.notation.Notation`; ``views`` is a module providing
    ``observation(state, seat)`` (``None``: a spectator) and ``render_text(state, seat)``. Legality and
    effects come from the decision on top of the stack (``parlour.core.decisions.Decision``). The state
    keeps ``over`` (the game has ended, ``GameState.over``) and ``turn``.
    """

    views: ModuleType
    notation: Notation[A]
    turn: int

    def turns_played(self) -> int:
        """Returns the turn number (every player's turns counted)."""
        return int(self.turn)

    def format_action(self, action: A) -> str:
        """Returns the action's notation."""
        return str(action)

    def parse_action(self, text: str) -> A:
        """Returns the action written ``text`` (see the game's notation module and docs/notation.md).

        Text that is not a string, or longer than MAX_NOTATION, is refused before any game parser sees it.
        """
        if not isinstance(text, str):
            raise NotationError(f"an action is written as text, not {type(text).__name__}")
        if len(text) > MAX_NOTATION:
            raise NotationError(f"an action is at most {MAX_NOTATION} characters, not {len(text):,}")
        return self.notation.parse(text)

    def observation(self, seat: Seat) -> Mapping[str, object]:
        """Returns what ``seat`` may know (never another seat's hidden cards)."""
        self.check_seat(seat)
        result: Mapping[str, object] = self.views.observation(self, seat)
        return result

    def public_observation(self) -> Mapping[str, object]:
        """Returns what a spectator may know."""
        result: Mapping[str, object] = self.views.observation(self, None)
        return result

    def render(self, seat: Seat | None) -> str:
        """Returns the table as text, as ``seat`` (or a spectator) sees it."""
        self.check_seat(seat)
        return str(self.views.render_text(self, seat))
