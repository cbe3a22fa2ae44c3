"""I'm the Boss!'s actions and their notation (docs/notation.md).

Every action is one verb and its arguments; ``str(action)`` is the notation and
:func:`parse_action` reads it back::

    >>> str(parse_action("Include r @2 5"))
    'include R @2 5'
    >>> parse_action("travel Y")
    Action(verb='travel', colour='Y', seat=-1, number=-1, card='')

Arguments: ``C`` a colour letter, ``@S`` a seat, ``N`` a whole number of millions
(or a space 1–16 for ``marker``), ``CARD`` a card name (``clan:R``, ``travel:any``,
``recruit``, ``boss``, ``stop``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from parlour.core.errors import NotationError

SIGNATURES: dict[str, str] = {
    "marker": "n",
    "deal": "",
    "roll": "",
    "draw": "",
    "discard": "k",
    "recruit": "c",
    "lay": "c",
    "offer": "cn",
    "withdraw": "c",
    "accept": "cs",
    "include": "csn",
    "use": "c",
    "drop": "c",
    "tip": "sn",
    "agree": "",
    "refuse": "",
    "travel": "c?",
    "boss": "",
    "stop": "",
    "pass": "",
    "call": "",
    "fail": "",
}
"""Each verb's arguments: c colour, s seat, n number, k card, ``?`` an optional trailing seat."""

CARD_KINDS = ("clan", "travel", "recruit", "boss", "stop")


@dataclass(frozen=True, slots=True)
class Action:
    """One action: a verb and the arguments its signature names (unused ones keep defaults)."""

    verb: str
    colour: str = ""
    seat: int = -1
    number: int = -1
    card: str = ""

    def __str__(self) -> str:
        parts = [self.verb]
        for code in SIGNATURES[self.verb]:
            if code == "c":
                parts.append(self.colour)
            elif code in "s?" and self.seat >= 0:
                parts.append(f"@{self.seat}")
            elif code == "n":
                parts.append(str(self.number))
            elif code == "k":
                parts.append(self.card)
        return " ".join(parts)


@cache
def act(verb: str, colour: str = "", seat: int = -1, number: int = -1, card: str = "") -> Action:
    """Returns the shared action with these fields (legal-action lists reuse one object per action)."""
    return Action(verb, colour, seat, number, card)


def parse_action(text: str) -> Action:
    """Returns the action written ``text``; raises NotationError naming what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty action: type a verb such as 'deal', 'offer R 3' or 'pass'")
    verb, args = words[0].lower(), words[1:]
    if verb not in SIGNATURES:
        raise NotationError(f"unknown verb {words[0]!r} (verbs: {', '.join(SIGNATURES)})")
    signature = SIGNATURES[verb]
    needed = signature.replace("?", "")
    if not len(needed) <= len(args) <= len(signature):
        raise NotationError(f"{verb!r} takes {_describe(signature)}, not {len(args)} argument(s)")
    fields: dict[str, object] = {}
    for code, word in zip(signature, args, strict=False):
        if code == "c":
            fields["colour"] = _colour(word)
        elif code in "s?":
            fields["seat"] = _seat(word)
        elif code == "n":
            fields["number"] = _number(word)
        else:
            fields["card"] = _card(word)
    return Action(verb, **fields)  # type: ignore[arg-type]


def _describe(signature: str) -> str:
    """Returns a signature in words."""
    names = {"c": "a colour", "s": "a seat @S", "n": "a number", "k": "a card name", "?": "maybe a seat @S"}
    return ", ".join(names[c] for c in signature) or "no arguments"


def _colour(word: str) -> str:
    """Returns a colour letter."""
    if len(word) != 1 or not word.isascii() or not word.isalpha():
        raise NotationError(f"{word!r} is not a colour letter (R M O G B Y)")
    return word.upper()


def _seat(word: str) -> int:
    """Returns a seat written ``@S`` (at most two digits: never a number too long to read)."""
    digits = word[1:]
    if not word.startswith("@") or not digits.isdecimal() or not digits.isascii() or len(digits) > 2:
        raise NotationError(f"{word[:12]!r} is not a seat: write @0, @1, ...")
    return int(digits)


def _number(word: str) -> int:
    """Returns a whole number (millions, or a space)."""
    if not word.isdecimal() or not word.isascii() or len(word) > 6:
        raise NotationError(f"{word[:12]!r} is not a whole number")
    return int(word)


def _card(word: str) -> str:
    """Returns a card name such as ``clan:R`` or ``boss``."""
    kind, _, colour = word.lower().partition(":")
    if kind not in CARD_KINDS or (kind in ("clan", "travel")) != bool(colour):
        raise NotationError(f"{word!r} is not a card (clan:R, travel:R, travel:any, recruit, boss, stop)")
    if kind == "clan" or (kind == "travel" and colour != "any"):
        return f"{kind}:{_colour(colour)}"
    return word.lower()


def format_action(action: Action) -> str:
    """Returns the action's notation."""
    return str(action)
