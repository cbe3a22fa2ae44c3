"""BossState: hands, piles, placards, money, the board and the negotiation in progress."""

from __future__ import annotations

import random
from typing import Any

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.modular import ModularState
from parlour.core.state import GameState, ScoreStep
from parlour.games.im_the_boss import actions, people, rules, views
from parlour.games.im_the_boss.content import Content, DealCard, Space
from parlour.games.im_the_boss.negotiation import Negotiation
from parlour.games.im_the_boss.phases import BARGAIN, CLOSING, RESPOND


class BossState(ModularState):
    """A game of I'm the Boss! in progress.

    Influence cards are integer ids into ``content.cards``; piles are lists, top
    first for ``draw``.  Placards are ``owners``: colour -> seat, or None for a
    spare placard beside the board.
    """

    game_name = "im-the-boss"
    rules, views, notation = rules, views, actions

    def __init__(self, content: Content, players: int, options: dict[str, Any], chance: Chance) -> None:
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
        self.deals: list[dict[str, Any]] = []
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

    # ------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        """Returns each seat's money (final once the game is over)."""
        return [float(m) for m in self.money]

    def hints(self, seat: Seat) -> list[str]:
        """Returns advice for a human: what the deal needs and who can supply it."""
        return views.hints(self, seat)

    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None while the marker is placed and after the end)."""
        return None if self.over or self.turn == 0 else self.current

    def decision_summary(self) -> str:
        """Returns who is deciding what now, in one public line (people.decision_summary)."""
        return people.decision_summary(self)

    def end_reason(self) -> str:
        """Returns why the game ended: the end roll, the last deal card or the turn limit."""
        return people.end_reason(self)

    def score_steps(self) -> list[ScoreStep]:
        """Returns each seat's money deal by deal, adding up to scores()."""
        return people.score_steps(self)

    def card_texts(self) -> dict[str, str]:
        """Returns the text of every card kind and deal card of the content set, by name."""
        return people.card_texts(self.content)

    def table_content(self) -> dict[str, Any]:
        """Returns the board's public layout for the drawn table, from the content data (table.py)."""
        from parlour.games.im_the_boss.table import table_content

        return table_content(self.content)

    def public_only_pass(self, seat: Seat) -> bool:
        """Returns whether public information alone shows that ``seat`` may only pass (no hand-off needed)."""
        from parlour.games.im_the_boss.bargain import public_only_pass

        return public_only_pass(self, seat)

    def passing_window(self) -> bool:
        """Returns whether a Stop window, the closing round or the bargaining is on top (all may pass)."""
        return bool(len(self.stack)) and self.stack.top.kind in (RESPOND, CLOSING, BARGAIN)

    def to_position(self) -> dict[str, Any]:
        """Returns the whole state as a position (docs/positions.md)."""
        from parlour.games.im_the_boss.position import to_position

        return to_position(self)

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
    def clone(self) -> BossState:
        """Returns a deep, independent copy (same generator, same future draws)."""
        other = BossState.__new__(BossState)
        GameState.__init__(other)
        other.content, other.players, other.options = self.content, self.players, self.options
        other.chance = self.chance.copy()
        other.stack = self.stack.copy()
        other.hands = [list(h) for h in self.hands]
        other.draw, other.discard = list(self.draw), list(self.discard)
        other.owners, other.money = dict(self.owners), list(self.money)
        other.covered, other.deal_cards = list(self.covered), list(self.deal_cards)
        other.marker, other.deals = self.marker, [dict(d) for d in self.deals]
        other.current, other.first, other.turn = self.current, self.first, self.turn
        other.over, other.must_deal = self.over, self.must_deal
        other.nego = self.nego.copy() if self.nego is not None else None
        other.actions_applied = self.actions_applied
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> BossState:
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
