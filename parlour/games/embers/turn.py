"""Rules chapter 3, a turn (and rule 6.1, the end): draw up, play a card, pass the turn on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from parlour.core.decisions import Decision, Seat
from parlour.games.embers.actions import DISCARD, EmbersAction, Play
from parlour.games.embers.answers import open_answers
from parlour.games.embers.content import DOUSE
from parlour.games.embers.state import EmbersState

Step = Literal["start", "play", "end"]
"""Where the turn stands: to draw up (nobody decides), to play (the seat decides), to pass on."""


@dataclass(eq=False, kw_only=True)
class Turn(Decision[EmbersState, EmbersAction]):
    """The bottom decision: the active seat's turn; its steps nobody decides run in :meth:`auto`."""

    kind = "turn"
    step: Step = "start"

    def legal(self, state: EmbersState, seat: Seat) -> list[EmbersAction]:
        """Rule 3.3: ``play N`` for each ember number in hand, rising, then ``discard`` with a douse card."""
        hand = state.hands[seat]
        embers = sorted({state.content.embers[card] for card in hand if card != DOUSE})
        found: list[EmbersAction] = list(map(Play.of, embers))
        return [*found, DISCARD] if DOUSE in hand else found

    def apply(self, state: EmbersState, seat: Seat, action: EmbersAction) -> None:
        """Plays an ember (the answers open: rule 4.1) or discards a douse card; the turn then ends."""
        if isinstance(action, Play):
            open_answers(state, seat, str(action.ember))
        else:
            state.hands[seat].remove(DOUSE)
            state.discard.append(DOUSE)
            state.emit(f"seat {seat} discards a douse card")
        self.step = "end"

    def auto(self, state: EmbersState) -> bool:
        """Runs the steps nobody decides: the end of the game, drawing up, a skipped turn, passing on."""
        if self.step == "start":
            self._start(state)
            return True
        if self.step == "end":
            state.active, state.turn = (state.active + 1) % state.players, state.turn + 1
            self.step = "start"
            self.reopen([state.active])
            return True
        return False

    def _start(self, state: EmbersState) -> None:
        """Rule 6.1 (nobody holds a card: the game ends), rule 3.1 (draw up) and rule 3.2 (no card: skip)."""
        seat = state.active
        if not state.draw and not any(state.hands):
            state.over = True
            state.stack.pop()
            state.emit("every card has been played: the game ends")
            return
        hand = state.hands[seat]
        count = min(len(state.draw), max(0, state.content.hand - len(hand)))
        if count:
            drawn, state.draw = state.draw[:count], state.draw[count:]
            hand.extend(drawn)
            state.sort_hand(seat)
            state.emit(f"seat {seat} draws {count}", seat, "drew " + " ".join(drawn))
        if hand:
            self.step = "play"
        else:
            state.emit(f"seat {seat} holds no card: the turn is skipped")
            self.step = "end"

    def why(self, state: EmbersState, seat: Seat, action: EmbersAction) -> str:
        """Says why a turn action is refused."""
        if isinstance(action, Play):
            return f"you hold no {action.ember}"
        if action == DISCARD:
            return "you hold no douse card"
        return "it is your turn: play an ember or discard a douse card"
