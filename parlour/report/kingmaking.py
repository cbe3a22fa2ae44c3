"""Kingmaking: a seat that cannot take the lead, in the last round, choosing which other seat leads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parlour.bots.simulation import game_seed
from parlour.core.agents import close_agents
from parlour.core.game import Game
from parlour.core.state import GameState
from parlour.report.arc import leaders
from parlour.report.seating import seat_bots

MOST_CHOICES = 64
"""A decision with more legal actions than this is not looked at (each choice costs a copy and a move)."""


def kingmaker(state: GameState, seat: int) -> bool:
    """Returns whether ``seat``'s decision now is kingmaking: with two to MOST_CHOICES legal actions, no
    choice puts ``seat`` in (or level in) the lead by the estimate right after it, and the seats leading
    after it differ between choices."""
    legal = state.legal_actions(seat)
    if not 2 <= len(legal) <= MOST_CHOICES:
        return False
    outcomes: set[frozenset[int]] = set()
    for action in legal:
        after = state.clone()
        after.apply(action, seat, quiet=True)
        lead = leaders(after.scores() if after.over else after.estimate())
        if seat in lead:
            return False
        outcomes.add(lead)
    return len(outcomes) > 1


def kingmaking_decisions(
    game: Game,
    seats: Sequence[str],
    seed: int,
    index: int,
    options: Mapping[str, object],
    turns: int,
    winners: Sequence[int],
    scores: Sequence[float] | None = None,
) -> int | None:
    """Plays game ``index`` again (the same seed and bots play it identically) and returns how many
    decisions in its last round (its final ``players`` turns, of ``turns``) were kingmaking by a seat
    that did not win (:func:`kingmaker`); None (not looked at) when the replay ended otherwise than the
    game it replays (its ``scores`` and ``turns``)."""
    state = game.new_state(len(seats), game_seed(seed, index), options)
    agents = seat_bots(game, seats, seed, index, options)
    last_round = turns - len(seats)
    found = 0
    try:
        while not state.over:
            seat = state.deciders()[0]
            if state.turns_played() > last_round and seat not in winners and kingmaker(state, seat):
                found += 1
            state.apply(agents[seat].choose(state, seat), seat, quiet=True)
    finally:
        close_agents(agents, state if state.over else None)
    if state.turns_played() != turns or (scores is not None and list(state.scores()) != list(scores)):
        return None
    return found
