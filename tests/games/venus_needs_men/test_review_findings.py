"""Defects found by a fresh-eyes review of Venus Needs Men!: each test asserts the correct behaviour.

Every test is marked ``xfail(strict=True)`` until the engine is fixed; the reason names the rule or
ruling involved (docs/rulings/venus-needs-men.md, the rulebook, the house card texts).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from parlour.bots.registry import make_bot
from parlour.cli.play import TerminalPlay
from parlour.core.errors import PositionError
from parlour.games.venus_needs_men import GAME
from parlour.games.venus_needs_men.bots import GreedyBot
from parlour.games.venus_needs_men.options import OPTIONS
from parlour.games.venus_needs_men.population import needed

from .scenario import (
    everyone_passes,
    force_dice,
    kinds,
    legal,
    load,
    play,
    position,
    top,
    window_seats,
)


def _finish_steps(state: Any, phase: str) -> None:
    """Ends the action's steps with ``done`` if the engine still asks for it."""
    if top(state)[0] == phase:
        play(state, "done")


def _close_windows(state: Any) -> None:
    """Passes every Zap window on top until another decision is on top."""
    while not state.is_over() and state.stack.top.kind == "zap":
        everyone_passes(state)


# ---------------------------------------------------------------- combat
def test_a_q_ray_teleport_does_not_bring_back_a_destroyed_attacker() -> None:
    """A Q-Ray attacker destroyed by Sabotage before its roll of 2 resolves stays destroyed."""
    state = load(
        options={"game": "enhanced"}, ships={"V1": "lunar", "M1": "lunar"}, hands={1: [9]}, active="venus"
    )
    force_dice(state, 2, 3, 4)
    play(state, "attack V1 M1", "1: zap 9 V1")
    _close_windows(state)
    assert state.ships["V1"] is None


def test_a_raid_on_an_emptied_refuge_takes_nothing() -> None:
    """Two raids on a Refuge holding one unit move one unit, never leave it below zero."""
    state = load(
        6,
        options={"game": "enhanced"},
        ships={"M1": "orbit", "M2": "orbit"},
        collected={"earth": 1},
        earth_open=True,
        hands={2: [5]},
        active="mars",
    )
    force_dice(state, 10, 10, 10, 10)
    play(state, "attack M1 refuge", "2: zap 5", "attack M2 refuge")
    _close_windows(state)
    assert state.collected["earth"] == 0 and state.collected["mars"] == 1


def test_long_range_missiles_reach_from_orbit_into_neighbouring_space() -> None:
    """A Ganymede ship in Orbit may attack a ship in Lagrange Point (its card: neighbouring space areas)."""
    state = load(options={"game": "enhanced"}, ships={"G1": "orbit", "V1": "lagrange"}, active="ganymede")
    assert "attack G1 V1" in legal(state)


# ---------------------------------------------------------------- Mind Control
def test_a_ship_taken_over_cannot_attack_in_the_same_turn_s_extension() -> None:
    """After taking V1 over, Mars's extra attack may use M1 but not V1 (usable from its next turn, A-10)."""
    state = load(
        options={"game": "enhanced"},
        ships={"M1": "lunar", "V1": "lunar", "G1": "lunar"},
        hands={1: [8]},
        active="mars",
    )
    play(state, "control M1 V1")
    _finish_steps(state, "attacking")
    play(state, "extend 8")
    assert top(state)[0] == "extra"
    assert "attack V1 G1" not in legal(state)


def test_a_mars_ship_cannot_take_over_a_second_ship_while_controlling_one() -> None:
    """M1, alone in Lunar Space and already controlling V1 there, may not take G1 over as well."""
    data = position(
        options={"game": "enhanced"}, ships={"M1": "lunar", "V1": "lunar", "G1": "lunar"}, active="mars"
    )
    data["controlled"] = {"V1": "mars"}
    state = GAME.load_position(json.dumps(data))
    state.settle()
    assert "control M1 G1" not in legal(state)


# ---------------------------------------------------------------- Zap windows
def test_hyperspace_jump_is_offered_to_the_active_player_after_its_ships_have_acted() -> None:
    """Venus, having collected with both ships, may still play Hyperspace Jump at the end of its turn."""
    state = load(ships={"V1": "china", "V2": "india"}, hands={0: [4]}, active="venus")
    play(state, "collect V1", "collect V2")
    _finish_steps(state, "collecting")
    play(state, "end")
    assert top(state) == ("zap", "end") and 0 in window_seats(state)


def test_an_action_ends_by_itself_when_no_ship_can_take_another_step() -> None:
    """Once both Venus ships have moved their one area, the move action is over without a 'done'."""
    state = load(ships={"V1": "venus", "V2": "venus"}, active="venus")
    play(state, "move V1 sunward", "move V2 sunward")
    assert top(state)[0] != "moving", kinds(state)


# ---------------------------------------------------------------- positions
def test_a_position_whose_action_is_asked_of_another_seat_is_refused() -> None:
    """Venus's turn with its 'act' decision asking seat 1 (Mars) does not load."""
    data = position(active="venus")
    data["decisions"][-1]["seats"] = [1]
    with pytest.raises(PositionError):
        GAME.load_position(json.dumps(data))


def test_a_loaded_position_always_has_someone_to_act() -> None:
    """A position with an unopened start window on top is opened (or refused), never left without deciders."""
    try:
        state = GAME.load_position(json.dumps(position(window="start")))
    except PositionError:
        return
    assert state.deciders() or state.is_over()


def test_a_position_with_a_seat_without_a_planet_is_refused() -> None:
    """Three seats with seat 2 playing no home world do not load."""
    data = position(3, hands={2: [9]})
    data["seat_of"] = {"venus": 0, "mars": 0, "ganymede": 1}
    with pytest.raises(PositionError):
        GAME.load_position(json.dumps(data))


# ---------------------------------------------------------------- the greedy bot
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
            state.apply_legal(agents[seat].choose(state, seat), seat)
        assert max(state.scores()) >= needed(state), (seed, state.turn, state.scores())


# ---------------------------------------------------------------- terminal and options
def test_manual_dice_accept_a_zero_as_ten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table entering the physical die's 0 gets a 10."""
    console = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    terminal = TerminalPlay(
        GAME, ["human", "greedy", "greedy"], 4, {}, str(tmp_path), console=console, manual_dice=True
    )
    answers = iter(["0", "3"])
    monkeypatch.setattr(console, "input", lambda prompt="", **_: next(answers))
    assert terminal._ask_die(1, 10) == 10


def test_the_turn_limit_option_names_its_ruling() -> None:
    """`parlour options venus-needs-men` points max_turns at ruling B-7."""
    spec = next(o for o in OPTIONS if o.name == "max_turns")
    assert "B-7" in spec.doc
