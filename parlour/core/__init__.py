"""The game protocol shared by every game; imports nothing from the rest of Parlour."""

from parlour.core.chance import Chance, Forced
from parlour.core.decisions import Decision, DecisionStack, Seat
from parlour.core.errors import (
    ContentError,
    IllegalActionError,
    NotationError,
    OptionError,
    ParlourError,
    PositionError,
    RecordError,
)
from parlour.core.game import Game, OptionSpec
from parlour.core.state import Event, GameState, rank

__all__ = [
    "Chance",
    "ContentError",
    "Decision",
    "DecisionStack",
    "Event",
    "Forced",
    "Game",
    "GameState",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "ParlourError",
    "PositionError",
    "RecordError",
    "Seat",
    "rank",
]
