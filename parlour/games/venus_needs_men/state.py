"""VenusState: ships, population, Zap decks and hands, turn order and the decision stack."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from mypy_extensions import mypyc_attr

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionKinds, DecisionStack, Seat
from parlour.core.modular import ModularState
from parlour.core.payloads import read_value, write_value
from parlour.core.state import GameState
from parlour.core.zones import CardNames, CardReader, Form, Layout, Part, position_header
from parlour.games.venus_needs_men.actions import NOTATION, VenusAction
from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.factions import Factions, Planet
from parlour.games.venus_needs_men.fleets import Fleets, work_out
from parlour.games.venus_needs_men.tech import Loadout, TechSet, load_tech
from parlour.games.venus_needs_men.zapdeck import ZapCard, ZapDeck

POSITION_FORMAT = "parlour-venus-needs-men-position/1"
"""The ``format`` of every Venus Needs Men! position."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a native class: compiled steps read its fields directly
class VenusState(ModularState[VenusAction]):
    """A game of Venus Needs Men! in progress: what the rules read and change.

    The rules take this class; the game makes :class:`~.game_state.VenusGameState`, which adds
    what people see (views, banners, hints, the drawn table's content).

    ``planets`` lists the sides in turn order; ``seat_of`` says which seat plays
    each (two planets a seat in the team game).  Ships are named ``V1``…; each
    is on an area or in its owner's supply (None).
    """

    game_name = "venus-needs-men"
    notation = NOTATION

    board: Board
    factions: Factions
    zap: ZapDeck
    players: int
    options: dict[str, Any]
    chance: Chance
    stack: DecisionStack
    planets: list[str]
    """The sides in turn order."""
    seat_of: dict[str, int]
    ships: dict[str, str | None]
    """Every spaceship of the planets in play: its area, or None in its owner's supply."""
    population: dict[str, int]
    """Population units on each land area."""
    collected: dict[str, int]
    """Population units on each home world (Earth: in the Refuge)."""
    earth_open: bool
    """Whether Earth may collect (an alien has attacked an Earth ship or collected population)."""
    decks: list[list[int]]
    """Each seat's face-down Zap deck, top first; secret."""
    hands: list[list[int]]
    """Each seat's Zap hand; secret."""
    discards: list[list[int]]
    """Each seat's face-up Zap discard pile."""
    aside: list[int]
    """A Zap card left over (five players), out of play; secret."""
    current: int
    """Index into ``planets`` of the side whose turn it is."""
    turn: int
    action: str
    """The action chosen this turn: build, move, attack, collect (empty before the first step)."""
    acted: list[str]
    """Ships that have already moved, attacked or collected in this action."""
    extended: int
    """Zap cards discarded to extend this turn's action."""
    skips: dict[str, int]
    """Turns each side must skip (Ion Storm)."""
    extra_turns: dict[str, int]
    """Extra turns each side has won (Time Dilation)."""
    over: bool
    winners_: list[int]
    # The Enhanced game.
    tech: TechSet
    upgrades: dict[str, list[str]]
    """Upgrades in effect, by planet (public)."""
    pending_upgrades: dict[str, list[str]]
    """Upgrades acquired this turn: they take effect at its end."""
    upgrade_deck: list[str]
    """The face-down Upgrade deck, top first; secret."""
    face_up: list[str]
    """The three face-up Upgrade cards."""
    upgrade_discard: list[str]
    controlled: dict[str, str]
    """Ships under Mind Control: ship -> the planet controlling it."""
    disabled: list[str]
    """Pluto's disabled robots."""
    infected: dict[str, int]
    """Infected (yellow) units on each land area."""
    cycled: bool
    """Whether a face-up Upgrade was discarded and replaced this turn."""
    seized: list[str]
    """Ships taken over by Mind Control this turn: they act from their new master's next turn."""

    def __init__(
        self,
        board: Board,
        factions: Factions,
        zap: ZapDeck,
        players: int,
        options: dict[str, Any],
        chance: Chance,
    ) -> None:
        super().__init__()
        # In the layout's order (a clone then fills a copy's attributes in the order the class expects).
        self.board, self.factions, self.zap = board, factions, zap
        self.players, self.options, self.chance = players, options, chance
        self.planets, self.seat_of, self.ships = [], {}, {}
        self.population, self.collected, self.earth_open = {}, {}, False
        self.decks = [[] for _ in range(players)]
        self.hands = [[] for _ in range(players)]
        self.discards = [[] for _ in range(players)]
        self.aside, self.current, self.turn = [], 0, 0
        self.action, self.acted, self.extended = "", [], 0
        self.skips, self.extra_turns = {}, {}
        self.over, self.winners_ = False, []
        self.stack = DecisionStack()
        self.tech = load_tech()
        self.upgrades, self.pending_upgrades = {}, {}
        self.upgrade_deck, self.face_up, self.upgrade_discard = [], [], []
        self.controlled, self.disabled, self.infected = {}, [], {}
        self.cycled, self.seized = False, []
        self.enhanced = options.get("game") == "enhanced"
        """Whether this is the Enhanced game (option ``game``)."""
        self._fleets: Fleets | None = None
        self._roster: Roster | None = None
        self._loadouts: dict[str, Loadout] = {}

    # ------------------------------------------------------------ lookups
    @property
    def active(self) -> str:
        """Returns the planet whose turn it is."""
        return self.planets[self.current]

    @property
    def active_seat(self) -> int:
        """Returns the seat whose turn it is."""
        return self.seat_of[self.active]

    def planet(self, planet_id: str) -> Planet:
        """Returns a planet's data."""
        return self.factions.planets[planet_id]

    def owner(self, ship: str) -> str:
        """Returns the planet a spaceship belongs to."""
        known = self.factions.owners.get(ship)
        if known is not None:
            return known
        found = self.factions.by_letter(ship[0])
        assert found is not None
        return found.id

    def sides(self, seat: int) -> list[str]:
        """Returns the planets a seat plays."""
        return list(self.roster.sides.get(seat, ()))

    def card(self, number: int) -> ZapCard:
        """Returns a Zap card by number."""
        return self.zap.cards[number]

    def controller(self, ship: str) -> str:
        """Returns the planet that commands a ship (its owner, unless under Mind Control)."""
        return self.controlled.get(ship) or self.factions.owners.get(ship) or self.owner(ship)

    def fleet(self, planet: str) -> list[str]:
        """Returns the spaceships on the board that ``planet`` commands (its own and those it controls)."""
        return list(self.fleets.of.get(planet, ()))

    @property
    def fleets(self) -> Fleets:
        """The spaceships on the board by the planet commanding them (kept until a ship joins or leaves
        the board or changes hands: :meth:`place_ship`, :meth:`control_ship`, :meth:`free_ship`)."""
        found = self._fleets
        if found is None:
            found = self._fleets = work_out(
                self.ships, self.controlled, self.factions.owners, self.roster.ships, self.seat_of, self.owner
            )
        return found

    def place_ship(self, ship: str, where: str | None) -> None:
        """Puts a spaceship on an area, or (None) back in its owner's supply."""
        if (self.ships[ship] is None) is not (where is None):
            self._fleets = None
        self.ships[ship] = where

    def control_ship(self, ship: str, planet: str) -> None:
        """Puts a spaceship under Mind Control: ``planet`` commands it now."""
        self.controlled[ship] = planet
        self._fleets = None

    def free_ship(self, ship: str) -> str | None:
        """Releases a spaceship from Mind Control; returns the planet that held it (None: none did)."""
        held = self.controlled.pop(ship, None)
        if held is not None:
            self._fleets = None
        return held

    def loadout(self, planet: str) -> Loadout:
        """Returns what a planet's Technology cards and Upgrades in effect give (kept until its Upgrades
        change: :meth:`upgrades_changed`)."""
        found = self._loadouts.get(planet)
        if found is None:
            found = self._loadouts[planet] = self.tech.loadout(planet, tuple(self.upgrades.get(planet, ())))
        return found

    def upgrades_changed(self) -> None:
        """Forgets the loadouts worked out so far (call it whenever ``upgrades`` changes)."""
        self._loadouts = {}

    @property
    def roster(self) -> Roster:
        """The planets each seat plays and the spaceships in play: fixed once the game is dealt."""
        found = self._roster
        if found is None:
            found = self._roster = Roster.of(self)
        return found

    def supply(self, planet: str) -> list[str]:
        """Returns a planet's spaceships not on the board."""
        ships = self.ships
        return [s for s in self.factions.fleets[planet] if ships.get(s, "") is None]

    def has_supply(self, planet: str) -> bool:
        """Returns whether a planet has a spaceship left to build (kept by :attr:`fleets`)."""
        return planet in self.fleets.supplied

    def seat_population(self, seat: int) -> int:
        """Returns the population a seat has collected (a team's two planets together)."""
        collected = self.collected
        return sum(collected[p] for p in self.roster.sides.get(seat, ()))

    def seat_populations(self) -> list[int]:
        """Returns every seat's :meth:`seat_population`, by seat."""
        found = [0] * self.players
        collected, seat_of = self.collected, self.seat_of
        for planet in self.planets:
            found[seat_of[planet]] += collected[planet]
        return found

    # ------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        """Returns each seat's collected population."""
        return [float(p) for p in self.seat_populations()]

    def winners(self) -> list[Seat]:
        """Returns the seats that won (reached the target together, or led at the turn limit)."""
        return list(self.winners_) if self.over else super().winners()

    def ranking(self) -> list[int]:
        """Returns ranks: winners first (a shared win ranks 1), then by population."""
        if not self.over:
            return super().ranking()
        # Winners tie for first whatever their populations (two can reach the target on different counts).
        scores = [10_000.0 if seat in self.winners_ else s for seat, s in enumerate(self.scores())]
        return [1 + sum(1 for other in scores if other > mine) for mine in scores]

    # ------------------------------------------------------------ for people
    def seat_name(self, seat: Seat) -> str:
        """Returns the seat's planet (the team game: its two planets, "Titan & Ganymede")."""
        sides = self.sides(seat) if isinstance(seat, int) and 0 <= seat < self.players else []
        return " & ".join(self.planet(p).name for p in sides) or f"seat {seat}"

    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None once the game is over)."""
        return None if self.over or not self.planets else self.active_seat

    def to_position(self) -> dict[str, object]:
        """Returns the whole state as a position (docs/positions.md; read back by position.py)."""
        return {**position_header(self, POSITION_FORMAT), **LAYOUT.write(self)}

    def invariant_errors(self) -> list[str]:
        """Returns broken invariants: Zap cards in one place, population conserved or lost, ships known."""
        problems = []
        zap = [*self.aside, *(c for pile in (*self.decks, *self.hands, *self.discards) for c in pile)]
        if sorted(zap) != sorted(self.zap.cards):
            problems.append("Zap cards are not each in exactly one place")
        if any(n < 0 for n in self.population.values()):
            problems.append("negative population on a land area")
        total = self.board.total(self.options["length"])
        on_earth = sum(self.population.values()) + sum(self.infected.values())
        if on_earth + sum(self.collected.values()) > total:
            problems.append("more population than the game started with")
        if any(len(h) > 3 for h in self.hands):
            problems.append("a Zap hand holds more than three cards")
        upgrades = [*self.upgrade_deck, *self.face_up, *self.upgrade_discard]
        upgrades += [u for held in (*self.upgrades.values(), *self.pending_upgrades.values()) for u in held]
        if self.options["game"] == "enhanced" and sorted(upgrades) != sorted(self.tech.upgrade_cards):
            problems.append("Upgrade cards are not each in exactly one place")
        if any(self.ships.get(s) is None for s in [*self.controlled, *self.disabled]):
            problems.append("a controlled or disabled ship is not on the board")
        return problems

    # ------------------------------------------------------------ copies
    def clone(self) -> Self:
        """Returns a deep, independent copy (sharing the fleets, roster and loadouts worked out so far: each
        is only ever replaced, or filled in with what both copies would work out alike)."""
        other = type(self).__new__(type(self))
        GameState.__init__(other)
        LAYOUT.copy_into(self, other)
        other.actions_applied = self.actions_applied
        other.enhanced, other._fleets, other._roster = self.enhanced, self._fleets, self._roster
        other._loadouts = self._loadouts
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Returns a copy with others' Zap hands, every face-down Zap deck and the card aside re-dealt,
        then the Upgrade deck shuffled, and a fresh generator."""
        other = self.clone()
        other.chance = self.chance.fresh(rng)
        LAYOUT.redeal(other, seat, rng)
        return other


