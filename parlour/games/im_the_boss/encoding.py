"""Action catalogue and observation tensor of I'm the Boss! for learning environments.

The tensor is written straight from the state, reading only what the seat may know (its own hand, the
public table and negotiation, money as option ``money`` shows it): the same numbers, block for block, as
the seat's observation (``views.observation``) would give (tests/envs/test_encoding_reference.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from parlour.core.encoding import SEATS, Encoding, game_state, one_hot_rows, turned
from parlour.core.features import Features
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.games.im_the_boss.catalogue import action_catalogue, largest_proceeds
from parlour.games.im_the_boss.content import Content
from parlour.games.im_the_boss.negotiation import Negotiation
from parlour.games.im_the_boss.rules import KINDS
from parlour.games.im_the_boss.state import BossState

NO_SEATS = [0.0] * SEATS
"""A seat block of zeros (most of the negotiation's blocks, most of the time)."""


def encoding(content: Content, players: int, options: Mapping[str, JSONValue], max_players: int) -> Encoding:
    """Returns I'm the Boss!'s encoding for a table of ``players`` with this content and options."""
    colours = list(content.colours)
    names = sorted(set(content.cards))
    kinds = list(KINDS.kinds)
    blocks = layout(colours, names, kinds, len(content.spaces))
    size = sum(length for _, length in blocks)
    table = _Table(content, players, options, colours, names, kinds)

    def encode(state: GameState, seat: int) -> Features:
        return Features.filled(table.write(game_state(state, BossState), seat), blocks, size)

    # Shuffled: the placards and the deck; rolled: the die and the first player (0 to players - 1, any table).
    faces = max(content.die, max_players - 1)
    return Encoding(action_catalogue(content, players), encode, (*colours, *names), faces)


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
    """Writes a seat's tensor from the state, with what never changes in a game worked out once."""

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
        self.kinds = {kind: i for i, kind in enumerate(kinds)}
        self.top = float(largest_proceeds(content))
        self.limit = float(options["negotiation_limit"])
        self.public = options["money"] == "public"
        self.spaces = len(content.spaces)
        negotiation = layout(colours, names, kinds, self.spaces)
        start = next(i for i, (name, _) in enumerate(negotiation) if name == "negotiating")
        self.no_negotiation = [0.0] * sum(length for _, length in negotiation[start:])

    def write(self, state: BossState, seat: int) -> list[float]:
        """Returns the tensor's values (before clipping) for ``seat``."""
        cards, names, players = self.content.cards, self.names, self.players
        kinds = one_hot_rows(len(self.kinds))
        out = list(kinds[self.kinds.get(state.stack.top.kind, -1) if len(state.stack) else -1])
        out.append(1.0 if state.current == seat else 0.0)
        out.append(1.0 if seat in state.deciders() else 0.0)
        hand = Counter(map(cards.__getitem__, state.hands[seat]))
        out += [hand.get(n, 0) / 12 for n in names]
        out += [n / 15 for n in turned([len(h) for h in state.hands], seat)]
        owners, placards = state.owners, one_hot_rows(SEATS + 1)
        for colour in self.colours:
            owner = owners[colour]
            out += placards[SEATS if owner is None else (owner - seat) % players]
        shown = [self.public or s == seat for s in range(players)]  # ruling A-17: option money
        money = [m if see else 0 for m, see in zip(state.money, shown, strict=True)]
        out += [m / 150 for m in turned(money, seat)]
        out += turned([1.0 if see else 0.0 for see in shown], seat)
        out += [0.0 if n is None else 1.0 for n in state.covered]
        out += one_hot_rows(self.spaces)[-1 if state.marker is None else state.marker]
        top = state.top_card()
        out += [(top.value if top else 0) / 10, len(state.deal_cards) / 15, len(state.draw) / 98]
        discard = Counter(map(cards.__getitem__, state.discard))
        out += [discard.get(n, 0) / 33 for n in names]
        nego = state.nego
        out += self.no_negotiation if nego is None else self.negotiation(nego, seat)
        return out

    def negotiation(self, nego: Negotiation, seat: int) -> list[float]:
        """Returns the negotiation's block (public: the record every seat sees)."""
        colours, players, top, cards = self.colours, self.players, self.top, self.content.cards
        seats = one_hot_rows(SEATS)
        out = [1.0, *one_hot_rows(self.spaces)[nego.space], *seats[(nego.boss - seat) % players]]
        out.append(nego.proceeds / top)
        laid: dict[str, list[int]] = {}  # each colour's laid Clan cards by seat (a card's last letter)
        for s, pile in enumerate(nego.laid):
            for card in pile:
                laid.setdefault(cards[card][-1], [0] * players)[s] += 1
        for colour in colours:
            row = laid.get(colour)
            out += NO_SEATS if row is None else [n / 4 for n in turned(row, seat)]
        out += [1.0 if c in nego.travelling else 0.0 for c in colours]
        asks: dict[str, list[int | None]] = {}  # each colour's offers by seat (None: no offer)
        for (colour, s), ask in nego.offers.items():
            asks.setdefault(colour, [None] * players)[s] = ask
        offered = [asks.get(colour) for colour in colours]
        for line in offered:
            out += NO_SEATS if line is None else turned([0.0 if a is None else 1.0 for a in line], seat)
        for line in offered:
            out += NO_SEATS if line is None else [(a or 0) / top for a in turned(line, seat)]
        items = nego.items
        for colour in colours:
            term = items.get(colour)
            out += seats[-1 if term is None else (term.seat - seat) % players]
        out += [(items[c].amount if c in items else 0) / top for c in colours]
        out += [1.0 if c in items and items[c].agreed else 0.0 for c in colours]
        tips = nego.tips
        out += [t / top for t in turned([tips[s].amount if s in tips else 0 for s in range(players)], seat)]
        out += [n / self.limit for n in turned(nego.counted, seat)]
        out += [1.0 if nego.called else 0.0, 0.0 if nego.pending is None else 1.0]
        return out
