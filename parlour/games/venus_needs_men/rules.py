"""The decisions of Venus Needs Men!, by kind: each carries its own rules (legal, apply, auto, why).

A turn is a little program on the stack, bottom first: :class:`~.turns.Finish`, the end Zap window,
:class:`~.turns.Extending`, :class:`~.turns.Act`, the start Zap window; what interrupts it sits above
(a Zap window of an attack, an immediate step, Earth scavenging, a release). Steps nobody decides
(a window nobody could play in, an extension without a card, the end of the turn) run by themselves
(``Decision.auto``, run by ``GameState.settle``).
"""

from __future__ import annotations

from parlour.core.decisions import DecisionKinds
from parlour.games.venus_needs_men.combat import Releasing, Scavenge
from parlour.games.venus_needs_men.turns import Act, Attacking, Collecting, Extending, Extra, Finish, Moving
from parlour.games.venus_needs_men.zapping import Immediate, ZapWindow

KINDS = DecisionKinds(
    ZapWindow, Act, Moving, Attacking, Collecting, Extending, Extra, Immediate, Scavenge, Finish, Releasing
)
"""Every decision class by kind (positions read decisions through it)."""
