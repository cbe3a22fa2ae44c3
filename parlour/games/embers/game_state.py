"""EmbersGameState: a game of Embers with what the Game protocol shows of it (the views, the banner, hints,
the final scoring, card texts) over the rules' state (``state.EmbersState``)."""

from __future__ import annotations

from collections import Counter

from parlour.core.decisions import Seat
from parlour.core.state import ScoreStep
from parlour.games.embers import views
from parlour.games.embers.content import DOUSE
from parlour.games.embers.state import EmbersState


class EmbersGameState(EmbersState):
    """The state the game deals and reads: :class:`EmbersState` with what people see. Each seat's view is
    the core's (``ModularState``: ``observation``, ``public_observation`` and ``render`` call
    ``views.observation`` and ``views.render_text``)."""

    views = views

    def decision_summary(self) -> str:
        """Returns who is deciding what, in one public line."""
        if self.over:
            return "The game is over."
        if self.play is None:
            return f"seat {self.active} to play a card"
        answered = f"seat {self.dousers[-1]}'s douse" if self.dousers else f"seat {self.active}'s {self.play}"
        return f"seat {self.deciders()[0]} to answer {answered}: douse or pass"

    def hints(self, seat: Seat) -> list[str]:
        """Returns advice for a person at ``seat``: which ember would take the fire (rule 5.2)."""
        total, need = self.fire_total(), self.content.blaze - self.fire_total()
        if need <= max(self.content.embers.values()):
            return [f"The fire totals {total}: an ember of {need} or more takes it (rule 5.2)."]
        return [f"The fire totals {total}; it is taken at {self.content.blaze} (rule 5.2)."]

    def score_steps(self) -> list[ScoreStep]:
        """Returns the final scoring: each seat's score pile, a point a card (rule 6.2)."""
        return [ScoreStep(seat, "cards in the score pile", len(pile)) for seat, pile in enumerate(self.taken)]

    def end_reason(self) -> str:
        """Returns why the game ended ('' while it goes on)."""
        return "Every card has been played (rule 6.1)." if self.over else ""

    def card_texts(self) -> dict[str, str]:
        """Returns every card's text by name (the terminal's ``info CARD``)."""
        texts = {
            name: f"Ember {number}: adds {number} to the fire."
            for name, number in self.content.embers.items()
        }
        texts[DOUSE] = "Douse: lay it on an ember being answered (or on the douse before yours)."
        return texts

    def table_content(self) -> dict[str, object]:
        """Returns the public facts a drawn table needs: the cards and their numbers, the hand, the blaze."""
        return {
            "cards": dict(Counter(self.content.deck)),
            "hand": self.content.hand,
            "blaze": self.content.blaze,
        }
