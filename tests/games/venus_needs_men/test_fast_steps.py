"""The playout path's shortcuts (issue 15) give what the straightforward way gives: the attack, collect and
move steps, whether a ship may move, whether a planet has a ship to build, and the seats a Zap window asks
(with its shortcut for an unseen card anyone may play without a target). The straightforward ways are the
rules as they were written before the shortcuts, kept here; both are asked after every action of random
and busy games (Basic and Enhanced, 2 to 6 players), for every planet in play and every kind of step."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from parlour.games.venus_needs_men import GAME, VenusState, steps, zapping
from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men.actions import Attack, Control, Infect, Purge, VenusAction
from parlour.games.venus_needs_men.zapdeck import ZapCard

from ..playouts import weighted_playout
from .test_kept_lookups import OPTIONS, WEIGHTS

MODES = (steps.MAIN, steps.EXTRA, steps.IMMEDIATE)


# ------------------------------------------------------------------ the straightforward ways
def attack_steps(state: VenusState, planet: str, ships: Sequence[str], mode: str) -> list[VenusAction]:
    """``steps.attack_steps`` worked out ship by ship."""
    cards = steps.cards_apply(state, mode)
    found: list[VenusAction] = []
    rivals = state.fleets.enemies(state.seat_of[planet])
    raid = cards and steps._may_raid(state, planet)
    seize = cards and tech.has_special(state, planet, "mindcontrol")
    for ship in steps.ready(state, ships):
        where = state.ships[ship]
        area = steps.reach(state, ship, cards)
        targets = [t for t in rivals if state.ships[t] in area]
        second = tech.loadout(state, state.owner(ship)).second if cards else ()
        for target in targets:
            found.append(Attack.of(ship, target))
            found += [Attack.of(ship, target, weapon) for weapon in second]
        if raid and where == state.board.orbit:
            found.append(Attack.of(ship, steps.REFUGE))
        if seize and targets and steps._may_seize(state, planet, ship):
            found += [Control.of(ship, t) for t in targets if state.ships[t] == where]
    return found


def collect_steps(state: VenusState, planet: str, ships: Sequence[str], mode: str) -> list[VenusAction]:
    """``steps.collect_steps`` worked out ship by ship."""
    cards = steps.cards_apply(state, mode)
    special = tech.special(state, planet)
    may_collect = planet != steps.EARTH or state.earth_open
    choosing = state.options.get("infected", "choose") == "choose"
    population, infected = state.population, state.infected
    found: list[VenusAction] = []
    for ship in steps.ready(state, ships):
        where = state.ships[ship] or ""
        if may_collect:
            for area in steps.collect_sources(state, planet, ship, cards):
                found.append(steps.tables(state.board).collect(ship, "" if area == where else area, False))
                if choosing and population.get(area, 0) > 0 and infected.get(area, 0) > 0:
                    found.append(steps.tables(state.board).collect(ship, "" if area == where else area, True))
        if special == "parasites" and population.get(where, 0) > 0:
            found.append(Infect.of(ship))
        if special == "robotic" and infected.get(where, 0) > 0:
            found.append(Purge.of(ship))
    return found


def movers(state: VenusState, ships: Sequence[str], mode: str) -> list[str]:
    """The ships ``steps.move_steps`` moves: ready, with move steps left."""
    return [s for s in steps.ready(state, ships) if steps.can_still_move(state, s, mode)]


def move_steps(state: VenusState, ships: Sequence[str], mode: str) -> list[VenusAction]:
    """``steps.move_steps`` worked out ship by ship."""
    table = steps.tables(state.board)
    return [
        move for ship in movers(state, ships, mode) for move in table.moves(ship, state.ships[ship] or "")
    ]


def has_supply(state: VenusState, planet: str) -> bool:
    """Whether one of the planet's own ships is off the board."""
    return None in [state.ships.get(ship, "") for ship in state.factions.fleets[planet]]


def unseen_kinds(state: VenusState) -> list[ZapCard]:
    """A card of each kind nobody has shown, worked out from the discard piles."""
    shown = {c for pile in state.discards for c in pile}
    return [state.card(n[0]) for n in state.zap.kinds.values() if not shown.issuperset(n)]


def asked(state: VenusState, window: zapping.ZapWindow) -> list[int]:
    """``zapping.asked`` without its shortcut: every seat holding a card tries every unseen kind; the seat
    a window asks whatever it holds (an answered declaration's attacker, A-21) too."""
    clockwise = zapping.order_from(state, state.active_seat)
    seats = [s for s in window.first_asked(clockwise) if state.hands[s]]
    kinds = unseen_kinds(state)
    always = window.always_asks(state)
    return [
        s for s in clockwise if s == always or (s in seats and zapping._may_play_one(state, s, window, kinds))
    ]


# ------------------------------------------------------------------ the checks
def windows(state: VenusState) -> list[zapping.ZapWindow]:
    """A window of every moment (the one on top, if it is a window, too)."""
    found: list[zapping.ZapWindow] = [
        zapping.StartWindow(open=False, everyone=True),
        zapping.StartWindow(open=False, everyone=False),
        zapping.EndWindow(open=False),
    ]
    if len(state.stack) and isinstance(state.stack.top, zapping.ZapWindow):
        found.append(state.stack.top)
    return found


def check_shortcuts(state: VenusState, step: int) -> None:
    """Asserts every shortcut gives what the straightforward way gives, for every planet and mode."""
    if state.is_over() or not state.planets:
        return
    for planet in state.planets:
        fleet = state.fleets.of.get(planet, ())
        assert state.has_supply(planet) == has_supply(state, planet), f"step {step}: {planet}'s supply"
        for mode in MODES:
            where = f"step {step}: {planet}, {mode}"
            assert steps.attack_steps(state, planet, fleet, mode) == attack_steps(
                state, planet, fleet, mode
            ), where
            assert steps.collect_steps(state, planet, fleet, mode) == collect_steps(
                state, planet, fleet, mode
            ), where
            assert steps.move_steps(state, fleet, mode) == move_steps(state, fleet, mode), where
            assert steps.has_steps(state, "move", planet, fleet, mode) == bool(
                movers_with_moves(state, fleet, mode)
            )
    for window in windows(state):
        assert zapping.asked(state, window) == asked(state, window), f"step {step}: {window.moment} window"
    assert zapping.unseen_kinds(state) == unseen_kinds(state)


def movers_with_moves(state: VenusState, ships: Sequence[str], mode: str) -> list[str]:
    """The movers with somewhere to go."""
    table = steps.tables(state.board)
    return [s for s in movers(state, ships, mode) if table.destinations[state.ships[s] or ""]]


@pytest.mark.parametrize("version", ["basic", "enhanced"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_shortcuts_match_the_straightforward_way_in_random_games(version: str, players: int) -> None:
    """After every action of random games: the same steps, supply and seats asked."""
    for seed in range(2):
        weighted_playout(GAME, (players, seed), {**OPTIONS, "game": version}, {}, check_shortcuts)


@pytest.mark.slow
@pytest.mark.parametrize("version", ["basic", "enhanced"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_shortcuts_match_the_straightforward_way_in_busy_games(version: str, players: int) -> None:
    """After every action of busy games (ships taken over, destroyed, disabled; Upgrades researched): the
    same steps, supply and seats asked, over many seeds."""
    for seed in range(10, 16):
        weighted_playout(GAME, (players, seed), {**OPTIONS, "game": version}, WEIGHTS, check_shortcuts)
