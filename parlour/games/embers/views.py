"""What a seat sees of Embers (its typed observation) and the table drawn as text from it."""

from __future__ import annotations

from typing import Literal, TypedDict

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


def render_text(obs: Observation) -> str:
    """Returns the table as text, as the observation's seat sees it."""
    status = "the game is over" if obs["over"] else f"seat {obs['active']}'s turn"
    lines = [f"Embers, turn {obs['turn']}: {status}"]
    fire = " ".join(obs["fire"]) or "empty"
    lines.append(f"Fire: {fire} (total {obs['fire_total']}; taken at {obs['blaze']})")
    lines.append(f"Draw pile: {obs['draw_size']} cards   Discard: {' '.join(obs['discard']) or 'none'}")
    if obs["play"] is not None:
        lines.append(_play_line(obs["play"], obs["active"], obs["dousers"]))
    for seat in range(obs["players"]):
        mark = "  <- to act" if seat in obs["deciders"] else ""
        lines.append(f"seat {seat}: {obs['hand_sizes'][seat]} cards, {obs['scores'][seat]} points{mark}")
    if obs["hand"] is not None:
        lines.append(f"Your hand: {' '.join(obs['hand']) or 'empty'}")
    return "\n".join(lines)


def _play_line(play: str, player: int, dousers: list[int]) -> str:
    """Returns the line saying which ember is being answered and who doused it."""
    doused = ", ".join(f"seat {seat}" for seat in dousers)
    return f"In play: seat {player}'s {play}" + (f", doused by {doused}" if dousers else "")
