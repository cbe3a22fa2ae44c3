"""Rulebook "Game Play": placing the marker, the turn's choice, the roll, drawing and the hand limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.decisions import RawDecision
from parlour.games.im_the_boss.actions import Action
from parlour.games.im_the_boss.content import RECRUIT
from parlour.games.im_the_boss.options import DRAW, HAND_LIMIT, MUST_DEAL_HAND, TRIPLE
from parlour.games.im_the_boss.phases import ARRIVE, LIMIT, TURN

if TYPE_CHECKING:
    from parlour.games.im_the_boss.state import BossState

DEAL, ROLL, DRAW_VERB = Action("deal"), Action("roll"), Action("draw")


def free_spaces(state: BossState) -> list[int]:
    """Returns the indexes of the spaces no deal card covers."""
    return [i for i, n in enumerate(state.covered) if n is None]


def advance(state: BossState, start: int, steps: int) -> int:
    """Returns the space ``steps`` free spaces clockwise from ``start`` (covered ones skipped)."""
    spaces = len(state.covered)
    where = start
    for _ in range(steps):
        where = (where + 1) % spaces
        while state.covered[where] is not None:
            where = (where + 1) % spaces
    return where


def recruit_targets(state: BossState, seat: int) -> str:
    """Returns the placards a triple by ``seat`` may take: spares first, else other players' ones."""
    if state.count(seat, RECRUIT) < TRIPLE:
        return ""
    spares = state.spares()
    if spares:
        return spares
    return "".join(c for c, s in state.owners.items() if s is not None and s != seat)


# ------------------------------------------------------------------ marker
def marker_actions(state: BossState) -> list[Action]:
    """Returns ``marker N`` for every free space."""
    return [Action("marker", number=i + 1) for i in free_spaces(state)]


def place_marker(state: BossState, seat: int, action: Action) -> None:
    """Places the marker and starts the first player's turn."""
    state.marker = action.number - 1
    state.emit(f"Seat {seat} places the marker on space {action.number}.")
    state.stack.pop()
    start_turn(state, state.first)


# ------------------------------------------------------------------ turn
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
    state.stack.push(RawDecision(TURN, [seat]))


def turn_actions(state: BossState) -> list[Action]:
    """Returns the turn's choice: try the deal here, or roll."""
    return [DEAL, ROLL]


def arrive_actions(state: BossState) -> list[Action]:
    """Returns the choice after the roll: try this deal, or draw three (not under must_deal)."""
    return [DEAL] if state.must_deal else [DEAL, DRAW_VERB]


def roll(state: BossState, seat: int) -> None:
    """Rolls the die and moves the marker clockwise, skipping covered spaces."""
    assert state.marker is not None
    pips = state.chance.roll(state.content.die)
    state.marker = advance(state, state.marker, pips)
    state.emit(f"Seat {seat} rolls {pips}: the marker moves to space {state.marker + 1}.")
    state.stack.top.kind = ARRIVE


def draw_three(state: BossState, seat: int) -> None:
    """Draws three cards; over the hand limit, the player must discard or play a triple."""
    drawn = draw_cards(state, seat, DRAW)
    if state.logging:
        names = ", ".join(state.name(c) for c in drawn)
        state.emit(f"Seat {seat} draws {len(drawn)} cards.", seat, f"you drew {names}")
    state.stack.pop()
    if len(state.hands[seat]) > HAND_LIMIT:
        state.stack.push(RawDecision(LIMIT, [seat]))
    else:
        next_turn(state, seat)


def draw_cards(state: BossState, seat: int, count: int) -> list[int]:
    """Moves up to ``count`` cards from the deck to a hand, reshuffling when the deck runs out (A-04)."""
    drawn = []
    for _ in range(count):
        if not state.draw:
            reshuffle(state)
        if not state.draw:
            break
        drawn.append(state.draw.pop(0))
        if not state.draw:
            reshuffle(state)
    state.hands[seat] += drawn
    return drawn


def reshuffle(state: BossState) -> None:
    """Shuffles the discard pile into a new deck (ruling A-04: the moment the deck is exhausted)."""
    if state.discard:
        state.draw = state.chance.shuffle(state.discard, state.name)
        state.discard = []
        state.emit("The deck is exhausted: the discard pile is shuffled into a new deck.")


# ------------------------------------------------------------------ hand limit
def limit_actions(state: BossState, seat: int) -> list[Action]:
    """Returns ``discard CARD`` for each kind held and ``recruit C`` for each target of a triple."""
    names = sorted({state.name(c) for c in state.hands[seat]})
    actions = [Action("discard", card=n) for n in names]
    return actions + [Action("recruit", colour=c) for c in recruit_targets(state, seat)]


def limit_apply(state: BossState, seat: int, action: Action) -> None:
    """Discards one card or plays a triple (no Stop outside a negotiation, ruling A-02)."""
    if action.verb == "discard":
        card = state.holding(seat, action.card)[0]
        state.hands[seat].remove(card)
        state.discard.append(card)
        state.emit(f"Seat {seat} discards {action.card} (hand limit).")
    else:
        state.discard += spend_triple(state, seat)
        state.emit(f"Seat {seat} plays a Recruitment triple instead of discarding (hand limit).")
        take_placard(state, seat, action.colour)
    if len(state.hands[seat]) <= HAND_LIMIT:
        state.stack.pop()
        next_turn(state, seat)


def spend_triple(state: BossState, seat: int) -> list[int]:
    """Removes three Recruitment cards from a hand and returns them."""
    cards = state.holding(seat, RECRUIT)[:TRIPLE]
    for card in cards:
        state.hands[seat].remove(card)
    return cards


def take_placard(state: BossState, seat: int, colour: str) -> None:
    """Makes the ``colour`` placard ``seat``'s own."""
    before = state.owners[colour]
    state.owners[colour] = seat
    source = "beside the board" if before is None else f"seat {before}"
    state.emit(f"Seat {seat} recruits the {colour} placard from {source}.")


def next_turn(state: BossState, seat: int) -> None:
    """Passes the turn to the player on ``seat``'s left."""
    start_turn(state, (seat + 1) % state.players)
