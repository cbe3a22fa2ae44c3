"""Action catalogue and observation tensor of Venus Needs Men! for learning environments.

The tensor is written straight from the state, reading only what the seat may know (its own Zap hand and
the public table): the same numbers, block for block, as the seat's observation (``views.observation``)
would give (tests/envs/test_encoding_reference.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from itertools import repeat
from operator import itemgetter
from typing import NamedTuple

import numpy as np

from parlour.core.decisions import DecisionIndex
from parlour.core.encoding import SEATS, Encoding, WholeNumbers, game_state
from parlour.core.features import Features
from parlour.core.state import GameState
from parlour.games.venus_needs_men.board import load_board
from parlour.games.venus_needs_men.catalogue import action_catalogue
from parlour.games.venus_needs_men.combat import Scavenge
from parlour.games.venus_needs_men.factions import load_factions
from parlour.games.venus_needs_men.game_state import VenusGameState
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.population import needed
from parlour.games.venus_needs_men.tech import load_tech
from parlour.games.venus_needs_men.turns import Act, Attacking, Collecting, Extending, Extra, Moving
from parlour.games.venus_needs_men.zapdeck import ZapDeck
from parlour.games.venus_needs_men.zapping import Immediate, ZapWindow

KINDS = (ZapWindow, Act, Moving, Attacking, Collecting, Extending, Extra, Immediate, Scavenge)
"""The decisions the tensor tells apart, in order."""
MOMENTS = ["start", "roll", "save", "end"]
"""The Zap windows' moments the tensor tells apart, in order."""
ACTIONS = ["build", "move", "attack", "collect", "research"]
"""The turn's actions, in order."""
REMEMBERED = 10_000
"""The most discard piles' flags an encoder remembers (past that it starts afresh)."""


class Places(NamedTuple):
    """What the tensor's blocks index, each in its order."""

    order: list[str]
    """The planets."""
    ships: list[str]
    areas: list[str]
    """Every area but the refuges."""
    lands: list[str]
    upgrades: list[str]
    numbers: list[int]
    """The Zap cards' numbers."""


def places(zap: ZapDeck) -> Places:
    """Returns what the tensor's blocks index, for this Zap deck."""
    board, factions = load_board(), load_factions()
    order = list(factions.order)
    ships = [s for p in order for s in factions.planets[p].ship_ids()]
    areas = [a.id for a in board.areas if a.kind != "refuge"]
    lands, upgrades = list(board.land_areas()), sorted(load_tech().upgrades)
    return Places(order, ships, areas, lands, upgrades, sorted(zap.cards))


def encoding(zap: ZapDeck, players: int, options: Mapping[str, object]) -> Encoding:
    """Returns Venus Needs Men!'s encoding for a table of ``players`` with this Zap deck and options."""
    board, factions, tech = load_board(), load_factions(), load_tech()
    order, ships, areas, lands, upgrades, numbers = indexed = places(zap)
    blocks = layout(order, len(ships), len(areas), len(lands), len(upgrades), len(numbers))
    size = sum(length for _, length in blocks)
    table = _Table(players, indexed, board.total(str(options["length"])))

    def encode(state: GameState, seat: int) -> Features:
        return Features.filled(table.write(game_state(state, VenusGameState), seat), blocks, size)

    def write(state: GameState, seat: int) -> np.ndarray:
        return table.write(game_state(state, VenusGameState), seat)

    # Shuffled: home worlds (planets=random), the Zap cards and the Upgrade cards; rolled: the die.
    shuffled = (*order, *map(str, numbers), *upgrades)
    return Encoding(action_catalogue(board, factions, zap, tech), encode, shuffled, DIE, write=write)


def layout(
    order: list[str], ships: int, areas: int, lands: int, upgrades: int, numbers: int
) -> list[tuple[str, int]]:
    """Returns the tensor's blocks, names and lengths, in order (docs/environments.md)."""
    blocks = [("decision", len(KINDS)), ("window", len(MOMENTS)), ("I may act", 1)]
    blocks += [("active planet", len(order)), *((f"seat of {p}", SEATS + 1) for p in order)]
    blocks += [("area of each ship", ships * areas), ("population", lands), ("collected", len(order))]
    blocks += [("needed", 1), ("earth open", 1), ("my Zap hand", numbers), ("Zap hand sizes", SEATS)]
    blocks += [("Zap deck sizes", SEATS), ("Zap cards played", numbers), ("action", len(ACTIONS))]
    blocks += [("acted", ships), ("extended", 1)]
    for planet in order:
        blocks += [(f"upgrades of {planet}", upgrades), (f"pending upgrades of {planet}", upgrades)]
    blocks += [("face-up upgrades", upgrades), ("upgrade deck", 1)]
    blocks += [(f"controlled by {p}", ships) for p in order]
    blocks += [("disabled", ships), ("infected", lands)]
    return blocks


