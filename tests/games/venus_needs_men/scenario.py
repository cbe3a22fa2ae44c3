"""Readable Venus Needs Men! positions for tests: ships by area, Zap cards by number, each in one place.

A scenario is a complete position written from what a test cares about: where
the named spaceships are (every ship not named is in its owner's supply), the
land populations and collected totals that differ from the start, each seat's
Zap hand, deck (top first) and discard pile, and whose turn it is.  Every Zap
card nobody names is put aside (out of play), so each of the 36 cards is in
exactly one place, and the position loads through the engine's own checks::

    >>> state = load(ships={"V1": "orbit", "M1": "china"}, hands={0: [9]}, active="venus")
    >>> state.active, state.ships["V1"], state.hands[0], state.deciders()
    ('venus', 'orbit', [9], (0,))

Default home worlds: with 4 players seat 0 Venus, 1 Mars, 2 Ganymede, 3 Titan
(turn order Titan, Venus, Mars, Ganymede); the two-player team game: seat 0
Titan and Ganymede, seat 1 Mars and Venus (Titan, Mars, Ganymede, Venus).

The turn on the stack is the engine's program: the end Zap window, ``extend``
and ``act`` for the active side; ``window="start"`` adds the start Zap window
on top, opened by the engine for the seats that could hold a card playable in
it by public knowledge (ruling B-3: every seat holding a Zap card, when some
card in no discard pile would be playable by it there).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.chance import Forced
from parlour.games.venus_needs_men import VenusState
from parlour.games.venus_needs_men.board import load_board

from ..scenarios import apply_line, by_seat
from ..typed import VENUS as GAME

BOARD = load_board()
ZAP = GAME.zap({})
CARDS = sorted(ZAP.cards)

# Card numbers of the house deck by effect (each name appears two or three times).
NATURAL_DISASTER = (1, 14)
ALIEN_PLAGUE = (2, 15)
TIME_DILATION = (3, 16)
HYPERSPACE_JUMP = (4, 17, 27)
SURPRISE_ATTACK = (5, 18, 28)
RAPID_DEPLOYMENT = (6, 19, 29)
ABDUCTION_BEAM = (7, 20, 30)
ION_STORM = (8, 21, 31)
SABOTAGE = (9, 22, 32)
DEFLECTOR_SHIELD = (10, 23, 33)
EVASIVE_MANEUVERS = (11, 24, 34)
TARGETING_COMPUTER = (12, 25, 35)
JAMMING = (13, 26, 36)

Piles = Sequence[Sequence[int]] | Mapping[int, Sequence[int]]


def _by_seat(value: Piles | None, players: int) -> dict[int, list[int]]:
    """Returns a per-seat mapping of piles from a list (one pile a seat) or a mapping."""
    return {int(s): list(p) for s, p in by_seat(value, players, "piles").items()}


def turn_program(seat: int, window: str | None = None) -> list[dict[str, Any]]:
    """Returns the decisions of a fresh turn for ``seat``: finish, end window, extend, act (and a window)."""
    stack = [
        {"kind": "finish", "seats": [], "data": {}, "concurrent": False},
        {"kind": "zap", "seats": [], "data": {"moment": "end", "open": False}, "concurrent": False},
        {"kind": "extend", "seats": [seat], "data": {}, "concurrent": False},
        {"kind": "act", "seats": [seat], "data": {}, "concurrent": False},
    ]
    if window is not None:
        stack.append(
            {"kind": "zap", "seats": [], "data": {"moment": window, "open": False}, "concurrent": False}
        )
    return stack


def position(
    players: int = 4,
    *,
    planets: str | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    ships: Mapping[str, str] | None = None,
    population: Mapping[str, int] | None = None,
    collected: Mapping[str, int] | None = None,
    earth_open: bool = False,
    hands: Piles | None = None,
    decks: Piles | None = None,
    discards: Piles | None = None,
    active: str | None = None,
    turn: int = 1,
    action: str = "",
    extended: int = 0,
    acted: Sequence[str] = (),
    window: str | None = None,
    decisions: list[dict[str, Any]] | None = None,
    skips: Mapping[str, int] | None = None,
    extra_turns: Mapping[str, int] | None = None,
    forced: Sequence[int] = (),
) -> dict[str, Any]:
    """Returns a complete position with the named pieces placed.

    * ``planets``: the ``planets`` option (home worlds by seat); ``options``: any other options.
    * ``ships``: ship -> area for the ships on the board (default: the starting ships at home);
      every ship not named is in its owner's supply.
    * ``population`` / ``collected``: land areas / planets whose counts differ from the start.
    * ``hands``, ``decks`` (top first), ``discards``: one pile a seat or ``{seat: [...]}``; Zap
      cards nobody names are put aside.
    * ``active``: the planet whose turn it is (default: the first in turn order).
    * ``action``, ``extended``, ``acted``: the action chosen this turn, the extensions taken, the ships
      that have acted (for positions in the middle of a turn).
    * ``window``: ``"start"`` or ``"end"`` puts that Zap window on top of ``act``.
    * ``decisions``: the whole stack instead (bottom first).
    * ``forced``: die results for the next rolls.
    """
    values = dict(options or {})
    if planets is not None:
        values["planets"] = planets
    data: dict[str, Any] = GAME.new_state(players, seed, values).to_position()
    if ships is not None:
        data["ships"] = {s: ships.get(s) for s in data["ships"]}
        unknown = set(ships) - set(data["ships"])
        if unknown:
            raise ValueError(f"no spaceships {sorted(unknown)} in this game")
    for area, count in (population or {}).items():
        if area not in data["population"]:
            raise ValueError(f"{area!r} is not a land area")
        data["population"][area] = count
    for planet, count in (collected or {}).items():
        if planet not in data["collected"]:
            raise ValueError(f"{planet!r} is not in play")
        data["collected"][planet] = count
    _take_collected_from_earth(data, set(population or {}))
    data["earth_open"] = earth_open
    piles = {
        name: _by_seat(value, players)
        for name, value in (("hands", hands), ("decks", decks), ("discards", discards))
    }
    named = [c for pile in piles.values() for cards in pile.values() for c in cards]
    if len(named) != len(set(named)) or not set(named) <= set(CARDS):
        raise ValueError(f"Zap cards must be named once each, from 1 to 36: {sorted(named)}")
    for name, pile in piles.items():
        data[name] = [list(pile.get(s, [])) for s in range(players)]
    data["aside"] = [c for c in CARDS if c not in named]
    current = data["planets"].index(active) if active is not None else 0
    seat = data["seat_of"][data["planets"][current]]
    data.update(
        {
            "current": current,
            "turn": turn,
            "action": action,
            "acted": list(acted),
            "extended": extended,
            "skips": dict(skips or {}),
            "extra_turns": dict(extra_turns or {}),
            "over": False,
            "winners": [],
            "decisions": decisions if decisions is not None else turn_program(seat, window),
            "chance": {"seed": seed, "events": 0, "forced": [{"kind": "die", "value": v} for v in forced]},
        }
    )
    return data


def _take_collected_from_earth(data: dict[str, Any], named: set[str]) -> None:
    """Takes units held beyond the game's total from the land areas not named, largest first."""
    total = BOARD.total(data["options"]["length"])
    excess = sum(data["population"].values()) + sum(data["collected"].values()) - total
    while excess > 0:
        free = [a for a in data["population"] if a not in named and data["population"][a] > 0]
        if not free:
            raise ValueError("more population than the game has")
        area = max(free, key=lambda a: data["population"][a])
        data["population"][area] -= 1
        excess -= 1


