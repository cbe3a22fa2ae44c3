"""Taking over corporations and proxy fights (rulebook: '1) Taking Over Corporations', 'Forming
Conglomerates', '2) Proxy Fights'), and the ``place`` decision: where a corporation just won goes.

A transaction only changes the holdings and the debt; with option ``payment=each`` the turn then asks
for the payment at once (``rules.Turn.auto``, ruling A-1).
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from parlour.core.decisions import Seat
from parlour.games.venture.actions import Place, Proxy, Take, VentureAction
from parlour.games.venture.conglomerates import fits, summarise
from parlour.games.venture.content import PROXY
from parlour.games.venture.state import VentureState
from parlour.games.venture.undo import TurnDecision


def proxy_cost(value: int, halves: int) -> int:
    """Returns what a proxy fight costs: the corporation's value times ½, 1 or 1½."""
    return value * halves // 2


def fitting(state: VentureState, seat: Seat, cid: int) -> list[str]:
    """Returns the top cards of the seat's stacks that the corporation may be put on."""
    corps = state.deck.corporations
    corp = corps[cid]
    return [corps[s[-1]].name for s in state.holdings[seat] if fits(corp, summarise(corps, s))]


def put(state: VentureState, seat: Seat, cid: int, onto: str | None) -> None:
    """Puts a corporation on the stack topped by ``onto``, or alone."""
    holding = state.holdings[seat]
    if onto is None:
        holding.append([cid])
        return
    target = state.deck.corporation(onto)
    assert target is not None
    next(s for s in holding if s[-1] == target.id).append(cid)


@mypyc_attr(native_class=False)  # subclasses the core's decision (a Python class)
@dataclass(eq=False, kw_only=True)
class Placement(TurnDecision):
    """Where the corporation just won goes: on a stack it fits, or alone (ruling A-4: new cards go on top)."""

    kind = "place"
    corp: str
    """The corporation waiting to be placed (notation)."""

    def choices(self, state: VentureState, seat: Seat) -> list[VentureAction]:
        """Returns ``place on TOP`` for each stack the corporation fits, then ``place alone``."""
        corp = state.deck.corporation(self.corp)
        assert corp is not None
        actions: list[VentureAction] = [Place.of(top) for top in fitting(state, seat, corp.id)]
        actions.append(Place.of(None))
        return actions

    def act(self, state: VentureState, seat: Seat, action: VentureAction) -> None:
        """Puts the corporation where ``place`` says."""
        assert isinstance(action, Place)
        corp = state.deck.corporation(self.corp)
        assert corp is not None
        state.stack.pop()
        put(state, seat, corp.id, action.onto)
        where = f"on {action.onto}" if action.onto else "alone"
        state.emit(f"seat {seat} places {corp.name} {where}")

    def refusal(self, state: VentureState, seat: Seat, action: object) -> str:
        """Returns why a placement is refused."""
        if not isinstance(action, Place):
            return "first say where the corporation goes (place on CORP or place alone)"
        return (
            f"{self.corp} does not fit on {action.onto}: place it on the top of a stack of yours "
            "that it fits (a new industry and a letter common to all), or alone"
        )


# ---------------------------------------------------------------- the transactions
def takeover_actions(state: VentureState, seat: Seat, money: int) -> list[VentureAction]:
    """Returns the take-overs the seat can pay for, then the proxy fights (by card, then opponent)."""
    corps, cards = state.deck.corporations, state.deck.resources
    actions: list[VentureAction] = [Take.of(corps[c].name) for c in state.center if corps[c].value <= money]
    proxies = sorted({cards[r].name: cards[r] for r in state.hands[seat] if cards[r].kind == PROXY}.items())
    for name, card in proxies:
        for other in range(state.players):
            if other == seat:
                continue
            for stack in state.holdings[other]:
                top = corps[stack[-1]]
                if proxy_cost(top.value, card.halves) <= money:
                    actions.append(Proxy.of(name, top.name))
    return actions


def take(state: VentureState, seat: Seat, action: Take) -> None:
    """Takes over a corporation from the center (rulebook: '1) Taking Over Corporations')."""
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    state.center.remove(corp.id)
    state.owed += corp.value
    state.transacted = True
    state.emit(f"seat {seat} takes over {corp.name} for {corp.value} (owes {state.owed})")
    _gain(state, seat, corp.id, may_stack=True)


def proxy(state: VentureState, seat: Seat, action: Proxy) -> None:
    """Wins an opponent's top or lone corporation with a proxy fight (rulebook: '2) Proxy Fights')."""
    card = next(r for r in state.hands[seat] if state.card(r).name == action.card)
    state.hands[seat].remove(card)
    state.discard.append(card)
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    for owner, holding in enumerate(state.holdings):
        for stack in holding:
            if stack and stack[-1] == corp.id and owner != seat:
                stack.pop()
                if not stack:
                    holding.remove(stack)
                cost = proxy_cost(corp.value, state.card(card).halves)
                state.owed += cost
                state.transacted = True
                state.emit(
                    f"seat {seat} plays proxy fight {action.card} and wins {corp.name} from seat {owner} "
                    f"for {cost} (owes {state.owed})"
                )
                # Ruling A-3: a corporation won by proxy fight may join a stack (option).
                _gain(state, seat, corp.id, may_stack=state.options["proxy_placement"] == "stack")
                return


def _gain(state: VentureState, seat: Seat, cid: int, may_stack: bool) -> None:
    """Adds a won corporation: asks where it goes unless it can only stand alone."""
    if may_stack and fitting(state, seat, cid):
        state.stack.push(Placement(seats=[seat], corp=state.corp(cid).name))
        return
    state.holdings[seat].append([cid])
    why = "it fits no stack" if may_stack else "won by proxy fight (option proxy_placement=alone)"
    state.emit(f"seat {seat} puts {state.corp(cid).name} alone: {why}")


def why_take(state: VentureState, action: Take, money: int) -> str:
    """Returns why a take-over is refused."""
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    if corp.id not in state.center:
        center = ", ".join(state.corp(c).name for c in state.center) or "empty"
        return f"{corp.name} is not in the center (center: {center})"
    return f"{corp.name} costs {corp.value} million and you can pay only {money} more"


def why_proxy(state: VentureState, seat: Seat, action: Proxy, money: int) -> str:
    """Returns why a proxy fight is refused."""
    if not any(state.card(r).name == action.card for r in state.hands[seat]):
        return f"you hold no {action.card} proxy card"
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    owner = next((o for o, h in enumerate(state.holdings) for s in h if s[-1] == corp.id), None)
    if owner is None:
        return f"{corp.name} is not the top or lone corporation of any player's holdings"
    if owner == seat:
        return f"{corp.name} is yours: a proxy fight takes an opponent's corporation"
    halves = next(state.card(r).halves for r in state.hands[seat] if state.card(r).name == action.card)
    cost = proxy_cost(corp.value, halves)
    return f"winning {corp.name} with {action.card} costs {cost} million and you can pay only {money} more"
