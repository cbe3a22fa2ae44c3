"""What the server sends each seat: computed only from what that seat may know.

A seat gets its own observation, its legal actions (only while it is asked), its redacted log, the
public clock and chat; a spectator the public observation and public log. The seed, the moves' forced
outcomes and unseen cards never appear before the game is over; afterwards the results carry the final
scoring step by step (and the seed, so anyone can replay the record).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TypedDict

from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.core.log import GameLog, LogEntry
from parlour.core.record import GameRecord, replay_steps, start_state
from parlour.core.state import GameState

PROTOCOL = 1
"""The protocol version every message carries (docs/server.md)."""
MAX_TRIED = 400
"""The most legal actions tried out to tell which end the turn (more: none is marked)."""


class SeatJSON(TypedDict):
    """A seat as every message describes it: who plays it, its person's name, whether it is connected,
    its clock."""

    seat: int
    kind: str
    bot: str | None
    stand_in: str | None
    connected: bool
    time_left: float | None
    name: str | None
    bot_account: bool
    """Whether a server bot account plays it (kind human, no person: no away, no votes)."""
    timeouts: int
    """How often its person's clock ran out."""
    away_left: float | None
    """What is left of a turn-based table's away reserve (seconds)."""
    votes: list[int]
    """The seats whose persons voted to replace its person by a bot."""
    replaced: bool
    """Whether the others' vote gave the seat to a bot for the rest of the game."""


class LogJSON(TypedDict):
    """A log entry as ``viewer`` may see it, with the server's note on an automatic move."""

    number: int
    turn: int
    turn_player: int | None
    seat: int
    action: str
    lines: list[str]
    note: str | None


def log_json(
    entries: list[LogEntry], viewer: int | None, reveal: bool = False, notes: Mapping[int, str] | None = None
) -> list[LogJSON]:
    """Returns log entries as ``viewer`` may see them (``reveal``: every secret, once the game is over),
    each with the server's note on an automatic move, if any ("the clock ran out")."""
    notes = notes or {}
    return [
        {
            "number": e.number,
            "turn": e.turn,
            "turn_player": e.turn_player,
            "seat": e.seat,
            "action": e.action,
            "lines": e.revealed() if reveal else e.lines(viewer),
            "note": notes.get(e.number),
        }
        for e in entries
    ]


def seat_view(
    state: GameState,
    log: GameLog,
    viewer: int | None,
    version: int,
    seats: list[SeatJSON],
    log_since: int = 0,
    notes: Mapping[int, str] | None = None,
) -> dict[str, object]:
    """Returns the whole table as ``viewer`` (None: a spectator) may see it, at ``version``; the log
    from entry ``log_since`` on (a client that has the earlier entries keeps them)."""
    over = state.is_over()
    deciders = list(state.deciders())
    asked = viewer is not None and viewer in deciders
    actions = state.legal_actions(viewer) if asked and viewer is not None else []
    legal = [state.format_action(a) for a in actions]
    view: dict[str, object] = {
        "type": "table",
        "protocol": PROTOCOL,
        "version": version,
        "game": state.game_name,
        "players": state.players,
        "seat": viewer,
        "seats": seats,
        "names": [state.seat_name(s) for s in range(state.players)],
        "turn": state.turns_played(),
        "turn_player": state.turn_player(),
        "summary": state.decision_summary(),
        "deciders": deciders,
        "asked": asked,
        "legal": legal,
        "ends_turn": turn_enders(state, viewer, actions) if viewer is not None else [],
        "only_pass": bool(asked and viewer is not None and state.only_pass(viewer)),
        "passing_window": state.passing_window() if not over else False,
        "observation": state.observation(viewer) if viewer is not None else state.public_observation(),
        "text": state.render(viewer),
        "log_since": log_since,
        "log": log_json(log.since(log_since), viewer, notes=notes),
        "over": over,
    }
    if over:
        view["results"] = results(state)
    return view


def turn_enders(state: GameState, viewer: int, actions: Sequence[object]) -> list[str]:
    """Returns which of the turn player's legal actions end their turn (the turn passes, or the game
    ends), each tried on a copy of a determinisation from the viewer's own view with a fixed seed: the
    answer depends only on what the viewer knows, never on a hidden card or a future die."""
    if not actions or state.turn_player() != viewer or len(actions) > MAX_TRIED:
        return []
    world = state.determinize(viewer, random.Random(0))
    turn, player = world.turns_played(), world.turn_player()
    ends = []
    for action in actions:
        trial = world.clone()
        try:
            trial.apply(action, viewer)
        except ParlourError:
            continue  # not legal in this determinisation: not marked
        if trial.is_over() or trial.turn_player() != player or trial.turns_played() != turn:
            ends.append(state.format_action(action))
    return ends


def results(state: GameState) -> dict[str, object]:
    """Returns a finished game's results: scores, ranks, winners, the scoring step by step, why it ended."""
    return {
        "scores": state.scores(),
        "ranking": state.ranking(),
        "winners": state.winners(),
        "end_reason": state.end_reason(),
        "steps": [{"seat": s.seat, "label": s.label, "points": s.points} for s in state.score_steps()],
    }


def score_timeline(game: Game, record: GameRecord) -> list[dict[str, object]]:
    """Returns a finished game's scores over time: at the start, at each new turn and at the end
    (each point names the turn and the number of moves made), for the results page's plot."""
    state = start_state(game, record)
    points = [{"turn": state.turns_played(), "move": 0, "scores": list(state.scores())}]
    for number in replay_steps(state, record):
        if state.turns_played() != points[-1]["turn"] or number == len(record.moves):
            points.append({"turn": state.turns_played(), "move": number, "scores": list(state.scores())})
    return points