class _Table:
    """Writes a seat's Venus Needs Men! tensor as whole numbers (``WholeNumbers``): ships, areas, lands,
    Upgrades and Zap numbers indexed once a game; the Zap cards played remembered by the discard piles."""

    def __init__(self, players: int, indexed: Places, total: int) -> None:
        order, ships, areas, lands, upgrades, numbers = indexed
        self.players, self.order, self.ships, self.lands = players, order, ships, lands
        self.areas = len(areas)
        self.area_index = {a: i for i, a in enumerate(areas)}
        self.kinds = DecisionIndex(KINDS)
        self.moments = {moment: i for i, moment in enumerate(MOMENTS)}
        self.planets = {planet: i for i, planet in enumerate(order)}
        self.actions = {action: i for i, action in enumerate(ACTIONS)}
        self.ship_index = {ship: i for i, ship in enumerate(ships)}
        self.upgrade_index = {upgrade: i for i, upgrade in enumerate(upgrades)}
        self.number_index = {number: i for i, number in enumerate(numbers)}
        self.played_flags: dict[tuple[tuple[int, ...], ...], bytes] = {}
        """The flags of the Zap cards played, by the discard piles (``played``)."""
        self.board = load_board()
        self.needed: dict[tuple[object, int], int] = {}
        """The population a seat needs to win on ``board`` (``population.needed``), by length and players."""
        scales: dict[str, float] = {"population": 40, "collected": total, "needed": total, "infected": 40}
        scales |= {"Zap hand sizes": 3, "Zap deck sizes": 18, "extended": 3, "face-up upgrades": 2}
        scales |= {"upgrade deck": 16}
        blocks = layout(order, len(ships), self.areas, len(lands), len(upgrades), len(numbers))
        self.numbers = WholeNumbers(blocks, scales)
        at = self.numbers.at
        where = at["area of each ship"]
        self.ship_area: dict[tuple[str, str | None], int] = {
            (ship, area): where + row * self.areas + i
            for row, ship in enumerate(ships)
            for area, i in self.area_index.items()
        }
        """The place of each ship's flag for each area it may be in."""
        self.seat_of = {p: at[f"seat of {p}"] for p in order}
        """Where each planet's row of seats starts."""
        for where in self.seat_of.values():  # a tensor starts with "nobody plays it" for every planet
            self.numbers.zeros[where + SEATS] = 1
        self.held = {p: at[f"upgrades of {p}"] for p in order}
        """Where each planet's row of Upgrades held starts."""
        self.pending = {p: at[f"pending upgrades of {p}"] for p in order}
        """Where each planet's row of Upgrades waiting starts."""
        self.control = {p: at[f"controlled by {p}"] for p in order}
        self.population = itemgetter(*lands)
        """Reads the population of every land, in order, as a tuple."""
        self.nothing = tuple(repeat(0, max(len(order), len(lands))))
        """Zeros enough for every planet and every land (what ``dict.get`` gives for one not listed)."""

    def write(self, state: VenusGameState, seat: int) -> np.ndarray:
        """Returns the tensor's values (before clipping) for ``seat``, as a float32 array."""
        players, at = self.players, self.numbers.at
        out = self.numbers.blank()
        top = state.stack.top if len(state.stack) else None
        if top is not None:
            kind = self.kinds.of(top)
            if kind >= 0:
                out[kind] = 1
            moment = top.moment if isinstance(top, ZapWindow) else None
            found = -1 if moment is None else self.moments.get(moment, -1)
            if found >= 0:
                out[at["window"] + found] = 1
        out[at["I may act"]] = 1 if seat in state.deciders() else 0
        found = self.planets.get(state.active, -1)
        if found >= 0:
            out[at["active planet"] + found] = 1
        seat_of = self.seat_of
        for planet, owner in state.seat_of.items():
            row = seat_of.get(planet)
            if row is not None and owner is not None:
                out[row + SEATS] = 0
                out[row + (owner - seat) % players] = 1
        for flag in map(self.ship_area.get, state.ships.items()):
            if flag is not None:
                out[flag] = 1
        where = at["population"]
        out[where : where + len(self.lands)] = array("i", self.population(state.population))
        where = at["collected"]
        out[where : where + len(self.order)] = array("i", map(state.collected.get, self.order, self.nothing))
        out[at["needed"]] = self.population_needed(state)
        out[at["earth open"]] = 1 if state.earth_open else 0
        numbers, where = self.number_index, at["my Zap hand"]
        for number in state.hands[seat]:
            found = numbers.get(number, -1)
            if found >= 0:
                out[where + found] = 1
        where = at["Zap hand sizes"]
        out[where : where + players] = array("i", turned(list(map(len, state.hands)), seat))
        where = at["Zap deck sizes"]
        out[where : where + players] = array("i", turned(list(map(len, state.decks)), seat))
        where = at["Zap cards played"]
        out[where : where + len(numbers)] = array("i", self.played(state.discards))
        found = self.actions.get(state.action, -1)
        if found >= 0:
            out[at["action"] + found] = 1
        self.marked(out, at["acted"], state.acted)
        out[at["extended"]] = state.extended
        if state.options["game"] == "enhanced":
            self.enhanced(out, state)
        return self.numbers.values(out)

    def population_needed(self, state: VenusGameState) -> int:
        """Returns ``population.needed(state)`` (remembered by the length and the players, on ``board``)."""
        if state.board is not self.board:
            return needed(state)
        key = (state.options["length"], state.players)
        found = self.needed.get(key)
        if found is None:
            found = self.needed[key] = needed(state)
        return found

    def played(self, discards: list[list[int]]) -> bytes:
        """Returns the flags of the Zap cards in the discard piles, as the bytes of whole numbers
        (remembered by the piles: they change only when a card is played, and hold a few dozen cards)."""
        key = tuple(map(tuple, discards))
        flags = self.played_flags.get(key)
        if flags is None:
            found = array("i", bytes(4 * len(self.number_index)))
            numbers = self.number_index
            for pile in discards:
                for number in pile:
                    index = numbers.get(number, -1)
                    if index >= 0:
                        found[index] = 1
            flags = found.tobytes()
            if len(self.played_flags) >= REMEMBERED:
                self.played_flags.clear()
            self.played_flags[key] = flags
        return flags

    def marked(self, out: array[int], where: int, chosen: list[str]) -> None:
        """Sets one flag per ship among ``chosen`` in the row of ships at ``where``."""
        index = self.ship_index
        for ship in chosen:
            found = index.get(ship, -1)
            if found >= 0:
                out[where + found] = 1

    def enhanced(self, out: array[int], state: VenusGameState) -> None:
        """Writes the Enhanced game's block (public: Upgrades held and face up, control, infection)."""
        index, at = self.upgrade_index, self.numbers.at
        for rows, upgrades in ((self.held, state.upgrades), (self.pending, state.pending_upgrades)):
            for planet, cards in upgrades.items():
                if cards:
                    where = rows.get(planet, -1)
                    if where >= 0:
                        for upgrade in cards:
                            found = index.get(upgrade, -1)
                            if found >= 0:
                                out[where + found] = 1
        where = at["face-up upgrades"]
        for upgrade in state.face_up:
            found = index.get(upgrade, -1)
            if found >= 0:
                out[where + found] += 1
        out[at["upgrade deck"]] = len(state.upgrade_deck)
        if state.controlled:
            control, ships = self.control, self.ship_index
            for ship, planet in state.controlled.items():
                at_ship, row = ships.get(ship), control.get(planet)
                if at_ship is not None and row is not None:
                    out[row + at_ship] = 1
        self.marked(out, at["disabled"], state.disabled)
        where = at["infected"]
        out[where : where + len(self.lands)] = array("i", map(state.infected.get, self.lands, self.nothing))


def turned(values: list[int], viewer: int) -> list[int]:
    """Returns one number per seat, the viewer's first and then clockwise."""
    return values[viewer:] + values[:viewer]
