"""The decisions of a game of I'm the Boss!, by rulebook chapter: each carries its own rules.

* "Game Play" (``turn``): placing the marker, the turn's choice, the choice after the roll, the hand limit;
* "Participating in Negotiations" (``bargain``): the bargaining window;
* "Playing Influence Cards" (``plays``): the Stop window;
* "Closing the Deal" (``closing``): the closing round.
"""

from __future__ import annotations

from parlour.core.decisions import DecisionKinds
from parlour.games.im_the_boss.bargain import Bargain
from parlour.games.im_the_boss.closing import Closing
from parlour.games.im_the_boss.plays import Respond
from parlour.games.im_the_boss.turn import Arrive, Limit, PlaceMarker, Turn

KINDS = DecisionKinds(PlaceMarker, Turn, Arrive, Limit, Bargain, Respond, Closing)
"""Every decision of the game, in the order encodings list them."""

__all__ = ["KINDS", "Arrive", "Bargain", "Closing", "Limit", "PlaceMarker", "Respond", "Turn"]
