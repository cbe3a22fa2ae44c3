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

from dataclasses import dataclass

from parlour.core.notation import Action, Bare, Codec, Mismatch, Notation

CARD_KINDS = ("clan", "travel", "recruit", "boss", "stop")


class BossAction(Action):
    """The base of I'm the Boss!'s actions: a class per verb declares its notation form as ``form=``
    (a verb alone is also the core's ``Bare``: ``class Pass(Bare, BossAction, form="pass")``)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Coloured(BossAction):
    """An action naming one colour (``lay C``, ``use C``...)."""

    colour: str


# ------------------------------------------------------------------ the turn
@dataclass(frozen=True, slots=True)
class Marker(BossAction, form="marker {number}"):
    """Place the marker on a free space (1 to 16) before the first turn."""

    number: int


class Deal(Bare, BossAction, form="deal"):
    """ "Let's make a deal": become the Boss of the deal where the marker stands."""


class Roll(Bare, BossAction, form="roll"):
    """Roll the die and move the marker."""


class Draw(Bare, BossAction, form="draw"):
    """Draw three cards instead of trying the deal after the roll."""


@dataclass(frozen=True, slots=True)
class Discard(BossAction, form="discard {card}"):
    """Over the hand limit: discard one card of this name."""

    card: str


class Recruit(Coloured, form="recruit {colour}"):
    """Play a Recruitment triple on the placard of this colour."""


# ------------------------------------------------------------------ the negotiation
class Lay(Coloured, form="lay {colour}"):
    """Lay a Clan card of this colour face up."""


@dataclass(frozen=True, slots=True)
class Offer(Coloured, form="offer {colour} {number}"):
    """Offer one's investor of this colour for ``number`` million (or re-price the offer)."""

    number: int


class Withdraw(Coloured, form="withdraw {colour}"):
    """Withdraw one's offer of this colour."""


@dataclass(frozen=True, slots=True)
class Accept(Coloured, form="accept {colour} {seat}"):
    """The Boss accepts seat ``seat``'s offer of this colour at its ask."""

    seat: int


@dataclass(frozen=True, slots=True)
class Include(Coloured, form="include {colour} {seat} {number}"):
    """The Boss proposes ``number`` million to seat ``seat`` for its investor of this colour."""

    seat: int
    number: int


class Use(Coloured, form="use {colour}"):
    """The Boss brings in its own investor of this colour."""


class Drop(Coloured, form="drop {colour}"):
    """The Boss takes the investor of this colour out of the terms."""


@dataclass(frozen=True, slots=True)
class Tip(BossAction, form="tip {seat} {number}"):
    """The Boss proposes ``number`` million to seat ``seat`` for no investor (0 withdraws it)."""

    seat: int
    number: int


class Agree(Bare, BossAction, form="agree"):
    """Agree to the lines of the terms that name the seat."""


class Refuse(Bare, BossAction, form="refuse"):
    """Refuse the lines of the terms that name the seat and that it has not agreed to."""


# ------------------------------------------------------------------ Influence cards
@dataclass(frozen=True, slots=True)
class Travel(Coloured, form="travel {colour} {seat?}"):
    """A Travel card on the placard of this colour (``seat`` -1), or on seat ``seat``'s laid Clan card."""

    seat: int = -1


class BossCard(Bare, BossAction, form="boss"):
    """A Boss card: "I'm the Boss!"."""


class StopCard(Bare, BossAction, form="stop"):
    """A Stop card: cancel the Travel, Boss card or triple just played."""


# ------------------------------------------------------------------ every window
class Pass(Bare, BossAction, form="pass"):
    """Wait (a window moves on to the next seat; the bargaining asks the seat again after an action)."""


class Call(Bare, BossAction, form="call"):
    """The Boss calls the deal on the agreed terms: "going once, going twice..."."""


class Fail(Bare, BossAction, form="fail"):
    """The Boss announces that the negotiations have failed."""


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

DEAL, ROLL, DRAW = Deal.of(), Roll.of(), Draw.of()
AGREE, REFUSE, BOSS_CARD, STOP_CARD = Agree.of(), Refuse.of(), BossCard.of(), StopCard.of()
PASS, CALL, FAIL = Pass.of(), Call.of(), Fail.of()


def parse_action(text: str) -> BossAction:
    """Returns the action written ``text``; raises NotationError naming what is wrong."""
    return NOTATION.parse(text)


def format_action(action: BossAction) -> str:
    """Returns the action's notation."""
    return str(action)
