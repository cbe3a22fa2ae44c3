"""Action catalogue and observation tensor of Venture for learning environments.

The tensor is written straight from the state, reading only what the seat may know (its own hand and the
public table): the same numbers, block for block, as the seat's observation (``views.observation``) would
give (tests/envs/test_encoding_reference.py). A stack's profit is worked out once per stack of cards.
"""

from __future__ import annotations

from array import array

import numpy as np

from parlour.core.decisions import DecisionIndex
from parlour.core.encoding import SEATS, Encoding, PileCounts, WholeNumbers, clockwise, game_state
from parlour.core.features import Features
from parlour.core.state import GameState
from parlour.games.venture.catalogue import action_catalogue
from parlour.games.venture.content import Deck
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.reorganisation import Reorganisation
from parlour.games.venture.rules import Payment, Turn
from parlour.games.venture.scoring import stack_profit
from parlour.games.venture.takeovers import Placement

KINDS = (Turn, Placement, Reorganisation, Payment, None)
"""The decisions the tensor tells apart, in order."""
SCALES = {"turn": 400, "hand": 8, "discard": 8, "payment": 8, "profits": 400, "holdings profit": 400}
SCALES |= {"hand sizes": 20, "owed": 100, "stock": 54, "draw pile": 60}
"""What each block's whole numbers are divided by (flags and one-hots: 1)."""


def encoding(deck: Deck, players: int, max_players: int) -> Encoding:
    """Returns Venture's encoding for a table of ``players`` with this deck."""
    corps = [c.name for c in deck.corporations]
    cards = sorted({r.name for r in deck.resources})
    blocks = layout(len(corps), len(cards))
    size = sum(length for _, length in blocks)
    table = _Table(deck, players, len(cards))

    def encode(state: GameState, seat: int) -> Features:
        return Features.filled(table.write(game_state(state, VentureGameState), seat), blocks, size)

    def write(state: GameState, seat: int) -> np.ndarray:
        return table.write(game_state(state, VentureGameState), seat)

    # Shuffled: the corporations and the resources cards; rolled: the dealer (0 to players - 1, any table).
    return Encoding(action_catalogue(deck), encode, (*corps, *cards), max_players - 1, write=write)


def layout(corps: int, cards: int) -> list[tuple[str, int]]:
    """Returns the tensor's blocks, names and lengths, in order (docs/environments.md)."""
    blocks = [("decision", len(KINDS)), ("my turn", 1), ("turn", 1), ("center", corps)]
    blocks += [("holder of each corporation", corps * (SEATS + 1)), ("top of a stack", corps)]
    blocks += [("hand", cards), ("discard", cards), ("payment", cards)]
    blocks += [("profits", SEATS), ("holdings profit", SEATS), ("hand sizes", SEATS)]
    blocks += [("owed", 1), ("stock", 1), ("draw pile", 1)]
    return blocks


class _Table:
    """Writes a seat's Venture tensor as whole numbers (``WholeNumbers``), remembering each stack's profit
    by its cards and the card counts of the discard pile by the pile."""

    def __init__(self, deck: Deck, players: int, cards: int) -> None:
        self.deck, self.players, self.cards = deck, players, cards
        names = sorted({r.name for r in deck.resources})
        self.name_of = [names.index(r.name) for r in deck.resources]
        """Each resources card's place among the sorted card names."""
        self.kinds = DecisionIndex(KINDS)
        self.profits: dict[tuple[int, ...], int] = {}
        """Each stack's profit (``scoring.stack_profit``), by its corporations bottom first."""
        self.counts = PileCounts(self.name_of, cards)
        """The card counts of the discard pile, remembered by the pile (it changes only as cards are laid)."""
        self.numbers = WholeNumbers(layout(len(deck.corporations), cards), SCALES)
        self.at = self.numbers.at
        """Where each block starts."""
        where = self.at["holder of each corporation"]
        self.holder = [where + c * (SEATS + 1) for c in range(len(deck.corporations))]
        """Where each corporation's row of holders starts."""
        self.held_by = [[row + mine for row in self.holder] for mine in range(SEATS + 1)]
        """The place of each corporation's flag for each holder (the viewer 0 and clockwise; 6: nobody)."""
        for where in self.holder:  # a tensor starts with "nobody holds it" for every corporation
            self.numbers.zeros[where + SEATS] = 1

    def profit(self, state: VentureGameState, stack: list[int]) -> int:
        """Returns a stack's profit at a scoring (remembered by the stack's cards for this deck)."""
        key = tuple(stack)
        found = self.profits.get(key)
        if found is None:
            found = stack_profit([state.corp(c) for c in stack])
            if state.deck is self.deck and len(self.profits) < 100_000:
                self.profits[key] = found
        return found

    def holdings(self, out: array[int], state: VentureGameState, seat: int) -> None:
        """Writes the blocks of the holdings for ``seat``: the holders of each corporation, the tops of the
        stacks and the holdings' profits."""
        at, players, profits = self.at, self.players, self.profits
        tops, earned, nobody = at["top of a stack"], at["holdings profit"], self.held_by[SEATS]
        for s, stacks in enumerate(state.holdings):
            if not stacks:
                continue
            mine = (s - seat) % players
            held, total = self.held_by[mine], 0
            for stack in stacks:
                for c in stack:
                    out[nobody[c]] = 0
                    out[held[c]] = 1
                out[tops + stack[-1]] = 1
                found = profits.get(tuple(stack))
                total += self.profit(state, stack) if found is None else found
            out[earned + mine] = total

    def write(self, state: VentureGameState, seat: int) -> np.ndarray:
        """Returns the tensor's values (before clipping) for ``seat``, as a float32 array."""
        players, at = self.players, self.at
        out = self.numbers.blank()
        top = state.stack.top if len(state.stack) else None
        kind = self.kinds.of(top)
        if kind >= 0:
            out[kind] = 1
        out[at["my turn"]] = 1 if state.current == seat else 0
        out[at["turn"]] = state.turn
        where = at["center"]
        for c in state.center:
            out[where + c] = 1
        self.holdings(out, state, seat)
        name_of = self.name_of
        for block, pile in (("hand", state.hands[seat]), ("payment", state.payment)):
            where = at[block]
            for card in pile:
                out[where + name_of[card]] += 1
        where = at["discard"]
        out[where : where + self.cards] = array("i", self.counts(state.discard))
        where = at["profits"]
        out[where : where + players] = array("i", clockwise(state.profits, seat))
        where = at["hand sizes"]
        out[where : where + players] = array("i", clockwise(list(map(len, state.hands)), seat))
        out[at["owed"]] = state.owed
        out[at["stock"]] = len(state.stock)
        out[at["draw pile"]] = len(state.draw)
        return self.numbers.values(out)
