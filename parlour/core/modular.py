"""The usual shape of a game state: its hooks delegate to the game's rules, views and notation modules."""

from __future__ import annotations

from typing import Any

from parlour.core.decisions import Seat
from parlour.core.errors import NotationError
from parlour.core.state import GameState

MAX_NOTATION = 200
"""The longest action text any game accepts (its longest legal action is under 40 characters)."""


class ModularState(GameState):
    """A GameState whose rules, views and notation live in modules named by the subclass.

    ``rules`` provides ``legal_actions(state, seat)``, ``apply(state, seat, action)`` and
    ``why_illegal(state, seat, action)``; ``views`` provides ``observation(state, seat)``
    (``None``: a spectator) and ``render_text(state, seat)``; ``notation`` provides
    ``parse_action(text)``.  Actions write their notation with ``str``.  The state keeps
    ``over`` (the game has ended) and ``turn`` (turns begun).
    """

    rules: Any
    views: Any
    notation: Any
    over: bool
    turn: int

    def _legal_actions(self, seat: Seat) -> list[Any]:
        result: list[Any] = self.rules.legal_actions(self, seat)
        return result

    def _apply(self, seat: Seat, action: Any) -> None:
        self.rules.apply(self, seat, action)

    def _why(self, action: Any, seat: Seat) -> str:
        return str(self.rules.why_illegal(self, seat, action))

    def is_over(self) -> bool:
        """Returns whether the game has ended."""
        return bool(self.over)

    def turns_played(self) -> int:
        """Returns the turn number (every player's turns counted)."""
        return int(self.turn)

    def format_action(self, action: Any) -> str:
        """Returns the action's notation."""
        return str(action)

    def parse_action(self, text: str) -> Any:
        """Returns the action written ``text`` (see the game's notation module and docs/notation.md).

        Text that is not a string, or longer than MAX_NOTATION, is refused before any game parser sees it.
        """
        if not isinstance(text, str):
            raise NotationError(f"an action is written as text, not {type(text).__name__}")
        if len(text) > MAX_NOTATION:
            raise NotationError(f"an action is at most {MAX_NOTATION} characters, not {len(text):,}")
        return self.notation.parse_action(text)

    def observation(self, seat: Seat) -> dict[str, Any]:
        """Returns what ``seat`` may know (never another seat's hidden cards)."""
        self.check_seat(seat)
        result: dict[str, Any] = self.views.observation(self, seat)
        return result

    def public_observation(self) -> dict[str, Any]:
        """Returns what a spectator may know."""
        result: dict[str, Any] = self.views.observation(self, None)
        return result

    def render(self, seat: Seat | None) -> str:
        """Returns the table as text, as ``seat`` (or a spectator) sees it."""
        self.check_seat(seat)
        return str(self.views.render_text(self, seat))