def load(players: int = 4, **kwargs: Any) -> VenusState:
    """Returns the state of :func:`position` (same arguments), loaded through its JSON text.

    A Zap window written unopened is opened by the engine (it asks the seats holding a playable card,
    and closes at once when there are none); the state is then written and read back once more so
    that nothing the first load computed is left over.
    """
    state = GAME.load_position(json.dumps(position(players, **kwargs)))
    state.settle()
    return GAME.load_position(json.dumps(state.to_position()))


def reload(state: VenusState) -> VenusState:
    """Returns the state written as a position and read back."""
    return GAME.load_position(json.dumps(state.to_position()))


def play(state: VenusState, *lines: str) -> None:
    """Applies actions in notation; ``"2: zap 9 M1"`` names the seat, a bare action is the only decider's.

    After each action the seats that may only pass in a Zap window pass, as front ends with auto-pass
    on do (:func:`auto_pass`).
    """
    for line in lines:
        apply_line(state, line)
        auto_pass(state)


def run(state: VenusState, *lines: str) -> None:
    """Plays actions in notation; ``done`` only while the engine asks for it (an action may end by itself)."""
    for line in lines:
        if line == "done" and "done" not in legal(state):
            continue
        play(state, line)


def auto_pass(state: VenusState) -> int:
    """Passes for every seat asked in a Zap window whose only legal action is a pass; returns how many."""
    passes = 0
    while not state.is_over() and state.only_pass(state.deciders()[0]):
        state.apply_notation("pass", state.deciders()[0])
        passes += 1
    return passes


