"""``analyse(record, ...)``: every judged decision of the chosen seats, spread over workers, summarised."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection

from parlour.analysis.decisions import DecisionJob, find_decisions
from parlour.analysis.intervals import interval
from parlour.analysis.report import Analysis, AnalysisError, Judgement, Loss, PlayerReport
from parlour.analysis.rollouts import DIGITS, Verdict, judge, rollout_bot
from parlour.analysis.settings import MARKS, Budget, accuracy, mark, thresholds
from parlour.analysis.share import PLACE_WEIGHT, shares
from parlour.bots.workers import open_runner
from parlour.core.content import ContentSets
from parlour.core.errors import ParlourError
from parlour.core.record import GameRecord
from parlour.core.registry import load_game

PERSON = "human"
"""The seat name records give a person (``parlour play``, the server)."""
SHARE_TEXT = (
    f"{PLACE_WEIGHT:g} x place points (winners first; ties split) + {1 - PLACE_WEIGHT:g} x score share"
)
"""What a share is, as every analysis document states it."""
BIGGEST = 10
"""How many of the biggest losses the analysis lists."""

Progress = Callable[[int, int], None]
"""Told ``(decisions judged, decisions in all)`` as each decision is judged."""


def person_seats(record: GameRecord) -> list[int]:
    """Returns the seats a person played (named ``human`` in the record)."""
    return [s for s, name in enumerate(record.seats[: record.players]) if name == PERSON]


def seat_name(record: GameRecord, seat: int) -> str:
    """Returns a seat's name as the record gives it, made printable and at most 60 characters."""
    name = record.seats[seat] if seat < len(record.seats) else "?"
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)
    return shown[:60]


def choose_seats(record: GameRecord, seats: Collection[int] | None, all_seats: bool) -> list[int]:
    """Returns the seats to analyse: those given, every seat, or else every person's seat (the
    record's number of players checked against its game first)."""
    try:
        load_game(record.game).check_players(record.players)
    except ParlourError as err:
        raise AnalysisError(f"the record cannot be analysed: {err}") from None
    if seats:
        for seat in seats:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < record.players:
                raise AnalysisError(
                    f"seat {str(seat)[:12]} is not a seat of this {record.players}-player game "
                    f"(0 to {record.players - 1})"
                )
        return sorted(set(seats))
    if all_seats:
        return list(range(record.players))
    found = person_seats(record)
    if not found:
        raise AnalysisError("no seat of this record was played by a person: give --seat S or --all-seats")
    return found


