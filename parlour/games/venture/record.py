"""The undo record's steps (ruling A-17): what one step that can be taken back changed (``undo`` puts it
back); the record itself is kept and used by ``undo``."""

from __future__ import annotations

from parlour.core.decisions import DecisionStack
from parlour.games.venture.actions import Move, Pay, VentureAction


class Step:
    """What one undoable step changed: enough to put the state back exactly as it was (``undo``).

    ``taken`` is the step's action.  A payment step keeps the hand positions its cards came from; a
    move keeps the holdings before it (its arrangement leaves the ``seen`` record); any other step keeps
    the holdings, center, debt, flag and decision stack before it.  Steps are never changed once made.
    (A plain class, not a dataclass: compiled, its constructor is a direct call, and one is made per
    step of every playout.)
    """

    def __init__(
        self,
        taken: VentureAction,
        at: tuple[int, ...] = (),
        holdings: tuple[tuple[int, ...], ...] = (),
        center: tuple[int, ...] = (),
        owed: int = 0,
        transacted: bool = False,
        decisions: DecisionStack | None = None,
    ) -> None:
        self.taken = taken
        self.at = at
        self.holdings = holdings
        self.center = center
        self.owed = owed
        self.transacted = transacted
        self.decisions = decisions

    @property
    def action(self) -> str:
        """The step's action as notation (written when asked: most steps are never taken back)."""
        return str(self.taken)

    @property
    def kind(self) -> str:
        """``pay``, ``move`` or ``full`` (everything else)."""
        taken = self.taken
        return "pay" if isinstance(taken, Pay) else "move" if isinstance(taken, Move) else "full"

    def __repr__(self) -> str:
        return f"Step({self.action!r}, kind={self.kind!r})"
