"""Venus Needs Men!'s options: game version, length, home worlds, and the contested rulings."""

from __future__ import annotations

from parlour.core.content import HouseFile
from parlour.core.game import OptionSpec, choice, content_option, integer

HOUSE_ZAP = HouseFile("parlour.games.venus_needs_men", "data/zap.json")
"""The house Zap deck's file (content set ``house``)."""
HOME_WORLDS = ("venus", "earth", "mars", "ganymede", "titan", "pluto")
"""The names option ``planets`` may list."""

HAND = 3
"""Zap cards a player refills to at the start of its turn."""
EXTENSIONS = 3
"""Zap cards a player may discard to extend an action."""
BASIC_HIT = 8
BASIC_DICE = 2
DIE = 10

DEFAULT_PLANETS = {
    2: ("titan", "mars", "ganymede", "venus"),
    3: ("venus", "mars", "ganymede"),
    4: ("venus", "mars", "ganymede", "titan"),
    5: ("venus", "mars", "ganymede", "titan", "pluto"),
    6: ("venus", "earth", "mars", "ganymede", "titan", "pluto"),
}
"""Home worlds by seat when none are chosen (two players: the rulebook's team example, two each)."""

OPTIONS: tuple[OptionSpec, ...] = (
    choice("game", ("basic", "enhanced"), "'basic' or 'enhanced' (Technology, Upgrade and Special cards)"),
    choice(
        "length",
        ("short", "normal", "long", "epic"),
        "population on Earth: short, normal (101), long or epic",
        default="normal",
    ),
    choice(
        "planets",
        ("auto", "random"),
        "home worlds by seat, e.g. 'venus,earth,mars' (two players: four, two each "
        "as a team); 'auto' or 'random'",
        items=HOME_WORLDS,
    ),
    choice(
        "extension_cards",
        ("rulebook", "errata"),
        "whether Technology and Special cards apply to extended actions: "
        "'rulebook' (no) or 'errata' (yes, with the publisher's exceptions)",
    ),
    choice(
        "infected",
        ("choose", "healthy"),
        "collecting where healthy and infected units share an area: 'choose' (the collector says "
        "which, ruling A-23) or 'healthy' (healthy units first)",
    ),
    integer(
        "max_turns",
        300,
        "turns after which the game ends and the most population wins (ruling B-7; it also ends "
        "as soon as nobody can collect any more)",
    ),
    content_option(
        "zap", HOUSE_ZAP, "the Zap deck's content set: 'house' or the name of your own copy's list"
    ),
)

QUICK_OPTIONS = {"max_turns": 40}
"""Options that keep random playouts short for the conformance kit."""
