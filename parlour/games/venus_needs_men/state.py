"""VenusState: ships, population, Zap decks and hands, turn order and the decision stack."""

from __future__ import annotations

import random
from typing import Any, Self

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.modular import ModularState
from parlour.core.state import GameState
from parlour.games.venus_needs_men.actions import NOTATION, VenusAction
from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.factions import Factions, Planet
from parlour.games.venus_needs_men.phases import ZAP
from parlour.games.venus_needs_men.tech import TechSet, load_tech
from parlour.games.venus_needs_men.zapdeck import ZapCard, ZapDeck

POSITION_FORMAT = "parlour-venus-needs-men-position/1"
"""The ``format`` of every Venus Needs Men! position."""


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
        self.board, self.factions, self.zap = board, factions, zap
        self.players = players
        self.options = options
        self.chance = chance
        self.stack = DecisionStack()
        self.planets: list[str] = []
        """The sides in turn order."""
        self.seat_of: dict[str, int] = {}
        self.ships: dict[str, str | None] = {}
        """Every spaceship of the planets in play: its area, or None in its owner's supply."""
        self.population: dict[str, int] = {}
        """Population units on each land area."""
        self.collected: dict[str, int] = {}
        """Population units on each home world (Earth: in the Refuge)."""
        self.earth_open = False
        """Whether Earth may collect (an alien has attacked an Earth ship or collected population)."""
        self.decks: list[list[int]] = [[] for _ in range(players)]
        """Each seat's face-down Zap deck, top first; secret."""
        self.hands: list[list[int]] = [[] for _ in range(players)]
        """Each seat's Zap hand; secret."""
        self.discards: list[list[int]] = [[] for _ in range(players)]
        """Each seat's face-up Zap discard pile."""
        self.aside: list[int] = []
        """A Zap card left over (five players), out of play; secret."""
        self.current = 0
        """Index into ``planets`` of the side whose turn it is."""
        self.turn = 0
        self.action = ""
        """The action chosen this turn: build, move, attack, collect (empty before the first step)."""
        self.acted: list[str] = []
        """Ships that have already moved, attacked or collected in this action."""
        self.extended = 0
        """Zap cards discarded to extend this turn's action."""
        self.skips: dict[str, int] = {}
        """Turns each side must skip (Ion Storm)."""
        self.extra_turns: dict[str, int] = {}
        """Extra turns each side has won (Time Dilation)."""
        self.over = False
        self.winners_: list[int] = []
        # The Enhanced game.
        self.tech: TechSet = load_tech()
        self.upgrades: dict[str, list[str]] = {}
        """Upgrades in effect, by planet (public)."""
        self.pending_upgrades: dict[str, list[str]] = {}
        """Upgrades acquired this turn: they take effect at its end."""
        self.upgrade_deck: list[str] = []
        """The face-down Upgrade deck, top first; secret."""
        self.face_up: list[str] = []
        """The three face-up Upgrade cards."""
        self.upgrade_discard: list[str] = []
        self.controlled: dict[str, str] = {}
        """Ships under Mind Control: ship -> the planet controlling it."""
        self.disabled: list[str] = []
        """Pluto's disabled robots."""
        self.infected: dict[str, int] = {}
        """Infected (yellow) units on each land area."""
        self.cycled = False
        """Whether a face-up Upgrade was discarded and replaced this turn."""
        self.seized: list[str] = []
        """Ships taken over by Mind Control this turn: they act from their new master's next turn."""

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
        found = self.factions.by_letter(ship[0])
        assert found is not None
        return found.id

    def sides(self, seat: int) -> list[str]:
        """Returns the planets a seat plays."""
        return [p for p in self.planets if self.seat_of[p] == seat]

    def card(self, number: int) -> ZapCard:
        """Returns a Zap card by number."""
        return self.zap.cards[number]

    def controller(self, ship: str) -> str:
        """Returns the planet that commands a ship (its owner, unless under Mind Control)."""
        return self.controlled.get(ship) or self.owner(ship)

    def fleet(self, planet: str) -> list[str]:
        """Returns the spaceships on the board that ``planet`` commands (its own and those it controls)."""
        return sorted(
            s for s, where in self.ships.items() if where is not None and self.controller(s) == planet
        )

    def supply(self, planet: str) -> list[str]:
        """Returns a planet's spaceships not on the board."""
        letter = self.planet(planet).letter
        return sorted(s for s, where in self.ships.items() if where is None and s[0] == letter)

    def seat_population(self, seat: int) -> int:
        """Returns the population a seat has collected (a team's two planets together)."""
        return sum(self.collected[p] for p in self.sides(seat))

    # ------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        """Returns each seat's collected population."""
        return [float(self.seat_population(s)) for s in range(self.players)]

    def winners(self) -> list[Seat]:
        """Returns the seats that won (reached the target together, or led at the turn limit)."""
        return list(self.winners_) if self.over else super().winners()

    def ranking(self) -> list[int]:
        """Returns ranks: winners first (a shared win ranks 1), then by population."""
        if not self.over:
            return super().ranking()
        scores = [s + (10_000 if seat in self.winners_ else 0) for seat, s in enumerate(self.scores())]
        return [1 + sum(1 for other in scores if other > mine) for mine in scores]

    # ------------------------------------------------------------ for people
    def seat_name(self, seat: Seat) -> str:
        """Returns the seat's planet (the team game: its two planets, "Titan & Ganymede")."""
        sides = self.sides(seat) if isinstance(seat, int) and 0 <= seat < self.players else []
        return " & ".join(self.planet(p).name for p in sides) or f"seat {seat}"

    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None once the game is over)."""
        return None if self.over or not self.planets else self.active_seat

    def passing_window(self) -> bool:
        """Returns whether a Zap window is on top (every seat asked may pass)."""
        return bool(len(self.stack)) and self.stack.top.kind == ZAP

    def to_position(self) -> dict[str, Any]:
        """Returns the whole state as a position (docs/positions.md; read back by position.py)."""
        return {
            "format": POSITION_FORMAT,
            "game": self.game_name,
            "players": self.players,
            "options": dict(self.options),
            "chance": self.chance.to_json(),
            "planets": list(self.planets),
            "seat_of": dict(self.seat_of),
            "ships": dict(sorted(self.ships.items())),
            "population": dict(self.population),
            "collected": dict(self.collected),
            "earth_open": self.earth_open,
            "decks": [list(d) for d in self.decks],
            "hands": [list(h) for h in self.hands],
            "discards": [list(d) for d in self.discards],
            "aside": list(self.aside),
            "current": self.current,
            "turn": self.turn,
            "action": self.action,
            "acted": list(self.acted),
            "extended": self.extended,
            "skips": dict(self.skips),
            "extra_turns": dict(self.extra_turns),
            "over": self.over,
            "winners": list(self.winners_),
            "decisions": self.stack.to_json(),
            "upgrades": {p: list(u) for p, u in self.upgrades.items()},
            "pending_upgrades": {p: list(u) for p, u in self.pending_upgrades.items()},
            "upgrade_deck": list(self.upgrade_deck),
            "face_up": list(self.face_up),
            "upgrade_discard": list(self.upgrade_discard),
            "controlled": dict(sorted(self.controlled.items())),
            "disabled": list(self.disabled),
            "infected": dict(self.infected),
            "cycled": self.cycled,
            "seized": list(self.seized),
        }

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
        """Returns a deep, independent copy."""
        other = type(self).__new__(type(self))
        GameState.__init__(other)
        other.board, other.factions, other.zap = self.board, self.factions, self.zap
        other.players, other.options = self.players, self.options
        other.chance = self.chance.copy()
        other.stack = self.stack.copy()
        other.planets, other.seat_of = list(self.planets), dict(self.seat_of)
        other.ships, other.population = dict(self.ships), dict(self.population)
        other.collected, other.earth_open = dict(self.collected), self.earth_open
        other.decks = [list(d) for d in self.decks]
        other.hands = [list(h) for h in self.hands]
        other.discards = [list(d) for d in self.discards]
        other.aside = list(self.aside)
        other.current, other.turn, other.action = self.current, self.turn, self.action
        other.acted, other.extended = list(self.acted), self.extended
        other.skips, other.extra_turns = dict(self.skips), dict(self.extra_turns)
        other.over, other.winners_ = self.over, list(self.winners_)
        other.tech = self.tech
        other.upgrades = {p: list(u) for p, u in self.upgrades.items()}
        other.pending_upgrades = {p: list(u) for p, u in self.pending_upgrades.items()}
        other.upgrade_deck, other.face_up = list(self.upgrade_deck), list(self.face_up)
        other.upgrade_discard, other.controlled = list(self.upgrade_discard), dict(self.controlled)
        other.disabled, other.infected, other.cycled = list(self.disabled), dict(self.infected), self.cycled
        other.seized = list(self.seized)
        other.actions_applied = self.actions_applied
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Returns a copy with others' Zap hands and every face-down deck re-dealt, and a fresh generator."""
        other = self.clone()
        other.chance = self.chance.fresh(rng)
        others = [s for s in range(self.players) if s != seat]
        pool = [c for s in others for c in other.hands[s] + other.decks[s]] + other.aside + other.decks[seat]
        pool.sort()  # canonical order: the result depends only on what the seat knows
        rng.shuffle(pool)
        for s in others:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
        for s in range(self.players):
            size = len(other.decks[s])
            other.decks[s], pool = pool[:size], pool[size:]
        other.aside = pool
        other.upgrade_deck.sort()
        rng.shuffle(other.upgrade_deck)
        return other
