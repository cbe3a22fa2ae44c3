"""Positions: a Venus Needs Men! state read back from JSON (``VenusState.to_position`` writes it), checked."""

from __future__ import annotations

from typing import Any

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack
from parlour.core.errors import ParlourError, PositionError
from parlour.core.positions import Fields, check_int, short_key, short_repr
from parlour.games.venus_needs_men import zapping
from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.enhanced import has_special
from parlour.games.venus_needs_men.factions import Factions
from parlour.games.venus_needs_men.game_state import VenusGameState
from parlour.games.venus_needs_men.readers import read_stack
from parlour.games.venus_needs_men.rules import KINDS
from parlour.games.venus_needs_men.state import POSITION_FORMAT, VenusState
from parlour.games.venus_needs_men.zapdeck import ZapDeck
from parlour.games.venus_needs_men.zapping import ZapWindow

MIND_CONTROL = "mindcontrol"
"""The Special that takes ships over (Mars's Mind Control, ruling A-10)."""
FIELDS = {
    "format",
    "game",
    "players",
    "options",
    "chance",
    "planets",
    "seat_of",
    "ships",
    "population",
    "collected",
    "earth_open",
    "decks",
    "hands",
    "discards",
    "aside",
    "current",
    "turn",
    "action",
    "acted",
    "extended",
    "skips",
    "extra_turns",
    "over",
    "winners",
    "decisions",
    "upgrades",
    "pending_upgrades",
    "upgrade_deck",
    "face_up",
    "upgrade_discard",
    "controlled",
    "disabled",
    "infected",
    "cycled",
    "seized",
}


def from_position(
    board: Board, factions: Factions, zap: ZapDeck, data: Any, options: dict[str, Any]
) -> VenusState:
    """Returns the state a position describes, refusing anything impossible with the field's path."""
    f = Fields(data, "", FIELDS)
    if f.get("format") != POSITION_FORMAT:
        raise PositionError("format", f"must be {POSITION_FORMAT!r}")
    players = f.integer("players", 2, 6)
    state = VenusGameState(board, factions, zap, players, options, Chance.from_json(f.get("chance")))
    state.planets = f.items("planets", lambda v, p: _planet(factions, v, p))
    if len(state.planets) != (4 if players == 2 else players) or len(set(state.planets)) != len(
        state.planets
    ):
        raise PositionError("planets", "one home world a seat (two players: four), all different")
    seat_of = f.get("seat_of")
    if not isinstance(seat_of, dict) or sorted(seat_of) != sorted(state.planets):
        raise PositionError("seat_of", "must give each planet in play its seat")
    state.seat_of = {p: check_int(s, f"seat_of.{p}", 0, players - 1) for p, s in seat_of.items()}
    _read_ships(state, f)
    _read_population(state, f)
    _read_zap(state, f)
    state.current = f.integer("current", 0, len(state.planets) - 1)
    state.turn = f.integer("turn", 0)
    state.action = f.string("action")
    if state.action not in ("", "build", "move", "attack", "collect", "research"):
        raise PositionError("action", "must be build, move, attack, collect, research or empty")
    state.acted = f.items("acted", lambda v, p: _ship(state, v, p))
    state.extended = f.integer("extended", 0, 3)
    state.skips = _counts(state, f.get("skips"), "skips")
    state.extra_turns = _counts(state, f.get("extra_turns"), "extra_turns")
    state.over = f.boolean("over")
    state.winners_ = f.items("winners", lambda v, p: check_int(v, p, 0, players - 1))
    state.stack = DecisionStack.from_json(f.get("decisions"), "decisions", players, KINDS)
    _read_enhanced(state, f)
    read_stack(state)
    _check(state)
    return state


def _planet(factions: Factions, value: Any, path: str) -> str:
    """Reads a planet id."""
    if not isinstance(value, str) or value not in factions.planets:
        raise PositionError(path, f"{short_repr(value)} is not a home world")
    return value


def _ship(state: VenusState, value: Any, path: str) -> str:
    """Reads a ship name of a planet in play."""
    if not isinstance(value, str) or value not in state.ships:
        raise PositionError(path, f"{short_repr(value)} is not a spaceship in this game")
    return value


def _read_ships(state: VenusState, f: Fields) -> None:
    """Reads every spaceship's area (null: in supply)."""
    ships = f.get("ships")
    expected = sorted(s for p in state.planets for s in state.factions.planets[p].ship_ids())
    if not isinstance(ships, dict) or sorted(ships) != expected:
        raise PositionError("ships", "must list every spaceship of the planets in play")
    for ship, where in ships.items():
        if where is not None and (
            not isinstance(where, str) or not state.board.has(where) or where == state.board.refuge
        ):
            raise PositionError(f"ships.{ship}", f"{short_repr(where)} is not an area a ship can be in")
        state.ships[ship] = where


def _read_population(state: VenusState, f: Fields) -> None:
    """Reads land populations and collected totals."""
    population = f.get("population")
    if not isinstance(population, dict) or sorted(population) != sorted(state.board.land_areas()):
        raise PositionError("population", "must give every land area its population")
    state.population = {a: check_int(n, f"population.{a}", 0) for a, n in population.items()}
    collected = f.get("collected")
    if not isinstance(collected, dict) or sorted(collected) != sorted(state.planets):
        raise PositionError("collected", "must give every planet in play its population")
    state.collected = {p: check_int(n, f"collected.{p}", 0) for p, n in collected.items()}
    state.earth_open = f.boolean("earth_open")


