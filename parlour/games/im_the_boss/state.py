"""What lies on the table: hands, piles, placards, money, the board, the negotiation and the decisions.

:class:`BossState` is the state the rules read and change (its lookups, copies and invariants);
:class:`BossDecision` is the base of its decisions, whose rules live in the chapter modules
(``turn``, ``bargain``, ``closing``, ``plays``). The state people and servers hold is
``game_state.BossGameState``, the tabletop with its views and positions.
"""

from __future__ import annotations

import dataclasses
import random
from abc import abstractmethod
from dataclasses import dataclass
from functools import cache
from operator import countOf
from typing import ClassVar, NotRequired, Self, TypedDict, cast

from parlour.core.chance import Chance
from parlour.core.decisions import Decision, DecisionStack, Seat
from parlour.core.errors import PositionError
from parlour.core.modular import ModularState
from parlour.core.payloads import JSONValue, write_value
from parlour.core.positions import check_int
from parlour.core.state import GameState
from parlour.core.zones import CardNames, CardReader, Form, Layout, Part
from parlour.games.im_the_boss.actions import NOTATION, BossAction
from parlour.games.im_the_boss.content import Content, DealCard, Space
from parlour.games.im_the_boss.negotiation import Negotiation
from parlour.games.im_the_boss.negotiation_form import NegotiationForm


class DealRecord(TypedDict):
    """One closed deal in the public record: its deal card, space (1–16), Boss, proceeds, payments."""

    card: int
    space: int
    boss: int
    proceeds: int
    payments: dict[str, int]
    """What the Boss paid each seat, by seat number as text (only positive amounts)."""
    roll: NotRequired[int]
    """The Boss's end-of-game roll after a deal card with numbers on its back."""


@dataclass(eq=False, kw_only=True)
class BossDecision(Decision["BossState", BossAction]):
    """A decision of I'm the Boss!: who is asked, in which order, and why an action is refused."""

    phase: ClassVar[str] = ""
    """The decision in words, for messages ("the Stop window")."""

    @abstractmethod
    def order(self, state: BossState) -> tuple[list[Seat], str, bool]:
        """Returns the order legal play asks seats in, that order in words, and whether it is asked whole."""

    def why(self, state: BossState, seat: Seat, action: BossAction) -> str:
        """Returns why an action is not legal now, as precisely as cheaply possible."""
        if not isinstance(action, BossAction):
            return f"it is not an I'm the Boss! action (during {self.phase})"
        verbs = sorted({a.verb for a in state.legal_actions(seat)})
        if action.verb not in verbs:
            return f"during {self.phase} seat {seat} may: {', '.join(verbs)}"
        nego, colours = state.nego, state.content.colours
        # Every verb with a colour, a seat or a number names its field so: read them for the message.
        colour: str = getattr(action, "colour", "")
        number: int = getattr(action, "number", -1)
        target: int = getattr(action, "seat", -1)
        if colour and colour not in colours:
            return f"there is no colour {colour} (colours: {' '.join(colours)})"
        if nego is not None and colour and colour not in state.space(nego.space).colours:
            return f"this deal (space {nego.space + 1}) does not list {colour}"
        if nego is not None and number > nego.proceeds:
            return f"the proceeds are {nego.proceeds} million: no amount may exceed what is left of them"
        if target >= state.players:
            return f"there is no seat {target}"
        return f"{action.verb} is possible now, but not with these arguments (type 'list' to see them)"

    # ------------------------------------------------------------ positions
    @classmethod
    def read(cls, data: object, path: str, seats: list[Seat], concurrent: bool) -> Self:
        """Reads a stored decision; an open window must be stored as one, the others not."""
        decision = super().read(data, path, seats, concurrent)
        expected = next(f.default for f in dataclasses.fields(cls) if f.name == "concurrent")
        if concurrent != expected:
            where = path.removesuffix(".data")  # the core reads the payload at "decisions[i].data"
            raise PositionError(
                f"{where}.concurrent", f"must be {str(expected).lower()} for a {cls.kind} decision"
            )
        return decision

    def check_seats(self, state: BossState, path: str) -> None:
        """Refuses seats legal play never asks: a part of the decision's order, in that order, never empty.

        A window only loses seats as they pass: an open window keeps some of its order's seats in the same
        order; a sequential one (the closing round) asks its first seat, so the seats left are a tail.
        """
        order, what, whole = self.order(state)
        seats = self.seats
        if whole:
            fits = seats == order
        elif not self.concurrent:
            fits = bool(seats) and seats == order[len(order) - len(seats) :]
        else:
            rest = iter(order)
            fits = bool(seats) and all(seat in rest for seat in seats)
        if not fits:
            raise PositionError(f"{path}.seats", f"must list {what}, in order, not {seats}")


