"""Embers for learning environments: its action catalogue and observation tensor (docs/environments.md)."""

from __future__ import annotations

from parlour.core.encoding import Encoding, game_state, owner_block, seat_block
from parlour.core.features import Features
from parlour.core.state import GameState
from parlour.games.embers.actions import DISCARD, DOUSE, PASS, PLAYS
from parlour.games.embers.content import Content
from parlour.games.embers.state import EmbersState


def encoding(content: Content, players: int) -> Encoding:
    """Returns Embers' encoding for a table of ``players``."""
    names = content.names
    numbers = sorted(content.embers.values())
    catalogue = [str(PLAYS[n]) for n in numbers] + [str(DISCARD), str(DOUSE), str(PASS)]
    deck = len(content.deck)

    def encode(state: GameState, seat: int) -> Features:
        obs = game_state(state, EmbersState).observe(seat)
        f = Features()
        f.one_hot("decision", obs["decision"], ["turn", "answer"])
        f.scalar("I may act", seat in obs["deciders"])
        f.flags("hand", ((obs["hand"] or []).count(n) for n in names), content.hand)
        seat_block(f, "hand sizes", obs["hand_sizes"], seat, content.hand)
        seat_block(f, "scores", obs["scores"], seat, deck)
        owner_block(f, "active", obs["active"], seat, players)
        f.scalar("draw pile", obs["draw_size"], deck)
        f.flags("fire", (obs["fire"].count(n) for n in names), 3)
        f.scalar("fire total", obs["fire_total"], content.blaze)
        f.flags("discard", (obs["discard"].count(n) for n in names), deck)
        f.one_hot("in play", obs["play"], names)
        f.scalar("douses on it", len(obs["dousers"]), 6)
        return f

    return Encoding(catalogue, encode, chance_names=names, faces=0)
