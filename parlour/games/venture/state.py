"""VentureState: the zones of both decks, the holdings, scores and the decision stack, its copies and its
position (what the rules read and change; what people are shown of it is ``game_state``'s)."""

from __future__ import annotations

import random
from functools import cache
from itertools import chain

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.modular import ModularState
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.core.zones import CardNames, Layout, Part, position_header
from parlour.games.venture.actions import NOTATION, VentureAction
from parlour.games.venture.content import CAPITAL, PROFIT, Corporation, Deck, Resource
from parlour.games.venture.record import Step

FORMAT = "parlour-venture-position/1"
"""The format tag of Venture's positions (docs/positions.md)."""
GAME_NAME = "venture"
"""The game's registry name (positions name it in their ``game`` field)."""
Options = dict[str, JSONValue]
"""Option values by name (``options.OPTIONS``; the deck is its content set's name and digest)."""
Position = dict[str, JSONValue]
"""A position: the whole state as JSON data."""


class VentureState(ModularState[VentureAction]):
    """A game of Venture in progress.

    Cards are held as integer ids into ``deck.corporations`` and ``deck.resources``;
    piles are lists, top of pile first for ``draw`` and ``stock``.  A conglomerate
    (or lone corporation) is a list of corporation ids, bottom first.  The games played are
    ``game_state.VentureGameState``, which adds the views, hints and banners.  Its parts are listed once,
    in :func:`layout`, from which come its copies, its determinizations and its position.
    """

    game_name = GAME_NAME
    notation = NOTATION

    deck: Deck
    """The card set (shared, never changed)."""
    layout: Layout
    """The parts of the state with the deck's card names (:func:`layout`; shared, never changed)."""
    options: Options
    """Option values (see ``options.OPTIONS``)."""
    hands: list[list[int]]
    """Each seat's resources cards; secret to everyone else."""
    draw: list[int]
    """The face-down drawing deck, top first; secret."""
    discard: list[int]
    """The face-up discard pile, bottom first; public."""
    payment: list[int]
    """Capital cards laid down towards what the current player owes; public."""
    center: list[int]
    """The face-up corporations in the center of the table."""
    stock: list[int]
    """The face-down corporation stock, top first; secret."""
    aside: list[int]
    """Corporations set aside unseen (two-player game); secret."""
    holdings: list[list[list[int]]]
    """Each seat's conglomerates and lone corporations, each bottom first."""
    profits: list[int]
    """Each seat's running total of profits (the score sheet)."""
    current: Seat
    """The seat whose turn it is."""
    turn: int
    """Turn number, counting every player's turns from 1."""
    owed: int
    """What the current player's transactions cost so far and is not yet paid."""
    transacted: bool
    """Whether the current player has made a transaction this turn."""
    over: bool
    """Whether the game has ended (final scoring done)."""
    profit_rounds: int
    """How many Profit-card scorings have happened."""
    undo_log: list[Step]
    """The current turn's steps that can still be taken back, oldest first (ruling A-17)."""
    undos: int
    """Steps taken back this turn (at most ``undo.UNDO_LIMIT``)."""

    def __init__(self, deck: Deck, players: int, options: Options, chance: Chance) -> None:
        super().__init__()
        self.deck, self.players, self.options, self.chance = deck, players, options, chance
        self.layout = layout(deck)
        self.stack = DecisionStack()
        self.hands = [[] for _ in range(players)]
        self.draw, self.discard, self.payment = [], [], []
        self.center, self.stock, self.aside = [], [], []
        self.holdings = [[] for _ in range(players)]
        self.profits = [0] * players
        self.current, self.turn, self.owed, self.transacted, self.over = 0, 1, 0, False, False
        self.profit_rounds = 0
        self.undo_log, self.undos = [], 0

    # ------------------------------------------------------------ card lookup
    def corp(self, cid: int) -> Corporation:
        """Returns the corporation with this id."""
        return self.deck.corporations[cid]

    def card(self, rid: int) -> Resource:
        """Returns the resources card with this id."""
        return self.deck.resources[rid]

    def capital_in_hand(self, seat: Seat) -> list[Resource]:
        """Returns the capital cards in a seat's hand."""
        return [c for c in map(self.card, self.hands[seat]) if c.kind == CAPITAL]

    def corporations_held(self, seat: Seat) -> int:
        """Returns how many corporations a seat holds."""
        return sum(map(len, self.holdings[seat]))

    # ------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        """Returns each seat's running total of profits (final once the game is over)."""
        return [float(p) for p in self.profits]

    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None once the game is over)."""
        return None if self.over else self.current

    # ------------------------------------------------------------ copies
    def clone(self) -> VentureState:
        """Returns a deep, independent copy (same generator, same future draws)."""
        other = type(self).__new__(type(self))
        GameState.__init__(other)
        self.layout.copy_into(self, other)
        other.chance, other.stack = self.chance.copy(), self.stack.copy()
        other.undo_log, other.undos = list(self.undo_log), self.undos  # steps are never changed
        other.actions_applied = self.actions_applied
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> VentureState:
        """Returns a copy where everything ``seat`` cannot see is re-dealt at random.

        Other hands and the drawing deck are re-dealt from their pooled cards
        (sizes kept); the stock and the set-aside corporations likewise; the
        generator is replaced by a fresh one, so the future draws are unknown.
        """
        other = self.clone()
        other.chance = self.chance.fresh(rng)
        self.layout.redeal(other, seat, rng)
        _profits_out_of_hands(other, seat, rng)
        return other

    # ------------------------------------------------------------ positions
    def to_position(self) -> Position:
        """Returns the whole state as a position (docs/positions.md): piles top first, stacks bottom
        first, cards by name; then the decisions and the undo record."""
        return {
            **position_header(self, FORMAT),
            **self.layout.write(self),
            "decisions": self.stack.to_json(),
            "undo": [self._step_json(step) for step in self.undo_log],
            "undos": self.undos,
        }

    def _step_json(self, step: Step) -> dict[str, JSONValue]:
        """Returns one step of the undo record as position data (card names; the stack as stored)."""
        corp = corporation_names(self.deck).name
        entry: dict[str, JSONValue] = {"action": step.action}
        if step.kind == "pay":
            entry["at"] = list(step.at)
        else:
            entry["holdings"] = [[corp(c) for c in s] for s in step.holdings]
        if step.kind == "full":
            assert step.decisions is not None
            entry["center"] = [corp(c) for c in step.center]
            entry["owed"], entry["transacted"] = step.owed, step.transacted
            entry["decisions"] = step.decisions.to_json()
        return entry


def _profits_out_of_hands(state: VentureState, seat: Seat, rng: random.Random) -> None:
    """Re-deals the other seats' hands from the unseen cards that are not Profit cards, the rest to the
    drawing deck: a Profit card drawn scores at once and is replaced (ruling A-15), so no hand holds one,
    and a world with one in a hand is no world the game can reach."""
    hands = [hand for s, hand in enumerate(state.hands) if s != seat]
    unseen = sorted([*chain.from_iterable(hands), *state.draw])  # sorted: depends only on what is known
    profit = [r for r in unseen if state.deck.resources[r].kind == PROFIT]
    others = [r for r in unseen if state.deck.resources[r].kind != PROFIT]
    rng.shuffle(others)
    start = 0
    for hand in hands:
        hand[:] = others[start : start + len(hand)]
        start += len(hand)
    state.draw[:] = others[start:] + profit
    rng.shuffle(state.draw)


@cache
def corporation_names(deck: Deck) -> CardNames:
    """Returns the corporations' names (read in any case, like the notation's ``take st-abc``)."""
    return CardNames([c.name for c in deck.corporations], "corporation", str.upper)


@cache
def layout(deck: Deck) -> Layout:
    """Returns the parts of a Venture state with this deck: resources cards (hands seen by their seat, the
    drawing deck by nobody) and corporations (the stock and those set aside seen by nobody), each re-dealt
    only among their own kind; the counters public; the deck and options shared. The chance, decisions
    and undo record are the state's own (``clone``, ``to_position``)."""
    corps = corporation_names(deck)
    return Layout(
        "turn",
        "current",
        "owed",
        "transacted",
        "over",
        "profit_rounds",
        "profits",
        Part("hands", "owner", cards=True),
        Part("draw", "secret", cards=True),
        Part("discard", cards=True),
        Part("payment", cards=True),
        Part("center", cards=corps),
        Part("stock", "secret", cards=corps, pool="corporations"),
        Part("aside", "secret", cards=corps, pool="corporations"),
        Part("holdings", cards=corps),
        cards=CardNames([r.name for r in deck.resources], "resources card", str.lower),
        shared=("deck", "layout", "players", "options"),
    )
