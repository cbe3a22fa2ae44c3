"""The play (rulebook: 'The Play'): the turn and its payment, from the first transaction to the draw.

A turn is the bottom ``turn`` decision of the stack.  Taking a corporation pushes ``place`` (where it
goes, skipped when it can only stand alone: ``takeovers``), a reorganisation pushes ``reorganise``
(one ``move`` at a time, then ``done``: ``reorganisation``), and ending a turn that owes money pushes
``pay`` (one card at a time, then ``done``).  Costs are committed only while the hand can pay them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mypy_extensions import mypyc_attr

from parlour.core.decisions import DecisionKinds, DecisionStack, Seat
from parlour.core.notation import Action
from parlour.core.payloads import JSONValue
from parlour.games.venture import drawing
from parlour.games.venture.actions import (
    Discard,
    Done,
    End,
    Pay,
    Proxy,
    Reorganise,
    ReorganiseBest,
    Take,
    VentureAction,
)
from parlour.games.venture.conglomerates import offending
from parlour.games.venture.content import CAPITAL
from parlour.games.venture.payment import laid_worth, wealth
from parlour.games.venture.reorganisation import Reorganisation, reorganise, reorganise_best
from parlour.games.venture.scoring import score_round
from parlour.games.venture.state import VentureState
from parlour.games.venture.takeovers import Placement, proxy, take, takeover_actions, why_proxy, why_take
from parlour.games.venture.undo import TurnDecision

Then = Literal["finish", "continue"]
"""What follows a payment: ``finish`` the turn (the payment followed ``end``) or ``continue`` it (option
``payment=each`` pays each transaction at once, ruling A-1)."""
FINISH: Then = "finish"
CONTINUE: Then = "continue"


@mypyc_attr(native_class=False)  # subclasses the core's decision (a Python class)
@dataclass(eq=False, kw_only=True)
class Turn(TurnDecision):
    """The current player's turn: transactions (take over, proxy fight, reorganise), then end; or a
    discard instead of any transaction."""

    kind = "turn"
    must_reorganise: bool = False
    """'A word of caution': a stack holds two corporations of one industry, so the turn begins with a
    reorganisation (ruling A-6)."""

    @property
    def data(self) -> dict[str, JSONValue]:
        """The payload as stored: the duty only when there is one."""
        return {"must_reorganise": True} if self.must_reorganise else {}

    def choices(self, state: VentureState, seat: Seat) -> list[VentureAction]:
        """Returns the transactions open to the player, then end or discard."""
        held = state.corporations_held(seat)
        money = wealth(state, seat) - state.owed
        if self.must_reorganise:
            return [REORGANISE, REORGANISE_BEST] if held >= 2 else [REORGANISE]
        actions = takeover_actions(state, seat, money)
        if held >= 2 and held <= money:
            actions += [REORGANISE, REORGANISE_BEST]
        if state.transacted or not state.hands[seat]:
            actions.append(END)
        if not state.transacted:
            cards = state.deck.resources  # not state.card(): a method of a Python class, on the hot path
            actions.extend(Discard.of(n) for n in sorted({cards[r].name for r in state.hands[seat]}))
        return actions

    def undoable(self, state: VentureState, action: VentureAction) -> bool:
        """Returns whether a transaction can be taken back: not a proxy fight or a discard; end only
        when it opens a payment."""
        if isinstance(action, Proxy | Discard):
            return False
        if isinstance(action, End):
            return state.owed > 0
        return True

    def act(self, state: VentureState, seat: Seat, action: VentureAction) -> None:
        """Applies a transaction, the end of the transactions or a discard."""
        if isinstance(action, Take):
            take(state, seat, action)
        elif isinstance(action, Proxy):
            proxy(state, seat, action)
        elif isinstance(action, Reorganise):
            self.must_reorganise = False
            reorganise(state, seat)
        elif isinstance(action, ReorganiseBest):
            self.must_reorganise = False
            reorganise_best(state, seat)
        elif isinstance(action, End):
            _end(state, seat)
        else:
            assert isinstance(action, Discard)
            _discard(state, seat, action)

    def auto(self, state: VentureState) -> bool:
        """With option payment=each, what a finished transaction cost is paid at once (ruling A-1)."""
        if state.owed > 0 and state.options["payment"] == "each":
            state.stack.push(Payment(seats=[state.current], then=CONTINUE))
            return True
        return False

    def refusal(self, state: VentureState, seat: Seat, action: object) -> str:
        """Returns why an action is refused on the turn itself."""
        if self.must_reorganise:
            return "two corporations of one industry share a conglomerate: reorganise first"
        money = wealth(state, seat) - state.owed
        if isinstance(action, Take):
            return why_take(state, action, money)
        if isinstance(action, Proxy):
            return why_proxy(state, seat, action, money)
        if isinstance(action, Reorganise | ReorganiseBest):
            held = state.corporations_held(seat)
            if held < 2:
                return "reorganising needs two corporations held"
            fee = f"{held} million (1 per corporation held)"
            return f"reorganising costs {fee} and you can pay only {money} more"
        return _why_not_a_transaction(state, action)


NOT_ON_THE_TURN = {
    "pay": "nothing is being paid now: end the transactions first, then pay",
    "done": "nothing to finish: done ends a reorganisation or a payment (end ends the transactions)",
    "move": "you are not reorganising: reorganise first (1 million per corporation held), then move",
    "place": "there is no corporation to place: place follows a take-over",
}
"""Why a step of another decision (a payment, a reorganisation, a placement) is refused on the turn
itself, by its verb."""


def _why_not_a_transaction(state: VentureState, action: object) -> str:
    """Returns why a step of another decision, end or a discard is refused on the turn."""
    verb = str(action).split(" ", 1)[0] if isinstance(action, Action) else ""
    if verb in NOT_ON_THE_TURN:
        return NOT_ON_THE_TURN[verb]
    if isinstance(action, End) and not state.transacted:
        return "a turn without transactions ends by discarding a card (discard CARD)"
    if isinstance(action, Discard) and state.transacted:
        return "you have transacted this turn: end it instead of discarding"
    if isinstance(action, Discard):
        return f"you hold no {action.card} card"
    return "no such card, corporation or stack here"


def _end(state: VentureState, seat: Seat) -> None:
    """Ends the transactions: pay what is owed, then the end of the turn."""
    if state.owed > 0:
        state.emit(f"seat {seat} ends the transactions and pays the {state.owed} million owed")
        state.stack.push(Payment(seats=[seat], then=FINISH))
        return
    state.emit(f"seat {seat} ends the transactions (nothing owed)")
    finish_turn(state)


def _discard(state: VentureState, seat: Seat, action: Discard) -> None:
    """Discards one card instead of transacting, and ends the turn."""
    cards = state.deck.resources
    card = next(r for r in state.hands[seat] if cards[r].name == action.card)
    state.hands[seat].remove(card)
    state.discard.append(card)
    state.emit(f"seat {seat} makes no transaction and discards {action.card}")
    finish_turn(state)


# ---------------------------------------------------------------- paying
@mypyc_attr(native_class=False)  # subclasses the core's decision (a Python class)
@dataclass(eq=False, kw_only=True)
class Payment(TurnDecision):
    """Paying what is owed: capital cards laid down one after another (or a line of them, ruling A-18),
    then done once they cover the debt; no change is given."""

    kind = "pay"
    then: Then
    """What follows the payment (``finish`` the turn, or ``continue`` it)."""

    def choices(self, state: VentureState, seat: Seat) -> list[VentureAction]:
        """Returns the capital cards that may be handed in, and done once the debt is covered."""
        cards = state.deck.resources
        names = sorted({cards[r].name for r in state.hands[seat] if cards[r].kind == CAPITAL})
        actions: list[VentureAction] = [Pay.of(n) for n in names]
        if laid_worth(state) >= state.owed:
            actions.append(DONE)
        return actions

    def accepts(self, state: VentureState, seat: Seat, action: object) -> bool:
        """Returns whether a line laying several cards is legal: each card, laid one after another, is
        a legal ``pay`` (ruling A-18: the line is a shorthand for that sequence)."""
        if not isinstance(action, Pay) or not action.also or seat not in self.deciders():
            return False
        held = [state.card(r) for r in state.hands[seat]]
        for name in action.cards:
            card = next((c for c in held if c.name == name), None)
            if card is None or card.kind != CAPITAL:
                return False
            held.remove(card)
        return True

    def undoable(self, state: VentureState, action: VentureAction) -> bool:
        """Returns whether a step can be taken back: a card laid, not the payment made (done)."""
        return isinstance(action, Pay)

    def act(self, state: VentureState, seat: Seat, action: VentureAction) -> None:
        """Lays capital cards down, or pays with the cards laid (then the turn goes on or finishes)."""
        if isinstance(action, Done):
            state.stack.pop()
            if state.logging:
                paid = [state.card(r).name for r in state.payment]
                state.emit(f"seat {seat} pays {state.owed} with {' '.join(paid) or 'nothing'}")
            state.discard.extend(state.payment)
            state.payment.clear()
            state.owed = 0
            if self.then == FINISH:
                finish_turn(state)
            return
        assert isinstance(action, Pay)
        cards = state.deck.resources
        for name in action.cards:
            card = next(r for r in state.hands[seat] if cards[r].name == name)
            state.hands[seat].remove(card)
            state.payment.append(card)
        if state.logging:
            laid = " ".join(state.card(r).name for r in state.payment)
            state.emit(
                f"seat {seat} lays down {' '.join(action.cards)}: "
                f"{laid} laid, worth {laid_worth(state)} of the {state.owed} owed"
            )

    def refusal(self, state: VentureState, seat: Seat, action: object) -> str:
        """Returns why an action is refused while paying."""
        if isinstance(action, Pay):
            return _why_pay(state, seat, action)
        if isinstance(action, Done):
            return f"the cards laid down do not cover the {state.owed} million owed"
        return f"you owe {state.owed} million: pay CARD (or several: pay 10 3c), then done"


def _why_pay(state: VentureState, seat: Seat, action: Pay) -> str:
    """Returns why laying capital cards down is refused."""
    held = [state.card(r).name for r in state.hands[seat]]
    for name in action.cards:
        if name not in held:
            owned = sum(1 for r in state.hands[seat] if state.card(r).name == name)
            if not owned:
                return f"you hold no {name} card"
            return f"you hold only {owned} {name} card{'s' if owned > 1 else ''}"
        held.remove(name)
        card = next(c for c in state.deck.resources if c.name == name)
        if card.kind != CAPITAL:
            return f"{name} is not a capital card: only capital pays"
    return "those cards cannot be laid down now"


REORGANISE, REORGANISE_BEST = Reorganise.of(), ReorganiseBest.of()
END, DONE = End.of(), Done.of()
"""The actions without fields, shared (actions are immutable)."""


KINDS = DecisionKinds(Turn, Placement, Reorganisation, Payment)
"""Venture's decisions by kind (positions read them through it)."""