def analyse(
    record: GameRecord,
    seats: Collection[int] | None = None,
    *,
    seat: int | None = None,
    all_seats: bool = False,
    budget: Budget | int | str | None = None,
    seed: int = 0,
    workers: int | None = None,
    workers_max: int | None = None,
    backend: str = "local",
    progress: Progress | None = None,
    content: ContentSets | None = None,
    moves: Collection[int] | None = None,
    hindsight: bool = False,
    start_method: str | None = None,
    watch: Callable[[], None] | None = None,
    nice: int = 0,
) -> Analysis:
    """Analyses a finished game's record: each judged decision of ``seats`` (or the one ``seat``;
    default: the persons'; every seat with ``all_seats``) from that seat's information set, ``budget``
    determinisations a decision (a number, or a Budget or its text: ``12``, ``2s``).

    The same ``seed`` gives the same result whatever the backend and the workers (each decision is seeded
    by its move alone). Blocking and CPU-bound: a server calls it off its event loop, in a worker
    thread or process; ``progress`` is called in the calling thread as each decision is judged.
    ``moves`` (indexes in the record's moves) keeps only the decisions at those moves. ``hindsight``
    judges from the real cards instead (everything revealed; the result's ``view`` says so).
    ``start_method`` is how local worker processes start (None: the platform's default; a server
    gives "spawn"); ``watch`` is called about twice a second while a verdict is awaited (its exception
    ends the analysis, the workers terminated); ``nice`` lowers the workers' priority.
    """
    if isinstance(budget, str):
        budget = Budget.parse(budget)
    elif isinstance(budget, int):
        budget = Budget.parse(str(budget))
    budget = budget or Budget()
    if seat is not None:
        seats = [*(seats or ()), seat]
    game = load_game(record.game).with_content(content or ContentSets())
    chosen = choose_seats(record, seats, all_seats)
    jobs, final_state = find_decisions(game, record, chosen, seed, budget, hindsight)
    if moves is not None:
        jobs = [job for job in jobs if job.move in moves]
    if not final_state.is_over():
        raise AnalysisError(
            "the game is not over: an analysis shows each seat's choices, which tell its hidden cards; "
            "analyse it once the game has ended"
        )
    verdicts: dict[int, Verdict] = {}
    with open_runner(backend, workers, workers_max, start_method, watch, nice) as runner:
        for verdict in runner.run(judge, jobs):
            verdicts[verdict.move] = verdict
            if progress is not None:
                progress(len(verdicts), len(jobs))
    judgements = [_judgement(job, verdicts[job.move], record.players) for job in jobs]
    final = [round(x, DIGITS) for x in shares(final_state)]
    summary = [_player(seat, record, judgements, final) for seat in chosen]
    worst = sorted((j for j in judgements if j.loss > 0), key=lambda j: (-j.loss, j.move))[:BIGGEST]
    return Analysis(
        game=game.name,
        players=record.players,
        seats=[seat_name(record, s) for s in range(record.players)],
        moves=len(record.moves),
        analysed=chosen,
        seed=seed,
        budget=budget.describe(),
        rollout=rollout_bot(game),
        share=SHARE_TEXT,
        thresholds=thresholds(record.players),
        final=final,
        decisions=judgements,
        summary=summary,
        biggest=[Loss(j.move, j.seat, j.played, j.best, j.loss, j.mark) for j in worst],
        view="hindsight" if hindsight else "seat",
    )


def _judgement(job: DecisionJob, verdict: Verdict, players: int) -> Judgement:
    """Returns a decision's judgement from its job and its verdict: the played action's loss and mark."""
    values = {v.action: v for v in verdict.actions}
    played, best = values[verdict.played], values[verdict.best]
    return Judgement(
        move=job.move,
        seat=job.seat,
        turn=job.turn,
        played=verdict.played,
        routine=list(job.routine),
        legal=verdict.legal,
        actions=verdict.actions,
        best=verdict.best,
        before=best.mean,
        after=played.mean,
        loss=played.loss,
        loss_low=played.loss_low,
        loss_high=played.loss_high,
        mark=mark(played.loss_low, players),
        values=job.values,
    )


def clear_loss(judgement: Judgement) -> float:
    """Returns a decision's loss when its 95% interval lies above 0, else 0: the best of several noisy
    means is biased upwards, so a loss the samples cannot tell from none counts as none."""
    return judgement.loss if judgement.loss_low > 0 else 0.0


def _player(seat: int, record: GameRecord, judgements: list[Judgement], final: list[float]) -> PlayerReport:
    """Returns one seat's summary: accuracy (mean of each decision's), mean loss with its interval, the
    marks, and its swings told apart (own losses, and the rest: luck). Each counts a decision's clear
    loss (``clear_loss``)."""
    own = [j for j in judgements if j.seat == seat]
    losses = [clear_loss(j) for j in own]
    mean, low, high = interval(losses) if losses else (0.0, 0.0, 0.0)
    fair = 1.0 / record.players
    own_losses = math.fsum(losses)
    return PlayerReport(
        seat=seat,
        name=seat_name(record, seat),
        decisions=len(own),
        accuracy=round(
            math.fsum(accuracy(x, record.players) for x in losses) / len(losses) if losses else 100.0, 2
        ),
        mean_loss=round(mean, DIGITS),
        mean_loss_low=round(low, DIGITS),
        mean_loss_high=round(high, DIGITS),
        marks={name: sum(1 for j in own if j.mark == name) for name, _ in MARKS},
        own_losses=round(own_losses, DIGITS),
        luck=round(final[seat] - fair + own_losses, DIGITS),
        fair=round(fair, DIGITS),
        final=final[seat],
        timeline=[(j.move, j.before, j.after) for j in own],
    )
