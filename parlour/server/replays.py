"""The replay viewer's states: a finished game at any action, from checkpoints (no full replay a request)."""

from __future__ import annotations

import dataclasses

from parlour.core.game import Game
from parlour.core.log import GameLog
from parlour.core.positions import JSONObject
from parlour.core.record import GameRecord, replay_steps, start_state
from parlour.core.state import GameState
from parlour.server.views import SeatJSON, log_json, seat_view

EVERY = 32
"""Moves between two checkpoints: a request replays at most this many moves."""


class Replayer:
    """A finished game's states at every EVERY-th action (made in one pass), and its whole log."""

    def __init__(self, game: Game, record: GameRecord) -> None:
        self.game, self.record = game, record
        self.log = GameLog()
        state = start_state(game, record)
        self.checkpoints: list[GameState] = [state.clone()]
        self.turns: list[dict[str, int]] = [{"turn": state.turns_played(), "step": 0}]
        """Where each turn starts: the first step whose table shows that turn (the viewer's jumps)."""
        for number in replay_steps(state, record, self.log):
            if number % EVERY == 0:
                self.checkpoints.append(state.clone())
            if state.turns_played() != self.turns[-1]["turn"]:
                self.turns.append({"turn": state.turns_played(), "step": number})

    def state_at(self, step: int) -> GameState:
        """Returns the state after ``step`` actions (0 to the number of moves)."""
        start = min(step // EVERY, len(self.checkpoints) - 1)
        state = self.checkpoints[start].clone()
        rest = dataclasses.replace(self.record, moves=self.record.moves[start * EVERY : step])
        for _ in replay_steps(state, rest):
            pass
        return state

    def view(self, step: int, viewer: int | None, seats: list[SeatJSON]) -> JSONObject:
        """Returns the replay viewer's message: the table after ``step`` actions as ``viewer`` saw it
        (None: everything revealed) with the log up to there."""
        state = self.state_at(step)
        entries = self.log.entries[:step]
        view = seat_view(state, self.log, viewer, step, seats, log_since=len(self.log))
        view["type"], view["log_since"] = "replay", 0
        view["asked"], view["legal"], view["only_pass"] = False, [], False  # nothing to play in a replay
        view["ends_turn"] = []
        view["moves"] = len(self.record.moves)
        view["turns"] = self.turns
        view["log"] = log_json(entries, viewer, reveal=viewer is None)
        if viewer is None:  # the game is over: every seat's own view, hidden cards and all
            view["revealed"] = [state.render(seat) for seat in range(state.players)]
        return view
