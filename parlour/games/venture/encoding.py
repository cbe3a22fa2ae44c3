"""Action catalogue and observation tensor of Venture for learning environments."""

from __future__ import annotations

from parlour.core.encoding import SEATS, Encoding, game_state, seat_block
from parlour.core.features import Features, relative
from parlour.core.state import GameState
from parlour.games.venture.catalogue import action_catalogue
from parlour.games.venture.content import Deck
from parlour.games.venture.game_state import VentureGameState


def encoding(deck: Deck, players: int, max_players: int) -> Encoding:
    """Returns Venture's encoding for a table of ``players`` with this deck."""
    corps = [c.name for c in deck.corporations]
    cards = sorted({r.name for r in deck.resources})
    kinds = ["turn", "place", "reorganise", "pay", "discard"]

    def encode(state: GameState, seat: int) -> Features:
        obs = game_state(state, VentureGameState).observation(seat)
        f = Features()
        f.one_hot("decision", obs["decision"], kinds)
        f.scalar("my turn", obs["current"] == seat)
        f.scalar("turn", obs["turn"], 400)
        f.flags("center", (c in obs["center"] for c in corps))
        where: dict[str, int] = {}
        tops: set[str] = set()
        for s, stacks in enumerate(obs["holdings"]):
            for stack in stacks:
                for name in stack["cards"]:
                    where[name] = s
                tops.add(stack["cards"][-1])
        slots = [SEATS if where.get(c) is None else relative(where[c], seat, players) for c in corps]
        f.one_hots("holder of each corporation", slots, SEATS + 1)
        f.flags("top of a stack", (c in tops for c in corps))
        f.flags("hand", (obs["hand"].count(n) for n in cards), 8)
        f.flags("discard", (obs["discard"].count(n) for n in cards), 8)
        f.flags("payment", (obs["payment"].count(n) for n in cards), 8)
        seat_block(f, "profits", obs["profits"], seat, 400)
        seat_block(f, "holdings profit", obs["holdings_profit"], seat, 400)
        seat_block(f, "hand sizes", obs["hand_sizes"], seat, 20)
        f.scalar("owed", obs["owed"], 100)
        f.scalar("stock", obs["stock_size"], 54)
        f.scalar("draw pile", obs["draw_size"], 60)
        return f

    # Shuffled: the corporations and the resources cards; rolled: the dealer (0 to players - 1, any table).
    return Encoding(action_catalogue(deck), encode, (*corps, *cards), max_players - 1)