@dataclass(frozen=True)
class Roster:
    """What the seating fixes for a whole game: the planets each seat plays (in turn order) and every
    spaceship in play, in name order."""

    sides: dict[int, tuple[str, ...]]
    ships: tuple[str, ...]

    @classmethod
    def of(cls, state: VenusState) -> Roster:
        """Returns the roster of a dealt (or read) game."""
        sides: dict[int, list[str]] = {}
        for planet in state.planets:
            sides.setdefault(state.seat_of[planet], []).append(planet)
        return cls({seat: tuple(planets) for seat, planets in sides.items()}, tuple(sorted(state.ships)))


class Sorted(Form):
    """A mapping written with its keys sorted (ships, Mind Control), read as its type hint says."""

    def __init__(self, hint: object) -> None:
        self.hint = hint

    def write(self, value: object, names: CardNames | None) -> object:
        """Returns the mapping as JSON, keys sorted."""
        assert isinstance(value, Mapping)
        return write_value(dict(sorted(value.items())))

    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> object:
        """Returns the mapping read through its type hint."""
        return read_value(self.hint, raw, path)


@dataclass(frozen=True)
class StackReading:
    """What reading a position's decisions needs: the number of seats and the game's decision classes."""

    players: int
    kinds: DecisionKinds


class Decisions(Form):
    """The decision stack, bottom first, each decision read by its class (the context: a
    :class:`StackReading`)."""

    def write(self, value: object, names: CardNames | None) -> object:
        """Returns the stack as JSON."""
        assert isinstance(value, DecisionStack)
        return value.to_json()

    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> object:
        """Returns the stack read through the game's decision classes."""
        assert isinstance(context, StackReading)
        return DecisionStack.from_json(raw, path, context.players, context.kinds)


