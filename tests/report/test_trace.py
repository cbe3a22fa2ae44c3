"""Traced games are the games ``parlour simulate`` plays, and their traces add up."""

from __future__ import annotations

import pytest

from parlour.bots.simulation import play_one
from parlour.core.registry import game_names, load_game
from parlour.report.build import default_bot
from parlour.report.trace import play_traced


@pytest.mark.parametrize("name", game_names())
def test_a_traced_game_is_the_simulated_game(name: str) -> None:
    seats = [default_bot(load_game(name))] * 4
    trace = play_traced(name, seats, 7, 2, {}, None, kingmaking=True)
    played = play_one(name, seats, 7, 2, {})
    assert (trace.scores, trace.wins, trace.actions, trace.turns, trace.first) == (
        played.scores,
        played.wins,
        played.actions,
        played.turns,
        played.first,
    )
    assert 0 < trace.decisions <= trace.actions
    assert 1.0 <= trace.branching <= trace.branching_max
    assert len(trace.branching_tenths) == len(trace.leads_tenths) == 10
    assert trace.leads_tenths[-1] > 0.0  # the final scores name the winner the leader
    assert 0.0 <= trace.decisive <= 1.0 and 0.0 <= trace.behind < 1.0
    assert trace.kingmaking is not None and trace.kingmaking >= 0
    assert trace.end


def test_kingmaking_is_looked_for_only_when_asked() -> None:
    assert play_traced("embers", ["random"] * 3, 1, 0, {}).kingmaking is None
