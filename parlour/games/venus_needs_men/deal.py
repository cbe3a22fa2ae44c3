"""Rulebook "Setup": home worlds, spaceships, population, the Zap decks, and the first turn."""

from __future__ import annotations

from typing import Any

from parlour.core.chance import Chance
from parlour.core.errors import OptionError
from parlour.games.venus_needs_men import research
from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.factions import Factions
from parlour.games.venus_needs_men.game_state import VenusGameState
from parlour.games.venus_needs_men.options import DEFAULT_PLANETS, HAND
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.turns import start_turn
from parlour.games.venus_needs_men.zapdeck import ZapDeck


def choose_planets(factions: Factions, players: int, option: str, chance: Chance) -> list[str]:
    """Returns the home worlds in seat order (two players: four, seats 0 and 1 alternating)."""
    wanted = 4 if players == 2 else players
    if option == "auto":
        return list(DEFAULT_PLANETS[players])
    pool = [p for p in factions.order if players > 2 or p != "earth"]
    if option == "random":
        return chance.shuffle(pool)[:wanted]
    chosen = [p.strip().lower() for p in option.split(",") if p.strip()]
    unknown = [p for p in chosen if p not in factions.planets]
    if unknown:
        raise OptionError(f"unknown home world {unknown[0]!r} (home worlds: {', '.join(factions.order)})")
    if len(chosen) != wanted or len(set(chosen)) != wanted:
        raise OptionError(f"{players} players need {wanted} different home worlds, not {option!r}")
    if players == 2 and "earth" in chosen:
        raise OptionError("the two-player team game is played without Earth")
    return chosen


def turn_order(factions: Factions, by_seat: list[str], players: int) -> tuple[list[str], dict[str, int]]:
    """Returns the sides in turn order and each side's seat (Pluto, or the first after it, starts)."""
    seat_of = {p: i % players for i, p in enumerate(by_seat)}
    rank = {p: i for i, p in enumerate(factions.order)}
    first = min(by_seat, key=lambda p: rank[p])
    seats = [(seat_of[first] + i) % players for i in range(players)]
    own = {s: sorted((p for p in by_seat if seat_of[p] == s), key=lambda p: rank[p]) for s in range(players)}
    order = [own[s][k] for k in range(len(by_seat) // players) for s in seats]
    return order, seat_of


def new_game(
    board: Board,
    factions: Factions,
    zap: ZapDeck,
    players: int,
    seed: int,
    options: dict[str, Any],
    chance: Chance | None = None,
) -> VenusState:
    """Returns the game ready for the first turn (chance from ``seed``, or ``chance`` when given)."""
    chance = Chance(seed) if chance is None else chance
    by_seat = choose_planets(factions, players, str(options["planets"]), chance)
    state = VenusGameState(board, factions, zap, players, options, chance)
    state.planets, state.seat_of = turn_order(factions, by_seat, players)
    start = "start_enhanced" if options["game"] == "enhanced" else "start_basic"
    for planet in state.planets:
        data = factions.planets[planet]
        for i, ship in enumerate(data.ship_ids()):
            state.ships[ship] = board.home(planet) if i < getattr(data, start) else None
        state.collected[planet] = 0
    state.population = board.population(options["length"])
    state.infected = {a: 0 for a in board.land_areas()}
    cards = chance.shuffle(sorted(zap.cards))
    share = len(cards) // players
    for seat in range(players):
        state.decks[seat] = cards[seat * share : (seat + 1) * share]
        state.hands[seat], state.decks[seat] = state.decks[seat][:HAND], state.decks[seat][HAND:]
    state.aside = cards[players * share :]
    if options["game"] == "enhanced":
        research.deal_upgrades(state)
    start_turn(state, 0)
    state.settle()
    return state
