"""Staging a step's position: a fresh deal with forced chance outcomes, then the setup actions played."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from parlour.core.chance import ORDER, Chance, Forced
from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.core.state import Event, GameState
from parlour.tutorials.format import Script, Setup, TutorialError

T = TypeVar("T")
SEAT_PREFIX = re.compile(r"seat (\d+): (.+)")
"""An action naming the seat that plays it (``seat 2: offer G 1``), for an open window where several
seats may act and the first listed is not the one the lesson needs."""


class StagedChance(Chance):
    """Chance whose forced pile orders may name only the top of the pile: the rest follow in the
    pile's own order, so a lesson stages the few cards it needs and no more."""

    def shuffle(self, items: Sequence[T], name_of: Callable[[T], str] = str) -> list[T]:
        """Returns the items in the forced order (completed from the pile), else shuffled."""
        head = self.forced[0] if self.forced else None
        if head is not None and head.kind == ORDER and isinstance(head.value, list):
            names = [str(name_of(item)) for item in items]
            self.forced[0] = Forced(ORDER, complete_order(head.value, names))
        return super().shuffle(items, name_of)


def complete_order(top: Sequence[str], pile: Sequence[str]) -> list[str]:
    """Returns ``top`` followed by the pile's other names in the pile's order; refuses a name the pile
    lacks (or names more often than it holds)."""
    left = list(pile)
    for name in top:
        if name not in left:
            raise TutorialError(f"the forced order names {name[:40]!r}, which the pile does not hold (again)")
        left.remove(name)
    return [*top, *left]


def stage(game: Game, script: Script, setup: Setup) -> GameState:
    """Returns the position a setup stages: the deal under its forced outcomes, then its actions."""
    chance = StagedChance(setup.seed, 0, list(setup.chance))
    try:
        state = game.new_state(script.players, setup.seed, dict(script.options), chance=chance)
    except ParlourError as err:
        raise TutorialError(f"setup: the deal is refused: {err}") from None
    for number, text in enumerate(setup.actions, 1):
        try:
            play(state, text)
        except ParlourError as err:
            raise TutorialError(f"setup action {number} {text!r}: {err}") from None
    return state


def play(state: GameState, text: str) -> list[Event]:
    """Plays ``text`` for the seat deciding now (the first listed), or for the seat it names
    (``seat S: ACTION``, which must be among the deciders); raises a ParlourError with the engine's reason."""
    if state.is_over():
        raise TutorialError("the game is over")
    seat = state.deciders()[0]
    if named := SEAT_PREFIX.fullmatch(text.strip()):
        seat, text = int(named.group(1)), named.group(2)
        if seat not in state.deciders():
            raise TutorialError(f"{state.seat_name(seat)} is not asked to act now")
    action = state.parse_action(text)
    if not state.is_legal(action, seat):
        raise TutorialError(f"not legal for {state.seat_name(seat)}: {state.why_illegal(action, seat)}")
    return state.apply(action, seat)
