"""Embers for learning environments: its action catalogue and observation tensor (docs/environments.md).

The tensor is written straight from the state, reading only what the seat may know (its own hand and the
public table): the same numbers, block for block, as the seat's observation (``views.observation``)
would give (tests/envs/test_encoding_reference.py).
"""

from __future__ import annotations

import numpy as np

from parlour.core.encoding import SEATS, Encoding, WholeNumbers, game_state
from parlour.core.features import Features
from parlour.core.state import GameState
from parlour.games.embers.actions import DISCARD, DOUSE, PASS, Play
from parlour.games.embers.content import Content
from parlour.games.embers.state import EmbersState


def encoding(content: Content, players: int) -> Encoding:
    """Returns Embers' encoding for a table of ``players``."""
    names = content.names
    numbers = sorted(content.embers.values())
    catalogue = [str(Play.of(n)) for n in numbers] + [str(DISCARD), str(DOUSE), str(PASS)]
    blocks = layout(len(names))
    size = sum(length for _, length in blocks)
    table = _Table(content, players)

    def encode(state: GameState, seat: int) -> Features:
        return Features.filled(table.write(game_state(state, EmbersState), seat), blocks, size)

    def write(state: GameState, seat: int) -> np.ndarray:
        return table.write(game_state(state, EmbersState), seat)

    return Encoding(catalogue, encode, chance_names=names, faces=0, write=write)


def layout(names: int) -> list[tuple[str, int]]:
    """Returns the tensor's blocks, names and lengths, in order (docs/environments.md)."""
    blocks = [("decision", 2), ("I may act", 1), ("hand", names), ("hand sizes", SEATS), ("scores", SEATS)]
    blocks += [("active", SEATS + 1), ("draw pile", 1), ("fire", names), ("fire total", 1)]
    blocks += [("discard", names), ("in play", names), ("douses on it", 1)]
    return blocks


class _Table:
    """Writes a seat's Embers tensor as whole numbers (``WholeNumbers``), the card names indexed once."""

    def __init__(self, content: Content, players: int) -> None:
        self.players = players
        self.slot = {name: i for i, name in enumerate(content.names)}
        """Each card name's place in the blocks of cards."""
        deck = len(content.deck)
        scales = {"hand": content.hand, "hand sizes": content.hand, "scores": deck, "draw pile": deck}
        scales |= {"fire": 3, "fire total": content.blaze, "discard": deck, "douses on it": 6}
        self.numbers = WholeNumbers(layout(len(content.names)), scales)

    def write(self, state: EmbersState, seat: int) -> np.ndarray:
        """Returns the tensor's values (before clipping) for ``seat``, as a float32 array."""
        players, at, slot = self.players, self.numbers.at, self.slot
        out = self.numbers.blank()
        if not state.over:  # the decision: a turn, or answers to the ember in play
            out[0 if state.play is None else 1] = 1
        out[at["I may act"]] = 1 if seat in state.deciders() else 0
        for block, pile in (("hand", state.hands[seat]), ("fire", state.fire), ("discard", state.discard)):
            where = at[block]
            for card in pile:
                out[where + slot[card]] += 1
        sizes, scores = at["hand sizes"], at["scores"]
        for s, (hand, taken) in enumerate(zip(state.hands, state.taken, strict=True)):
            out[sizes + (s - seat) % players] = len(hand)
            out[scores + (s - seat) % players] = len(taken)
        out[at["active"] + (state.active - seat) % players] = 1
        out[at["draw pile"]] = len(state.draw)
        out[at["fire total"]] = sum(map(state.content.embers.__getitem__, state.fire))  # fire_total()
        if state.play is not None:
            out[at["in play"] + slot[state.play]] = 1
        out[at["douses on it"]] = len(state.dousers)
        return self.numbers.values(out)
