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
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parlour.core.errors import NotationError

CORP = r"[A-Za-z]{2}-[A-Za-z]{1,6}"
CARD = r"\d{1,2}[tcsTCS]?|x1/2|x1|x3/2|profit"


@dataclass(frozen=True, slots=True)
class Take:
    """Take over a corporation from the center of the table."""

    corp: str

    def __str__(self) -> str:
        return f"take {self.corp}"


@dataclass(frozen=True, slots=True)
class Proxy:
    """Play a proxy-fight card to take an opponent's top or lone corporation."""

    card: str
    corp: str

    def __str__(self) -> str:
        return f"proxy {self.card} {self.corp}"


@dataclass(frozen=True, slots=True)
class Place:
    """Put the corporation just won on the stack topped by ``onto``, or alone (None)."""

    onto: str | None

    def __str__(self) -> str:
        return f"place on {self.onto}" if self.onto else "place alone"


@dataclass(frozen=True, slots=True)
class Reorganise:
    """Start a reorganisation of one's holdings."""

    def __str__(self) -> str:
        return "reorganise"


@dataclass(frozen=True, slots=True)
class ReorganiseBest:
    """Reorganise straight to the optimiser's best arrangement (fee included) in one action."""

    def __str__(self) -> str:
        return "reorganise best"


@dataclass(frozen=True, slots=True)
class Move:
    """While reorganising: put ``corp`` on the stack topped by ``onto``, or alone (None)."""

    corp: str
    onto: str | None

    def __str__(self) -> str:
        return f"move {self.corp} on {self.onto}" if self.onto else f"move {self.corp} alone"


@dataclass(frozen=True, slots=True)
class Done:
    """Finish the current reorganisation or payment."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class End:
    """End the turn's transactions (payment follows if anything is owed)."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Pay:
    """Hand in one capital card towards what is owed, or several in one line (``also``)."""

    card: str
    also: tuple[str, ...] = ()
    """Further cards laid in the same line, in order (``pay 14 12 3s``; ruling A-18)."""

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card this action lays down, in order."""
        return (self.card, *self.also)

    def __str__(self) -> str:
        return "pay " + " ".join(self.cards)


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the turn's last step that revealed nothing to the others (ruling A-17)."""

    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True, slots=True)
class Cancel:
    """Take back the whole reorganisation under way, fee included (ruling A-17)."""

    def __str__(self) -> str:
        return "cancel"


@dataclass(frozen=True, slots=True)
class Discard:
    """Make no transaction this turn: discard one card."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


VentureAction = (
    Take | Proxy | Place | Reorganise | ReorganiseBest | Move | Done | End | Pay | Discard | Undo | Cancel
)

_PATTERNS: list[tuple[re.Pattern[str], type]] = [
    (re.compile(rf"take ({CORP})"), Take),
    (re.compile(rf"proxy (x1/2|x1|x3/2) ({CORP})"), Proxy),
    (re.compile(rf"place on ({CORP})"), Place),
    (re.compile(r"place alone"), Place),
    (re.compile(r"reorgani[sz]e"), Reorganise),
    (re.compile(r"reorgani[sz]e best"), ReorganiseBest),
    (re.compile(rf"move ({CORP}) on ({CORP})"), Move),
    (re.compile(rf"move ({CORP}) alone"), Move),
    (re.compile(r"done"), Done),
    (re.compile(r"end"), End),
    (re.compile(rf"pay ((?:{CARD})(?: (?:{CARD}))*)"), Pay),
    (re.compile(rf"discard ({CARD})"), Discard),
    (re.compile(r"undo"), Undo),
    (re.compile(r"cancel"), Cancel),
]

EXPECTED = (
    "expected one of: take CORP, proxy x1/2|x1|x3/2 CORP, place on CORP, place alone, "
    "reorganise, reorganise best, move CORP on CORP, move CORP alone, done, end, pay CARD [CARD ...], "
    "discard CARD, undo, cancel "
    "(CORP like ST-ABC; CARD like 10, 3c, x1/2)"
)


def _corp(text: str) -> str:
    """Returns a corporation name in canonical form (upper case, letters sorted)."""
    code, letters = text.upper().split("-")
    if set(letters) - set("ABCDEF"):
        raise NotationError(
            f"there is no corporation {text.upper()}: corporations are an industry code and letters A to F, "
            "like ST-ABC"
        )
    return f"{code}-{''.join(sorted(letters))}"


def _card(text: str) -> str:
    """Returns a resource-card name in canonical form."""
    return text.lower()


def parse_action(text: str) -> VentureAction:
    """Returns the action written ``text``; raises NotationError saying what was expected.

    >>> parse_action("take st-cab")
    Take(corp='ST-ABC')
    >>> str(parse_action("move AU-DEF  on RR-CD"))
    'move AU-DEF on RR-CD'
    """
    if not isinstance(text, str):
        raise NotationError(f"an action is written as text, not {type(text).__name__}: {EXPECTED}")
    words = " ".join(text.strip().split())
    lowered = words.lower()
    for pattern, kind in _PATTERNS:
        match = pattern.fullmatch(lowered)
        if not match:
            continue
        groups = match.groups()
        if kind is Take:
            return Take(_corp(groups[0]))
        if kind is Proxy:
            return Proxy(groups[0], _corp(groups[1]))
        if kind is Place:
            return Place(_corp(groups[0]) if groups else None)
        if kind is Move:
            return Move(_corp(groups[0]), _corp(groups[1]) if len(groups) > 1 else None)
        if kind is Pay:
            cards = [_card(c) for c in groups[0].split()]
            return Pay(cards[0], tuple(cards[1:]))
        if kind is Discard:
            return Discard(_card(groups[0]))
        action: VentureAction = kind()
        return action
    raise NotationError(f"cannot read {text!r}: {EXPECTED}")


def format_action(action: VentureAction) -> str:
    """Returns the action's notation."""
    return str(action)
