"""Action catalogue and observation tensor of Venus Needs Men! for learning environments.

The tensor is written straight from the state, reading only what the seat may know (its own Zap hand and
the public table): the same numbers, block for block, as the seat's observation (``views.observation``)
would give (tests/envs/test_encoding_reference.py).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from parlour.core.encoding import SEATS, Encoding, game_state, one_hot_rows, turned
from parlour.core.features import Features
from parlour.core.state import GameState
from parlour.games.venus_needs_men.board import load_board
from parlour.games.venus_needs_men.catalogue import action_catalogue
from parlour.games.venus_needs_men.factions import load_factions
from parlour.games.venus_needs_men.game_state import VenusGameState
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.population import needed
from parlour.games.venus_needs_men.tech import load_tech
from parlour.games.venus_needs_men.zapdeck import ZapDeck

KINDS = ["zap", "act", "moving", "attacking", "collecting", "extend", "extra", "immediate", "scavenge"]
"""The decisions the tensor tells apart, in order."""
MOMENTS = ["start", "roll", "save", "end"]
"""The Zap windows' moments the tensor tells apart, in order."""
ACTIONS = ["build", "move", "attack", "collect", "research"]
"""The turn's actions, in order."""


def encoding(zap: ZapDeck, players: int, options: Mapping[str, object]) -> Encoding:
    """Returns Venus Needs Men!'s encoding for a table of ``players`` with this Zap deck and options."""
    board, factions, tech = load_board(), load_factions(), load_tech()
    order = list(factions.order)
    ships = [s for p in order for s in factions.planets[p].ship_ids()]
    areas = [a.id for a in board.areas if a.kind != "refuge"]
    lands = list(board.land_areas())
    upgrades = sorted(tech.upgrades)
    numbers = sorted(zap.cards)
    blocks = layout(order, len(ships), len(areas), len(lands), len(upgrades), len(numbers))
    size = sum(length for _, length in blocks)
    table = _Table(
        players, order, ships, areas, lands, upgrades, numbers, float(board.total(str(options["length"])))
    )

    def encode(state: GameState, seat: int) -> Features:
        return Features.filled(table.write(game_state(state, VenusGameState), seat), blocks, size)

    # Shuffled: home worlds (planets=random), the Zap cards and the Upgrade cards; rolled: the die.
    shuffled = (*order, *map(str, numbers), *upgrades)
    return Encoding(action_catalogue(board, factions, zap, tech), encode, shuffled, DIE)


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
    """Writes a seat's tensor from the state, with what never changes in a game worked out once."""

    def __init__(
        self,
        players: int,
        order: list[str],
        ships: list[str],
        areas: list[str],
        lands: list[str],
        upgrades: list[str],
        numbers: list[int],
        total: float,
    ) -> None:
        self.players, self.order, self.ships, self.lands = players, order, ships, lands
        self.upgrades, self.numbers, self.total = upgrades, numbers, total
        self.areas = len(areas)
        self.area_index = {a: i for i, a in enumerate(areas)}
        self.kinds = {kind: i for i, kind in enumerate(KINDS)}
        self.moments = {moment: i for i, moment in enumerate(MOMENTS)}
        self.planets = {planet: i for i, planet in enumerate(order)}
        self.actions = {action: i for i, action in enumerate(ACTIONS)}
        self.size = sum(
            length
            for _, length in layout(order, len(ships), self.areas, len(lands), len(upgrades), len(numbers))
        )
        self.ship_index = {ship: i for i, ship in enumerate(ships)}
        self.no_upgrades = [0.0] * len(upgrades)
        self.basic = [0.0] * (len(order) * 2 * len(upgrades) + len(upgrades) + 1)
        self.basic += [0.0] * (len(order) * len(ships) + len(ships) + len(lands))

    def write(self, state: VenusGameState, seat: int) -> np.ndarray:
        """Returns the tensor's values (before clipping) for ``seat``, as a float32 array."""
        players, order, ships = self.players, self.order, self.ships
        top = state.stack.top if len(state.stack) else None
        out = list(one_hot_rows(len(KINDS))[-1 if top is None else self.kinds.get(top.kind, -1)])
        moment = getattr(top, "moment", None) if top is not None and top.kind == "zap" else None
        out += one_hot_rows(len(MOMENTS))[self.moments.get(moment, -1) if moment is not None else -1]
        out.append(1.0 if seat in state.deciders() else 0.0)
        out += one_hot_rows(len(order))[self.planets.get(state.active, -1)]
        owners, rows = state.seat_of, one_hot_rows(SEATS + 1)
        for planet in order:
            owner = owners.get(planet)
            out += rows[SEATS if owner is None else (owner - seat) % players]
        # The ships' areas, a large block of zeros, are written into the array as the places of their ones.
        where, index, width, start = state.ships, self.area_index, self.areas, len(out)
        ones = []
        for row, ship in enumerate(ships):
            area = index.get(where.get(ship) or "", -1)
            if area >= 0:
                ones.append(row * width + area)
        head, out = out, []
        population, collected, total = state.population, state.collected, self.total
        out += [population[a] / 40 for a in self.lands]
        out += [collected.get(p, 0) / total for p in order]
        out += [needed(state) / total, 1.0 if state.earth_open else 0.0]
        hand = set(state.hands[seat])
        out += [1.0 if n in hand else 0.0 for n in self.numbers]
        out += [n / 3 for n in turned([len(h) for h in state.hands], seat)]
        out += [n / 18 for n in turned([len(d) for d in state.decks], seat)]
        played = {n for pile in state.discards for n in pile}
        out += [1.0 if n in played else 0.0 for n in self.numbers]
        out += one_hot_rows(len(ACTIONS))[self.actions.get(state.action, -1)]
        out += self.marked(state.acted)
        out.append(state.extended / 3)
        out += self.enhanced(state) if state.options["game"] == "enhanced" else self.basic
        values = np.zeros(self.size, np.float32)
        values[:start] = head
        values[[start + i for i in ones]] = 1.0
        values[start + len(ships) * width :] = out
        return values

    def marked(self, chosen: list[str]) -> list[float]:
        """Returns one flag per ship: whether it is among ``chosen`` (usually few: zeros, then the ones)."""
        row = [0.0] * len(self.ships)
        index = self.ship_index
        for ship in chosen:
            at = index.get(ship)
            if at is not None:
                row[at] = 1.0
        return row

    def enhanced(self, state: VenusGameState) -> list[float]:
        """Returns the Enhanced game's block (public: Upgrades held and face up, control, infection)."""
        upgrades, ships, none = self.upgrades, self.ships, self.no_upgrades
        out: list[float] = []
        held, pending = state.upgrades, state.pending_upgrades
        for planet in self.order:
            mine, waiting = held.get(planet), pending.get(planet)
            out += [1.0 if u in mine else 0.0 for u in upgrades] if mine else none
            out += [1.0 if u in waiting else 0.0 for u in upgrades] if waiting else none
        face_up = state.face_up
        out += [face_up.count(u) / 2 for u in upgrades] if face_up else none
        out.append(len(state.upgrade_deck) / 16)
        control = [0.0] * (len(self.order) * len(ships))  # a row of ships per planet, in order
        for ship, planet in state.controlled.items():
            at, row = self.ship_index.get(ship), self.planets.get(planet)
            if at is not None and row is not None:
                control[row * len(ships) + at] = 1.0
        out += control
        out += self.marked(state.disabled)
        infected = state.infected
        out += [infected.get(a, 0) / 40 for a in self.lands]
        return out
