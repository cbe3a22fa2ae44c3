"""A record's decisions worth judging: replayed move by move, routine steps grouped under the choice
they follow, each judged decision handed on as a job (the position just before it)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from parlour.analysis.report import AnalysisError
from parlour.analysis.settings import Budget
from parlour.bots.ismcts import STEP_BACK, searched
from parlour.core.chance import Forced
from parlour.core.content import ContentSets
from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.core.notation import Action
from parlour.core.positions import JSONObject
from parlour.core.record import GameRecord, check_values, start_state
from parlour.core.state import GameState

MAX_MOVES = 100_000
"""The most moves a record analysed may hold."""


@dataclass(frozen=True)
class DecisionJob:
    """One decision to judge, as a worker receives it: the state just before it (the worker asks it only
    for the seat's determinisations and legal actions), who decided, what was played."""

    game: str
    content: ContentSets
    position: JSONObject
    seat: int
    move: int
    turn: int
    played: str
    seed: int
    budget: Budget
    routine: list[str] = field(default_factory=list)
    hindsight: bool = False
    """Judge from the real cards (everything revealed) instead of the seat's determinisations."""
    values: list[tuple[str, float]] | None = None
    """The values the seat's own bot gave the legal actions (from the record), shown beside the verdict."""


def decision_seed(seed: int, move: int) -> int:
    """Returns the seed of the decision at ``move`` (independent of workers and of the other seats)."""
    return (seed * 1_000_003 + move) % 2**63


def judged(state: GameState, seat: int, action: object) -> bool:
    """Returns whether a seat's action is a choice to judge: more than one action to weigh (steps back
    left out), not a routine step (``routine_decision``), not itself a step back."""
    if isinstance(action, Action) and action.verb in STEP_BACK:
        return False
    return len(searched(list(state.legal_actions(seat)))) > 1 and not state.routine_decision()


def find_decisions(
    game: Game, record: GameRecord, seats: Collection[int], seed: int, budget: Budget, hindsight: bool = False
) -> tuple[list[DecisionJob], GameState]:
    """Replays ``record`` and returns the jobs of the judged decisions of ``seats`` (routine steps
    attached to the decision before them when nobody else acted in between) and the final state
    (``hindsight``: the jobs judge from the real cards)."""
    if len(record.moves) > MAX_MOVES:
        raise AnalysisError(f"a record of more than {MAX_MOVES:,} moves is not analysed")
    try:
        state = start_state(game, record)
    except ParlourError as err:
        raise AnalysisError(f"the record cannot be replayed: {err}") from None
    jobs: list[DecisionJob] = []
    last: dict[int, DecisionJob | None] = {}
    for index, move in enumerate(record.moves):
        try:
            action = state.parse_action(move.action)
            chosen = move.seat in seats and judged(state, move.seat, action)
            if chosen:
                job = DecisionJob(
                    game.name,
                    game.content_sets,
                    state.to_position(),
                    move.seat,
                    index,
                    state.turns_played(),
                    state.format_action(action),
                    decision_seed(seed, index),
                    budget,
                    hindsight=hindsight,
                    values=_bot_values(state, move.seat, move.values),
                )
                jobs.append(job)
            state.chance.forced.extend(Forced(f.kind, f.value) for f in move.forced)
            state.apply(action, move.seat)
        except ParlourError as err:
            raise AnalysisError(
                f"move {index + 1} ({move.action[:40]!r} by seat {move.seat}): {err}"
            ) from None
        previous = last.get(move.seat)
        if chosen:
            last = {move.seat: job}
        elif previous is not None:
            previous.routine.append(move.action)
            last = {move.seat: previous}
        else:
            last = {}
    return jobs, state


def _bot_values(
    state: GameState, seat: int, values: tuple[float, ...] | None
) -> list[tuple[str, float]] | None:
    """Returns a move's recorded bot values paired with the legal actions' texts (None without values)."""
    if values is None:
        return None
    check_values(state, seat, values)
    return [(state.format_action(a), v) for a, v in zip(state.legal_actions(seat), values, strict=True)]
