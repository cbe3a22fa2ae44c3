"""I'm the Boss!'s numbers from the rulebook and its options (variants and contested rulings)."""

from __future__ import annotations

from parlour.core.content import HouseFile
from parlour.core.game import OptionSpec, choice, content_option, integer

HOUSE_CONTENT = HouseFile("parlour.games.im_the_boss", "data/content.json")
"""The house content's file (content set ``house``: board S1, house deal values)."""

HAND_SIZE = 5
DRAW = 3
HAND_LIMIT = 12
TRIPLE = 3
MUST_DEAL_HAND = 10
SHORT_GAME_REMOVED = (3, 6, 9)

OPTIONS: tuple[OptionSpec, ...] = (
    choice(
        "turn_order",
        ("boss", "opener"),
        "who moves after a deal: left of the final 'boss' (rulebook) or of the 'opener' (variant)",
    ),
    choice(
        "must_deal", ("no", "yes"), "variant: a player starting a turn with 10 or more cards must try a deal"
    ),
    choice(
        "length",
        ("full", "short"),
        "'full' uses all 15 deal cards; 'short' (variant) removes cards 3, 6 and 9",
    ),
    choice(
        "money",
        ("hidden", "public"),
        "whether each player's money total is shown to the others (ruling A-17: 'hidden')",
    ),
    integer(
        "negotiation_limit",
        20,
        "actions each seat may take in a negotiation (pass, agree, refuse not counted; ruling B-2)",
        minimum=1,
    ),
    integer(
        "max_turns", 200, "turns after which the game ends and money decides, 0 for no limit (ruling B-3)"
    ),
    content_option(
        "content",
        HOUSE_CONTENT,
        "the content set: 'house' (board S1, house deal values) or the name of your own copy's data",
    ),
)

QUICK_OPTIONS = {"max_turns": 24, "negotiation_limit": 4}
"""Options that keep random playouts short for the conformance kit."""
