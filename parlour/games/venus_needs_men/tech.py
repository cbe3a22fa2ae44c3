"""The Enhanced game's cards as data: Technology (weapon, defense, movement), Upgrades, Specials."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from parlour.core.content import read_house_json
from parlour.core.errors import ContentError

TERRAINS = ("space", "land", "ocean")


@dataclass(frozen=True)
class TechCard:
    """A Technology or Upgrade card: its slot and the numbers it gives."""

    id: str
    name: str
    slot: str
    """``weapon``, ``defense``, ``movement`` or ``build``."""
    text: str
    dice: int = 0
    bonus: int = 0
    qray: bool = False
    long: bool = False
    defense: dict[str, int] = field(default_factory=dict)
    areas: int = 1
    extra_build: int = 0
    launch: bool = False
    roll: int = 0
    """Upgrades: the die roll needed to acquire it."""
    duplicates: tuple[str, ...] = ()
    obsoleted_by: tuple[str, ...] = ()
    source: str = ""
    """Where the card comes from (``sourced: ...`` or ``house ...``)."""


@dataclass(frozen=True)
class Special:
    """A planet's Special card."""

    planet: str
    id: str
    name: str
    text: str
    source: str = ""
    """Where the card comes from (``sourced: ...`` or ``house ...``)."""


@dataclass(frozen=True)
class Loadout:
    """What a planet's Technology cards and Upgrades in effect give, as the rules ask it on every step."""

    moves: int
    """The areas a ship may move in a move action (the best Movement card)."""
    long: bool
    """Whether a weapon reaches further (Long-Range Missiles)."""
    qray: bool
    """Whether a weapon is the Q-Ray."""
    second: tuple[str, ...]
    """The weapons a ship may name in an attack: a Q-Ray owner's Gatling Lasers."""
    launch: bool
    """Whether new ships may go next to the home world (Quality Control)."""
    extra_build: int
    """Ships a build makes beyond the usual (Automated Assembly)."""
    held: frozenset[str]
    """The ids of the cards in effect."""


SLOTS = ("weapon", "defense", "movement", "build")
"""The slots of Technology and Upgrade cards."""


@dataclass(frozen=True)
class TechSet:
    """Every Technology card by planet and slot, the Upgrade cards (one id per physical card), Specials."""

    technology: dict[str, dict[str, TechCard]]
    upgrades: dict[str, TechCard]
    upgrade_cards: tuple[str, ...]
    """The 16 physical Upgrade cards, by id (duplicates repeat)."""
    specials: dict[str, Special]
    _in_effect: dict[tuple[str, str, tuple[str, ...]], tuple[TechCard, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _loadouts: dict[tuple[str, tuple[str, ...]], Loadout] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    memo: dict[tuple[str, ...], Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """What the rules work out from these cards alone and keep (``steps.research_steps``), by all it reads."""

    def in_effect(self, planet: str, slot: str, upgrades: tuple[str, ...]) -> tuple[TechCard, ...]:
        """Returns a planet's Technology card for a slot, then the cards of ``upgrades`` (Upgrade ids held)
        for that slot; worked out once for each planet, slot and Upgrades held."""
        key = (planet, slot, upgrades)
        found = self._in_effect.get(key)
        if found is None:
            own = self.technology[planet]
            found = (own[slot],) if slot in own else ()
            found += tuple(self.upgrades[u] for u in upgrades if self.upgrades[u].slot == slot)
            self._in_effect[key] = found
        return found

    def loadout(self, planet: str, upgrades: tuple[str, ...]) -> Loadout:
        """Returns what a planet's cards give with ``upgrades`` (Upgrade ids held) in effect; worked out
        once for each planet and Upgrades held."""
        key = (planet, upgrades)
        found = self._loadouts.get(key)
        if found is None:
            weapons = self.in_effect(planet, "weapon", upgrades)
            builds = self.in_effect(planet, "build", upgrades)
            qray = any(c.qray for c in weapons)
            found = Loadout(
                moves=max((c.areas for c in self.in_effect(planet, "movement", upgrades)), default=0),
                long=any(c.long for c in weapons),
                qray=qray,
                second=tuple(c.id for c in weapons if c.id == "gatling") if qray else (),
                launch=any(c.launch for c in builds),
                extra_build=sum(c.extra_build for c in builds),
                held=frozenset(c.id for slot in SLOTS for c in self.in_effect(planet, slot, upgrades)),
            )
            self._loadouts[key] = found
        return found

    def card(self, card_id: str) -> TechCard:
        """Returns a Technology or Upgrade card by id."""
        if card_id in self.upgrades:
            return self.upgrades[card_id]
        for slots in self.technology.values():
            for card in slots.values():
                if card.id == card_id:
                    return card
        raise KeyError(card_id)


def _card(entry: dict[str, Any]) -> TechCard:
    """Reads one Technology or Upgrade card."""
    defense = {t: int(entry[t]) for t in TERRAINS if t in entry}
    return TechCard(
        entry["id"],
        entry["name"],
        entry["slot"],
        entry["text"],
        int(entry.get("dice", 0)),
        int(entry.get("bonus", 0)),
        bool(entry.get("qray", False)),
        bool(entry.get("long", False)),
        defense,
        int(entry.get("areas", 1)),
        int(entry.get("extra_build", 0)),
        bool(entry.get("launch", False)),
        int(entry.get("roll", 0)),
        tuple(entry.get("duplicates", ())),
        tuple(entry.get("obsoleted_by", ())),
        str(entry.get("source", "")),
    )


def parse_tech(data: Any) -> TechSet:
    """Returns the card set described by parsed JSON, refusing wrong counts."""
    try:
        technology: dict[str, dict[str, TechCard]] = {}
        for entry in data["technology"]:
            technology.setdefault(entry["planet"], {})[entry["slot"]] = _card(entry)
        upgrades = {u["id"]: _card(u) for u in data["upgrades"]}
        cards = tuple(u["id"] for u in data["upgrades"] for _ in range(int(u["count"])))
        specials = {
            s["planet"]: Special(s["planet"], s["id"], s["name"], s["text"], str(s.get("source", "")))
            for s in data["specials"]
        }
    except (KeyError, TypeError, ValueError) as err:
        raise ContentError(f"tech file is malformed: missing or bad {err}") from None
    if sum(len(s) for s in technology.values()) != 18 or len(cards) != 16 or len(specials) != 6:
        raise ContentError("tech file: there are 18 Technology, 16 Upgrade and 6 Special cards")
    if any(sorted(s) != ["defense", "movement", "weapon"] for s in technology.values()):
        raise ContentError("tech file: every planet has a weapon, a defense and a movement card")
    return TechSet(technology, upgrades, cards, specials)


@cache
def load_tech() -> TechSet:
    """Loads the Enhanced game's cards shipped with Parlour."""
    return parse_tech(read_house_json(__package__ or "", "data/tech.json", "tech file"))
