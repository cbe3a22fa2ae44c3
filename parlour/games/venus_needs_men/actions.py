"""Venus Needs Men!'s actions, one frozen dataclass per verb, and their notation (docs/notation.md).

>>> str(parse_action("Attack v1 m2"))
'attack V1 M2'
>>> str(parse_action("zap 17 china"))
'zap 17 china'
>>> str(parse_action("collect g1 India INFECTED"))
'collect G1 india infected'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core.notation import Action, Bare, Codec, Mismatch, Notation, Number

REFUGE = "refuge"
"""The target word of an attack on Earth's Secret Underground Refuge (Earth's Special)."""


class VenusAction(Action):
    """A Venus Needs Men! action (a verb alone is also the core's ``Bare``:
    ``class Pass(Bare, VenusAction, form="pass")``; legal-action lists reuse ``Move.of(ship, area)``)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Build(VenusAction, form="build {area?}"):
    """Build new ships: on the home world, or where named (Earth's populated land, Quality Control's
    neighbouring space, an immediate build's home world)."""

    area: str = ""


@dataclass(frozen=True, slots=True)
class ShipAction(VenusAction):
    """A step of one spaceship."""

    ship: str


@dataclass(frozen=True, slots=True)
class Move(ShipAction, form="move {ship} {area}"):
    """Move a ship one area."""

    area: str


@dataclass(frozen=True, slots=True)
class Attack(ShipAction, form="attack {ship} {target} {weapon?}"):
    """Attack an enemy ship (or the Refuge) with a ship, naming a weapon where there is a choice."""

    target: str
    """A spaceship, or ``refuge``."""
    weapon: str = ""
    """A Q-Ray owner's Gatling Lasers (``gatling``), or ''."""


@dataclass(frozen=True, slots=True)
class Control(ShipAction, form="control {ship} {target}"):
    """Take an enemy ship over (Mars's Mind Control)."""

    target: str


@dataclass(frozen=True, slots=True)
class Collect(ShipAction, form="collect {ship} {area?} [infected]"):
    """Collect one unit from the ship's land area (or a named one: Amphibious), an infected one when
    ``infected`` (ruling A-23)."""

    area: str = ""
    infected: bool = False


class Infect(ShipAction, form="infect {ship}"):
    """Infect one unit where the ship stands (Titan's Parasites)."""


class Purge(ShipAction, form="purge {ship}"):
    """Destroy one infected unit where the ship stands (Pluto's robots)."""


@dataclass(frozen=True, slots=True)
class Research(VenusAction, form="research {upgrade}"):
    """Roll for a face-up Upgrade (Enhanced game)."""

    upgrade: str


@dataclass(frozen=True, slots=True)
class Cycle(VenusAction, form="cycle {upgrade}"):
    """Discard a face-up Upgrade and turn over a new one (once a turn, before the action)."""

    upgrade: str


class Pass(Bare, VenusAction, form="pass"):
    """Do nothing: pass the action, a Zap window, an immediate step."""


class Done(Bare, VenusAction, form="done"):
    """End the action's steps."""


@dataclass(frozen=True, slots=True)
class Extend(VenusAction, form="extend {card}"):
    """Discard a Zap card for one extra step of the action."""

    card: int


class End(Bare, VenusAction, form="end"):
    """End the extensions."""


@dataclass(frozen=True, slots=True)
class Zap(VenusAction, form="zap {card} {target:aim?}"):
    """Play a Zap card, on a target where it needs one: a land area, a planet or a spaceship."""

    card: int
    target: str = ""


class Withdraw(Bare, VenusAction, form="withdraw"):
    """Take back a declared attack before its roll and choose again (ruling A-21)."""


class Release(ShipAction, form="release {ship}"):
    """Release a ship from Mind Control (Mars's choice at a turn's end, ruling A-10(v))."""


PASS, DONE, END, WITHDRAW = Pass.of(), Done.of(), End.of(), Withdraw.of()
STEPS: dict[type[VenusAction], str] = {
    Build: "build",
    Move: "move",
    Attack: "attack",
    Control: "attack",
    Collect: "collect",
    Infect: "collect",
    Purge: "collect",
    Research: "research",
}
"""The step actions (an action's steps, an extension's and an immediate card's), each with the action
it is a step of."""


# ------------------------------------------------------------------ words
def is_ship(word: str) -> bool:
    """Returns whether a word looks like a spaceship name (a letter and a number)."""
    return len(word) >= 2 and word[0].isalpha() and word[1:].isdecimal() and word.isascii()


def _ship(word: str) -> str:
    """Returns a spaceship name such as ``V1``."""
    if not is_ship(word):
        raise Mismatch(f"{word[:24]!r} is not a spaceship: write its letter and number, e.g. V1 or G6")
    return word.upper()


def _name(word: str, what: str) -> str:
    """Returns a lowercase name (area, planet, Upgrade)."""
    if not word.isascii() or not word.isalpha():
        raise Mismatch(f"{word[:24]!r} is not {what}: write its name, e.g. orbit, china, pluto")
    return word.lower()


class Ship(Codec[str]):
    """A spaceship: its planet's letter and a number (``V1``)."""

    def __init__(self, what: str, refuge: bool = False) -> None:
        self.what, self.refuge = what, refuge

    def read(self, word: str) -> str:
        """Returns the ship's name in capitals (or ``refuge``, where the Refuge may be named)."""
        if self.refuge and word.lower() == REFUGE:
            return REFUGE
        return _ship(word)


class Name(Codec[str]):
    """An area, planet or Upgrade: a word of letters, in lower case."""

    def __init__(self, what: str) -> None:
        self.what = what

    def read(self, word: str) -> str:
        """Returns the name in lower case."""
        return _name(word, self.what)


class Aim(Codec[str]):
    """A Zap card's target: a spaceship (in capitals) or an area or planet (in lower case)."""

    what = "a target (area, planet or spaceship)"

    def read(self, word: str) -> str:
        """Returns the ship's name, or the area's or planet's."""
        return _ship(word) if is_ship(word) else _name(word, "a target")


CODECS: dict[str, Codec[Any]] = {  # Codec[Any]: Notation takes codecs of every value type (issue 14)
    "ship": Ship("a spaceship (V1)"),
    "target": Ship("a target spaceship", refuge=True),
    "area": Name("an area"),
    "weapon": Name("a weapon (e.g. gatling)"),
    "upgrade": Name("an Upgrade (e.g. gatling)"),
    "card": Number("a card number", 3),
    "aim": Aim(),
}
"""How each argument is read and written."""
NOTATION: Notation[VenusAction] = Notation(
    [
        Build,
        Move,
        Attack,
        Control,
        Collect,
        Infect,
        Purge,
        Research,
        Cycle,
        Pass,
        Done,
        Extend,
        End,
        Zap,
        Release,
        Withdraw,
    ],
    CODECS,
)
"""The notation of every Venus Needs Men! action."""


def parse_action(text: str) -> VenusAction:
    """Returns the action written ``text``; raises NotationError naming what is wrong."""
    return NOTATION.parse(text)


def format_action(action: VenusAction) -> str:
    """Returns the action's notation."""
    return str(action)
