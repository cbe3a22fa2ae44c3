"""Positions: a Venus Needs Men! state read back from JSON (``VenusState.to_position`` writes it through
its layout), checked: every part read by its type, then whether the parts fit together."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from parlour.core.chance import Chance
from parlour.core.errors import ParlourError, PositionError
from parlour.core.positions import Fields, short_key, short_repr
from parlour.core.zones import CardNames
from parlour.games.venus_needs_men import zapping
from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.enhanced import has_special
from parlour.games.venus_needs_men.factions import Factions
from parlour.games.venus_needs_men.game_state import VenusGameState
from parlour.games.venus_needs_men.readers import read_stack
from parlour.games.venus_needs_men.rules import KINDS
from parlour.games.venus_needs_men.state import LAYOUT, POSITION_FORMAT, StackReading, VenusState
from parlour.games.venus_needs_men.zapdeck import ZapDeck
from parlour.games.venus_needs_men.zapping import ZapWindow

MIND_CONTROL = "mindcontrol"
"""The Special that takes ships over (Mars's Mind Control, ruling A-10)."""
FIELDS = {"format", "game", "players", "options", "chance", *LAYOUT.keys()}
ACTIONS = ("", "build", "move", "attack", "collect", "research")


def from_position(
    board: Board, factions: Factions, zap: ZapDeck, data: object, options: dict[str, object]
) -> VenusState:
    """Returns the state a position describes, refusing anything impossible with the field's path."""
    f = Fields(data, "", FIELDS)
    if f.get("format") != POSITION_FORMAT:
        raise PositionError("format", f"must be {POSITION_FORMAT!r}")
    players = f.integer("players", 2, 6)
    state = VenusGameState(board, factions, zap, players, options, Chance.from_json(f.get("chance")))
    for name, value in LAYOUT.read(VenusState, f.data, context=StackReading(players, KINDS)).items():
        setattr(state, name, value)
    _check_planets(state)
    _check_ships(state)
    _check_population(state)
    _check_zap(state)
    _check_turn(state)
    _check_enhanced(state)
    read_stack(state)
    _check(state)
    return state


def _check_planets(state: VenusState) -> None:
    """Refuses an unknown or repeated home world, or a planet without its seat."""
    for i, planet in enumerate(state.planets):
        if planet not in state.factions.planets:
            raise PositionError(f"planets[{i}]", f"{short_repr(planet)} is not a home world")
    count = 4 if state.players == 2 else state.players
    if len(state.planets) != count or len(set(state.planets)) != count:
        raise PositionError("planets", "one home world a seat (two players: four), all different")
    if sorted(state.seat_of) != sorted(state.planets):
        raise PositionError("seat_of", "must give each planet in play its seat")
    _each_within(state.seat_of.items(), "seat_of", 0, state.players - 1)


def _within(value: int, path: str, low: int, high: int | None = None) -> None:
    """Refuses a number out of [low, high]."""
    if value < low:
        raise PositionError(path, f"must be at least {low}, not {value}")
    if high is not None and value > high:
        raise PositionError(path, f"must be at most {high}, not {value}")


def _each_within(values: Iterable[tuple[object, int]], path: str, low: int, high: int | None = None) -> None:
    """Refuses a number of a list (by index) or a mapping (by key) out of [low, high]."""
    for key, value in values:
        where = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{short_key(str(key))}"
        _within(value, where, low, high)


def _check_ships(state: VenusState) -> None:
    """Refuses a ship of no planet in play, one missing, or one in no area a ship can be in."""
    expected = sorted(s for p in state.planets for s in state.factions.planets[p].ship_ids())
    if sorted(state.ships) != expected:
        raise PositionError("ships", "must list every spaceship of the planets in play")
    board = state.board
    for ship, where in state.ships.items():
        if where is not None and (not board.has(where) or where == board.refuge):
            raise PositionError(f"ships.{ship}", f"{short_repr(where)} is not an area a ship can be in")


def _check_population(state: VenusState) -> None:
    """Refuses land populations or collected totals that miss an area or planet, or are negative."""
    if sorted(state.population) != sorted(state.board.land_areas()):
        raise PositionError("population", "must give every land area its population")
    _each_within(state.population.items(), "population", 0)
    if sorted(state.collected) != sorted(state.planets):
        raise PositionError("collected", "must give every planet in play its population")
    _each_within(state.collected.items(), "collected", 0)


def _check_zap(state: VenusState) -> None:
    """Refuses Zap piles that are not one a seat, or a number that is no Zap card (where each card is,
    the invariants check)."""
    for name in ("decks", "hands", "discards"):
        piles: list[list[int]] = getattr(state, name)
        if len(piles) != state.players:
            raise PositionError(name, f"must list {state.players} piles")
        for i, pile in enumerate(piles):
            _zap_cards(state, pile, f"{name}[{i}]")
    _zap_cards(state, state.aside, "aside")


def _zap_cards(state: VenusState, pile: list[int], path: str) -> None:
    """Refuses a number that is no Zap card."""
    for j, card in enumerate(pile):
        if card not in state.zap.cards:
            raise PositionError(f"{path}[{j}]", f"there is no Zap card {card}")


def _check_turn(state: VenusState) -> None:
    """Refuses a turn's counters out of range, an unknown action or ship, skips of planets not in play."""
    _within(state.current, "current", 0, len(state.planets) - 1)
    _within(state.turn, "turn", 0)
    if state.action not in ACTIONS:
        raise PositionError("action", "must be build, move, attack, collect, research or empty")
    _ships(state, state.acted, "acted")
    _within(state.extended, "extended", 0, 3)
    for path in ("skips", "extra_turns"):
        counts: dict[str, int] = getattr(state, path)
        if any(p not in state.planets for p in counts):
            raise PositionError(path, "must map planets in play to counts")
        _each_within(counts.items(), path, 0)
    _each_within(enumerate(state.winners_), "winners", 0, state.players - 1)


def _ships(state: VenusState, ships: list[str], path: str) -> None:
    """Refuses a name that is no ship of a planet in play."""
    for i, ship in enumerate(ships):
        if ship not in state.ships:
            raise PositionError(f"{path}[{i}]", f"{short_repr(ship)} is not a spaceship in this game")


def _check_enhanced(state: VenusState) -> None:
    """Refuses unknown Upgrades (or more of one than there are), Mind Control other than Mars's of enemy
    ships, unknown disabled or seized ships, infected units off the land areas."""
    reader = CardNames(state.tech.upgrade_cards, "Upgrade card").reader()
    for path in ("upgrades", "pending_upgrades"):
        held: dict[str, list[str]] = getattr(state, path)
        if any(p not in state.planets for p in held):
            raise PositionError(path, "must map planets in play to lists of Upgrades")
        for planet, cards in held.items():
            for i, card in enumerate(cards):
                reader.number(card, f"{path}.{planet}[{i}]")
    for path in ("upgrade_deck", "face_up", "upgrade_discard"):
        for i, card in enumerate(getattr(state, path)):
            reader.number(card, f"{path}[{i}]")
    _check_controlled(state, state.controlled)
    _ships(state, state.disabled, "disabled")
    if sorted(state.infected) != sorted(state.board.land_areas()):
        raise PositionError("infected", "must give every land area its infected units")
    _each_within(state.infected.items(), "infected", 0)
    _ships(state, state.seized, "seized")


def _check_controlled(state: VenusState, controlled: Mapping[str, str]) -> None:
    """Refuses ships under Mind Control: only Mars, in the Enhanced game, takes enemy ships (A-10)."""
    for ship, planet in controlled.items():
        path = f"controlled.{short_key(ship)}"
        if ship not in state.ships:
            raise PositionError(path, f"{short_repr(ship)} is not a spaceship in this game")
        if not has_special(state, planet, MIND_CONTROL):
            raise PositionError(path, "only a planet in play with Mind Control (Enhanced: Mars) takes ships")
        if state.seat_of[state.owner(ship)] == state.seat_of[planet]:
            raise PositionError(path, "Mind Control takes enemy ships only")


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
