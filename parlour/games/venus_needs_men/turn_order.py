"""The turn's bookkeeping (rulebook "Turns"): the turn limit, refilling the Zap hand, Robotic repairs,
the end of a turn and which side plays next; apart from the decisions in ``turns.py`` so that it
compiles (``VenusGame.hot_modules``): ``turns.py`` pushes the turn's decisions around these steps."""

from __future__ import annotations

from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men import population, research
from parlour.games.venus_needs_men.options import HAND
from parlour.games.venus_needs_men.state import VenusState


def begin_turn(state: VenusState, index: int) -> tuple[int, bool] | None:
    """Begins side ``index``'s turn up to its decisions: the game ends at the turn limit (None); else the
    turn's counters reset, Pluto's robots are repaired, the seat draws up to three Zap cards. Returns the
    seat to act and whether the turn's start window asks every seat (ruling B-3: the first turn, or a
    turn start that matters: robots repaired now, or a Robotic side)."""
    limit = state.options["max_turns"]
    if limit and state.turn >= limit:
        population.end_game(state, population.leaders(state), f"lead at the turn limit ({limit} turns)")
        return None
    state.turn += 1
    state.current = index
    state.action, state.acted, state.extended, state.cycled, state.seized = "", [], 0, False, []
    active = state.planets[index]
    seat = state.seat_of[active]
    repaired = [s for s in state.disabled if state.owner(s) == active] if state.disabled else []
    if repaired:
        state.disabled = [s for s in state.disabled if s not in repaired]
        state.emit(f"{' '.join(repaired)} repaired (Robotic).")
    logging = state._events is not None  # state.logging
    if logging:
        state.emit(f"Turn {state.turn}: {state.planet(active).name}.")
    _draw(state, seat, logging)
    everyone = state.turn == 1 or bool(repaired) or tech.has_special(state, active, "robotic")
    return seat, everyone


def _draw(state: VenusState, seat: int, logging: bool) -> None:
    """Refills the seat's Zap hand to three cards from its deck (which cards is the drawer's secret,
    ``Event.secret``; how many is public)."""
    hand, deck = state.hands[seat], state.decks[seat]
    drawn: list[int] = []
    while len(hand) < HAND and deck:
        drawn.append(deck.pop(0))
        hand.append(drawn[-1])
    if drawn and logging:
        state.emit(
            f"{state.seat_name(seat)} draws {len(drawn)} Zap card{'s' if len(drawn) > 1 else ''} "
            f"({len(state.decks[seat])} left in the deck).",
            seat,
            "drew " + ", ".join(f"{n} {state.card(n).name}" for n in drawn),
        )


def next_side(state: VenusState) -> int | None:
    """Ends the turn: upgrades take effect, Titan's parasites come home (which may end the game: None).
    Returns the index of the side that plays next: the same side for an extra turn (Time Dilation),
    else the next side that is not skipping a turn (Ion Storm)."""
    planet = state.planets[state.current]  # state.active
    research.take_effect(state)
    if planet == "titan" and tech.has_special(state, "titan", "parasites"):
        population.hive(state)
        if state.over:
            return None
    if state.extra_turns.get(planet):
        state.extra_turns[planet] -= 1
        state.emit(f"{state.planet(planet).name} takes an extra turn (Time Dilation).")
        return state.current
    index = state.current
    for _ in range(len(state.planets) * 4):
        index = (index + 1) % len(state.planets)
        side = state.planets[index]
        if not state.skips.get(side):
            break
        state.skips[side] -= 1
        state.emit(f"{state.planet(side).name} skips its turn (Ion Storm).")
    return index