def _read_zap(state: VenusState, f: Fields) -> None:
    """Reads decks, hands, discards and the card aside."""
    for name in ("decks", "hands", "discards"):
        piles = f.get(name)
        if not isinstance(piles, list) or len(piles) != state.players:
            raise PositionError(name, f"must list {state.players} piles")
        read = [
            [check_int(c, f"{name}[{i}][{j}]", 1, 36) for j, c in enumerate(pile)]
            if isinstance(pile, list)
            else _bad(f"{name}[{i}]")
            for i, pile in enumerate(piles)
        ]
        setattr(state, name, read)
    state.aside = f.items("aside", lambda v, p: check_int(v, p, 1, 36))


def _bad(path: str) -> list[int]:
    """Refuses a pile that is not a list."""
    raise PositionError(path, "must be a list of Zap card numbers")


def _counts(state: VenusState, value: Any, path: str) -> dict[str, int]:
    """Reads planet -> count."""
    if not isinstance(value, dict) or any(p not in state.planets for p in value):
        raise PositionError(path, "must map planets in play to counts")
    return {p: check_int(n, f"{path}.{p}", 0) for p, n in value.items()}


def _read_enhanced(state: VenusState, f: Fields) -> None:
    """Reads Upgrades, Mind Control, disabled robots and infected population."""
    upgrade = lambda v, p: _upgrade(state, v, p)  # noqa: E731
    state.upgrades = _by_planet(state, f.get("upgrades"), "upgrades", upgrade)
    state.pending_upgrades = _by_planet(state, f.get("pending_upgrades"), "pending_upgrades", upgrade)
    state.upgrade_deck = f.items("upgrade_deck", upgrade)
    state.face_up = f.items("face_up", upgrade)
    state.upgrade_discard = f.items("upgrade_discard", upgrade)
    state.controlled = _controlled(state, f.get("controlled"))
    state.disabled = f.items("disabled", lambda v, p: _ship(state, v, p))
    infected = f.get("infected")
    if not isinstance(infected, dict) or sorted(infected) != sorted(state.board.land_areas()):
        raise PositionError("infected", "must give every land area its infected units")
    state.infected = {a: check_int(n, f"infected.{a}", 0) for a, n in infected.items()}
    state.cycled = f.boolean("cycled")
    state.seized = f.items("seized", lambda v, p: _ship(state, v, p))


def _controlled(state: VenusState, value: Any) -> dict[str, str]:
    """Reads the ships under Mind Control: only Mars, in the Enhanced game, takes enemy ships (A-10)."""
    if not isinstance(value, dict):
        raise PositionError("controlled", "must map ships in play to the planets controlling them")
    controlled = {}
    for ship, planet in value.items():
        path = f"controlled.{short_key(ship)}"
        _ship(state, ship, path)
        if not isinstance(planet, str) or not has_special(state, planet, MIND_CONTROL):
            raise PositionError(path, "only a planet in play with Mind Control (Enhanced: Mars) takes ships")
        if state.seat_of[state.owner(ship)] == state.seat_of[planet]:
            raise PositionError(path, "Mind Control takes enemy ships only")
        controlled[ship] = planet
    return controlled


def _upgrade(state: VenusState, value: Any, path: str) -> str:
    """Reads an Upgrade id."""
    if not isinstance(value, str) or value not in state.tech.upgrades:
        raise PositionError(path, f"{short_repr(value)} is not an Upgrade card")
    return value


def _by_planet(state: VenusState, value: Any, path: str, read: Any) -> dict[str, list[str]]:
    """Reads planet -> list of Upgrade ids."""
    if not isinstance(value, dict) or any(
        p not in state.planets or not isinstance(v, list) for p, v in value.items()
    ):
        raise PositionError(path, "must map planets in play to lists of Upgrades")
    return {p: [read(u, f"{path}.{p}[{i}]") for i, u in enumerate(v)] for p, v in value.items()}


def _check_decisions(state: VenusState) -> None:
    """Refuses a seat without a planet, or a stack on which nobody may act although the game goes on."""
    if sorted(set(state.seat_of.values())) != list(range(state.players)):
        raise PositionError("seat_of", "every seat plays at least one planet")
    # A hand-written position may leave a Zap window unopened: the engine opens it (or closes it at once,
    # when nobody holds a playable card) as it would have; a position the engine wrote is already settled.
    state.settle()
    if len(state.stack) and not state.deciders():
        raise PositionError("decisions", "nobody may act, yet the game is not over")
    _check_window(state)


def _check_window(state: VenusState) -> None:
    """Refuses a Zap window on top asking a seat that public knowledge says cannot play there (ruling
    B-3), or out of order (readers.py has already refused an open window under another decision)."""
    window = state.stack.top if len(state.stack) else None
    if not isinstance(window, ZapWindow):
        return
    path = f"decisions[{len(state.stack) - 1}].seats"
    could = zapping.asked(state, window)
    for seat in window.seats:
        if seat not in could:
            raise PositionError(
                path, f"seat {seat} cannot hold a card playable in this window by what the table knows"
            )
    if could[len(could) - len(window.seats) :] != window.seats:
        raise PositionError(
            path,
            "must be the seats still to answer, in order: the end of "
            + (", ".join(map(str, could)) or "none"),
        )


def _check(state: VenusState) -> None:
    """Refuses a position whose parts do not fit together."""
    _check_decisions(state)
    problems = state.invariant_errors()
    if problems:
        raise PositionError("", "; ".join(problems))
    if (not len(state.stack)) != state.over:
        raise PositionError("decisions", "the game is over exactly when no decision is pending")
    try:
        for seat in state.deciders():
            state.legal_actions(seat)
    except (ParlourError, LookupError, AssertionError, TypeError, ValueError) as err:
        raise PositionError(
            "decisions", f"the decisions cannot be played from here ({short_repr(err)})"
        ) from None
