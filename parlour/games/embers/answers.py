"""Rules chapter 4, answers: the others may douse an ember, one at a time, and a douse may be answered."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.decisions import Decision, Seat
from parlour.games.embers.actions import DOUSE, PASS, EmbersAction, Pass
from parlour.games.embers.content import DOUSE as DOUSE_CARD
from parlour.games.embers.fire import settle_play
from parlour.games.embers.state import EmbersState


def open_answers(state: EmbersState, seat: Seat, ember: str) -> None:
    """Rule 3.3 and rule 4.1: the ember leaves the hand face up and the others are asked, clockwise from
    the player's left (every one of them, whether or not it holds a douse card: who is asked is public)."""
    state.hands[seat].remove(ember)
    state.play = ember
    state.emit(f"seat {seat} plays {ember}")
    state.stack.push(Answers(seats=state.others(seat)))


@dataclass(eq=False, kw_only=True)
class Answers(Decision[EmbersState, EmbersAction]):
    """Rules 4.1 to 4.4: a sequential window; a douse asks the others again; it closes itself when every
    seat asked has passed, and the ember is settled (rule 5.1)."""

    kind = "answer"
    passing = True

    def legal(self, state: EmbersState, seat: Seat) -> list[EmbersAction]:
        """Rule 4.1: ``douse`` (with a douse card in hand) or ``pass``."""
        return [DOUSE, PASS] if DOUSE_CARD in state.hands[seat] else [PASS]

    def apply(self, state: EmbersState, seat: Seat, action: EmbersAction) -> None:
        """A pass leaves the window; a douse is laid on the card and asks the others again (rule 4.2),
        or ends the answers under ``chain=off`` (rule 4.4)."""
        if isinstance(action, Pass):
            state.emit(f"seat {seat} passes")
            self.pass_seat(seat)
            return
        state.hands[seat].remove(DOUSE_CARD)
        state.dousers.append(seat)
        state.emit(f"seat {seat} douses")
        self.reopen(state.others(seat) if state.chain else [])

    def auto(self, state: EmbersState) -> bool:
        """Rule 4.3: once every seat asked has passed, the window closes and the ember is settled."""
        if not self.is_settled:
            return False
        state.stack.pop()
        settle_play(state)
        return True

    def why(self, state: EmbersState, seat: Seat, action: EmbersAction) -> str:
        """Says why an answer is refused."""
        if action == DOUSE:
            return "you hold no douse card"
        return "an ember is being answered: 'douse' or 'pass'"