@dataclass(eq=False, kw_only=True)
class UnderStop(BossDecision):
    """A decision a Stop window may sit on (the bargaining, the closing round): it asks again when the
    window above it closes."""

    @abstractmethod
    def resume(self, state: BossState, keep_call: bool) -> None:
        """Asks again after the Stop window above this decision closed."""


class BossState(ModularState[BossAction]):
    """A game of I'm the Boss! in progress, as its rules see it.

    Influence cards are integer ids into ``content.cards``; piles are lists, top
    first for ``draw``.  Placards are ``owners``: colour -> seat, or None for a
    spare placard beside the board.
    """

    game_name = "im-the-boss"
    notation = NOTATION

    layout: Layout
    """The state's parts (``LAYOUT`` with this content's card names): copies, redeals and positions."""
    content: Content
    players: int
    options: dict[str, JSONValue]
    chance: Chance
    stack: DecisionStack
    actions_applied: int
    hands: list[list[int]]
    """Each seat's Influence cards; secret to everyone else."""
    draw: list[int]
    """The face-down Influence deck, top first; secret."""
    discard: list[int]
    """The discard pile, bottom first; public (ruling B-8)."""
    owners: dict[str, int | None]
    """Who holds each investor placard (None: a spare beside the board)."""
    money: list[int]
    """Each seat's money in millions."""
    covered: list[int | None]
    """The deal card number covering each space, or None for a free space."""
    deal_cards: list[int]
    """The deal cards still stacked, top first (public)."""
    marker: int | None
    """The space index the marker stands on (None until placed)."""
    deals: list[DealRecord]
    """The public record of closed deals: card, space, Boss, proceeds, payments."""
    current: Seat
    """The seat whose turn it is."""
    first: Seat
    """The seat that took the first turn."""
    turn: int
    """Turn number, counting every player's turns from 1 (0 while the marker is placed)."""
    over: bool
    must_deal: bool
    """Whether the current player must try a deal this turn (option must_deal)."""
    nego: Negotiation | None
    """The negotiation in progress, if any."""

    def __init__(self, content: Content, players: int, options: dict[str, JSONValue], chance: Chance) -> None:
        super().__init__()
        self.layout = layout(content)
        self.content = content
        self.players = players
        self.options = options
        self.chance = chance
        self.stack = DecisionStack()
        self.hands = [[] for _ in range(players)]
        self.draw = []
        self.discard = []
        self.owners = {c: None for c in content.colours}
        self.money = [0] * players
        self.covered = [None] * len(content.spaces)
        self.deal_cards = []
        self.marker = None
        self.deals = []
        self.current = 0
        self.first = 0
        self.turn = 0
        self.over = False
        self.must_deal = False
        self.nego = None

    # ------------------------------------------------------------ lookups
    def name(self, card: int) -> str:
        """Returns a card's name (``clan:R``, ``boss``...)."""
        return self.content.cards[card]

    def holding(self, seat: Seat, name: str) -> list[int]:
        """Returns the ids of the cards called ``name`` in a seat's hand."""
        cards = self.content.cards
        return [c for c in self.hands[seat] if cards[c] == name]

    def count(self, seat: Seat, name: str) -> int:
        """Returns how many cards called ``name`` a seat holds."""
        return countOf(map(self.content.cards.__getitem__, self.hands[seat]), name)

    def space(self, index: int) -> Space:
        """Returns the board space with this index."""
        return self.content.spaces[index]

    def top_card(self) -> DealCard | None:
        """Returns the deal card on top of the stack (it values the dividends), or None."""
        return self.content.deal_cards[self.deal_cards[0] - 1] if self.deal_cards else None

    def placards(self, seat: Seat) -> str:
        """Returns the colours of the placards a seat holds."""
        return "".join(c for c, s in self.owners.items() if s == seat)

    def spares(self) -> str:
        """Returns the colours of the spare placards beside the board."""
        return "".join(c for c, s in self.owners.items() if s is None)

    def negotiation(self) -> Negotiation:
        """Returns the negotiation in progress (there must be one)."""
        assert self.nego is not None
        return self.nego

    def decision(self) -> BossDecision:
        """Returns the decision on top of the stack (the game must not be over)."""
        top = self.stack.top
        assert isinstance(top, BossDecision)
        return top

    def under_stop(self) -> UnderStop:
        """Returns the decision a closed Stop window uncovers (positions place Stop windows only on one)."""
        top = self.stack.top
        assert isinstance(top, UnderStop)
        return top

    # ------------------------------------------------------------ the turn cycle
    @abstractmethod
    def next_turn(self, seat: Seat) -> None:
        """Passes the turn to the player on ``seat``'s left (``turn.next_turn``, wired by ``BossGameState``:
        a negotiation ends by starting a turn, and a turn starts negotiations)."""

    # ------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        """Returns each seat's money (final once the game is over)."""
        return [float(m) for m in self.money]

    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None while the marker is placed and after the end)."""
        return None if self.over or self.turn == 0 else self.current

    def invariant_errors(self) -> list[str]:
        """Returns broken invariants: each card in one place, placards, money, the board."""
        problems = []
        places = [*(c for h in self.hands for c in h), *self.draw, *self.discard]
        nego = self.nego
        if nego is not None:
            places += [c for laid in nego.laid for c in laid] + list(nego.travelling.values())
            places += nego.pending.cards if nego.pending else []
        if sorted(places) != list(range(len(self.content.cards))):
            problems.append("Influence cards are not each in exactly one place")
        if any(m < 0 for m in self.money):
            problems.append("a seat has negative money")
        used = sorted(n for n in self.covered if n is not None)
        if sorted(used + self.deal_cards) != sorted(set(used + self.deal_cards)):
            problems.append("a deal card is in two places")
        if nego is not None and nego.committed() > nego.proceeds:
            problems.append("the terms pay out more than the proceeds")
        if any(len(h) > 15 for h in self.hands):
            problems.append("a hand holds more than 15 cards")
        return problems

    # ------------------------------------------------------------ copies
    def clone(self) -> Self:
        """Returns a deep, independent copy (same generator, same future draws)."""
        other = type(self).__new__(type(self))
        GameState.__init__(other)
        self.layout.copy_into(self, other)
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Returns a copy where other hands and the deck are re-dealt at random, with a fresh generator."""
        other = self.clone()
        other.chance = self.chance.fresh(rng)
        self.layout.redeal(other, seat, rng)
        return other