# ---------------------------------------------------------------- turn flow
def finish_turn(state: VentureState) -> None:
    """Ends the turn: the game end, the draw of two, the center refill, the next player."""
    state.stack = DecisionStack()
    seat = state.current
    # The end: the stock is empty and the last center corporation is taken.
    if not state.stock and not state.center:
        # Ruling A-7: by default the buyer of the last corporation does not draw.
        if state.options["last_draw"] == "yes":
            drawing.draw_cards(state, seat)
        end_game(state, "the last corporation has been taken")
        return
    drawing.draw_cards(state, seat)
    drawing.refill_center(state)
    # Ruling A-12: a turn limit keeps every game finite.
    limit = state.options["max_turns"]
    if limit and state.turn >= limit:
        end_game(state, f"the turn limit of {limit} is reached")
        return
    state.current = (seat + 1) % state.players
    state.turn += 1
    begin_turn(state)


def begin_turn(state: VentureState) -> None:
    """Starts the current player's turn, enforcing 'a word of caution' first."""
    seat = state.current
    state.owed, state.transacted = 0, False
    state.undo_log, state.undos = [], 0
    turn = Turn(seats=[seat])
    state.stack.push(turn)
    corps = state.deck.corporations
    if all(not offending([corps[c] for c in s]) for s in state.holdings[seat]):
        return
    if state.corporations_held(seat) <= wealth(state, seat):
        turn.must_reorganise = True
        state.emit(f"seat {seat} holds two corporations of one industry in a stack: must reorganise")
        return
    # Ruling A-6: unable to pay, he discards all capital and separates the offending cards.
    for r in [r for r in state.hands[seat] if state.deck.resources[r].kind == CAPITAL]:
        state.hands[seat].remove(r)
        state.discard.append(r)
    for stack in state.holdings[seat]:
        for position in reversed(offending([corps[c] for c in stack])):
            state.holdings[seat].append([stack.pop(position)])
    state.emit(f"seat {seat} cannot pay to reorganise: discards all capital, offending cards stand alone")
    finish_turn(state)


def end_game(state: VentureState, reason: str) -> None:
    """Ends the game with the final scoring added to the running totals."""
    score_round(state, f"final scoring ({reason})")
    state.over = True
    state.stack = DecisionStack()
    if state.logging:
        best = max(state.profits)
        winners = " and ".join(f"seat {s}" for s, p in enumerate(state.profits) if p == best)
        state.emit(
            f"the game is over: {winners} {'win' if ' and ' in winners else 'wins'} with {best} million"
        )