LAYOUT = Layout(
    Part("chance", copy=Chance.copy, body=False),
    "planets",
    "seat_of",
    Part("ships", form=Sorted(dict[str, str | None])),
    "population",
    "collected",
    "earth_open",
    Part("decks", "secret", cards=True),
    Part("hands", "owner", cards=True),
    Part("discards", cards=True),
    Part("aside", "secret", cards=True),
    "current",
    "turn",
    "action",
    "acted",
    "extended",
    "skips",
    "extra_turns",
    "over",
    Part("winners_", key="winners"),
    Part("stack", key="decisions", copy=DecisionStack.copy, form=Decisions()),
    "upgrades",
    "pending_upgrades",
    Part("upgrade_deck", "secret", cards=True, pool="upgrades"),
    Part("face_up", cards=True, pool="upgrades"),
    Part("upgrade_discard", cards=True, pool="upgrades"),
    Part("controlled", form=Sorted(dict[str, str])),
    "disabled",
    "infected",
    "cycled",
    "seized",
    shared=("board", "factions", "zap", "players", "options", "tech"),
)
"""Every part of a Venus state: Zap cards by their number and Upgrade cards by their id, as in positions
(the Zap decks and the card aside seen by nobody, each hand by its seat; the Upgrade deck by nobody,
re-dealt apart); the content and options shared; the chance written in the header."""
