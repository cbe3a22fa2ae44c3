"""Rulebook "Zap Cards": the windows in which they may be played, their effects, and priority.

Windows (docs/rulings/venus-needs-men.md, B-3 "Zap windows") are offered, in
order from the active seat clockwise, to every seat that could hold a card
playable there as far as the whole table knows (:func:`asked`): who is asked
never depends on hidden cards.  A play restarts the window; it closes when
everyone asked has passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.decisions import RawDecision
from parlour.games.venus_needs_men import combat, population
from parlour.games.venus_needs_men.actions import Action, act
from parlour.games.venus_needs_men.phases import DECLARE, END, IMMEDIATE, ROLL, SAVE, START, ZAP
from parlour.games.venus_needs_men.steps import is_enemy
from parlour.games.venus_needs_men.zapdeck import TARGETS, ZapCard

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState

PASS = act("pass")


def order_from(state: VenusState, seat: int) -> list[int]:
    """Returns every seat clockwise from ``seat``."""
    return [(seat + i) % state.players for i in range(state.players)]


def for_planet(state: VenusState, seat: int) -> str:
    """Returns the planet a seat plays a card for: the active one on its turn, else its first."""
    return state.active if state.active_seat == seat else state.sides(seat)[0]


def playable(state: VenusState, seat: int, card: ZapCard, window: RawDecision) -> bool:
    """Returns whether ``seat`` may play ``card`` in this window now."""
    moment = window.data["moment"]
    if moment == SAVE:
        return card.timing == "saving" and state.seat_of[state.controller(str(window.data["ship"]))] == seat
    if card.timing == "any":
        # "At any time": at the turn's start and end, and when an attack is declared (before its roll:
        # the moment an attack can still be answered). After the roll only the roll cards matter (B-3).
        return moment in (START, DECLARE, END)
    if card.timing == "own-end":
        return moment == END and seat == state.active_seat
    if card.timing == "roll" and moment == ROLL:
        side = window.data["target"] if card.effect in ("miss", "jam") else window.data["attacker"]
        commander = "earth" if side == "refuge" else state.controller(str(side))
        return state.seat_of[commander] == seat
    return False


def card_actions(state: VenusState, seat: int, window: RawDecision) -> list[Action]:
    """Returns ``zap N [TARGET]`` for every card the seat may play here, with every target."""
    found = []
    for number in sorted(state.hands[seat]):
        card = state.card(number)
        if playable(state, seat, card, window):
            found += [act("zap", number=number, **target) for target in targets(state, seat, card)]
    return found


def targets(state: VenusState, seat: int, card: ZapCard) -> list[dict[str, str]]:
    """Returns the possible targets of a card (one empty target if it needs none)."""
    need = TARGETS.get(card.effect)
    planet = for_planet(state, seat)
    if need == "area":
        return [{"area": a} for a in state.board.land_areas() if state.population[a] > 0]
    if need == "planet":
        return [{"area": p} for p in state.planets if state.seat_of[p] != seat]
    if need == "ship":
        return [
            {"target": s}
            for s, where in sorted(state.ships.items())
            if where is not None and is_enemy(state, planet, s)
        ]
    if card.effect == "extra-turn" or card.effect.startswith("immediate"):
        return [{}] if _immediate_possible(state, seat, card) else []
    return [{}]


def _immediate_possible(state: VenusState, seat: int, card: ZapCard) -> bool:
    """Returns whether an immediate action (or an extra turn) could do something."""
    if card.effect == "extra-turn":
        return True
    from parlour.games.venus_needs_men.steps import IMMEDIATE as IMMEDIATE_MODE
    from parlour.games.venus_needs_men.steps import steps

    kind = card.effect.split("-", 1)[1]
    return any(steps(state, kind, p, state.fleet(p), IMMEDIATE_MODE) for p in state.sides(seat))


def unseen(state: VenusState) -> list[int]:
    """Returns the Zap cards nobody has shown (in no discard pile): as far as the table knows, any of
    them may be in any hand."""
    shown = {c for pile in state.discards for c in pile}
    return [n for n in sorted(state.zap.cards) if n not in shown]


def may_hold_playable(state: VenusState, seat: int, window: RawDecision, cards: list[int]) -> bool:
    """Returns whether ``seat`` could hold a card playable in ``window`` by public knowledge: it holds
    some Zap card, and one of ``cards`` (the unseen ones) would be playable by it there, with a target."""
    if not state.hands[seat]:
        return False
    # Whether a card is playable depends on its timing and effect alone: test one card of each kind.
    kinds = {(state.card(c).timing, state.card(c).effect): state.card(c) for c in cards}
    return any(playable(state, seat, card, window) and targets(state, seat, card) for card in kinds.values())


def asked(state: VenusState, window: RawDecision) -> list[int]:
    """Returns the seats a window asks, from the active seat clockwise: those that could hold a playable
    card by public knowledge (ruling B-3), whatever they really hold.  A turn's start window asks the
    active seat alone (the others were asked at the end of the turn before, and only the active seat's
    secret refill came between) unless it is open to ``everyone``: on the first turn, when robots were
    repaired as the turn began, and once a card has been played in it."""
    cards = unseen(state)
    seats = order_from(state, state.active_seat)
    if window.data["moment"] == START and not window.data.get("everyone", True):
        seats = seats[:1]
    return [s for s in seats if may_hold_playable(state, s, window, cards)]


def window_actions(state: VenusState, seat: int) -> list[Action]:
    """Returns the seat's choices in the Zap window on top: pass, or a card."""
    return [PASS, *card_actions(state, seat, state.stack.top)]


