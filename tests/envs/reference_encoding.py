"""The observation encoders as they were before issue 15 (a block at a time, from each seat's observation):
the reference the fast encoders in ``parlour/games/*/encoding.py`` must match value for value.

Kept only for tests (tests/envs/test_encoding_reference.py); the code is the old code, unchanged but for
the names of what it imports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import cast

import numpy as np

from parlour.core.encoding import SEATS, game_state
from parlour.core.features import Features as CoreFeatures
from parlour.core.features import relative
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.games.embers import views as embers_views
from parlour.games.embers.content import Content as EmbersContent
from parlour.games.embers.state import EmbersState
from parlour.games.im_the_boss.catalogue import largest_proceeds
from parlour.games.im_the_boss.content import Content as BossContent
from parlour.games.im_the_boss.game_state import BossGameState
from parlour.games.im_the_boss.rules import KINDS
from parlour.games.im_the_boss.views import NegotiationView, observation
from parlour.games.venture.content import Deck
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venus_needs_men.board import load_board
from parlour.games.venus_needs_men.encoding import places
from parlour.games.venus_needs_men.game_state import VenusGameState
from parlour.games.venus_needs_men.views import EnhancedView
from parlour.games.venus_needs_men.zapdeck import ZapDeck

Encoder = Callable[[GameState, int], "Features"]


class Features:
    """Appends named blocks of numbers, each clipped to 0..1; ``layout()`` documents them."""

    def __init__(self) -> None:
        self.chunks: list[np.ndarray] = []
        self.blocks: list[tuple[str, int]] = []

    def _add(self, name: str, chunk: np.ndarray) -> None:
        """Appends one block."""
        self.chunks.append(chunk)
        self.blocks.append((name, int(chunk.size)))

    def scalar(self, name: str, value: float, scale: float = 1.0) -> None:
        """Appends one number divided by ``scale``."""
        self._add(name, np.array([value / scale if scale else 0.0], dtype=np.float32))

    def flags(self, name: str, values: Iterable[bool | float], scale: float = 1.0) -> None:
        """Appends several numbers (flags or counts) divided by ``scale``."""
        self._add(name, np.fromiter((float(v) for v in values), dtype=np.float32) / scale)

    def one_hot(self, name: str, value: object, vocabulary: Sequence[object]) -> None:
        """Appends a one-hot block over ``vocabulary`` (all zeros if the value is not in it)."""
        chunk = np.zeros(len(vocabulary), dtype=np.float32)
        for i, item in enumerate(vocabulary):
            if item == value:
                chunk[i] = 1.0
                break
        self._add(name, chunk)

    def one_hots(self, name: str, slots: Sequence[int], width: int) -> None:
        """Appends one one-hot row of ``width`` per slot (a slot of -1 leaves its row empty)."""
        matrix = np.zeros((len(slots), width), dtype=np.float32)
        rows = [i for i, s in enumerate(slots) if s >= 0]
        matrix[rows, [slots[i] for i in rows]] = 1.0
        self._add(name, matrix.ravel())

    @property
    def size(self) -> int:
        """Returns the number of values."""
        return sum(length for _, length in self.blocks)

    def array(self) -> np.ndarray:
        """Returns the vector as float32, clipped to 0..1."""
        clipped: np.ndarray = np.clip(np.concatenate(self.chunks), 0.0, 1.0)
        return clipped

    def layout(self) -> list[tuple[str, int, int]]:
        """Returns (name, start, length) of every block (the core's: it reads only ``blocks``)."""
        return CoreFeatures.layout(cast(CoreFeatures, self))


def seat_block(features: Features, name: str, values: Sequence[object], viewer: int, scale: float) -> None:
    """Appends one number per seat, viewer first, padded to six seats."""
    players = len(values)
    ordered = [0.0] * SEATS
    for seat, value in enumerate(values):
        ordered[relative(seat, viewer, players)] = float(value or 0)  # type: ignore[arg-type]
    features.flags(name, ordered, scale)


def owner_block(features: Features, name: str, owner: int | None, viewer: int, players: int) -> None:
    """Appends a one-hot of a seat (relative to the viewer) or a final 'nobody' slot."""
    slot = SEATS if owner is None else relative(owner, viewer, players)
    features.one_hot(name, slot, range(SEATS + 1))


def boss_encoder(content: BossContent, players: int, options: Mapping[str, JSONValue]) -> Encoder:
    """Returns I'm the Boss!'s encoding for a table of ``players`` with this content and options."""
    colours = list(content.colours)
    names = sorted(set(content.cards))
    top = float(largest_proceeds(content))
    kinds = list(KINDS.kinds)
    spaces = range(1, len(content.spaces) + 1)
    limit = float(options["negotiation_limit"])

    def encode(state: GameState, seat: int) -> Features:
        obs = observation(game_state(state, BossGameState), seat)
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

    return encode


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


def venture_encoder(deck: Deck, players: int) -> Encoder:
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

    return encode


def venus_encoder(zap: ZapDeck, players: int, options: Mapping[str, object]) -> Encoder:
    """Returns Venus Needs Men!'s encoding for a table of ``players`` with this Zap deck and options."""
    board = load_board()
    order, ships, areas, lands, upgrades, numbers = places(zap)
    kinds = ["zap", "act", "moving", "attacking", "collecting", "extend", "extra", "immediate", "scavenge"]
    total = float(board.total(str(options["length"])))

    def encode(state: GameState, seat: int) -> Features:
        obs = game_state(state, VenusGameState).observation(seat)
        f = Features()
        f.one_hot("decision", obs["decision"], kinds)
        f.one_hot("window", (obs["window"] or {}).get("moment"), ["start", "roll", "save", "end"])
        f.scalar("I may act", seat in obs["deciders"])
        f.one_hot("active planet", obs["active"], order)
        for planet in order:
            owner = obs["seat_of"].get(planet)
            owner_block(f, f"seat of {planet}", owner, seat, players)
        index = {a: i for i, a in enumerate(areas)}
        f.one_hots("area of each ship", [index.get(obs["ships"].get(s) or "", -1) for s in ships], len(areas))
        f.flags("population", (obs["population"][a] for a in lands), 40)
        f.flags("collected", (obs["collected"].get(p, 0) for p in order), total)
        f.scalar("needed", obs["needed"], total)
        f.scalar("earth open", obs["earth_open"])
        hand = obs["hand"] or []
        f.flags("my Zap hand", (n in hand for n in numbers))
        seat_block(f, "Zap hand sizes", obs["hand_sizes"], seat, 3)
        seat_block(f, "Zap deck sizes", obs["deck_sizes"], seat, 18)
        played = {n for pile in obs["discards"] for n in pile}
        f.flags("Zap cards played", (n in played for n in numbers))
        f.one_hot("action", obs["action"], ["build", "move", "attack", "collect", "research"])
        f.flags("acted", (s in obs["acted"] for s in ships))
        f.scalar("extended", obs["extended"], 3)
        _enhanced(f, obs["enhanced"] or BASIC, order, ships, lands, upgrades)
        return f

    return encode


BASIC = EnhancedView(
    technology={},
    specials={},
    upgrades={},
    pending_upgrades={},
    face_up=[],
    upgrade_deck_size=0,
    upgrade_discard=[],
    controlled={},
    disabled=[],
    infected={},
    cycled=False,
    seized=[],
)
"""The Enhanced block of a Basic game: nothing held, no Upgrade piles (its features all zeros)."""


def _enhanced(
    f: Features,
    ext: EnhancedView,
    order: list[str],
    ships: list[str],
    lands: list[str],
    upgrades: list[str],
) -> None:
    """Appends the Enhanced game's block (all zeros in the Basic game)."""
    held, pending = ext["upgrades"], ext["pending_upgrades"]
    for planet in order:
        f.flags(f"upgrades of {planet}", (u in held.get(planet, []) for u in upgrades))
        f.flags(f"pending upgrades of {planet}", (u in pending.get(planet, []) for u in upgrades))
    f.flags("face-up upgrades", (ext["face_up"].count(u) for u in upgrades), 2)
    f.scalar("upgrade deck", ext["upgrade_deck_size"], 16)
    controlled, disabled = ext["controlled"], ext["disabled"]
    for planet in order:
        f.flags(f"controlled by {planet}", (controlled.get(s) == planet for s in ships))
    f.flags("disabled", (s in disabled for s in ships))
    f.flags("infected", (ext["infected"].get(a, 0) for a in lands), 40)


def embers_encoder(content: EmbersContent, players: int) -> Encoder:
    """Returns Embers' encoding for a table of ``players``."""
    names = content.names
    deck = len(content.deck)

    def encode(state: GameState, seat: int) -> Features:
        obs = embers_views.observation(game_state(state, EmbersState), seat)
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

    return encode
