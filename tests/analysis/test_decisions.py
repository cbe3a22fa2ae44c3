"""Which decisions are judged: real choices only; payments, placements and forced moves are grouped
under the choice they follow; decision seeds depend on the move alone."""

from __future__ import annotations

from parlour.analysis.decisions import decision_seed, find_decisions
from parlour.analysis.settings import Budget
from parlour.core.registry import load_game

from .games import bots_record


def test_venture_routine_steps_follow_their_transaction() -> None:
    game = load_game("venture")
    record = bots_record("venture", ["quick", "quick", "quick", "quick"], 8)
    jobs, final = find_decisions(game, record, [0], 1, Budget(2))
    assert final.is_over() and jobs
    judged = {job.move for job in jobs}
    verbs = {job.played.split()[0] for job in jobs}
    assert verbs <= {"take", "proxy", "reorganise", "end", "discard"}
    grouped = [step for job in jobs for step in job.routine]
    assert any(step.startswith("pay") for step in grouped)
    assert any(step.startswith("place") for step in grouped)
    # Every move of seat 0 is judged or grouped under the judged decision just before it, or forced.
    for index, move in enumerate(record.moves):
        if move.seat == 0 and index not in judged and move.action.split()[0] in ("pay", "place"):
            owner = max((job for job in jobs if job.move < index), key=lambda job: job.move)
            assert all(m.seat == 0 for m in record.moves[owner.move : index])
            assert move.action in owner.routine


def test_only_the_chosen_seats_with_a_choice_are_judged() -> None:
    game = load_game("embers")
    record = bots_record("embers", ["random", "random", "random"], 2)
    jobs, _ = find_decisions(game, record, [1, 2], 0, Budget(2))
    assert jobs and {job.seat for job in jobs} == {1, 2}
    state = game.new_state(3, record.seed, record.options)
    by_move = {job.move: job for job in jobs}
    for index, move in enumerate(record.moves):
        many = len(state.legal_actions(move.seat)) > 1
        assert (index in by_move) == (move.seat in (1, 2) and many)
        if index in by_move:
            assert by_move[index].position == state.to_position()
            assert by_move[index].seed == decision_seed(0, index)
        state.apply_notation(move.action, move.seat)
