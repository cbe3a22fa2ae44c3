"""Venture's numbers from the rulebook and its options (each contested ruling is one)."""

from __future__ import annotations

from parlour.core.content import HouseFile
from parlour.core.game import OptionSpec, choice, content_option, integer

HOUSE_DECK = HouseFile("parlour.games.venture", "data/deck.json")
"""The house deck's file (content set ``house``)."""

HAND_SIZE = 7
CENTER_SIZE = 5
DRAW_PER_TURN = 2
TWO_PLAYER_ASIDE = 14
PROFIT_TABLE = {3: 1, 4: 3, 5: 8, 6: 20}

OPTIONS: tuple[OptionSpec, ...] = (
    choice(
        "payment",
        ("turn", "each"),
        "when costs are paid: 'turn' totals the turn's costs (ruling A-1), 'each' pays per transaction",
    ),
    choice(
        "proxy_placement",
        ("stack", "alone"),
        "a corporation won by proxy fight may join a stack ('stack', ruling A-3) or stands 'alone'",
    ),
    choice(
        "last_draw",
        ("no", "yes"),
        "whether the buyer of the last center corporation still draws (ruling A-7: 'no')",
    ),
    integer(
        "max_turns", 400, "turns after which the game ends with final scoring, 0 for no limit (ruling A-12)"
    ),
    choice(
        "best_ties",
        ("first", "solver"),
        "which best arrangement 'reorganise best' takes when several tie (ruling A-19): 'first' in a fixed "
        "order, 'solver' the MILP solver's pick (records and positions without this option)",
        stored_default="solver",
    ),
    content_option(
        "deck",
        HOUSE_DECK,
        "the deck's content set: 'house' (Parlour's house design) or the name of your own copy's list",
    ),
)
