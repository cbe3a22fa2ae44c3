"""Venus Needs Men!'s actions and their notation (docs/notation.md).

>>> str(parse_action("Attack v1 m2"))
'attack V1 M2'
>>> str(parse_action("zap 17 china"))
'zap 17 china'
>>> str(parse_action("collect g1 India INFECTED"))
'collect G1 india infected'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from parlour.core.errors import NotationError

SIGNATURES = {
    "build": "a?",
    "move": "sa",
    "attack": "stw?",
    "control": "st",
    "collect": "sa?",
    "infect": "s",
    "purge": "s",
    "research": "w",
    "cycle": "w",
    "pass": "",
    "done": "",
    "extend": "n",
    "end": "",
    "zap": "nw?",
    "release": "s",
}
"""Each verb's arguments: s ship, t target ship, a area, n number, w a target word; ``?`` optional
(``collect`` may end with ``infected``)."""
INFECTED = "infected"
"""The last word of ``collect SHIP [AREA] infected``: an infected unit (ruling A-23)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action: a verb and its arguments (unused ones keep their defaults)."""

    verb: str
    ship: str = ""
    target: str = ""
    area: str = ""
    number: int = -1

    def __str__(self) -> str:
        parts = [self.verb, self.ship, self.target, self.area]
        if self.verb == "collect":
            parts = [self.verb, self.ship, self.area, self.target]  # collect G1 india infected
        if self.number >= 0:
            parts.insert(1, str(self.number))
        return " ".join(p for p in parts if p)


@cache
def act(verb: str, ship: str = "", target: str = "", area: str = "", number: int = -1) -> Action:
    """Returns the shared action with these fields."""
    return Action(verb, ship, target, area, number)


def parse_action(text: str) -> Action:
    """Returns the action written ``text``; raises NotationError naming what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty action: type a verb such as 'move V1 orbit', 'attack V1 M2' or 'pass'")
    verb, args = words[0].lower(), words[1:]
    if verb not in SIGNATURES:
        raise NotationError(f"unknown verb {words[0]!r} (verbs: {', '.join(SIGNATURES)})")
    signature = SIGNATURES[verb]
    fields: dict[str, object] = {}
    if verb == "collect" and len(args) > 1 and args[-1].lower() == INFECTED:
        fields["target"], args = INFECTED, args[:-1]  # Ruling A-23: the collector takes an infected unit.
    codes = signature.replace("?", "")
    optional = signature.count("?")
    if not len(codes) - optional <= len(args) <= len(codes):
        raise NotationError(f"{verb!r} takes {_describe(signature)}, not {len(args)} argument(s)")
    for code, word in zip(codes, args, strict=False):
        if code == "t" and word.lower() == "refuge":
            fields["target"] = "refuge"
        elif code in "st":
            fields["ship" if code == "s" else "target"] = _ship(word)
        elif code == "a":
            fields["area"] = _word(word, "an area")
        elif code == "n":
            fields["number"] = _number(word)
        elif verb == "attack":
            fields["area"] = _word(word, "a weapon (e.g. gatling)")
        else:
            fields["area"] = _word(word, "a target") if not _is_ship(word) else ""
            if _is_ship(word):
                fields["target"] = _ship(word)
    return act(verb, **fields)


def _describe(signature: str) -> str:
    """Returns a signature in words."""
    names = {
        "s": "a spaceship (V1)",
        "t": "a target spaceship",
        "a": "an area",
        "n": "a card number",
        "w": "a target (area, planet or spaceship)",
    }
    words: list[str] = []
    for code in signature:
        if code == "?":
            words[-1] += " (optional)"
        else:
            words.append(names[code])
    return ", ".join(words) or "no arguments"


def _is_ship(word: str) -> bool:
    """Returns whether a word looks like a spaceship name (a letter and a number)."""
    return len(word) >= 2 and word[0].isalpha() and word[1:].isdecimal() and word.isascii()


def _ship(word: str) -> str:
    """Returns a spaceship name such as ``V1``."""
    if not _is_ship(word):
        raise NotationError(f"{word!r} is not a spaceship: write its letter and number, e.g. V1 or G6")
    return word.upper()


def _word(word: str, what: str) -> str:
    """Returns a lowercase identifier (area or planet)."""
    if not word.isascii() or not word.isalpha():
        raise NotationError(f"{word!r} is not {what}: write its name, e.g. orbit, china, pluto")
    return word.lower()


def _number(word: str) -> int:
    """Returns a card number."""
    if not word.isdecimal() or not word.isascii() or len(word) > 3:
        raise NotationError(f"{word!r} is not a card number")
    return int(word)


def format_action(action: Action) -> str:
    """Returns the action's notation."""
    return str(action)
