"""The greedy bot (parlour.games.venus_needs_men.bots): its choices in small positions, and whole games."""

from __future__ import annotations

from parlour.bots.registry import make_bot
from parlour.games.venus_needs_men.bots import GreedyBot
from parlour.games.venus_needs_men.population import needed

from ..typed import VENUS as GAME
from ..typed import choose
from .scenario import (
    force_dice,
    load,
    play,
    top,
)


def test_greedy_evades_a_real_enhanced_hit() -> None:
    """Titan's Plasma Cannon 6+1 reaches Venus's land defense 7: greedy Venus plays Evasive Maneuvers."""
    state = load(
        options={"game": "enhanced"}, ships={"T1": "china", "V1": "china"}, hands={0: [11]}, active="titan"
    )
    force_dice(state, 6, 1)
    play(state, "attack T1 V1")
    assert state.deciders() == (0,)
    assert str(GreedyBot(0).choose(state, 0)) == "zap 11"


def test_greedy_earth_takes_its_free_scavenging_roll() -> None:
    """After destroying an alien ship in China, greedy Earth uses the free research roll."""
    state = load(
        6, options={"game": "enhanced"}, ships={"E1": "china", "V1": "china"}, earth_open=True, active="earth"
    )
    force_dice(state, 10, 10)
    play(state, "attack E1 V1")
    assert top(state)[0] == "scavenge"
    seat = state.deciders()[0]
    assert GreedyBot(0).choose(state, seat).verb == "research"


def test_greedy_six_player_basic_games_end_by_population() -> None:
    """Six greedy bots reach the population needed before the turn limit (seeds 0 and 3 do not)."""
    for seed in (0, 3):
        state = GAME.new_state(6, seed, {"game": "basic"})
        agents = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(6)]
        while not state.is_over():
            seat = state.deciders()[0]
            state.apply_legal(choose(agents[seat], state, seat), seat)
        assert max(state.scores()) >= needed(state), (seed, state.turn, state.scores())
