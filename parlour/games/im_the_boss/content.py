"""I'm the Boss!'s components as data: investors, the 16 board spaces, deal cards and the deck."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from parlour.core.content import SetReader, read_house_json
from parlour.core.errors import ContentError
from parlour.core.payloads import JSONValue
from parlour.games.im_the_boss.options import HOUSE_CONTENT

CLAN, TRAVEL, RECRUIT, BOSS, STOP = "clan", "travel", "recruit", "boss", "stop"
ANY = "any"
"""The colour of the grey Travel cards, playable on any investor."""
SOURCED_DECK = {CLAN: 24, TRAVEL: 21, RECRUIT: 33, BOSS: 10, STOP: 10}
"""Card counts every set has (../shared/content/im-the-boss.md §4)."""


@dataclass(frozen=True, slots=True)
class Investor:
    """An investor clan: its colour letter (notation), colour name and surname."""

    colour: str
    name: str
    investor: str


@dataclass(frozen=True, slots=True)
class Group:
    """A list of small colour boxes on a space and how many of them must take part."""

    colours: str
    count: int


@dataclass(frozen=True, slots=True)
class Space:
    """A board space: the required clans (large boxes), the groups, and the dividends."""

    number: int
    """1 to 16, clockwise."""
    required: str
    groups: tuple[Group, ...]
    dividends: int
    colours: str = field(init=False, repr=False, compare=False)
    """Every colour printed on the space, required first (worked out once: legality reads it often)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "colours", self.required + "".join(g.colours for g in self.groups))

    def text(self) -> str:
        """Returns the requirement as text, e.g. ``R B Y + 2 of M O G``."""
        parts = [" ".join(self.required)] if self.required else []
        parts += [f"{g.count} of {' '.join(g.colours)}" for g in self.groups]
        return " + ".join(parts)

    def investors_needed(self) -> int:
        """Returns how many investors the deal needs in all."""
        return len(self.required) + sum(g.count for g in self.groups)


@dataclass(frozen=True, slots=True)
class DealCard:
    """A deal card: its number, the value of one dividend, the die numbers on its back."""

    number: int
    value: int
    ends: tuple[int, ...]


@dataclass(frozen=True)
class Content:
    """Everything printed: investors, board, deal cards, the Influence deck (card kinds by id)."""

    name: str
    investors: tuple[Investor, ...]
    spaces: tuple[Space, ...]
    deal_cards: tuple[DealCard, ...]
    cards: tuple[str, ...]
    """Each Influence card's name by id: ``clan:R``, ``travel:R``, ``travel:any``, ``recruit``..."""
    die: int
    kind_texts: dict[str, str] = field(default_factory=dict)
    """Each card kind's text (``clan``, ``travel``, ``travel:any``...), ``{colour}`` etc. to fill in."""
    deal_text: str = ""
    """The deal cards' text, ``{number}``, ``{value}`` and ``{ends}`` to fill in."""
    deal_source: str = ""
    """Where the deal cards' values come from (``house: ...`` when they are Parlour's design)."""

    @property
    def colours(self) -> str:
        """Returns the investor colour letters in order."""
        return "".join(i.colour for i in self.investors)

    def investor(self, colour: str) -> Investor:
        """Returns the investor of a colour letter."""
        return next(i for i in self.investors if i.colour == colour)


def _fail(where: str, message: str) -> ContentError:
    """Returns a content error naming the place in the file."""
    return ContentError(f"content file, {where}: {message}")


def _colours(text: object, known: str, where: str) -> str:
    """Returns a string of distinct known colour letters."""
    if not isinstance(text, str) or set(text) - set(known) or len(set(text)) != len(text):
        raise _fail(where, f"must be distinct colour letters of {known}, not {text!r}")
    return text


def _spaces(data: JSONValue, known: str) -> list[Space]:
    """Reads and checks the board spaces."""
    spaces = []
    for i, entry in enumerate(data):
        where = f"board.spaces[{i}]"
        required = _colours(entry["required"], known, f"{where}.required")
        groups = []
        for j, g in enumerate(entry["groups"]):
            colours = _colours(g["colours"], known, f"{where}.groups[{j}].colours")
            count = int(g["count"])
            if not 1 <= count <= len(colours):
                raise _fail(f"{where}.groups[{j}].count", f"must be 1 to {len(colours)}")
            groups.append(Group(colours, count))
        space = Space(i + 1, required, tuple(groups), int(entry["dividends"]))
        if len(set(space.colours)) != len(space.colours):
            raise _fail(where, "a colour appears twice on the space")
        if space.investors_needed() < 1 or space.dividends < 1:
            raise _fail(where, "a deal needs at least one investor and pays at least one dividend")
        spaces.append(space)
    if len(spaces) != 16:
        raise _fail("board.spaces", f"the board has 16 spaces, this file {len(spaces)}")
    return spaces


