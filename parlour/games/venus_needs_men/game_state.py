"""VenusGameState: a game of Venus Needs Men! as people see it (views, banners, hints, the drawn table)."""

from __future__ import annotations

from parlour.core.decisions import Seat
from parlour.games.venus_needs_men import views
from parlour.games.venus_needs_men.actions import Zap
from parlour.games.venus_needs_men.estimate import progress
from parlour.games.venus_needs_men.population import needed
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.table import table_content
from parlour.games.venus_needs_men.views import Observation


class VenusGameState(VenusState):
    """The state the game makes: :class:`VenusState`'s rules-facing data, with what each seat sees."""

    views = views

    def observation(self, seat: Seat) -> Observation:
        """Returns what ``seat`` may know (never another seat's Zap hand, nor any Zap deck)."""
        self.check_seat(seat)
        return views.observation(self, seat)

    def public_observation(self) -> Observation:
        """Returns what a spectator may know."""
        return views.observation(self, None)

    def hints(self, seat: Seat) -> list[str]:
        """Returns the texts of the seat's Zap cards and what it needs to win."""
        lines = [f"Zap {n} {self.card(n).name}: {self.card(n).text}" for n in sorted(self.hands[seat])]
        lines.append(f"You have {self.seat_population(seat)} population; {needed(self)} wins.")
        lines.append(
            "The board lists only areas with ships; every area and neighbour line: "
            "parlour board venus-needs-men --svg map.svg"
        )
        return lines

    def reaction_cards(self) -> list[str]:
        """Returns the Zap cards' names (each played in Zap windows), in the deck's order."""
        return list(dict.fromkeys(self.card(number).name for number in sorted(self.zap.cards)))

    def playable_cards(self, seat: Seat) -> list[str]:
        """Returns the names of the Zap cards ``seat`` may play in the window open now (none outside one)."""
        if not self.passing_window() or seat not in self.deciders():
            return []
        numbers = {a.card for a in self.legal_actions(seat) if isinstance(a, Zap)}
        return list(dict.fromkeys(self.card(number).name for number in sorted(numbers)))

    def estimate(self) -> list[float]:
        """Returns each seat's population plus what its ships stand to collect (``estimate.progress``)."""
        return progress(self)

    # the banner, the final scoring, why the game ended and the card texts, as the views say them
    decision_summary = views.summary
    score_steps = views.score_steps
    end_reason = views.end_reason
    card_texts = views.card_texts

    def table_content(self) -> dict[str, object]:
        """Returns the map, the planets and every card by id for the drawn table (public, unchanging)."""
        return {**table_content(self)}
