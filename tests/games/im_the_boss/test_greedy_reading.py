"""The greedy bot reads the table once per choice: its costs are those the rules' lookups give colour by
colour, and what it worked out for one choice never leaks into the next."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from parlour.games.im_the_boss.bots import INF, GreedyBot, cover_costs, fair_price, own_colours
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.supply import can_supply, suppliers

from ..typed import BOSS as GAME


def positions(seed: int, greedy: bool) -> Iterator[tuple[BossGameState, int]]:
    """Yields every decision of a four-player game (random or greedy moves) with the seat to act."""
    state = GAME.new_state(4, seed)
    rng = random.Random(seed)
    bots = [GreedyBot(seed * 4 + s) for s in range(4)]
    while not state.is_over():
        seat = state.deciders()[0]
        yield state, seat
        action = bots[seat].choose(state, seat) if greedy else rng.choice(state.legal_actions(seat))
        state.apply(action, seat)


def plain_own(state: BossGameState, seat: int, colour: str) -> bool:
    """Whether the seat can bring the colour itself, looked up with the rules' ``count`` and
    ``can_supply``: its placard at home, a Clan card in hand, or (negotiating) one laid."""
    nego = state.nego
    travelling = nego.travelling if nego is not None else {}
    if (state.owners[colour] == seat and colour not in travelling) or state.count(seat, f"clan:{colour}"):
        return True
    return nego is not None and can_supply(state, seat, colour)


def plain_cost(state: BossGameState, seat: int, proceeds: int, colour: str) -> int:
    """The bot's price of a colour as its rules say it, looked up colour by colour with the rules' own
    ``count``, ``can_supply`` and ``suppliers``."""
    assert state.marker is not None
    space = state.space(state.nego.space if state.nego is not None else state.marker)
    nego = state.nego
    if plain_own(state, seat, colour):
        return 0
    if nego is not None:
        asks = [a for (c, _), a in nego.offers.items() if c == colour]
        if asks:
            return min(asks)
        others = [s for s in suppliers(state, colour) if s != seat]
    else:
        others = [s for s in range(state.players) if s != seat and state.owners[colour] == s]
    return fair_price(space, proceeds) if others else INF


@pytest.mark.parametrize("seed", [1, 2])
def test_costs_are_the_colour_by_colour_lookups(seed: int) -> None:
    """At every decision with the marker placed, every seat's cost of every colour of the deal's space is
    what the rules' lookups give for that colour alone (own colours cost nothing)."""
    checked = 0
    for state, _ in positions(seed, greedy=seed % 2 == 0):
        if state.marker is None or state.top_card() is None:
            continue
        space = state.space(state.nego.space if state.nego is not None else state.marker)
        proceeds = 12
        for seat in range(state.players):
            costs = cover_costs(state, seat, space, proceeds)
            assert costs == {c: plain_cost(state, seat, proceeds, c) for c in space.colours}
            assert own_colours(state, seat, space) == {c for c in space.colours if plain_own(state, seat, c)}
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("seed", [3, 4])
def test_a_bot_that_has_chosen_before_chooses_as_a_fresh_one(seed: int) -> None:
    """One bot per seat choosing through a whole game picks, at every decision, what a fresh bot (given the
    same tie-breaking generator) picks: it keeps nothing from one choice to the next (its asks and its
    interference are read from the table), so a bot the server makes for each move plays the same."""
    state = GAME.new_state(4, seed)
    rng = random.Random(seed)
    bots = [GreedyBot(s) for s in range(4)]
    while not state.is_over():
        seat = state.deciders()[0]
        fresh = GreedyBot(seat)
        fresh.rng.setstate(bots[seat].rng.getstate())
        action = bots[seat].choose(state, seat)
        assert fresh.choose(state, seat) == action
        state.apply(action if rng.random() < 0.8 else rng.choice(state.legal_actions(seat)), seat)
