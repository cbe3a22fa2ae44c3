"""Action catalogue and observation tensor of Venture for learning environments.

The tensor is written straight from the state, reading only what the seat may know (its own hand and the
public table): the same numbers, block for block, as the seat's observation (``views.observation``) would
give (tests/envs/test_encoding_reference.py). A stack's profit is worked out once per stack of cards.
"""

from __future__ import annotations

from collections import Counter

from parlour.core.encoding import SEATS, Encoding, game_state, one_hot_rows, turned
from parlour.core.features import Features
from parlour.core.state import GameState
from parlour.games.venture.catalogue import action_catalogue
from parlour.games.venture.content import Deck
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.scoring import stack_profit

KINDS = ["turn", "place", "reorganise", "pay", "discard"]
"""The decisions the tensor tells apart, in order."""


def encoding(deck: Deck, players: int, max_players: int) -> Encoding:
    """Returns Venture's encoding for a table of ``players`` with this deck."""
    corps = [c.name for c in deck.corporations]
    cards = sorted({r.name for r in deck.resources})
    blocks = layout(len(corps), len(cards))
    size = sum(length for _, length in blocks)
    table = _Table(deck, players, len(cards))

    def encode(state: GameState, seat: int) -> Features:
        return Features.filled(table.write(game_state(state, VentureGameState), seat), blocks, size)

    # Shuffled: the corporations and the resources cards; rolled: the dealer (0 to players - 1, any table).
    return Encoding(action_catalogue(deck), encode, (*corps, *cards), max_players - 1)


def layout(corps: int, cards: int) -> list[tuple[str, int]]:
    """Returns the tensor's blocks, names and lengths, in order (docs/environments.md)."""
    blocks = [("decision", len(KINDS)), ("my turn", 1), ("turn", 1), ("center", corps)]
    blocks += [("holder of each corporation", corps * (SEATS + 1)), ("top of a stack", corps)]
    blocks += [("hand", cards), ("discard", cards), ("payment", cards)]
    blocks += [("profits", SEATS), ("holdings profit", SEATS), ("hand sizes", SEATS)]
    blocks += [("owed", 1), ("stock", 1), ("draw pile", 1)]
    return blocks


class _Table:
    """Writes a seat's tensor from the state, with what never changes in a game worked out once."""

    def __init__(self, deck: Deck, players: int, cards: int) -> None:
        self.deck, self.players, self.cards = deck, players, cards
        names = sorted({r.name for r in deck.resources})
        self.name_of = [names.index(r.name) for r in deck.resources]
        """Each resources card's place among the sorted card names."""
        self.kinds = {kind: i for i, kind in enumerate(KINDS)}
        self.profits: dict[tuple[int, ...], int] = {}
        """Each stack's profit (``scoring.stack_profit``), by its corporations bottom first."""

    def counts(self, pile: list[int], scale: float) -> list[float]:
        """Returns how many cards of each name a pile holds, divided by ``scale``."""
        held = Counter(map(self.name_of.__getitem__, pile))
        return [held.get(i, 0) / scale for i in range(self.cards)]

    def profit(self, state: VentureGameState, stack: list[int]) -> int:
        """Returns a stack's profit at a scoring (remembered by the stack's cards for this deck)."""
        key = tuple(stack)
        found = self.profits.get(key)
        if found is None:
            found = stack_profit([state.corp(c) for c in stack])
            if state.deck is self.deck and len(self.profits) < 100_000:
                self.profits[key] = found
        return found

    def write(self, state: VentureGameState, seat: int) -> list[float]:
        """Returns the tensor's values (before clipping) for ``seat``."""
        players, corps = self.players, len(self.deck.corporations)
        top = state.stack.top if len(state.stack) else None
        out = list(one_hot_rows(len(KINDS))[-1 if top is None else self.kinds.get(top.kind, -1)])
        out += [1.0 if state.current == seat else 0.0, state.turn / 400]
        center = set(state.center)
        out += [1.0 if c in center else 0.0 for c in range(corps)]
        holder = [SEATS] * corps
        tops: set[int] = set()
        for s, stacks in enumerate(state.holdings):
            mine = (s - seat) % players
            for stack in stacks:
                for c in stack:
                    holder[c] = mine
                tops.add(stack[-1])
        rows = one_hot_rows(SEATS + 1)
        for slot in holder:
            out += rows[slot]
        out += [1.0 if c in tops else 0.0 for c in range(corps)]
        out += self.counts(state.hands[seat], 8)
        out += self.counts(state.discard, 8)
        out += self.counts(state.payment, 8)
        out += [p / 400 for p in turned(state.profits, seat)]
        earned = [sum(self.profit(state, stack) for stack in stacks) for stacks in state.holdings]
        out += [p / 400 for p in turned(earned, seat)]
        out += [n / 20 for n in turned([len(h) for h in state.hands], seat)]
        out += [state.owed / 100, len(state.stock) / 54, len(state.draw) / 60]
        return out
