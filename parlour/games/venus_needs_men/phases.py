"""The decisions of a Venus Needs Men! turn (kinds on the decision stack) and the Zap-window moments.

A turn is a little program on the stack, bottom first: ``finish``, the end Zap
window, ``extend``, ``act``, the start Zap window.  Steps nobody decides
(``finish``, a window nobody could play in, ``extend`` without a card) run by
themselves; the others wait for a seat.
"""

from __future__ import annotations

ZAP = "zap"
"""A Zap window: seats that could hold a card playable now by public knowledge, from the active seat
clockwise (play or pass)."""
ACT = "act"
"""The active player's first step decides its action: build, move, attack, collect (or pass)."""
MOVING, ATTACKING, COLLECTING = "moving", "attacking", "collecting"
"""More steps of the chosen action, or ``done``."""
EXTEND = "extend"
"""Discard a Zap card for one extra step (up to three), or ``end``."""
EXTRA = "extra"
"""The one extra step an extension (or an immediate-action card) buys."""
IMMEDIATE = "immediate"
"""An immediate-action card's step, taken by the card's player in the middle of a turn."""
FINISH = "finish"
"""The end of the turn (runs by itself)."""
RELEASE = "release"
"""Mind Control at the end of a turn: Mars chooses which controlled ships to release (ruling A-10(v))."""

START, DECLARE, ROLL, SAVE, END = "start", "declare", "roll", "save", "end"
"""Zap-window moments: before the action, when an attack's target is declared (before its roll), after
an attack roll, when a ship is about to be destroyed, after the action (ruling B-3)."""
