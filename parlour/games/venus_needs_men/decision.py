"""The base of every Venus Needs Men! decision: whom it asks, its checks in positions, and its refusals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from parlour.core.decisions import Decision
from parlour.core.errors import PositionError
from parlour.core.payloads import copy_value, record_fields
from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men.actions import (
    Attack,
    Collect,
    Control,
    Cycle,
    Move,
    Research,
    ShipAction,
    VenusAction,
    Zap,
)
from parlour.games.venus_needs_men.state import VenusState


@dataclass(eq=False, kw_only=True)
class VenusDecision(Decision[VenusState, VenusAction]):
    """A decision of a Venus Needs Men! turn (docs/positions.md lists the kinds and their payloads)."""

    phase: ClassVar[str] = ""
    """What the table is doing while the decision is open, for refusals ("moving", "a Zap window")."""
    own_turn: ClassVar[bool] = False
    """Whether the decision asks the active seat alone (its own turn's choices)."""
    cycles: ClassVar[bool] = False
    """Whether a face-up Upgrade may be discarded and replaced here (the action's first step)."""

    def copy(self) -> Self:
        """Returns a deep copy: its seats and every other field that may change in place copied, the
        rest shared (``Decision.copy``, without working out the fields for every copy)."""
        other = object.__new__(type(self))
        values = self.__dict__.copy()
        values["seats"] = self.seats.copy()
        for name in _changing(type(self)):
            values[name] = copy_value(values[name])
        other.__dict__ = values
        return other

    def close_unless(self, state: VenusState, more: bool) -> bool:
        """Takes this decision off the stack unless ``more`` is left to decide in it (an ``auto`` step);
        returns whether it did."""
        if more:
            return False
        state.stack.pop()
        return True

    def researcher(self, state: VenusState) -> str | None:
        """Returns the planet that may research in this decision (None: research is not a step here)."""
        return None

    def check(self, state: VenusState, path: str) -> None:
        """Refuses a stored decision whose seats or payload do not fit the state (types are read already)."""
        if self.concurrent:
            raise PositionError(f"{path}.concurrent", "Venus Needs Men! asks one seat at a time")
        if self.own_turn and self.seats != [state.active_seat]:
            raise PositionError(
                f"{path}.seats", f"the {self.kind} decision belongs to seat {state.active_seat}"
            )

    def why(self, state: VenusState, seat: int, action: VenusAction) -> str:
        """Returns why an action is not legal now: what the seat may do, or what is wrong with the ship."""
        if not isinstance(action, VenusAction):
            return f"it is not a Venus Needs Men! action (during {self.phase})"
        planet = self.researcher(state)
        if isinstance(action, Research | Cycle) and tech.is_enhanced(state) and planet is not None:
            return _why_not_research(state, action, planet, self.cycles)
        legal = state.legal_actions(seat)
        verbs = sorted({a.verb for a in legal})
        if action.verb not in verbs:
            return f"during {self.phase} {state.seat_name(seat)} may: {', '.join(verbs)}"
        if isinstance(action, ShipAction) and action.ship not in state.ships:
            return f"there is no spaceship {action.ship} in this game"
        if isinstance(action, Zap) and action.card not in state.hands[seat]:
            return f"you do not hold Zap card {action.card}"
        if isinstance(action, Move | Attack | Control | Collect):
            return _why_not_this_step(state, seat, action, [a for a in legal if isinstance(a, type(action))])
        return f"{action.verb} is possible now, but not with these arguments (type 'list' to see them)"


_CHANGING: dict[type, tuple[str, ...]] = {}


def _changing(kind: type) -> tuple[str, ...]:
    """Returns the fields of a decision class, seats aside, whose values may change in place."""
    found = _CHANGING.get(kind)
    if found is None:
        found = _CHANGING[kind] = tuple(
            f.name for f in record_fields(kind) if f.mutable and f.name != "seats"
        )
    return found


def _why_not_this_step(
    state: VenusState, seat: int, action: Move | Attack | Control | Collect, legal: list[VenusAction]
) -> str:
    """Returns why a ship's step is refused when steps of its kind are legal: where it may go instead,
    what it may attack, or why the ship may take no such step."""
    mine = [a for a in legal if isinstance(a, ShipAction) and a.ship == action.ship]
    if not mine:
        return _why_not_this_ship(state, seat, action.ship)
    if isinstance(action, Move):
        where = ", ".join(a.area for a in mine if isinstance(a, Move))
        return f"{action.ship} cannot move to {action.area} now; it may move to: {where}"
    if isinstance(action, Attack | Control):
        aims = sorted({a.target for a in mine if isinstance(a, Attack | Control)})
        return f"{action.ship} may {action.verb} only: {', '.join(aims)}"
    return f"{action.verb} is possible now, but not with these arguments (type 'list' to see them)"


def _why_not_this_ship(state: VenusState, seat: int, ship: str) -> str:
    """Returns why a ship may take no such step now: whose it is, on the board, already acted, disabled."""
    if state.ships.get(ship) is None:
        return f"{ship} is not on the board"
    commander = state.controller(ship)
    if state.seat_of.get(commander) != seat:
        return f"{ship} is commanded by {state.planet(commander).name}"
    if ship in state.disabled:
        return f"{ship} is disabled (Robotic) until Pluto's next turn"
    if ship in state.seized:
        return f"{ship} was taken over this turn: it acts from Mars's next turn"
    if ship in state.acted:
        return f"{ship} has already taken its step in this action"
    return f"{ship} cannot do that from {state.board.area(state.ships[ship] or '').name}"


def _why_not_research(state: VenusState, action: Research | Cycle, planet: str, may_cycle: bool) -> str:
    """Returns why ``research ID`` or ``cycle ID`` is refused: no such Upgrade, not face up, or (research)
    a duplicate of, or obsoleted by, a card the player has (rulebook, "Research Action")."""
    upgrades = state.tech.upgrades
    face_up = ", ".join(f"{u} ({upgrades[u].name})" for u in sorted(set(state.face_up))) or "none"
    if action.upgrade not in upgrades:
        return f"there is no Upgrade {action.upgrade!r} (face up: {face_up})"
    card = upgrades[action.upgrade]
    if action.upgrade not in state.face_up:
        return f"{card.name} is not face up (face up: {face_up})"
    if isinstance(action, Cycle):
        if may_cycle and not state.cycled:
            return f"{card.name} may be discarded now"
        return "a face-up Upgrade may be discarded once a turn, before the action"
    reason = tech.why_not_researchable(state, planet, action.upgrade)
    return reason or f"{card.name} cannot be researched now"
