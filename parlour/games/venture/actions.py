"""Venture's actions, one small dataclass per rulebook verb, and their notation.

Notation (one action a line; corporations as ``ST-ABC``, resources as ``10``,
``3c`` (3 million, circle), ``x1/2``, ``x1``, ``x3/2``)::

    take ST-ABC            take over a corporation from the center
    proxy x1/2 OI-BE       play a proxy fight on an opponent's top or lone corporation
    place on RR-CD         put the corporation just won on the stack topped by RR-CD
    place alone            ... or by itself
    reorganise             start a reorganisation (1 million per corporation held)
    reorganise best        reorganise straight to the best arrangement, fee included
    move AU-DEF on RR-CD   (reorganising) put a corporation on top of another stack
    move AU-DEF alone      (reorganising) make it a stack of its own
    done                   finish the reorganisation, or the payment
    end                    end the turn's transactions (then pay what is owed)
    pay 3c                 (paying) hand in one capital card
    pay 14 12 3s 3s        (paying) hand in several capital cards in one line
    undo                   take back the last step that revealed nothing (ruling A-17)
    cancel                 (reorganising) take back the whole reorganisation and its fee
    discard 14             make no transaction: discard one card and end the turn

Each class declares its forms; :data:`NOTATION` reads and writes them (``parlour.core.notation``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parlour.core.errors import NotationError
from parlour.core.notation import Action, Bare, Codec, Mismatch, Notation, Word

CARD = r"\d{1,2}[tcs]?|x1/2|x1|x3/2|profit"
PROXY_CARD = r"x1/2|x1|x3/2"
LETTERS = "ABCDEF"


@dataclass(frozen=True, slots=True)
class Take(Action, form="take {corp}"):
    """Take over a corporation from the center of the table."""

    corp: str


@dataclass(frozen=True, slots=True)
class Proxy(Action, form="proxy {card:proxy} {corp}"):
    """Play a proxy-fight card to take an opponent's top or lone corporation."""

    card: str
    corp: str


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Put the corporation just won on the stack topped by ``onto``, or alone (None)."""

    forms = ("place on {onto:corp}", "place alone")
    onto: str | None = None


class Reorganise(Bare, form="reorganise"):
    """Start a reorganisation of one's holdings."""


class ReorganiseBest(Bare, form="reorganise best"):
    """Reorganise straight to the optimiser's best arrangement (fee included) in one action."""


@dataclass(frozen=True, slots=True)
class Move(Action):
    """While reorganising: put ``corp`` on the stack topped by ``onto``, or alone (None)."""

    forms = ("move {corp} on {onto:corp}", "move {corp} alone")
    corp: str
    onto: str | None = None


class Done(Bare, form="done"):
    """Finish the current reorganisation or payment."""


class End(Bare, form="end"):
    """End the turn's transactions (payment follows if anything is owed)."""


@dataclass(frozen=True, slots=True)
class Pay(Action, form="pay {card} {also:card*}"):
    """Hand in one capital card towards what is owed, or several in one line (``also``)."""

    card: str
    also: tuple[str, ...] = ()
    """Further cards laid in the same line, in order (``pay 14 12 3s``; ruling A-18)."""

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card this action lays down, in order."""
        return (self.card, *self.also)


class Undo(Bare, form="undo"):
    """Take back the turn's last step that revealed nothing to the others (ruling A-17)."""


class Cancel(Bare, form="cancel"):
    """Take back the whole reorganisation under way, fee included (ruling A-17)."""


@dataclass(frozen=True, slots=True)
class Discard(Action, form="discard {card}"):
    """Make no transaction this turn: discard one card."""

    card: str


VentureAction = (
    Take | Proxy | Place | Reorganise | ReorganiseBest | Move | Done | End | Pay | Discard | Undo | Cancel
)


class CorporationCodec(Codec[str]):
    """A corporation: its industry code, a dash and its letters, written in canonical form (upper case,
    letters sorted); letters past F name no corporation (a final error, not another form's chance)."""

    what = "a corporation like ST-ABC"
    pattern = re.compile(r"[a-z]{2}-[a-z]{1,6}", re.IGNORECASE)

    def read(self, word: str) -> str:
        """Returns the corporation's canonical name."""
        if not word.isascii() or not self.pattern.fullmatch(word):
            raise Mismatch(f"{word[:24]!r} is not {self.what}")
        code, letters = word.upper().split("-")
        if set(letters) - set(LETTERS):
            raise NotationError(
                f"there is no corporation {word.upper()}: corporations are an industry code and letters "
                "A to F, like ST-ABC"
            )
        return f"{code}-{''.join(sorted(letters))}"


EXPECTED = (
    "expected one of: take CORP, proxy x1/2|x1|x3/2 CORP, place on CORP, place alone, "
    "reorganise, reorganise best, move CORP on CORP, move CORP alone, done, end, pay CARD [CARD ...], "
    "discard CARD, undo, cancel "
    "(CORP like ST-ABC; CARD like 10, 3c, x1/2)"
)

CODECS: dict[str, Codec[str]] = {
    "corp": CorporationCodec(),
    "card": Word("a card like 10, 3c, x1/2", CARD),
    "proxy": Word("a proxy card x1/2, x1 or x3/2", PROXY_CARD),
}
NOTATION: Notation[VentureAction] = Notation(
    [Take, Proxy, Place, Reorganise, ReorganiseBest, Move, Done, End, Pay, Discard, Undo, Cancel],
    CODECS,
    aliases={"reorganize": "reorganise"},
    expected=EXPECTED,
)
"""Venture's notation (docs/notation.md)."""


def parse_action(text: str) -> VentureAction:
    """Returns the action written ``text``; raises NotationError saying what was expected.

    >>> parse_action("take st-cab")
    Take(corp='ST-ABC')
    >>> str(parse_action("move AU-DEF  on RR-CD"))
    'move AU-DEF on RR-CD'
    """
    return NOTATION.parse(text)


def format_action(action: VentureAction) -> str:
    """Returns the action's notation."""
    return str(action)
