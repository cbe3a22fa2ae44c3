"""One simulated game played with a trace: its length, choices, estimate along the game and result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.bots.simulation import game_seed
from parlour.core.agents import close_agents
from parlour.core.content import ContentSets
from parlour.core.registry import load_game
from parlour.core.state import GameState
from parlour.report import arc
from parlour.report.kingmaking import kingmaking_decisions
from parlour.report.seating import seat_bots


@dataclass(frozen=True)
class GameTrace:
    """What the report keeps of one game (small: thousands of them travel back from the workers)."""

    index: int
    scores: list[float]
    wins: list[float]
    """Each seat's share of the win (a shared win split equally)."""
    first: int
    """The seat that acted first."""
    actions: int
    turns: int
    decisions: int
    """Actions taken with more than one legal choice."""
    branching: float
    """The mean number of legal actions at the game's decisions (every action counted)."""
    branching_max: int
    branching_tenths: list[float]
    """The mean number of legal actions over each tenth of the game's actions."""
    lead_changes: int
    behind: float
    """The share of turns in which no eventual winner led by the estimate."""
    drama: float
    """The eventual winner's mean gap behind the leader over those turns (``arc.gap``)."""
    decisive: float
    """The fraction of the game after which an eventual winner led to the end."""
    leads_tenths: list[float]
    """The share of each tenth's turns in which an eventual winner led."""
    end: str
    """Why the game ended (the game's own sentence)."""
    kingmaking: int | None
    """Kingmaking decisions in the game's last round (None: not looked for in this game)."""


def play_traced(
    game_name: str,
    seats: Sequence[str],
    seed: int,
    index: int,
    options: Mapping[str, object],
    content: ContentSets | None = None,
    kingmaking: bool = False,
) -> GameTrace:
    """Plays game ``index`` as ``parlour simulate`` plays it (same seed, same bots, same game) and traces
    it; with ``kingmaking``, plays it again to look at its last round (``kingmaking.py``)."""
    game = load_game(game_name).with_content(content or ContentSets())
    values = game.options(options)
    state = game.new_state(len(seats), game_seed(seed, index), values)
    agents = seat_bots(game, seats, seed, index, values)
    first_decider = state.deciders()[0] if not state.is_over() else 0
    first = state.turn_player()  # the first turn's player, as play_match finds it
    widths: list[float] = []
    estimates: list[list[float]] = []
    turn = state.turns_played()
    try:
        while not state.over:
            seat = state.deciders()[0]
            widths.append(float(len(state.legal_actions(seat))))
            state.apply(agents[seat].choose(state, seat), seat, quiet=True)
            if first is None:
                first = state.turn_player()
            if state.turns_played() != turn and not state.over:
                turn = state.turns_played()
                estimates.append([float(x) for x in state.estimate()])
    finally:
        close_agents(agents, state if state.over else None)
    scores = [float(x) for x in state.scores()]
    estimates.append(scores)
    winners = list(state.winners())
    found = None
    if kingmaking:
        found = kingmaking_decisions(game, seats, seed, index, values, state.turns_played(), winners, scores)
    return _trace(index, state, first_decider if first is None else first, widths, estimates, winners, found)


def _trace(
    index: int,
    state: GameState,
    first: int,
    widths: list[float],
    estimates: list[list[float]],
    winners: list[int],
    kingmaking: int | None,
) -> GameTrace:
    """Returns the trace of a finished game from what was noted while it was played."""
    players = state.players
    behind, drama = arc.drama(estimates, winners)
    return GameTrace(
        index=index,
        scores=[float(x) for x in state.scores()],
        wins=[1.0 / len(winners) if s in winners else 0.0 for s in range(players)],
        first=first,
        actions=len(widths),
        turns=state.turns_played(),
        decisions=sum(1 for w in widths if w > 1),
        branching=sum(widths) / len(widths) if widths else 0.0,
        branching_max=int(max(widths, default=0)),
        branching_tenths=arc.by_tenth(widths),
        lead_changes=arc.lead_changes(estimates),
        behind=behind,
        drama=drama,
        decisive=arc.decisiveness(estimates, winners),
        leads_tenths=arc.by_tenth(arc.winner_leads(estimates, winners)),
        end=state.end_reason(),
        kingmaking=kingmaking,
    )
