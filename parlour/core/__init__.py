"""The game protocol shared by every game; imports nothing from the rest of Parlour."""

from parlour.core.chance import Chance, Forced
from parlour.core.decisions import Decision, DecisionKinds, DecisionStack, Seat
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
from parlour.core.notation import Action, Notation
from parlour.core.registry import game_names, load_game
from parlour.core.state import Event, GameState, rank

__all__ = [
    "Action",
    "Chance",
    "ContentError",
    "Decision",
    "DecisionKinds",
    "DecisionStack",
    "Event",
    "Forced",
    "Game",
    "GameState",
    "IllegalActionError",
    "Notation",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "ParlourError",
    "PositionError",
    "RecordError",
    "Seat",
    "game_names",
    "load_game",
    "rank",
]
