"""Action catalogue and observation tensor of I'm the Boss! for learning environments."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.encoding import SEATS, Encoding, game_state, owner_block, seat_block
from parlour.core.features import Features, relative
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.games.im_the_boss.catalogue import action_catalogue, largest_proceeds
from parlour.games.im_the_boss.content import Content
from parlour.games.im_the_boss.rules import KINDS
from parlour.games.im_the_boss.state import BossState
from parlour.games.im_the_boss.views import NegotiationView, observation


def encoding(content: Content, players: int, options: Mapping[str, JSONValue], max_players: int) -> Encoding:
    """Returns I'm the Boss!'s encoding for a table of ``players`` with this content and options."""
    colours = list(content.colours)
    names = sorted(set(content.cards))
    top = float(largest_proceeds(content))
    kinds = list(KINDS.kinds)
    spaces = range(1, len(content.spaces) + 1)
    limit = float(options["negotiation_limit"])

    def encode(state: GameState, seat: int) -> Features:
        obs = observation(game_state(state, BossState), seat)
        hand = obs["hand"]
        assert hand is not None
        f = Features()
        f.one_hot("decision", obs["decision"], kinds)
        f.scalar("my turn", obs["current"] == seat)
        f.scalar("I may act", seat in obs["deciders"])
        f.flags("hand", (hand.count(n) for n in names), 12)
        seat_block(f, "hand sizes", obs["hand_sizes"], seat, 15)
        for colour in colours:
            owner_block(f, f"placard {colour}", obs["placards"][colour], seat, players)
        seat_block(f, "money", obs["money"], seat, 150)
        seat_block(f, "money shown", [m is not None for m in obs["money"]], seat, 1)
        f.flags("covered", (n is not None for n in obs["covered"]))
        f.one_hot("marker", obs["marker"], spaces)
        f.scalar("dividend value", obs["dividend_value"] or 0, 10)
        f.scalar("deal cards left", len(obs["deal_cards"]), 15)
        f.scalar("draw pile", obs["draw_size"], 98)
        f.flags("discard", (obs["discard"].count(n) for n in names), 33)
        _negotiation(f, obs["negotiation"], seat, players, colours, spaces, top, limit)
        return f

    # Shuffled: the placards and the deck; rolled: the die and the first player (0 to players - 1, any table).
    faces = max(content.die, max_players - 1)
    return Encoding(action_catalogue(content, players), encode, (*colours, *names), faces)


def _negotiation(
    f: Features,
    view: NegotiationView | None,
    seat: int,
    players: int,
    colours: list[str],
    spaces: range,
    top: float,
    limit: float,
) -> None:
    """Appends the negotiation block (all zeros when there is none)."""
    f.scalar("negotiating", view is not None)
    f.one_hot("deal space", view["space"] if view else None, spaces)
    f.one_hot("boss", relative(view["boss"], seat, players) if view else None, range(SEATS))
    f.scalar("proceeds", view["proceeds"] if view else 0, top)
    laid = view["laid"] if view else [[] for _ in range(players)]
    for colour in colours:
        seat_block(f, f"laid {colour}", [pile.count(colour) for pile in laid], seat, 4)
    travelling = view["travelling"] if view else []
    f.flags("travelling", (c in travelling for c in colours))
    offers = {(str(c), int(s)): int(a) for c, s, a in (view["offers"] if view else [])}
    for colour in colours:
        seat_block(f, f"offer {colour}", [(colour, s) in offers for s in range(players)], seat, 1)
    for colour in colours:
        seat_block(f, f"ask {colour}", [offers.get((colour, s), 0) for s in range(players)], seat, top)
    terms = view["terms"] if view else {}
    for colour in colours:
        line = terms.get(colour)
        f.one_hot(f"term seat {colour}", relative(line[0], seat, players) if line else None, range(SEATS))
    f.flags("term amounts", ((terms[c][1] if c in terms else 0) for c in colours), top)
    f.flags("terms agreed", (bool(c in terms and terms[c][2]) for c in colours))
    tips = view["tips"] if view else {}
    seat_block(f, "tips", [tips.get(str(s), [s, 0, False])[1] for s in range(players)], seat, top)
    seat_block(f, "counted", view["counted"] if view else [0] * players, seat, limit)
    f.scalar("called", bool(view and view["called"]))
    f.scalar("pending play", bool(view and view["pending"]))
