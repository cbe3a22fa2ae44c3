"""Action catalogue and observation tensor of I'm the Boss! for learning environments.

The tensor is written straight from the state, reading only what the seat may know (its own hand, the
public table and negotiation, money as option ``money`` shows it): the same numbers, block for block, as
the seat's observation (``views.observation``) would give (tests/envs/test_encoding_reference.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping

import numpy as np

from parlour.core.decisions import DecisionIndex
from parlour.core.encoding import SEATS, Encoding, PileCounts, WholeNumbers, clockwise, game_state
from parlour.core.features import Features
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.games.im_the_boss.catalogue import action_catalogue, largest_proceeds
from parlour.games.im_the_boss.content import Content
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.negotiation import Negotiation
from parlour.games.im_the_boss.rules import KINDS


def encoding(content: Content, players: int, options: Mapping[str, JSONValue], max_players: int) -> Encoding:
    """Returns I'm the Boss!'s encoding for a table of ``players`` with this content and options."""
    colours = list(content.colours)
    names = sorted(set(content.cards))
    kinds = list(KINDS.kinds)
    blocks = layout(colours, names, kinds, len(content.spaces))
    size = sum(length for _, length in blocks)
    table = _Table(content, players, options, colours, names, kinds)

    def encode(state: GameState, seat: int) -> Features:
        return Features.filled(table.write(game_state(state, BossGameState), seat), blocks, size)

    def write(state: GameState, seat: int) -> np.ndarray:
        return table.write(game_state(state, BossGameState), seat)

    # Shuffled: the placards and the deck; rolled: the die and the first player (0 to players - 1, any table).
    faces = max(content.die, max_players - 1)
    return Encoding(action_catalogue(content, players), encode, (*colours, *names), faces, write=write)


def layout(colours: list[str], names: list[str], kinds: list[str], spaces: int) -> list[tuple[str, int]]:
    """Returns the tensor's blocks, names and lengths, in order (docs/environments.md)."""
    blocks = [("decision", len(kinds)), ("my turn", 1), ("I may act", 1), ("hand", len(names))]
    blocks += [("hand sizes", SEATS), *((f"placard {c}", SEATS + 1) for c in colours)]
    blocks += [("money", SEATS), ("money shown", SEATS), ("covered", spaces), ("marker", spaces)]
    blocks += [("dividend value", 1), ("deal cards left", 1), ("draw pile", 1), ("discard", len(names))]
    blocks += [("negotiating", 1), ("deal space", spaces), ("boss", SEATS), ("proceeds", 1)]
    blocks += [(f"laid {c}", SEATS) for c in colours] + [("travelling", len(colours))]
    blocks += [(f"offer {c}", SEATS) for c in colours] + [(f"ask {c}", SEATS) for c in colours]
    blocks += [(f"term seat {c}", SEATS) for c in colours]
    blocks += [("term amounts", len(colours)), ("terms agreed", len(colours)), ("tips", SEATS)]
    blocks += [("counted", SEATS), ("called", 1), ("pending play", 1)]
    return blocks


