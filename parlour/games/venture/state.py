"""VentureState: the zones of both decks, the holdings, scores and the decision stack, its copies and its
position (what the rules read and change; what people are shown of it is ``game_state``'s)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.modular import ModularState
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.games.venture.actions import NOTATION, VentureAction
from parlour.games.venture.content import CAPITAL, Corporation, Deck, Resource

FORMAT = "parlour-venture-position/1"
"""The format tag of Venture's positions (docs/positions.md)."""
GAME_NAME = "venture"
"""The game's registry name (positions name it in their ``game`` field)."""
Options = dict[str, JSONValue]
"""Option values by name (``options.OPTIONS``; the deck is its content set's name and digest)."""
Position = dict[str, JSONValue]
"""A position: the whole state as JSON data."""


@dataclass(frozen=True, slots=True)
class Step:
    """What one undoable step changed: enough to put the state back exactly as it was (``undo``).

    ``action`` is the notation of the step.  A payment step keeps the hand positions its cards
    came from; a move keeps the holdings before it (its arrangement leaves the ``seen`` record);
    any other step keeps the holdings, center, debt, flag and decision stack before it.
    """

    action: str
    at: tuple[int, ...] = ()
    holdings: tuple[tuple[int, ...], ...] = ()
    center: tuple[int, ...] = ()
    owed: int = 0
    transacted: bool = False
    decisions: DecisionStack | None = None

    @property
    def kind(self) -> str:
        """``pay``, ``move`` or ``full`` (everything else)."""
        verb = self.action.split(" ", 1)[0]
        return verb if verb in ("pay", "move") else "full"


class VentureState(ModularState[VentureAction]):
    """A game of Venture in progress.

    Cards are held as integer ids into ``deck.corporations`` and ``deck.resources``;
    piles are lists, top of pile first for ``draw`` and ``stock``.  A conglomerate
    (or lone corporation) is a list of corporation ids, bottom first.  The games played are
    ``game_state.VentureGameState``, which adds the views, hints and banners.
    """

    game_name = GAME_NAME
    notation = NOTATION

    def __init__(self, deck: Deck, players: int, options: Options, chance: Chance) -> None:
        super().__init__()
        self.deck = deck
        """The card set (shared, never changed)."""
        self.players = players
        self.options = options
        """Option values (see ``options.OPTIONS``)."""
        self.chance = chance
        self.stack = DecisionStack()
        self.hands: list[list[int]] = [[] for _ in range(players)]
        """Each seat's resources cards; secret to everyone else."""
        self.draw: list[int] = []
        """The face-down drawing deck, top first; secret."""
        self.discard: list[int] = []
        """The face-up discard pile, bottom first; public."""
        self.payment: list[int] = []
        """Capital cards laid down towards what the current player owes; public."""
        self.center: list[int] = []
        """The face-up corporations in the center of the table."""
        self.stock: list[int] = []
        """The face-down corporation stock, top first; secret."""
        self.aside: list[int] = []
        """Corporations set aside unseen (two-player game); secret."""
        self.holdings: list[list[list[int]]] = [[] for _ in range(players)]
        """Each seat's conglomerates and lone corporations, each bottom first."""
        self.profits: list[int] = [0] * players
        """Each seat's running total of profits (the score sheet)."""
        self.current: Seat = 0
        """The seat whose turn it is."""
        self.turn = 1
        """Turn number, counting every player's turns from 1."""
        self.owed = 0
        """What the current player's transactions cost so far and is not yet paid."""
        self.transacted = False
        """Whether the current player has made a transaction this turn."""
        self.over = False
        """Whether the game has ended (final scoring done)."""
        self.profit_rounds = 0
        """How many Profit-card scorings have happened."""
        self.undo_log: list[Step] = []
        """The current turn's steps that can still be taken back, oldest first (ruling A-17)."""
        self.undos = 0
        """Steps taken back this turn (at most ``undo.UNDO_LIMIT``)."""

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
        return sum(len(s) for s in self.holdings[seat])

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
        other.deck, other.players, other.options = self.deck, self.players, self.options
        other.chance = self.chance.copy()
        other.stack = self.stack.copy()
        other.hands = [list(h) for h in self.hands]
        other.draw, other.discard = list(self.draw), list(self.discard)
        other.payment, other.center = list(self.payment), list(self.center)
        other.stock, other.aside = list(self.stock), list(self.aside)
        other.holdings = [[list(s) for s in h] for h in self.holdings]
        other.profits = list(self.profits)
        other.current, other.turn, other.owed = self.current, self.turn, self.owed
        other.transacted, other.over = self.transacted, self.over
        other.profit_rounds = self.profit_rounds
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
        others = [s for s in range(self.players) if s != seat]
        pool = [c for s in others for c in other.hands[s]] + other.draw
        pool.sort()  # canonical order: the result depends only on what the seat knows
        rng.shuffle(pool)
        for s in others:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
        other.draw = pool
        corps = other.stock + other.aside
        corps.sort()
        rng.shuffle(corps)
        other.stock, other.aside = corps[: len(other.stock)], corps[len(other.stock) :]
        return other

    # ------------------------------------------------------------ positions
    def to_position(self) -> Position:
        """Returns the whole state as a position (docs/positions.md): piles top first, stacks bottom
        first, cards by name."""
        card, corp = self._card_name, self._corp_name
        return {
            "format": FORMAT,
            "game": GAME_NAME,
            "players": self.players,
            "options": dict(self.options),
            "chance": self.chance.to_json(),
            "turn": self.turn,
            "current": self.current,
            "owed": self.owed,
            "transacted": self.transacted,
            "over": self.over,
            "profit_rounds": self.profit_rounds,
            "profits": list(self.profits),
            "hands": [[card(r) for r in h] for h in self.hands],
            "draw": [card(r) for r in self.draw],
            "discard": [card(r) for r in self.discard],
            "payment": [card(r) for r in self.payment],
            "center": [corp(c) for c in self.center],
            "stock": [corp(c) for c in self.stock],
            "aside": [corp(c) for c in self.aside],
            "holdings": [[[corp(c) for c in s] for s in h] for h in self.holdings],
            "decisions": self.stack.to_json(),
            "undo": [self._step_json(step) for step in self.undo_log],
            "undos": self.undos,
        }

    def _card_name(self, rid: int) -> str:
        """Returns a resources card's name."""
        return self.deck.resources[rid].name

    def _corp_name(self, cid: int) -> str:
        """Returns a corporation's name."""
        return self.deck.corporations[cid].name

    def _step_json(self, step: Step) -> dict[str, JSONValue]:
        """Returns one step of the undo record as position data (card names; the stack as stored)."""
        entry: dict[str, JSONValue] = {"action": step.action}
        if step.kind == "pay":
            entry["at"] = list(step.at)
        else:
            entry["holdings"] = [[self._corp_name(c) for c in s] for s in step.holdings]
        if step.kind == "full":
            assert step.decisions is not None
            entry["center"] = [self._corp_name(c) for c in step.center]
            entry["owed"], entry["transacted"] = step.owed, step.transacted
            entry["decisions"] = step.decisions.to_json()
        return entry
