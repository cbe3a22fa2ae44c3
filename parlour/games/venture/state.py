"""VentureState: the zones of both decks, the holdings, scores and the decision stack."""

from __future__ import annotations

import random
from typing import Any

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.modular import ModularState
from parlour.core.state import GameState, ScoreStep
from parlour.games.venture import actions, rules, views
from parlour.games.venture.content import CAPITAL, Corporation, Deck, Resource
from parlour.games.venture.payment import payment_value
from parlour.games.venture.scoring import holdings_profit, stack_profit
from parlour.games.venture.undo import Step


class VentureState(ModularState):
    """A game of Venture in progress.

    Cards are held as integer ids into ``deck.corporations`` and ``deck.resources``;
    piles are lists, top of pile first for ``draw`` and ``stock``.  A conglomerate
    (or lone corporation) is a list of corporation ids, bottom first.
    """

    game_name = "venture"
    rules, views, notation = rules, views, actions

    def __init__(self, deck: Deck, players: int, options: dict[str, Any], chance: Chance) -> None:
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
    def _is_listed(self, action: Any, seat: Seat) -> bool:
        """Returns whether an action is legal: the listed ones, and a line laying several capital
        cards whose cards, one after another, are each a listed ``pay`` (ruling A-18)."""
        if isinstance(action, actions.Pay) and action.also:
            return rules.several_payable(self, seat, action)
        return super()._is_listed(action, seat)

    def scores(self) -> list[float]:
        """Returns each seat's running total of profits (final once the game is over)."""
        return [float(p) for p in self.profits]

    def estimate(self) -> list[float]:
        """Returns each seat's profits plus what its holdings would earn at the final scoring."""
        if self.over:
            return self.scores()
        return [float(p + holdings_profit(self, s)) for s, p in enumerate(self.profits)]

    def routine_decision(self) -> bool:
        """Returns True on placing, paying and reorganising steps: the turn's transactions are the choices."""
        return not self.over and self.stack.top.kind != rules.TURN

    def hints(self, seat: Seat) -> list[str]:
        """Returns advice: the best arrangement of the holdings (and how to reach it), how to pay cheaply."""
        from parlour.games.venture.bots import cheapest_payment

        hints = []
        top = self.stack.top.kind if len(self.stack) else ""
        if self.corporations_held(seat) >= 3:
            hints.append(self._arrangement_hint(seat, top in (rules.TURN, rules.REORGANISE)))
        if top == rules.PAY and seat == self.current:
            laid = [self.card(r) for r in self.payment]
            if payment_value(laid, self.deck.set_values) >= self.owed:
                hints.append(f"The cards laid down cover the {self.owed} owed: done.")
            else:
                cards = " ".join(cheapest_payment(self, seat))
                hints.append(f"pay {cards} covers the {self.owed} owed and keeps the most buying power.")
        return hints

    def _arrangement_hint(self, seat: Seat, show_best: bool) -> str:
        """Returns what the holdings earn and, if better, the best arrangement itself."""
        best = rules.best_stacks(self, seat)
        now = holdings_profit(self, seat)
        profit = sum(stack_profit([self.corp(c) for c in s]) for s in best)
        if profit <= now:
            return f"Your holdings score {now} a scoring now; your best arrangement would score {profit} too."
        text = f"Your holdings score {now} a scoring now; your best arrangement would score {profit}"
        if not show_best or seat != self.current:
            return text + "."
        stacks = " ".join("[" + " ".join(self.corp(c).name for c in s) + "]" for s in best)
        if self.stack.top.kind == rules.REORGANISE:
            return f"{text}: {stacks}."
        fee = self.corporations_held(seat)
        return f"{text}: {stacks} ('reorganise best' does it for {fee} million)."

    # ------------------------------------------------------------ for people
    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None once the game is over)."""
        return None if self.over else self.current

    def decision_summary(self) -> str:
        """Returns one public line saying who decides what now."""
        from parlour.games.venture.people import decision_summary

        return decision_summary(self)

    def score_steps(self) -> list[ScoreStep]:
        """Returns the final scoring as the rulebook does it, step by step (adds up to scores())."""
        from parlour.games.venture.people import score_steps

        return score_steps(self)

    def end_reason(self) -> str:
        """Returns why the game ended ('' while it goes on)."""
        from parlour.games.venture.people import end_reason

        return end_reason(self)

    def card_texts(self) -> dict[str, str]:
        """Returns the text of every corporation and resources card of the deck in play."""
        from parlour.games.venture.people import card_texts

        return card_texts(self.deck)

    def table_content(self) -> dict[str, Any]:
        """Returns the deck's unchanging public facts for the drawn table in the browser."""
        from parlour.games.venture.table import table_content

        return table_content(self.deck)

    def to_position(self) -> dict[str, Any]:
        """Returns the whole state as a position (docs/positions.md)."""
        from parlour.games.venture.position import to_position

        return to_position(self)

    def invariant_errors(self) -> list[str]:
        """Returns broken invariants: each card in exactly one place, the center, the debt."""
        problems = []
        resources = [*(r for h in self.hands for r in h), *self.draw, *self.discard, *self.payment]
        if sorted(resources) != list(range(len(self.deck.resources))):
            problems.append("resources cards are not each in exactly one place")
        pending = [d.data["corp"] for d in self.stack if "corp" in d.data]
        corps = [*self.center, *self.stock, *self.aside, *(c for h in self.holdings for s in h for c in s)]
        corps += [c.id for c in self.deck.corporations if c.name in pending]
        if sorted(corps) != list(range(len(self.deck.corporations))):
            problems.append("corporations are not each in exactly one place")
        if len(self.center) > 5 or any(not s for h in self.holdings for s in h):
            problems.append("more than five center corporations, or an empty stack")
        if not self.over and self.owed > rules.wealth(self, self.current):
            problems.append(f"seat {self.current} owes {self.owed}, more than it can pay")
        return problems

    # ------------------------------------------------------------ copies
    def clone(self) -> VentureState:
        """Returns a deep, independent copy (same generator, same future draws)."""
        other = VentureState.__new__(VentureState)
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
