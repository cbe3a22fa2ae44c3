"""BossGameState: a game of I'm the Boss! in progress, as players, servers and records hold it.

The tabletop (``state.BossState``: hands, piles, placards, money, the board, the negotiation, the
decisions and their rules) with what people see of it: observations, the table as text, the banner,
hints, the final money step by step, positions.
"""

from __future__ import annotations

from parlour.core.decisions import Seat
from parlour.core.payloads import JSONValue
from parlour.core.state import ScoreStep
from parlour.games.im_the_boss import people, position, turn, views
from parlour.games.im_the_boss.bargain import public_only_pass
from parlour.games.im_the_boss.state import BossState
from parlour.games.im_the_boss.table import table_content


class BossGameState(BossState):
    """A game of I'm the Boss! in progress (see ``BossState`` for what it holds)."""

    views = views

    def next_turn(self, seat: Seat) -> None:
        """Passes the turn to the player on ``seat``'s left (rulebook "Game Play": ``turn.next_turn``)."""
        turn.next_turn(self, seat)

    def hints(self, seat: Seat) -> list[str]:
        """Returns advice for a human: what the deal needs and who can supply it."""
        return views.hints(self, seat)

    def decision_summary(self) -> str:
        """Returns who is deciding what now, in one public line (people.decision_summary)."""
        return people.decision_summary(self)

    def end_reason(self) -> str:
        """Returns why the game ended: the end roll, the last deal card or the turn limit."""
        return people.end_reason(self)

    def score_steps(self) -> list[ScoreStep]:
        """Returns each seat's money deal by deal, adding up to scores()."""
        return people.score_steps(self)

    def card_texts(self) -> dict[str, str]:
        """Returns the text of every card kind and deal card of the content set, by name."""
        return people.card_texts(self.content)

    def table_content(self) -> dict[str, JSONValue]:
        """Returns the board's public layout for the drawn table, from the content data (table.py)."""
        return table_content(self.content)

    def public_only_pass(self, seat: Seat) -> bool:
        """Returns whether public information alone shows that ``seat`` may only pass (no hand-off needed)."""
        return public_only_pass(self, seat)

    def to_position(self) -> dict[str, JSONValue]:
        """Returns the whole state as a position (docs/positions.md)."""
        return position.to_position(self)