def _deal_cards(data: JSONValue, sides: int) -> list[DealCard]:
    """Reads and checks the 15 deal cards."""
    cards = []
    for i, entry in enumerate(data):
        ends = tuple(int(n) for n in entry["ends"])
        if any(not 1 <= n <= sides for n in ends):
            raise _fail(f"deal_cards.cards[{i}].ends", f"die numbers are 1 to {sides}")
        if int(entry["number"]) != i + 1 or int(entry["value"]) < 1:
            raise _fail(f"deal_cards.cards[{i}]", "cards are numbered 1 to 15 in order, values positive")
        cards.append(DealCard(i + 1, int(entry["value"]), ends))
    if len(cards) != 15:
        raise _fail("deal_cards.cards", f"there are 15 deal cards, this file has {len(cards)}")
    return cards


def _deck(data: JSONValue, known: str) -> list[str]:
    """Expands the deck entries into card names, checking the sourced counts."""
    names: list[str] = []
    for i, entry in enumerate(data):
        kind, count = entry["kind"], int(entry["count"])
        if kind not in SOURCED_DECK:
            raise _fail(f"deck.cards[{i}].kind", f"unknown card kind {kind!r}")
        if entry.get("per_colour"):
            names += [f"{kind}:{c}" for c in known for _ in range(count)]
        elif "colour" in entry:
            names += [f"{kind}:{entry['colour']}"] * count
        else:
            names += [kind] * count
    for kind, count in SOURCED_DECK.items():
        found = sum(1 for n in names if n.split(":")[0] == kind)
        if found != count:
            raise _fail("deck", f"a set has {count} {kind} cards, this file {found}")
    return names


def card_texts_of(data: JSONValue, where: str) -> tuple[dict[str, str], str]:
    """Reads card texts (a set's optional ``card_texts``, or the house texts file): each kind's text and
    the deal cards' text; None gives none."""
    if data is None:
        return {}, ""
    kinds = data.get("kinds", {}) if isinstance(data, dict) else None
    if not isinstance(kinds, dict) or not all(isinstance(v, str) for v in kinds.values()):
        raise _fail(f"{where}.kinds", "must map card kinds to texts")
    unknown = sorted(set(kinds) - {*SOURCED_DECK, f"{TRAVEL}:{ANY}"})
    if unknown:
        raise _fail(f"{where}.kinds", f"unknown card kind {unknown[0]!r}")
    deal = data.get("deal_card", "")
    if not isinstance(deal, str):
        raise _fail(f"{where}.deal_card", "must be a text")
    return dict(kinds), deal


@cache
def house_card_texts() -> tuple[dict[str, str], str]:
    """Returns the house card texts (data/card_texts.json: the rulebook's sentences), read once."""
    data = read_house_json("parlour.games.im_the_boss", "data/card_texts.json", "house card texts")
    return card_texts_of(data, "card_texts.json")


def parse_content(data: JSONValue) -> Content:
    """Returns the content described by parsed JSON, refusing one that breaks a sourced fact."""
    try:
        investors = [Investor(i["colour"], i["name"], i["investor"]) for i in data["investors"]["items"]]
        known = "".join(i.colour for i in investors)
        if len(investors) != 6 or len(set(known)) != 6 or any(len(c) != 1 or not c.isupper() for c in known):
            raise _fail("investors", "there are six investors, each a distinct capital letter")
        sides = int(data["die"]["sides"])
        spaces = _spaces(data["board"]["spaces"], known)
        deal_cards = _deal_cards(data["deal_cards"]["cards"], sides)
        cards = _deck(data["deck"]["cards"], known)
        kind_texts, deal_text = card_texts_of(data.get("card_texts"), "card_texts")
        deal_source = str(data["deal_cards"].get("source", ""))
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ContentError(f"content file is malformed: missing or bad {err}") from None
    return Content(
        str(data.get("name", "content")),
        tuple(investors),
        tuple(spaces),
        tuple(deal_cards),
        tuple(cards),
        sides,
        kind_texts,
        deal_text,
        deal_source,
    )


content_of: SetReader[Content] = SetReader(parse_content, HOUSE_CONTENT)
"""Returns the components of a content set, checked (errors name the set)."""


def load_content() -> Content:
    """Returns the house content shipped with Parlour."""
    return content_of.house_set()
