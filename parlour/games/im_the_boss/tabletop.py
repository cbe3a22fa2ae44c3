"""What lies on the table: hands, piles, placards, money, the board, the negotiation and the decisions.

:class:`Tabletop` is the state the rules read and change (its lookups, copies and invariants);
:class:`BossDecision` is the base of its decisions, whose rules live in the chapter modules
(``turn``, ``bargain``, ``closing``, ``plays``). The state people and servers hold is
``state.BossState``, the tabletop with its views and positions.
"""

from __future__ import annotations

import dataclasses
import random
from abc import abstractmethod
from dataclasses import dataclass
from typing import ClassVar, NotRequired, Self, TypedDict

from parlour.core.chance import Chance
from parlour.core.decisions import Decision, DecisionStack, Seat
from parlour.core.errors import PositionError
from parlour.core.modular import ModularState
from parlour.core.payloads import JSONValue
from parlour.core.state import GameState
from parlour.games.im_the_boss.actions import NOTATION, BossAction
from parlour.games.im_the_boss.content import Content, DealCard, Space
from parlour.games.im_the_boss.negotiation import Negotiation


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
class BossDecision(Decision["Tabletop", BossAction]):
    """A decision of I'm the Boss!: who is asked, in which order, and why an action is refused."""

    phase: ClassVar[str] = ""
    """The decision in words, for messages ("the Stop window")."""
    passing: ClassVar[bool] = False
    """Whether every seat asked may pass (a Stop window, the closing round, the bargaining)."""

    @abstractmethod
    def order(self, state: Tabletop) -> tuple[list[Seat], str, bool]:
        """Returns the order legal play asks seats in, that order in words, and whether it is asked whole."""

    def why(self, state: Tabletop, seat: Seat, action: BossAction) -> str:
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

    def check_seats(self, state: Tabletop, path: str) -> None:
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
    def resume(self, state: Tabletop, keep_call: bool) -> None:
        """Asks again after the Stop window above this decision closed."""


class Tabletop(ModularState[BossAction]):
    """A game of I'm the Boss! in progress, as its rules see it.

    Influence cards are integer ids into ``content.cards``; piles are lists, top
    first for ``draw``.  Placards are ``owners``: colour -> seat, or None for a
    spare placard beside the board.
    """

    game_name = "im-the-boss"
    notation = NOTATION

    def __init__(self, content: Content, players: int, options: dict[str, JSONValue], chance: Chance) -> None:
        super().__init__()
        self.content = content
        self.players = players
        self.options = options
        self.chance = chance
        self.stack = DecisionStack()
        self.hands: list[list[int]] = [[] for _ in range(players)]
        """Each seat's Influence cards; secret to everyone else."""
        self.draw: list[int] = []
        """The face-down Influence deck, top first; secret."""
        self.discard: list[int] = []
        """The discard pile, bottom first; public (ruling B-8)."""
        self.owners: dict[str, int | None] = {c: None for c in content.colours}
        """Who holds each investor placard (None: a spare beside the board)."""
        self.money: list[int] = [0] * players
        """Each seat's money in millions."""
        self.covered: list[int | None] = [None] * len(content.spaces)
        """The deal card number covering each space, or None for a free space."""
        self.deal_cards: list[int] = []
        """The deal cards still stacked, top first (public)."""
        self.marker: int | None = None
        """The space index the marker stands on (None until placed)."""
        self.deals: list[DealRecord] = []
        """The public record of closed deals: card, space, Boss, proceeds, payments."""
        self.current: Seat = 0
        """The seat whose turn it is."""
        self.first: Seat = 0
        """The seat that took the first turn."""
        self.turn = 0
        """Turn number, counting every player's turns from 1 (0 while the marker is placed)."""
        self.over = False
        self.must_deal = False
        """Whether the current player must try a deal this turn (option must_deal)."""
        self.nego: Negotiation | None = None
        """The negotiation in progress, if any."""

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
        cards = self.content.cards
        return sum(1 for c in self.hands[seat] if cards[c] == name)

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
        """Passes the turn to the player on ``seat``'s left (``turn.next_turn``, wired by ``BossState``:
        a negotiation ends by starting a turn, and a turn starts negotiations)."""

    # ------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        """Returns each seat's money (final once the game is over)."""
        return [float(m) for m in self.money]

    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None while the marker is placed and after the end)."""
        return None if self.over or self.turn == 0 else self.current

    def passing_window(self) -> bool:
        """Returns whether a Stop window, the closing round or the bargaining is on top (all may pass)."""
        return bool(len(self.stack)) and self.decision().passing

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
        other.content, other.players, other.options = self.content, self.players, self.options
        other.chance = self.chance.copy()
        other.stack = self.stack.copy()
        other.hands = [list(h) for h in self.hands]
        other.draw, other.discard = list(self.draw), list(self.discard)
        other.owners, other.money = dict(self.owners), list(self.money)
        other.covered, other.deal_cards = list(self.covered), list(self.deal_cards)
        other.marker, other.deals = self.marker, [d.copy() for d in self.deals]
        other.current, other.first, other.turn = self.current, self.first, self.turn
        other.over, other.must_deal = self.over, self.must_deal
        other.nego = self.nego.copy() if self.nego is not None else None
        other.actions_applied = self.actions_applied
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Returns a copy where other hands and the deck are re-dealt at random, with a fresh generator."""
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
        return other