def force_dice(state: VenusState, *results: int) -> None:
    """Queues die results (1 to 10) for the next rolls."""
    state.chance.forced.extend(Forced("die", r) for r in results)


def legal(state: VenusState, seat: int | None = None) -> list[str]:
    """Returns a seat's legal actions (default: the only decider's) in notation."""
    return [str(a) for a in state.legal_actions(seat)]


def verbs(state: VenusState, seat: int | None = None) -> set[str]:
    """Returns the verbs of a seat's legal actions."""
    return {a.split()[0] for a in legal(state, seat)}


def kinds(state: VenusState) -> list[str]:
    """Returns the decision kinds on the stack, bottom first."""
    return state.stack.kinds()


def top(state: VenusState) -> tuple[str, str | None]:
    """Returns the decision on top: its kind and (a Zap window) its moment."""
    decision = state.stack.top
    return decision.kind, decision.data.get("moment")


def window_seats(state: VenusState) -> list[int]:
    """Returns the seats still to be asked in the Zap window on top."""
    assert state.stack.top.kind == "zap", kinds(state)
    return list(state.stack.top.seats)


def everyone_passes(state: VenusState) -> None:
    """Every seat asked in the Zap window on top passes, in order, until the window closes."""
    window = state.stack.top
    assert window.kind == "zap", kinds(state)
    while len(state.stack) and state.stack.top is window and window.seats:
        state.apply_notation("pass", window.seats[0])


def pass_turn(state: VenusState) -> None:
    """The active side does nothing (no extension), and every Zap window is passed up to the next action."""
    play(state, "pass")
    if not state.is_over() and state.stack.top.kind == "extend":
        play(state, "end")
    passes_until(state, "act")


def passes_until(state: VenusState, kind: str) -> None:
    """Passes every Zap window on the way until a decision of ``kind`` is on top."""
    while not state.is_over() and state.stack.top.kind != kind:
        everyone_passes(state)


def turn_sequence(state: VenusState, turns: int) -> list[str]:
    """Plays ``turns`` turns in which every side passes and every Zap window is passed; returns the sides."""
    sides = []
    passes_until(state, "act")
    for _ in range(turns):
        sides.append(state.active)
        pass_turn(state)
    return sides


def ships_at(state: VenusState, area: str) -> list[str]:
    """Returns the spaceships in an area, sorted."""
    return sorted(s for s, where in state.ships.items() if where == area)


def zap_places(state: VenusState) -> list[int]:
    """Returns every Zap card in every place (decks, hands, discards, aside), sorted."""
    piles = [*state.decks, *state.hands, *state.discards, state.aside]
    return sorted(c for pile in piles for c in pile)


def check(state: VenusState) -> None:
    """Asserts the engine's invariants and that every Zap card is in exactly one place."""
    assert state.invariant_errors() == []
    assert zap_places(state) == CARDS


def population_total(state: VenusState) -> int:
    """Returns the population on Earth's land areas plus every planet's collected units."""
    return sum(state.population.values()) + sum(state.collected.values())


# ------------------------------------------------------------------ the Enhanced game

UPGRADE_CARDS = sorted(GAME.new_state(4, 0, {"game": "enhanced"}).tech.upgrade_cards)
"""The 16 Upgrade cards by id (duplicates repeat), sorted."""


