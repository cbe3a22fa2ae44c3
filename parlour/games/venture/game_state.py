"""VentureGameState: a game of Venture with what the Game protocol shows of it (views, hints, the banner,
the final scoring, card texts) over the rules' state (``state.VentureState``)."""

from __future__ import annotations

from parlour.core.decisions import Seat
from parlour.core.payloads import JSONValue
from parlour.core.state import ScoreStep
from parlour.games.venture import people, views
from parlour.games.venture.estimate import outlook
from parlour.games.venture.payment import wealth
from parlour.games.venture.rules import Turn
from parlour.games.venture.state import VentureState
from parlour.games.venture.table import table_content
from parlour.games.venture.takeovers import Placement
from parlour.games.venture.views import Observation


class VentureGameState(VentureState):
    """The state of a game of Venture as players, front ends and search bots use it."""

    views = views

    def estimate(self) -> list[float]:
        """Returns each seat's profits plus what its holdings will earn at the scorings left (estimate.py)."""
        return outlook(self)

    def routine_decision(self) -> bool:
        """Returns True on placing, paying and reorganising steps: the turn's transactions are the choices."""
        return not self.over and not isinstance(self.stack.top, Turn)

    def observation(self, seat: Seat) -> Observation:
        """Returns what ``seat`` may know (never another seat's hand)."""
        return views.observation(self, seat)

    def public_observation(self) -> Observation:
        """Returns what a spectator may know."""
        return views.observation(self, None)

    def hints(self, seat: Seat) -> list[str]:
        """Returns advice: the best arrangement of the holdings (and how to reach it), how to pay cheaply."""
        return views.hints(self, seat)

    # ------------------------------------------------------------ for people
    # Methods that call the functions (a compiled function set as a class attribute binds no self).
    def decision_summary(self) -> str:
        """Returns one public line: who decides what now (people.py)."""
        return people.decision_summary(self)

    def score_steps(self) -> list[ScoreStep]:
        """Returns the rulebook's final scoring step by step (people.py)."""
        return people.score_steps(self)

    def end_reason(self) -> str:
        """Returns why the game ended ('' while it goes on): people.py."""
        return people.end_reason(self)

    def card_texts(self) -> dict[str, str]:
        """Returns the text of every corporation and resources card of the deck in play."""
        return people.card_texts(self.deck)

    def table_content(self) -> dict[str, JSONValue]:
        """Returns the deck's unchanging public facts for the drawn table in the browser."""
        return {**table_content(self.deck)}

    def invariant_errors(self) -> list[str]:
        """Returns broken invariants: each card in exactly one place, the center, the debt."""
        problems = []
        resources = [*(r for h in self.hands for r in h), *self.draw, *self.discard, *self.payment]
        if sorted(resources) != list(range(len(self.deck.resources))):
            problems.append("resources cards are not each in exactly one place")
        pending = [d.corp for d in self.stack if isinstance(d, Placement)]
        corps = [*self.center, *self.stock, *self.aside, *(c for h in self.holdings for s in h for c in s)]
        corps += [c.id for c in self.deck.corporations if c.name in pending]
        if sorted(corps) != list(range(len(self.deck.corporations))):
            problems.append("corporations are not each in exactly one place")
        if len(self.center) > 5 or any(not s for h in self.holdings for s in h):
            problems.append("more than five center corporations, or an empty stack")
        if not self.over and self.owed > wealth(self, self.current):
            problems.append(f"seat {self.current} owes {self.owed}, more than it can pay")
        return problems
