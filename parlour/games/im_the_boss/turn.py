"""Rulebook "Game Play": placing the marker, the turn's choice, the roll, drawing and the hand limit."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.decisions import Seat
from parlour.games.im_the_boss.actions import (
    DEAL,
    DRAW,
    ROLL,
    BossAction,
    Deal,
    Discard,
    Marker,
    Recruit,
)
from parlour.games.im_the_boss.bargain import open_negotiation
from parlour.games.im_the_boss.options import DRAW as DRAWN
from parlour.games.im_the_boss.options import HAND_LIMIT, MUST_DEAL_HAND
from parlour.games.im_the_boss.pieces import (
    advance,
    draw_cards,
    free_spaces,
    recruit_targets,
    spend_triple,
    take_placard,
)
from parlour.games.im_the_boss.state import BossDecision, BossState


@dataclass(eq=False, kw_only=True)
class TurnDecision(BossDecision):
    """A decision of the player whose turn it is (or, for the marker, of the player to the first's right)."""

    def order(self, state: BossState) -> tuple[list[Seat], str, bool]:
        """The current seat."""
        return [state.current], f"the current seat {state.current}", True


@dataclass(eq=False, kw_only=True)
class PlaceMarker(TurnDecision):
    """Before the first turn, the player to the first player's right places the marker on any space."""

    kind = "marker"
    phase = "the marker is being placed"

    def legal(self, state: BossState, seat: Seat) -> list[BossAction]:
        """Returns ``marker N`` for every free space."""
        return [Marker(i + 1) for i in free_spaces(state)]

    def apply(self, state: BossState, seat: Seat, action: BossAction) -> None:
        """Places the marker and starts the first player's turn."""
        assert isinstance(action, Marker)
        state.marker = action.number - 1
        state.emit(f"Seat {seat} places the marker on space {action.number}.")
        state.stack.pop()
        start_turn(state, state.first)

    def order(self, state: BossState) -> tuple[list[Seat], str, bool]:
        """The player to the first player's right."""
        return [(state.first - 1) % state.players], "the player to the first player's right", True


@dataclass(eq=False, kw_only=True)
class Turn(TurnDecision):
    """The turn's choice: try the deal where the marker stands, or roll."""

    kind = "turn"
    phase = "the turn's choice (deal or roll)"

    def legal(self, state: BossState, seat: Seat) -> list[BossAction]:
        """Returns ``deal`` and ``roll``."""
        return [DEAL, ROLL]

    def apply(self, state: BossState, seat: Seat, action: BossAction) -> None:
        """Opens the negotiation, or rolls the die and moves the marker (then: deal or draw)."""
        if isinstance(action, Deal):
            open_negotiation(state, seat)
            return
        assert state.marker is not None
        pips = state.chance.roll(state.content.die)
        state.marker = advance(state, state.marker, pips)
        state.emit(f"Seat {seat} rolls {pips}: the marker moves to space {state.marker + 1}.")
        state.stack.pop()
        state.stack.push(Arrive(seats=[seat]))


@dataclass(eq=False, kw_only=True)
class Arrive(TurnDecision):
    """After the roll: try the deal where the marker now stands, or draw three cards."""

    kind = "arrive"
    phase = "the choice after the roll (deal or draw)"

    def legal(self, state: BossState, seat: Seat) -> list[BossAction]:
        """Returns ``deal`` and ``draw`` (only ``deal`` under must_deal)."""
        return [DEAL] if state.must_deal else [DEAL, DRAW]

    def apply(self, state: BossState, seat: Seat, action: BossAction) -> None:
        """Opens the negotiation, or draws three cards (over the hand limit: discard or play a triple)."""
        if isinstance(action, Deal):
            open_negotiation(state, seat)
            return
        drawn = draw_cards(state, seat, DRAWN)
        if state.logging:
            names = ", ".join(state.name(c) for c in drawn)
            state.emit(f"Seat {seat} draws {len(drawn)} cards.", seat, f"you drew {names}")
        state.stack.pop()
        if len(state.hands[seat]) > HAND_LIMIT:
            state.stack.push(Limit(seats=[seat]))
        else:
            next_turn(state, seat)


@dataclass(eq=False, kw_only=True)
class Limit(TurnDecision):
    """Over 12 cards after drawing: discard one card, or play a Recruitment triple, until 12 are left."""

    kind = "limit"
    phase = "discarding down to 12 cards"

    def legal(self, state: BossState, seat: Seat) -> list[BossAction]:
        """Returns ``discard CARD`` for each kind held and ``recruit C`` for each target of a triple."""
        names = sorted({state.name(c) for c in state.hands[seat]})
        found: list[BossAction] = [Discard.of(n) for n in names]
        return found + [Recruit.of(c) for c in recruit_targets(state, seat)]

    def apply(self, state: BossState, seat: Seat, action: BossAction) -> None:
        """Discards one card or plays a triple (no Stop outside a negotiation, ruling A-02)."""
        if isinstance(action, Discard):
            card = state.holding(seat, action.card)[0]
            state.hands[seat].remove(card)
            state.discard.append(card)
            state.emit(f"Seat {seat} discards {action.card} (hand limit).")
        else:
            assert isinstance(action, Recruit)
            state.discard += spend_triple(state, seat)
            state.emit(f"Seat {seat} plays a Recruitment triple instead of discarding (hand limit).")
            take_placard(state, seat, action.colour)
        if len(state.hands[seat]) <= HAND_LIMIT:
            state.stack.pop()
            next_turn(state, seat)


def start_turn(state: BossState, seat: int) -> None:
    """Begins ``seat``'s turn, or ends the game at the turn limit (ruling B-3)."""
    limit = state.options["max_turns"]
    if limit and state.turn >= limit:
        state.over = True
        state.emit(f"The turn limit ({limit}) is reached: the game ends.")
        return
    state.turn += 1
    state.current = seat
    state.must_deal = state.options["must_deal"] == "yes" and len(state.hands[seat]) >= MUST_DEAL_HAND
    state.stack.push(Turn(seats=[seat]))


def next_turn(state: BossState, seat: int) -> None:
    """Passes the turn to the player on ``seat``'s left."""
    start_turn(state, (seat + 1) % state.players)
