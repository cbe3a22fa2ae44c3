"""Who a Zap window asks (ruling B-3): the seats that could hold a card playable there by public
knowledge, apart from the windows in ``zapping.py`` so that it compiles (``VenusGame.hot_modules``): a
window subclasses the core's Python class, these functions read the state and plain values alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.games.venus_needs_men import steps as step_rules
from parlour.games.venus_needs_men.state import Roster, VenusState
from parlour.games.venus_needs_men.zapdeck import TARGETS, ZapCard

MEMO_SIZE = 4096
"""The most discard-pile layouts whose unseen kinds the Zap deck keeps (``unseen_kinds``)."""
ANY, END, OWN = 0, 1, 2
"""How a window says which cards a seat may play (:func:`holders_asked`'s ``rule``): "at any time"
cards alone (``ZapWindow.playable``); those and the active seat's own-turn-end cards
(``EndWindow.playable``); or the window's own ``playable``."""

Playable = Callable[[VenusState, int, ZapCard], bool]
"""A window's ``playable(state, seat, card)``."""


def roster_of(state: VenusState) -> Roster:
    """Returns :attr:`VenusState.roster` (read without a Python call while the state keeps it)."""
    found = state._roster
    return found if found is not None else state.roster


def for_planet(state: VenusState, seat: int) -> str:
    """Returns the planet a seat plays a card for: the active one on its turn, else its first."""
    active = state.planets[state.current]
    return active if state.seat_of[active] == seat else roster_of(state).sides.get(seat, ())[0]


def populated(state: VenusState) -> bool:
    """Returns whether a land area has population (the targets of "area" cards, :func:`has_targets`)."""
    population = state.population
    return any(population[area] > 0 for area in state.board.land_areas())


def has_targets(state: VenusState, seat: int, card: ZapCard) -> bool:
    """Returns whether ``zapping.targets`` lists any target, without listing them all."""
    need = TARGETS.get(card.effect)
    if need == "area":
        return populated(state)
    if need == "planet":
        seat_of = state.seat_of
        return any(seat_of[p] != seat for p in state.planets)
    if need == "ship":
        return step_rules.has_enemy(state, for_planet(state, seat))
    if card.effect == "extra-turn" or card.effect.startswith("immediate"):
        return immediate_possible(state, seat, card)
    return True


def immediate_possible(state: VenusState, seat: int, card: ZapCard) -> bool:
    """Returns whether an immediate action (or an extra turn) could do something."""
    if card.effect == "extra-turn":
        return True
    kind = card.effect.split("-", 1)[1]
    fleets = step_rules.fleets_of(state).of
    for planet in roster_of(state).sides.get(seat, ()):
        if step_rules.has_steps(state, kind, planet, fleets.get(planet, ()), step_rules.IMMEDIATE):
            return True
    return False


def unseen(state: VenusState) -> tuple[list[ZapCard], bool, bool]:
    """Returns a card of each kind (timing and effect) among the Zap cards nobody has shown (not copied);
    whether one of them is a card of "any" timing that needs no target (Plague): playable with a target
    by anyone holding a card where "any" cards are; and whether one of them is of "any" timing and aims
    at a land area (Everyone Receives: it has a target, whoever plays it, while a land area has
    population). The Zap deck keeps them by the discard piles."""
    key = tuple([tuple(pile) for pile in state.discards])
    zap = state.zap
    memo = zap.unseen
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()  # the deck is shared by every game: keep the memo small
        shown = {c for pile in state.discards for c in pile}
        cards = zap.cards
        kinds = [cards[numbers[0]] for numbers in zap.kinds.values() if not shown.issuperset(numbers)]
        anytime = [c for c in kinds if c.timing == "any"]
        area = any(TARGETS.get(c.effect) == "area" for c in anytime)
        found = (kinds, any(needs_nothing(c) for c in anytime), area)
        memo[key] = found
    return found


def needs_nothing(card: ZapCard) -> bool:
    """Returns whether a card always has its target (:func:`has_targets` is true whatever the state)."""
    effect = card.effect
    return effect not in TARGETS and effect != "extra-turn" and not effect.startswith("immediate")


def holders_asked(
    state: VenusState, first: Sequence[int] | None, any_timing: bool, rule: int, playable: Playable | None
) -> list[int]:
    """Returns the seats holding Zap cards that a window asks for the cards they may hold (``first``: the
    seats it may ask, from the active seat clockwise; None: every seat), by its ``rule`` (``playable``:
    its own, for :data:`OWN`)."""
    hands = state.hands
    players = state.players
    active = state.seat_of[state.planets[state.current]]
    seats: list[int] = []
    if first is None:
        for i in range(players):
            seat = (active + i) % players
            if hands[seat]:
                seats.append(seat)
    else:
        for seat in first:
            if hands[seat]:
                seats.append(seat)
    if not seats:
        return seats  # nobody holds a Zap card
    kinds, sure, area = unseen(state)
    if any_timing and (sure or (area and populated(state))):
        # An unseen card anyone may play here, with a target whoever plays it (needs_nothing, or a land
        # area with population): every seat holding a card is asked.
        return seats
    found: list[int] = []
    for seat in seats:
        for card in kinds:
            if rule == OWN:
                assert playable is not None
                if not playable(state, seat, card):
                    continue
            else:
                timing = card.timing
                if timing != "any" and not (rule == END and timing == "own-end" and seat == active):
                    continue
            if has_targets(state, seat, card):
                found.append(seat)
                break
    return found


def clockwise(state: VenusState) -> tuple[int, ...]:
    """Returns every seat clockwise from the active one."""
    players = state.players
    active = state.seat_of[state.planets[state.current]]
    return tuple([(active + i) % players for i in range(players)])
