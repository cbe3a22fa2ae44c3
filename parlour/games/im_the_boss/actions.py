"""I'm the Boss!'s actions, one frozen dataclass per verb, and their notation (docs/notation.md).

``str(action)`` is the notation and :func:`parse_action` reads it back::

    >>> str(parse_action("Include r @2 5"))
    'include R @2 5'
    >>> parse_action("travel Y")
    Travel(colour='Y', seat=-1)

Arguments: ``C`` a colour letter, ``@S`` a seat, ``N`` a whole number of millions
(or a space 1–16 for ``marker``), ``CARD`` a card name (``clan:R``, ``travel:any``,
``recruit``, ``boss``, ``stop``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from parlour.core.notation import Action, Codec, Mismatch, Notation

T = TypeVar("T")
CARD_KINDS = ("clan", "travel", "recruit", "boss", "stop")


class BossAction(Action):
    """The base of I'm the Boss!'s actions: its verb is the first word of its notation."""

    __slots__ = ()

    @property
    def verb(self) -> str:
        """The action's verb (``offer``, ``pass``...), for messages."""
        return self.forms[0].split()[0]


# ------------------------------------------------------------------ the turn
@dataclass(frozen=True, slots=True)
class Marker(BossAction):
    """Place the marker on a free space (1 to 16) before the first turn."""

    forms = ("marker {number}",)
    number: int


@dataclass(frozen=True, slots=True)
class Deal(BossAction):
    """ "Let's make a deal": become the Boss of the deal where the marker stands."""

    forms = ("deal",)


@dataclass(frozen=True, slots=True)
class Roll(BossAction):
    """Roll the die and move the marker."""

    forms = ("roll",)


@dataclass(frozen=True, slots=True)
class Draw(BossAction):
    """Draw three cards instead of trying the deal after the roll."""

    forms = ("draw",)


@dataclass(frozen=True, slots=True)
class Discard(BossAction):
    """Over the hand limit: discard one card of this name."""

    forms = ("discard {card}",)
    card: str


@dataclass(frozen=True, slots=True)
class Recruit(BossAction):
    """Play a Recruitment triple on the placard of this colour."""

    forms = ("recruit {colour}",)
    colour: str


# ------------------------------------------------------------------ the negotiation
@dataclass(frozen=True, slots=True)
class Lay(BossAction):
    """Lay a Clan card of this colour face up."""

    forms = ("lay {colour}",)
    colour: str


@dataclass(frozen=True, slots=True)
class Offer(BossAction):
    """Offer one's investor of this colour for ``number`` million (or re-price the offer)."""

    forms = ("offer {colour} {number}",)
    colour: str
    number: int


@dataclass(frozen=True, slots=True)
class Withdraw(BossAction):
    """Withdraw one's offer of this colour."""

    forms = ("withdraw {colour}",)
    colour: str


@dataclass(frozen=True, slots=True)
class Accept(BossAction):
    """The Boss accepts seat ``seat``'s offer of this colour at its ask."""

    forms = ("accept {colour} {seat}",)
    colour: str
    seat: int


@dataclass(frozen=True, slots=True)
class Include(BossAction):
    """The Boss proposes ``number`` million to seat ``seat`` for its investor of this colour."""

    forms = ("include {colour} {seat} {number}",)
    colour: str
    seat: int
    number: int


@dataclass(frozen=True, slots=True)
class Use(BossAction):
    """The Boss brings in its own investor of this colour."""

    forms = ("use {colour}",)
    colour: str


@dataclass(frozen=True, slots=True)
class Drop(BossAction):
    """The Boss takes the investor of this colour out of the terms."""

    forms = ("drop {colour}",)
    colour: str


@dataclass(frozen=True, slots=True)
class Tip(BossAction):
    """The Boss proposes ``number`` million to seat ``seat`` for no investor (0 withdraws it)."""

    forms = ("tip {seat} {number}",)
    seat: int
    number: int


@dataclass(frozen=True, slots=True)
class Agree(BossAction):
    """Agree to the lines of the terms that name the seat."""

    forms = ("agree",)


@dataclass(frozen=True, slots=True)
class Refuse(BossAction):
    """Refuse the lines of the terms that name the seat and that it has not agreed to."""

    forms = ("refuse",)


@dataclass(frozen=True, slots=True)
class Travel(BossAction):
    """A Travel card on the placard of this colour (``seat`` -1), or on seat ``seat``'s laid Clan card."""

    forms = ("travel {colour} {seat?}",)
    colour: str
    seat: int = -1