class SpaceForm(Form):
    """The marker's space in positions: 1–16 (or null before it is placed), kept from 0 in the state."""

    def write(self, value: object, names: CardNames | None) -> object:
        """Returns the space's number, or None."""
        return None if not isinstance(value, int) else value + 1

    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> int | None:
        """Returns the space's index, or None."""
        return None if raw is None else check_int(raw, path, 1, 16) - 1


class DealsForm(Form):
    """The public record of deals in positions: a list of objects as the state holds them (each entry is
    checked against the board by the position's consistency checks)."""

    def write(self, value: object, names: CardNames | None) -> object:
        """Returns the record as JSON data."""
        return write_value(value)

    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> list[DealRecord]:
        """Returns the record, refusing anything but a list of objects."""
        if not isinstance(raw, list) or not all(isinstance(d, dict) for d in raw):
            raise PositionError(path, "must be a list of deal records")
        return [cast(DealRecord, dict(d)) for d in raw]  # each checked in position._check_deal_record


PARTS = (
    Part("chance", copy=Chance.copy, body=False),
    Part("actions_applied", body=False),
    Part("hands", "owner", cards=True),
    Part("draw", "secret", cards=True),
    Part("discard", cards=True),
    Part("owners", key="placards"),
    "money",
    "covered",
    "deal_cards",
    Part("marker", form=SpaceForm()),
    Part("deals", form=DealsForm()),
    "current",
    "first",
    "turn",
    "over",
    "must_deal",
    Part("nego", key="negotiation", copy=Negotiation.copy_of, form=NegotiationForm()),
    Part("stack", key="decisions", copy=DecisionStack.copy, body=False),
)
"""Every part of the tabletop, in position order (the decisions are written last, by the position)."""
SHARED = ("layout", "content", "players", "options")
"""The parts every copy shares (never copied, never written)."""


def layout(content: Content) -> Layout:
    """Returns the tabletop's layout with the Influence cards of a content set."""
    return _layout(content.cards)


@cache
def _layout(cards: tuple[str, ...]) -> Layout:
    """Returns the tabletop's layout for these Influence cards (one per deck, made once)."""
    return Layout(*PARTS, cards=CardNames(cards, what="Influence card"), shared=SHARED)