def window_apply(state: VenusState, seat: int, action: Action) -> None:
    """A pass moves the window on; a card takes effect and the window restarts."""
    window = state.stack.top
    if action.verb == "pass":
        window.pass_seat(seat)
        return
    card = state.card(action.number)
    state.hands[seat].remove(card.number)
    state.discards[seat].append(card.number)
    state.emit(f"{state.seat_name(seat)} plays Zap card {card.number}, {card.name}{_aim(state, action)}.")
    effect(state, seat, card, action, window)
    # The window restarts once the card's effect is done: the seats to ask are counted afresh then.
    if window.data["moment"] == START:
        window.data["everyone"] = True  # Now everyone may answer the card.
    window.data["open"] = False
    window.seats = []


def _aim(state: VenusState, action: Action) -> str:
    """Returns " on TARGET" for a card's target, in words (a planet or area by name, a ship by its name)."""
    if action.target:
        return f" on {action.target}"
    if action.area:
        return (
            f" on {state.board.area(action.area).name}"
            if state.board.has(action.area)
            else f" on {action.area}"
        )
    return ""


def effect(state: VenusState, seat: int, card: ZapCard, action: Action, window: RawDecision) -> None:
    """Carries out a card's effect (pushing a decision when it needs one), telling the table what it does."""
    planet = for_planet(state, seat)
    name = state.planet(planet).name
    kind = card.effect
    if kind in ("each-receives", "plague"):
        _everyone_receives(state, seat, action.area if kind == "each-receives" else _most_populous(state))
    elif kind == "extra-turn":
        state.extra_turns[planet] = state.extra_turns.get(planet, 0) + 1
        state.emit(f"{name} will take another turn after this one.")
    elif kind == "skip-turn":
        state.skips[action.area] = state.skips.get(action.area, 0) + 1
        state.emit(f"{state.planet(action.area).name} will skip its next turn.")
    elif kind == "destroy":
        combat.threaten(state, action.target, card.number)
    elif kind == "save":
        window.data["saved_by"] = max(window.data["saved_by"], card.number)
        state.emit(f"{window.data['ship']} is shielded (a higher-numbered Sabotage would still destroy it).")
    elif kind in ("miss", "hit"):
        window.data["plays"].append([card.number, kind])
        state.emit(f"The attack will {kind} (unless a higher-numbered card answers).")
    elif kind == "jam":
        window.data["jam"] += 2
        state.emit("Each die of the roll counts 2 less.")
    else:
        step = kind.split("-", 1)[1]
        state.emit(f"{state.seat_name(seat)} takes an immediate {step} step (or declines it).")
        state.stack.push(RawDecision(IMMEDIATE, [seat], {"action": step}))


def _most_populous(state: VenusState) -> str:
    """Returns the land area with the most population (the first in map order on a tie)."""
    lands = state.board.land_areas()
    return max(lands, key=lambda a: (state.population[a], -lands.index(a)))


def _everyone_receives(state: VenusState, seat: int, area: str) -> None:
    """Each seat in turn from the card's player receives one unit from ``area`` while it lasts."""
    for other in order_from(state, seat):
        if state.population[area] > 0:
            population.take(state, for_planet(state, other), area)
    population.check_win(state)


def open_window(state: VenusState, moment: str, **data: object) -> None:
    """Pushes a Zap window (it opens when it reaches the top)."""
    state.stack.push(RawDecision(ZAP, [], {"moment": moment, "open": False, **data}))


def close_window(state: VenusState) -> None:
    """Pops the window on top and carries out what its moment resolves."""
    window = state.stack.pop()
    if window.data["moment"] == DECLARE:
        combat.roll_declared(state, window.data)
    elif window.data["moment"] == ROLL:
        combat.resolve_roll(state, window.data)
    elif window.data["moment"] == SAVE:
        combat.resolve_save(state, window.data)


__all__ = ["END", "START", "asked", "close_window", "open_window", "window_actions", "window_apply"]
