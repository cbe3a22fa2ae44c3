"""I'm the Boss!'s numbers from the rulebook and its options (variants and contested rulings)."""

from __future__ import annotations

from parlour.core.content import HouseFile
from parlour.core.game import OptionSpec

HOUSE_CONTENT = HouseFile("parlour.games.im_the_boss", "data/content.json")
"""The house content's file (content set ``house``: board S1, house deal values)."""

HAND_SIZE = 5
DRAW = 3
HAND_LIMIT = 12
TRIPLE = 3
MUST_DEAL_HAND = 10
SHORT_GAME_REMOVED = (3, 6, 9)

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "turn_order",
        "boss",
        "who moves after a deal: left of the final 'boss' (rulebook) or of the 'opener' (variant)",
        choices=("boss", "opener"),
    ),
    OptionSpec(
        "must_deal",
        "no",
        "variant: a player starting a turn with 10 or more cards must try a deal",
        choices=("no", "yes"),
    ),
    OptionSpec(
        "length",
        "full",
        "'full' uses all 15 deal cards; 'short' (variant) removes cards 3, 6 and 9",
        choices=("full", "short"),
    ),
    OptionSpec(
        "money",
        "hidden",
        "whether each player's money total is shown to the others (ruling A-17: 'hidden')",
        choices=("hidden", "public"),
    ),
    OptionSpec(
        "negotiation_limit",
        20,
        "actions each seat may take in a negotiation (pass, agree, refuse not counted; ruling B-2)",
        minimum=1,
    ),
    OptionSpec(
        "max_turns",
        200,
        "turns after which the game ends and money decides, 0 for no limit (ruling B-3)",
        minimum=0,
    ),
    OptionSpec(
        "content",
        "house",
        "the content set: 'house' (board S1, house deal values) or the name of your own copy's data",
        content=HOUSE_CONTENT,
    ),
)

QUICK_OPTIONS = {"max_turns": 24, "negotiation_limit": 4}
"""Options that keep random playouts short for the conformance kit."""
