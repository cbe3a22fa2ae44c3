"""What a seat sees of Embers: its typed observation, and the table drawn as text from it."""

from __future__ import annotations

from typing import Literal, TypedDict

from parlour.core.decisions import Seat
from parlour.games.embers.state import EmbersState

DecisionKind = Literal["turn", "answer"]
"""The decisions Embers asks (``turn.Turn`` and ``answers.Answers``)."""


class Observation(TypedDict):
    """What one seat (or a spectator) may know: its own hand, and everything face up."""

    seat: int | None
    """The viewer (None: a spectator)."""
    players: int
    hand: list[str] | None
    """The viewer's cards, sorted (None for a spectator): nobody else's hand is ever shown."""
    hand_sizes: list[int]
    draw_size: int
    fire: list[str]
    """The embers in the fire, in the order they stood."""
    fire_total: int
    blaze: int
    """The total at which the fire is taken (rule 5.2)."""
    discard: list[str]
    taken: list[list[str]]
    """Each seat's score pile (face up: every card in it is a point)."""
    scores: list[int]
    play: str | None
    """The ember being answered (rule 4), or None."""
    dousers: list[int]
    """The seats that laid a douse card on it, in order."""
    active: int
    """Whose turn it is."""
    turn: int
    decision: DecisionKind | None
    deciders: list[int]
    over: bool


def observation(state: EmbersState, seat: Seat | None) -> Observation:
    """Returns what ``seat`` (None: a spectator) may know: its own hand and the public table."""
    return Observation(
        seat=seat,
        players=state.players,
        hand=None if seat is None else list(state.hands[seat]),
        hand_sizes=[len(hand) for hand in state.hands],
        draw_size=len(state.draw),
        fire=list(state.fire),
        fire_total=state.fire_total(),
        blaze=state.content.blaze,
        discard=list(state.discard),
        taken=[list(pile) for pile in state.taken],
        scores=[len(pile) for pile in state.taken],
        play=state.play,
        dousers=list(state.dousers),
        active=state.active,
        turn=state.turn,
        decision=None if state.over else "turn" if state.play is None else "answer",
        deciders=list(state.deciders()),
        over=state.over,
    )


def render_text(state: EmbersState, seat: Seat | None) -> str:
    """Returns the table as text, as ``seat`` (None: a spectator) sees it: drawn from the seat's
    observation alone, so the terminal shows exactly what the seat is sent."""
    view = observation(state, seat)
    status = "the game is over" if view["over"] else f"seat {view['active']}'s turn"
    lines = [f"Embers, turn {view['turn']}: {status}"]
    fire = " ".join(view["fire"]) or "empty"
    lines.append(f"Fire: {fire} (total {view['fire_total']}; taken at {view['blaze']})")
    lines.append(f"Draw pile: {view['draw_size']} cards   Discard: {' '.join(view['discard']) or 'none'}")
    if view["play"] is not None:
        lines.append(_play_line(view["play"], view["active"], view["dousers"]))
    for other in range(view["players"]):
        mark = "  <- to act" if other in view["deciders"] else ""
        lines.append(f"seat {other}: {view['hand_sizes'][other]} cards, {view['scores'][other]} points{mark}")
    if view["hand"] is not None:
        lines.append(f"Your hand: {' '.join(view['hand']) or 'empty'}")
    return "\n".join(lines)


def _play_line(play: str, player: int, dousers: list[int]) -> str:
    """Returns the line saying which ember is being answered and who doused it."""
    doused = ", ".join(f"seat {seat}" for seat in dousers)
    return f"In play: seat {player}'s {play}" + (f", doused by {doused}" if dousers else "")
