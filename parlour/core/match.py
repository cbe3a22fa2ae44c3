"""Playing a whole game with agents at the seats, recording it as it goes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass

from parlour.core.agents import Agent, close_agents, given_values
from parlour.core.game import Game
from parlour.core.record import GameRecord
from parlour.core.state import Event, GameState


@dataclass
class MatchResult:
    """The end of a match: final state, record and how many actions were applied."""

    state: GameState
    record: GameRecord
    """The game's record: its header, and every move unless the match was played unrecorded."""
    actions: int
    first: int = 0
    """The seat whose turn came first (the start of the turn order: ``turn_player()`` when it first
    names a seat, not whoever set the game up before it; the first decider in a game without turns)."""
    recorded: bool = True
    """Whether ``record`` holds the moves (False: played unrecorded, the record cannot replay)."""


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    options: Mapping[str, object] | None = None,
    on_events: Callable[[GameState, list[Event]], None] | None = None,
    state: GameState | None = None,
    recorded: bool = True,
) -> MatchResult:
    """Plays a game to its end: whenever several seats may act, the first of ``deciders()`` acts; every
    agent that has a ``close`` is closed at the end, however the match ends (``close_agents``).

    Games list deciders in their deterministic order (I'm the Boss!: the Boss, then
    clockwise), the one bots, learning agents and replays use; ``on_events`` sees
    each action's events. Unrecorded (``recorded=False``: mass simulation, where the seed
    and the bots replay the game), the record holds the header only and no action is
    written in notation.
    """
    values = game.options(options)
    given = state
    if state is None:
        state = game.new_state(len(agents), seed, values)
    record = GameRecord(game.name, len(agents), seed, values, [a.name for a in agents])
    if given is not None:
        # Forced outcomes are recorded on the moves that consume them, not in the start.
        record.start = given.to_position()
        if isinstance(record.start.get("chance"), dict):
            record.start["chance"]["forced"] = []
    first_decider = state.deciders()[0] if not state.is_over() else 0
    try:
        if recorded or on_events is not None or state.chance.forced:
            actions, first = _play_recorded(state, agents, record if recorded else None, on_events)
        else:
            actions, first = _play_unrecorded(state, agents)
    except BaseException:
        with suppress(Exception):  # the match's own failure is the one to tell, not a close's
            close_agents(agents, None)
        raise
    close_agents(agents, state if state.is_over() else None)
    record.scores = state.scores()
    return MatchResult(state, record, actions, first_decider if first is None else first, recorded)


def _play_recorded(
    state: GameState,
    agents: Sequence[Agent],
    record: GameRecord | None,
    on_events: Callable[[GameState, list[Event]], None] | None,
) -> tuple[int, int | None]:
    """Plays to the end, writing each action (with the forced outcomes it used) into ``record``; returns
    the actions applied and the first turn's player (None: the game named none)."""
    actions = 0
    first = state.turn_player()
    while not state.is_over():
        seat = state.deciders()[0]
        action = agents[seat].choose(state, seat)
        forced = tuple(state.chance.forced)
        events = state.apply(action, seat)
        if record is not None:
            consumed = forced[: len(forced) - len(state.chance.forced)]
            record.add(seat, state.format_action(action), consumed, given_values(agents[seat]))
        actions += 1
        if on_events is not None:
            on_events(state, events)
        if first is None:
            first = state.turn_player()
    return actions, first


def _play_unrecorded(state: GameState, agents: Sequence[Agent]) -> tuple[int, int | None]:
    """Plays to the end with nothing written: each action still goes through ``apply`` (checked), quietly
    (no event texts); returns the actions applied and the first turn's player (None: the game named
    none)."""
    start = state.actions_applied
    deciders, apply, turn_player = state.deciders, state.apply, state.turn_player
    first = turn_player()
    while first is None and not state.over:  # setting up (I'm the Boss!'s marker): no turn yet
        seat = deciders()[0]
        apply(agents[seat].choose(state, seat), seat, quiet=True)
        first = turn_player()
    while not state.over:
        seat = deciders()[0]
        apply(agents[seat].choose(state, seat), seat, quiet=True)
    return state.actions_applied - start, first
