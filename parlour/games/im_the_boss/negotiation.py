"""The negotiation on the table: laid Clan cards, travellers, offers, terms, a card awaiting Stop (plain
data, compiled with mypyc: ``BossGame.hot_modules``; its position form is in ``negotiation_form``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.games.im_the_boss.actions import BossCard, Play, Recruit, Travel


@dataclass
class Term:
    """One line of the terms: a seat, what it receives, and whether it has agreed."""

    seat: int
    amount: int
    agreed: bool

    def to_json(self) -> list[int]:
        """Returns ``[seat, amount, agreed]`` (the last a boolean)."""
        return [self.seat, self.amount, self.agreed]

    def copy(self) -> Term:
        """Returns a copy."""
        return Term(self.seat, self.amount, self.agreed)


@dataclass
class Pending:
    """A Travel, Boss card or Recruitment triple played and open to a Stop (ruling B-6)."""

    play: Play
    """The action played: its target colour and seat, if any."""
    by: int
    """The seat that played it."""
    cards: list[int] = field(default_factory=list)
    """The card ids played, held here until the window closes."""

    @property
    def colour(self) -> str:
        """The target colour of a Travel or triple ('' for a Boss card)."""
        return "" if isinstance(self.play, BossCard) else self.play.colour

    @property
    def seat(self) -> int:
        """The seat whose laid Clan card a Travel targets (-1: a placard, or not a Travel)."""
        return self.play.seat if isinstance(self.play, Travel) else -1

    def describe(self) -> str:
        """Returns the play with its player, e.g. ``seat 2's Travel on the R placard``."""
        return f"seat {self.by}'s {self.what()}"

    def what(self) -> str:
        """Returns the play in words, e.g. ``Travel on the R placard``."""
        play = self.play
        if isinstance(play, BossCard):
            return "Boss card"
        if isinstance(play, Recruit):
            return f"Recruitment triple on the {play.colour} placard"
        target = (
            f"seat {play.seat}'s {play.colour} Clan card" if play.seat >= 0 else f"the {play.colour} placard"
        )
        return f"Travel on {target}"


@dataclass
class Negotiation:
    """Everything laid and said in one negotiation (rulebook: 'Let's make a Deal')."""

    space: int
    """The board space's index (0 to 15)."""
    opener: int
    """The seat that said "Let's make a deal"."""
    boss: int
    """The Boss now (changes with each Boss card that stands)."""
    proceeds: int
    """Dividends × the top deal card's value: what the bank will pay the Boss."""
    laid: list[list[int]]
    """Each seat's Clan cards laid face up (card ids)."""
    travelling: dict[str, int] = field(default_factory=dict)
    """Placards sent travelling: colour -> the Travel card lying on it."""
    offers: dict[tuple[str, int], int] = field(default_factory=dict)
    """Standing offers: (colour, seat) -> the ask in millions."""
    items: dict[str, Term] = field(default_factory=dict)
    """The terms' investors: colour -> who supplies it and for how much."""
    tips: dict[int, Term] = field(default_factory=dict)
    """The terms' payments to seats for no investor (ruling A-08)."""
    counted: list[int] = field(default_factory=list)
    """Each seat's actions so far, not counting pass, agree and refuse (the limit, ruling B-2)."""
    refused: list[int] = field(default_factory=list)
    """Each seat's proposals as the Boss that ended unagreed in this negotiation. A proposal is a line the
    Boss put in the terms unagreed (``include``, ``tip``); it counts when it leaves the terms, or is
    replaced, before its seat agreed to it: refused by that seat (``refuse``, or withdrawing the offer
    the line rests on), or withdrawn by the Boss (another line for the colour or payee, ``drop``,
    ``tip @S 0``, or a ``call``, which strikes unagreed lines: ruling B-4), but not when the Boss accepts
    that seat's offer at the proposed amount (that agrees it). Not counted: lines struck because a Travel
    or a triple took the investor away (ruling A-09), and lines a Boss card clears. Kept per seat for the
    whole negotiation: a Boss card changes the Boss, not the counts (public: every action is announced)."""
    interfered: list[int] = field(default_factory=list)
    """Each seat's Travel cards and Boss cards played in this negotiation (bargaining or closing round),
    whether they took effect or were stopped (public)."""
    called: bool = False
    """Whether the Boss has called the deal (the closing round is on)."""
    pending: Pending | None = None
    memo: dict[tuple[object, ...], Any] = field(default_factory=dict, compare=False, repr=False)
    """Worked-out parts of the legal actions, keyed by everything they read (``bargain``): never in
    positions or copies, and never stale, as a changed input is a new key."""

    def committed(self, without_colour: str = "", without_tip: int = -1) -> int:
        """Returns the total the terms pay out, leaving out one item or tip."""
        items, tips = self.items, self.tips
        total = 0
        for term in items.values():  # plain loops: compiled, they read each amount natively
            total += term.amount
        for term in tips.values():
            total += term.amount
        if without_colour in items:
            total -= items[without_colour].amount
        if without_tip in tips:
            total -= tips[without_tip].amount
        return total

    def payments(self) -> dict[int, int]:
        """Returns what each seat receives under the terms."""
        paid: dict[int, int] = {}
        for term in [*self.items.values(), *self.tips.values()]:
            paid[term.seat] = paid.get(term.seat, 0) + term.amount
        return paid

    def withdrawn(self, term: Term | None) -> None:
        """Counts a line of the terms going away against the Boss (``refused``) if it was not agreed."""
        if term is not None and not term.agreed:
            self.refused[self.boss] += 1

    def unagreed(self, seat: int) -> bool:
        """Returns whether the terms name ``seat`` in a line it has not agreed to."""
        return any(t.seat == seat and not t.agreed for t in [*self.items.values(), *self.tips.values()])

    @staticmethod
    def copy_of(nego: Negotiation | None) -> Negotiation | None:
        """Returns a deep copy of a negotiation, or None (the tabletop's copy of its ``nego``)."""
        return None if nego is None else nego.copy()

    def copy(self) -> Negotiation:
        """Returns a deep copy."""
        pending = self.pending
        return Negotiation(
            self.space,
            self.opener,
            self.boss,
            self.proceeds,
            [list(x) for x in self.laid],
            dict(self.travelling),
            dict(self.offers),
            {c: t.copy() for c, t in self.items.items()},
            {s: t.copy() for s, t in self.tips.items()},
            list(self.counted),
            list(self.refused),
            list(self.interfered),
            self.called,
            None if pending is None else Pending(pending.play, pending.by, list(pending.cards)),
        )
