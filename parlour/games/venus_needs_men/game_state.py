"""VenusGameState: a game of Venus Needs Men! as people see it (views, banners, hints, the drawn table)."""

from __future__ import annotations

from parlour.core.decisions import Seat
from parlour.core.state import ScoreStep
from parlour.games.venus_needs_men import views
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

    def decision_summary(self) -> str:
        """Returns one public line: who decides what now."""
        return views.summary(self)

    def score_steps(self) -> list[ScoreStep]:
        """Returns the final scoring: each planet's population, then each seat's total (no points)."""
        return views.score_steps(self)

    def end_reason(self) -> str:
        """Returns why the game ended ('' while it goes on)."""
        return views.end_reason(self)

    def card_texts(self) -> dict[str, str]:
        """Returns the texts of the Zap cards and (Enhanced game) Technology, Upgrade and Special cards."""
        return views.card_texts(self)

    def table_content(self) -> dict[str, object]:
        """Returns the map, the planets and every card by id for the drawn table (public, unchanging)."""
        return {**table_content(self)}
