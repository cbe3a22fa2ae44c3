"""Embers' actions, one frozen dataclass per verb, and their notation (docs/games/embers.md, "Notation")."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.notation import Action, Notation, Number


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Rule 3.3: play an ember from your hand (the others may answer it)."""

    forms = ("play {ember}",)
    ember: int


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Rule 3.3: discard a douse card from your hand instead; the turn ends."""

    forms = ("discard",)


@dataclass(frozen=True, slots=True)
class Douse(Action):
    """Rule 4.1: lay a douse card on the ember (or on the douse before yours)."""

    forms = ("douse",)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Rule 4.1: let the card stand."""

    forms = ("pass",)


EmbersAction = Play | Discard | Douse | Pass
"""Every action of Embers."""

CODECS = {"ember": Number("an ember's number", digits=2)}
"""How each argument is written: ``{ember}`` as an ember's number."""
NOTATION: Notation[EmbersAction] = Notation([Play, Discard, Douse, Pass], CODECS)
"""Embers' notation: ``play 7``, ``discard``, ``douse``, ``pass``."""

PLAYS = {ember: Play(ember) for ember in range(1, 100)}
"""One shared object per ``play N`` (legal-action lists reuse them)."""
DISCARD, DOUSE, PASS = Discard(), Douse(), Pass()
