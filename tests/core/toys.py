"""Decisions shared by the core tests' toy games: a turn, and a window that counts the stops it saw."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.decisions import Decision


@dataclass(eq=False, kw_only=True)
class Turn(Decision):
    """A seat's turn (the toy games' hooks carry the rules)."""

    kind = "turn"


@dataclass(eq=False, kw_only=True)
class Window(Decision):
    """A window after an action: how many stops answered it (toys without stops leave it at 0)."""

    kind = "window"
    stops: int = 0
