"""Embers' actions, one frozen dataclass per verb, and their notation (docs/games/embers.md, "Notation")."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.notation import Action, Bare, Notation, Number


@dataclass(frozen=True, slots=True)
class Play(Action, form="play {ember}"):
    """Rule 3.3: play an ember from your hand (the others may answer it)."""

    ember: int


class Discard(Bare, form="discard"):
    """Rule 3.3: discard a douse card from your hand instead; the turn ends."""


class Douse(Bare, form="douse"):
    """Rule 4.1: lay a douse card on the ember (or on the douse before yours)."""


class Pass(Bare, form="pass"):
    """Rule 4.1: let the card stand."""


EmbersAction = Play | Discard | Douse | Pass
"""Every action of Embers."""

CODECS = {"ember": Number("an ember's number", digits=2)}
"""How each argument is written: ``{ember}`` as an ember's number."""
NOTATION: Notation[EmbersAction] = Notation([Play, Discard, Douse, Pass], CODECS)
"""Embers' notation: ``play 7``, ``discard``, ``douse``, ``pass``."""

DISCARD, DOUSE, PASS = Discard.of(), Douse.of(), Pass.of()
"""The verbs alone, shared (legal-action lists reuse ``Play.of(N)`` and them)."""