@dataclass(frozen=True, slots=True)
class BossCard(BossAction):
    """A Boss card: "I'm the Boss!"."""

    forms = ("boss",)


@dataclass(frozen=True, slots=True)
class StopCard(BossAction):
    """A Stop card: cancel the Travel, Boss card or triple just played."""

    forms = ("stop",)


@dataclass(frozen=True, slots=True)
class Pass(BossAction):
    """Wait (a window moves on to the next seat; the bargaining asks the seat again after an action)."""

    forms = ("pass",)


@dataclass(frozen=True, slots=True)
class Call(BossAction):
    """The Boss calls the deal on the agreed terms: "going once, going twice..."."""

    forms = ("call",)


@dataclass(frozen=True, slots=True)
class Fail(BossAction):
    """The Boss announces that the negotiations have failed."""

    forms = ("fail",)


Play = Travel | BossCard | Recruit
"""A play a Stop card may answer (ruling B-6)."""


# ------------------------------------------------------------------ the words
class ColourWord(Codec[object]):
    """A colour letter, written in capitals."""

    what = "a colour"

    def read(self, word: str) -> str:
        """Returns the letter in capitals."""
        if len(word) != 1 or not word.isascii() or not word.isalpha():
            raise Mismatch(f"{word!r} is not a colour letter (R M O G B Y)")
        return word.upper()


class SeatWord(Codec[object]):
    """A seat written ``@S`` (at most two digits: never a number too long to read)."""

    what = "a seat @S"

    def read(self, word: str) -> int:
        """Returns the seat's number."""
        digits = word[1:]
        if not word.startswith("@") or not digits.isdecimal() or not digits.isascii() or len(digits) > 2:
            raise Mismatch(f"{word[:12]!r} is not a seat: write @0, @1, ...")
        return int(digits)

    def write(self, value: object) -> str:
        """Returns ``@S``."""
        return f"@{value}"


class AmountWord(Codec[object]):
    """A whole number of millions (or a space), at most six digits."""

    what = "a number"

    def read(self, word: str) -> int:
        """Returns the number."""
        if not word.isdecimal() or not word.isascii() or len(word) > 6:
            raise Mismatch(f"{word[:12]!r} is not a whole number")
        return int(word)


class CardWord(Codec[object]):
    """A card name such as ``clan:R``, ``travel:any`` or ``boss`` (kind in lower case, colour in capitals)."""

    what = "a card name"

    def read(self, word: str) -> str:
        """Returns the card name in its canonical form."""
        kind, _, colour = word.lower().partition(":")
        if kind not in CARD_KINDS or (kind in ("clan", "travel")) != bool(colour):
            raise Mismatch(f"{word!r} is not a card (clan:R, travel:R, travel:any, recruit, boss, stop)")
        if kind == "clan" or (kind == "travel" and colour != "any"):
            return f"{kind}:{COLOUR.read(colour)}"
        return word.lower()


COLOUR = ColourWord()
ACTIONS: tuple[type[BossAction], ...] = (
    Marker,
    Deal,
    Roll,
    Draw,
    Discard,
    Recruit,
    Lay,
    Offer,
    Withdraw,
    Accept,
    Include,
    Use,
    Drop,
    Tip,
    Agree,
    Refuse,
    Travel,
    BossCard,
    StopCard,
    Pass,
    Call,
    Fail,
)
"""Every action class, in the order the verbs are listed in messages."""
NOTATION: Notation[BossAction] = Notation(
    ACTIONS, {"colour": COLOUR, "seat": SeatWord(), "number": AmountWord(), "card": CardWord()}
)
"""I'm the Boss!'s notation: every action's text, written and read from the classes' forms."""

DEAL, ROLL, DRAW = Deal(), Roll(), Draw()
AGREE, REFUSE, BOSS_CARD, STOP_CARD = Agree(), Refuse(), BossCard(), StopCard()
PASS, CALL, FAIL = Pass(), Call(), Fail()


@cache
def shared(kind: Callable[..., T], *fields: object) -> T:
    """Returns the one action of this class with these fields (legal-action lists reuse it)."""
    return kind(*fields)


def parse_action(text: str) -> BossAction:
    """Returns the action written ``text``; raises NotationError naming what is wrong."""
    return NOTATION.parse(text)


def format_action(action: BossAction) -> str:
    """Returns the action's notation."""
    return str(action)