class _Table:
    """Writes a seat's I'm the Boss! tensor as whole numbers (``WholeNumbers``), the board's spaces, the
    colours and the card names indexed once a game; the card counts of a pile remembered by the pile."""

    def __init__(
        self,
        content: Content,
        players: int,
        options: Mapping[str, JSONValue],
        colours: list[str],
        names: list[str],
        kinds: list[str],
    ) -> None:
        self.content, self.players, self.colours, self.names = content, players, colours, names
        self.kinds = DecisionIndex(KINDS.kinds[kind] for kind in kinds)
        self.colour_index = {colour: i for i, colour in enumerate(colours)}
        top = largest_proceeds(content)
        limit = options["negotiation_limit"]
        assert isinstance(limit, int)
        self.public = options["money"] == "public"
        self.spaces = len(content.spaces)
        slot = {name: i for i, name in enumerate(names)}
        self.slot_of = [slot[name] for name in content.cards]
        """Each card's place among the sorted card names."""
        self.colour_of = [name[-1] for name in content.cards]
        """Each card's colour (a Clan card's last letter)."""
        self.counts = PileCounts(self.slot_of, len(names))
        """The card counts of a pile (the hand, the discard pile), remembered by the pile."""
        scales: dict[str, float] = {"hand": 12, "hand sizes": 15, "money": 150, "dividend value": 10}
        scales |= {"deal cards left": 15, "draw pile": 98, "discard": 33, "proceeds": top, "tips": top}
        scales |= {"term amounts": top, "counted": limit}
        scales |= {f"laid {c}": 4 for c in colours} | {f"ask {c}": top for c in colours}
        self.numbers = WholeNumbers(layout(colours, names, kinds, self.spaces), scales)
        at = self.numbers.at
        self.placard = {c: at[f"placard {c}"] for c in colours}
        """Where each colour's row of placard holders starts."""
        self.laid_at = [at.get(f"laid {colour}") for colour in self.colour_of]
        """Where the row of each card's colour laid starts (None: a card of no colour on the tensor)."""
        self.offer = {c: at[f"offer {c}"] for c in colours}
        self.ask = {c: at[f"ask {c}"] for c in colours}
        self.term = [at[f"term seat {c}"] for c in colours]
        self.shown = array("i", [1] * players)
        """A flag for every seat (whose money is shown, when money is public)."""

    def write(self, state: BossGameState, seat: int) -> np.ndarray:
        """Returns the tensor's values (before clipping) for ``seat``, as a float32 array."""
        players, at, names = self.players, self.numbers.at, len(self.names)
        out = self.numbers.blank()
        if len(state.stack):
            kind = self.kinds.of(state.stack.top)
            if kind >= 0:
                out[kind] = 1
        out[at["my turn"]] = 1 if state.current == seat else 0
        out[at["I may act"]] = 1 if seat in state.deciders() else 0
        where = at["hand"]
        out[where : where + names] = array("i", self.counts(state.hands[seat]))
        where = at["hand sizes"]
        out[where : where + players] = array("i", clockwise(list(map(len, state.hands)), seat))
        placard = self.placard
        for colour, owner in state.owners.items():
            row = placard.get(colour)
            if row is not None:
                out[row + (SEATS if owner is None else (owner - seat) % players)] = 1
        money, shown = at["money"], at["money shown"]
        if self.public:  # ruling A-17: option money
            out[money : money + players] = array("i", clockwise(state.money, seat))
            out[shown : shown + players] = self.shown
        else:
            out[money] = state.money[seat]
            out[shown] = 1
        where = at["covered"]
        for i, cover in enumerate(state.covered):
            if cover is not None:
                out[where + i] = 1
        if state.marker is not None:
            out[at["marker"] + state.marker] = 1
        top = state.top_card()
        out[at["dividend value"]] = top.value if top else 0
        out[at["deal cards left"]] = len(state.deal_cards)
        out[at["draw pile"]] = len(state.draw)
        where = at["discard"]
        out[where : where + names] = array("i", self.counts(state.discard))
        if state.nego is not None:
            self.negotiation(out, state.nego, seat)
        return self.numbers.values(out)

    def negotiation(self, out: array[int], nego: Negotiation, seat: int) -> None:
        """Writes the negotiation's block (public: the record every seat sees)."""
        players, at = self.players, self.numbers.at
        out[at["negotiating"]] = 1
        out[at["deal space"] + nego.space] = 1
        out[at["boss"] + (nego.boss - seat) % players] = 1
        out[at["proceeds"]] = nego.proceeds
        laid_at = self.laid_at
        for s, pile in enumerate(nego.laid):
            if pile:
                mine = (s - seat) % players
                for card in pile:
                    where = laid_at[card]
                    if where is not None:
                        out[where + mine] += 1
        index = self.colour_index
        where = at["travelling"]
        for colour in nego.travelling:
            found = index.get(colour)
            if found is not None:
                out[where + found] = 1
        offer, ask = self.offer, self.ask
        for (colour, s), amount in nego.offers.items():
            if colour in offer:
                out[offer[colour] + (s - seat) % players] = 1
                out[ask[colour] + (s - seat) % players] = amount or 0
        amounts, agreed = at["term amounts"], at["terms agreed"]
        for colour, term in nego.items.items():
            found = index.get(colour)
            if found is not None:
                out[self.term[found] + (term.seat - seat) % players] = 1
                out[amounts + found] = term.amount
                out[agreed + found] = 1 if term.agreed else 0
        where = at["tips"]
        for s, tip in nego.tips.items():
            out[where + (s - seat) % players] = tip.amount
        where = at["counted"]
        for s, count in enumerate(nego.counted):
            out[where + (s - seat) % players] = count
        out[at["called"]] = 1 if nego.called else 0
        out[at["pending play"]] = 0 if nego.pending is None else 1