def enhanced_position(
    players: int = 4,
    *,
    options: Mapping[str, Any] | None = None,
    upgrades: Mapping[str, Sequence[str]] | None = None,
    pending_upgrades: Mapping[str, Sequence[str]] | None = None,
    face_up: Sequence[str] | None = None,
    upgrade_deck: Sequence[str] | None = None,
    upgrade_discard: Sequence[str] = (),
    controlled: Mapping[str, str] | None = None,
    disabled: Sequence[str] = (),
    infected: Mapping[str, int] | None = None,
    cycled: bool = False,
    **kwargs: Any,
) -> dict[str, Any]:
    """Returns a complete Enhanced-game position: :func:`position`'s arguments plus the Enhanced fields.

    * ``upgrades`` / ``pending_upgrades``: planet -> Upgrade ids in effect / acquired this turn.
    * ``face_up``, ``upgrade_deck`` (top first), ``upgrade_discard``: the Upgrade piles. Every Upgrade
      card nobody names goes, in the seed's shuffled order, to the face-up row while it has fewer than
      three cards (only when ``face_up`` is not given), then to the deck (only when ``upgrade_deck`` is
      not given), else to the discards; so each of the 16 cards is in exactly one place.
    * ``controlled``: ship -> the planet controlling it (Mind Control); ``disabled``: Pluto's disabled
      ships; ``infected``: land area -> infected units (taken from the largest land areas not named in
      ``population`` or ``infected``, so that Earth's total is kept); ``cycled``: a face-up Upgrade was
      already swapped this turn.
    """
    values = {"game": "enhanced", **dict(options or {})}
    data = position(players, options=values, **kwargs)
    pool = list(data["face_up"]) + list(data["upgrade_deck"])
    held = {p: list(u) for p, u in (upgrades or {}).items()}
    pending = {p: list(u) for p, u in (pending_upgrades or {}).items()}
    named = [*(face_up or ()), *(upgrade_deck or ()), *upgrade_discard]
    named += [u for ids in (*held.values(), *pending.values()) for u in ids]
    for card in named:
        if card not in pool:
            raise ValueError(f"Upgrade {card!r} is named more often than there are cards")
        pool.remove(card)
    row = list(face_up) if face_up is not None else [pool.pop(0) for _ in range(min(3, len(pool)))]
    deck = list(upgrade_deck) if upgrade_deck is not None else [pool.pop(0) for _ in range(len(pool))]
    data.update(
        {
            "upgrades": held,
            "pending_upgrades": pending,
            "face_up": row,
            "upgrade_deck": deck,
            "upgrade_discard": [*upgrade_discard, *pool],
            "controlled": dict(controlled or {}),
            "disabled": list(disabled),
            "infected": {a: 0 for a in data["infected"]},
            "cycled": cycled,
        }
    )
    for area, count in (infected or {}).items():
        if area not in data["infected"]:
            raise ValueError(f"{area!r} is not a land area")
        data["infected"][area] = count
    keep = set(kwargs.get("population") or {}) | set(infected or {})
    total = BOARD.total(data["options"]["length"])
    on_earth = sum(data["population"].values()) + sum(data["infected"].values())
    excess = on_earth + sum(data["collected"].values()) - total
    while excess > 0:
        free = [a for a in data["population"] if a not in keep and data["population"][a] > 0]
        if not free:
            raise ValueError("more population than the game has")
        data["population"][max(free, key=lambda a: data["population"][a])] -= 1
        excess -= 1
    return data


def load_enhanced(players: int = 4, **kwargs: Any) -> VenusState:
    """Returns the state of :func:`enhanced_position` (same arguments), loaded as :func:`load` does."""
    state = GAME.load_position(json.dumps(enhanced_position(players, **kwargs)))
    state.settle()
    return GAME.load_position(json.dumps(state.to_position()))


def upgrade_places(state: VenusState) -> list[str]:
    """Returns every Upgrade card in every place (deck, face up, discards, held, pending), sorted."""
    held = [u for ids in (*state.upgrades.values(), *state.pending_upgrades.values()) for u in ids]
    return sorted([*state.upgrade_deck, *state.face_up, *state.upgrade_discard, *held])
