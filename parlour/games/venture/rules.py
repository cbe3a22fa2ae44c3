"""The play (rulebook: 'The Play'): legal actions and their effects, turn by turn.

A turn is the bottom ``turn`` decision of the stack.  Taking a corporation
pushes ``place`` (where it goes, skipped when it can only stand alone), a
reorganisation pushes ``reorganise`` (one ``move`` at a time, then ``done``),
and ending a turn that owes money pushes ``pay`` (one card at a time, then
``done``).  Costs are committed only while the hand can pay them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from parlour.core.decisions import RawDecision, Seat
from parlour.games.venture import drawing, undo
from parlour.games.venture.actions import (
    Cancel,
    Discard,
    Done,
    End,
    Move,
    Pay,
    Place,
    Proxy,
    Reorganise,
    ReorganiseBest,
    Take,
    Undo,
)
from parlour.games.venture.arrangements import SEEN, current, moves, parse
from parlour.games.venture.conglomerates import StackSummary, fits, is_lawful, offending, summarise
from parlour.games.venture.content import CAPITAL, PROXY
from parlour.games.venture.payment import payment_value
from parlour.games.venture.scoring import holdings_profit, score_round, stack_profit

if TYPE_CHECKING:
    from parlour.games.venture.state import VentureState

TURN, PLACE, REORGANISE, PAY = "turn", "place", "reorganise", "pay"


# ---------------------------------------------------------------- money
def wealth(state: VentureState, seat: Seat) -> int:
    """Returns the most the seat's capital cards (hand and laid down) can pay."""
    cards = [state.card(r) for r in state.hands[seat]]
    cards += [state.card(r) for r in state.payment]
    return payment_value(cards, state.deck.set_values)


def _affordable(state: VentureState, seat: Seat, cost: int) -> bool:
    """Returns whether the seat can pay ``cost`` on top of what it already owes."""
    return state.owed + cost <= wealth(state, seat)


def proxy_cost(value: int, halves: int) -> int:
    """Returns what a proxy fight costs: the corporation's value times ½, 1 or 1½."""
    return value * halves // 2


# ---------------------------------------------------------------- legal actions
def legal_actions(state: VentureState, seat: Seat) -> list[Any]:
    """Returns the legal actions of the seat on the top decision; undo and cancel come last (A-17)."""
    decision = state.stack.top
    if decision.kind == TURN:
        actions = _turn_actions(state, seat, decision)
    elif decision.kind == PLACE:
        corp = state.deck.corporation(decision.data["corp"])
        assert corp is not None
        actions = [Place(top) for top in _fitting(state, seat, corp.id)] + [Place(None)]
    elif decision.kind == REORGANISE:
        actions = _reorganise_actions(state, seat)
    else:
        actions = _pay_actions(state, seat)
    if undo.can_undo(state):
        actions.append(Undo())
    if undo.can_cancel(state):
        actions.append(Cancel())
    return actions


def _turn_actions(state: VentureState, seat: Seat, decision: RawDecision) -> list[Any]:
    """Returns the transactions open to the player, then end or discard."""
    held = state.corporations_held(seat)
    money = wealth(state, seat) - state.owed
    if decision.data.get("must_reorganise"):
        return [Reorganise(), ReorganiseBest()] if held >= 2 else [Reorganise()]
    actions: list[Any] = [Take(state.corp(c).name) for c in state.center if state.corp(c).value <= money]
    proxies = sorted(
        {state.card(r).name: state.card(r) for r in state.hands[seat] if state.card(r).kind == PROXY}.items()
    )
    for name, card in proxies:
        for other in range(state.players):
            if other == seat:
                continue
            for stack in state.holdings[other]:
                top = state.corp(stack[-1])
                if proxy_cost(top.value, card.halves) <= money:
                    actions.append(Proxy(name, top.name))
    if held >= 2 and held <= money:
        actions += [Reorganise(), ReorganiseBest()]
    if state.transacted or not state.hands[seat]:
        actions.append(End())
    if not state.transacted:
        actions.extend(Discard(n) for n in sorted({state.card(r).name for r in state.hands[seat]}))
    return actions


def _summaries(state: VentureState, seat: Seat) -> list[StackSummary]:
    """Returns the bit-mask summary of each of the seat's stacks."""
    corps = state.deck.corporations
    return [summarise(corps, stack) for stack in state.holdings[seat]]


def _fitting(state: VentureState, seat: Seat, cid: int) -> list[str]:
    """Returns the top cards of the seat's stacks that the corporation may be put on."""
    corps = state.deck.corporations
    corp = corps[cid]
    return [corps[s[2]].name for s in _summaries(state, seat) if fits(corp, s)]


def _reorganise_actions(state: VentureState, seat: Seat) -> list[Any]:
    """Returns every single move of one corporation to an arrangement not yet seen in this
    reorganisation (ruling A-16), then done once all stacks are lawful; after 2 moves per corporation
    held, only moves that part a same-industry pair (ruling A-16, "at most")."""
    seen_list = state.stack.top.data[SEEN]
    seen = set(seen_list)
    holdings = state.holdings[seat]
    found = moves(state.deck, holdings)
    summaries = zip(_summaries(state, seat), holdings, strict=True)
    lawful = all(is_lawful(summary, len(stack)) for summary, stack in summaries)
    if len(seen_list) - 1 >= move_cap(holdings):
        pairs = _pairs(state, holdings)
        found = (m for m in found if not lawful and _pairs(state, parse(state.deck, m[1]) or []) < pairs)
    actions: list[Any] = [move for move, after in found if after not in seen]
    if lawful:
        actions.append(Done())
    return actions


def move_cap(holdings: Sequence[Sequence[int]]) -> int:
    """Returns the moves a reorganisation allows: two per corporation held, enough to reach any
    arrangement by a way that repeats none (ruling A-16)."""
    return 2 * sum(len(stack) for stack in holdings)


def _pairs(state: VentureState, stacks: Sequence[Sequence[int]]) -> int:
    """Returns how many same-industry pairs the stacks hold (ruling A-6)."""
    corps = state.deck.corporations
    return sum(len(offending([corps[c] for c in stack])) for stack in stacks)


def _pay_actions(state: VentureState, seat: Seat) -> list[Any]:
    """Returns the capital cards that may be handed in, and done once the debt is covered."""
    names = sorted({state.card(r).name for r in state.hands[seat] if state.card(r).kind == CAPITAL})
    actions: list[Any] = [Pay(n) for n in names]
    laid = [state.card(r) for r in state.payment]
    if payment_value(laid, state.deck.set_values) >= state.owed:
        actions.append(Done())
    return actions


def why_illegal(state: VentureState, seat: Seat, action: Any) -> str:
    """Returns a short reason why an action is not legal now, naming what to do instead."""
    kind = state.stack.top.kind
    unknown = _unknown_name(state, action)
    if unknown:
        return unknown
    if isinstance(action, Undo | Cancel):
        return _why_take_back(state, action)
    if kind == TURN and state.stack.top.data.get("must_reorganise"):
        return "two corporations of one industry share a conglomerate: reorganise first"
    if kind == PLACE and not isinstance(action, Place):
        return "first say where the corporation goes (place on CORP or place alone)"
    if kind == REORGANISE and not isinstance(action, Move | Done):
        return "you are reorganising: move CORP on CORP, move CORP alone, done, or cancel"
    if kind == PAY and not isinstance(action, Pay | Done):
        return f"you owe {state.owed} million: pay CARD (or several: pay 10 3c), then done"
    if isinstance(action, Pay):
        return _why_pay(state, seat, action)
    if isinstance(action, Done) and kind == PAY:
        return f"the cards laid down do not cover the {state.owed} million owed"
    if isinstance(action, Done) and kind == REORGANISE:
        return "a stack still holds two corporations of one industry"
    if isinstance(action, Done):
        return "nothing to finish: done ends a reorganisation or a payment (end ends the transactions)"
    if isinstance(action, Move):
        return _why_move(state, seat, action)
    if isinstance(action, Place):
        return "there is no corporation to place: place follows a take-over"
    if isinstance(action, Take | Proxy | Reorganise | ReorganiseBest) and kind == TURN:
        return _why_transaction(state, seat, action)
    if isinstance(action, End) and not state.transacted:
        return "a turn without transactions ends by discarding a card (discard CARD)"
    if isinstance(action, Discard) and state.transacted:
        return "you have transacted this turn: end it instead of discarding"
    if isinstance(action, Discard):
        return f"you hold no {action.card} card"
    return "no such card, corporation or stack here"


def _unknown_name(state: VentureState, action: Any) -> str:
    """Returns a reason if the action names a corporation the deck does not have ('' otherwise)."""
    names = [getattr(action, field, None) for field in ("corp", "onto")]
    for name in names:
        if isinstance(name, str) and state.deck.corporation(name) is None:
            return f"there is no corporation {name} (corporations are written like ST-ABC: see 'info')"
    return ""


def _why_take_back(state: VentureState, action: Any) -> str:
    """Returns why undo or cancel is refused."""
    if state.undos >= undo.UNDO_LIMIT:
        return f"you have taken back {undo.UNDO_LIMIT} steps this turn, the most a turn allows"
    if isinstance(action, Cancel):
        return "cancel takes back a reorganisation under way, and none is"
    return "nothing to take back: a draw, a proxy fight or a payment made cannot be undone"


def _why_move(state: VentureState, seat: Seat, action: Move) -> str:
    """Returns why a reorganisation move is refused."""
    if state.stack.top.kind != REORGANISE:
        return "you are not reorganising: reorganise first (1 million per corporation held), then move"
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    if not any(corp.id in s for s in state.holdings[seat]):
        return f"you do not hold {corp.name}"
    if action.onto is not None:
        onto = state.deck.corporation(action.onto)
        assert onto is not None
        if not any(s[-1] == onto.id for s in state.holdings[seat]):
            return f"{onto.name} is not the top of one of your stacks"
        if not fits(
            corp,
            summarise(state.deck.corporations, next(s for s in state.holdings[seat] if s[-1] == onto.id)),
        ):
            return f"{corp.name} does not fit on {onto.name}: a new industry and a letter common to all"
    return "that arrangement was already held in this reorganisation (ruling A-16); undo steps back"


def _why_pay(state: VentureState, seat: Seat, action: Pay) -> str:
    """Returns why laying capital cards down is refused."""
    if state.stack.top.kind != PAY:
        return "nothing is being paid now: end the transactions first, then pay"
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


def several_payable(state: VentureState, seat: Seat, action: Pay) -> bool:
    """Returns whether a line laying several cards is legal: each card, laid one after another, is
    a legal ``pay`` (ruling A-18: the line is a shorthand for that sequence)."""
    if state.over or state.stack.top.kind != PAY or seat != state.stack.top.seats[0]:
        return False
    held = [state.card(r) for r in state.hands[seat]]
    for name in action.cards:
        card = next((c for c in held if c.name == name), None)
        if card is None or card.kind != CAPITAL:
            return False
        held.remove(card)
    return True


def _why_transaction(state: VentureState, seat: Seat, action: Any) -> str:
    """Returns why a take-over, proxy fight or reorganisation is refused."""
    money = wealth(state, seat) - state.owed
    if isinstance(action, Take):
        corp = state.deck.corporation(action.corp)
        assert corp is not None
        if corp.id not in state.center:
            center = ", ".join(state.corp(c).name for c in state.center) or "empty"
            return f"{corp.name} is not in the center (center: {center})"
        return f"{corp.name} costs {corp.value} million and you can pay only {money} more"
    if isinstance(action, Proxy):
        return _why_proxy(state, seat, action, money)
    held = state.corporations_held(seat)
    if held < 2:
        return "reorganising needs two corporations held"
    return f"reorganising costs {held} million (1 per corporation held) and you can pay only {money} more"


def _why_proxy(state: VentureState, seat: Seat, action: Proxy, money: int) -> str:
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


# ---------------------------------------------------------------- applying
def apply(state: VentureState, seat: Seat, action: Any) -> None:
    """Applies a legal action, keeping what takes it back while that reveals nothing (ruling A-17)."""
    if isinstance(action, Undo):
        undo.take_back(state, seat)
        return
    if isinstance(action, Cancel):
        undo.cancel(state, seat)
        return
    step = undo.record(state, seat, action) if undo.undoable(state, action) else None
    turn = state.turn
    _dispatch(state, seat, action)
    if state.turn != turn:
        return  # the turn is over: the next one started with an empty record
    if step is None or state.over:
        state.undo_log.clear()
    else:
        state.undo_log.append(step)


def _dispatch(state: VentureState, seat: Seat, action: Any) -> None:
    """Applies a legal action's effect."""
    if isinstance(action, Take):
        _take(state, seat, action)
    elif isinstance(action, Proxy):
        _proxy(state, seat, action)
    elif isinstance(action, Place):
        _place(state, seat, action)
    elif isinstance(action, Reorganise):
        _reorganise(state, seat)
    elif isinstance(action, ReorganiseBest):
        _reorganise_best(state, seat)
    elif isinstance(action, Move):
        _move(state, seat, action)
    elif isinstance(action, Done):
        _done(state, seat)
    elif isinstance(action, End):
        _end(state, seat)
    elif isinstance(action, Pay):
        _pay(state, seat, action)
    elif isinstance(action, Discard):
        _discard(state, seat, action)


def _take(state: VentureState, seat: Seat, action: Take) -> None:
    """Takes over a corporation from the center (rulebook: '1) Taking Over Corporations')."""
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    state.center.remove(corp.id)
    state.owed += corp.value
    state.transacted = True
    state.emit(f"seat {seat} takes over {corp.name} for {corp.value} (owes {state.owed})")
    _gain(state, seat, corp.id, may_stack=True)


def _proxy(state: VentureState, seat: Seat, action: Proxy) -> None:
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
    if may_stack and _fitting(state, seat, cid):
        state.stack.push(RawDecision(PLACE, [seat], {"corp": state.corp(cid).name}))
        return
    state.holdings[seat].append([cid])
    why = "it fits no stack" if may_stack else "won by proxy fight (option proxy_placement=alone)"
    state.emit(f"seat {seat} puts {state.corp(cid).name} alone: {why}")
    _transaction_done(state, seat)


def _place(state: VentureState, seat: Seat, action: Place) -> None:
    """Puts the won corporation on top of a stack or alone (ruling A-4: new cards go on top)."""
    corp = state.deck.corporation(state.stack.pop().data["corp"])
    assert corp is not None
    _put(state, seat, corp.id, action.onto)
    where = f"on {action.onto}" if action.onto else "alone"
    state.emit(f"seat {seat} places {corp.name} {where}")
    _transaction_done(state, seat)


def _put(state: VentureState, seat: Seat, cid: int, onto: str | None) -> None:
    """Puts a corporation on the stack topped by ``onto``, or alone."""
    holding = state.holdings[seat]
    if onto is None:
        holding.append([cid])
        return
    target = state.deck.corporation(onto)
    assert target is not None
    next(s for s in holding if s[-1] == target.id).append(cid)


def _transaction_done(state: VentureState, seat: Seat) -> None:
    """Ends a transaction; with option payment=each, its cost is paid at once (ruling A-1)."""
    if state.options["payment"] == "each" and state.owed > 0:
        state.stack.push(RawDecision(PAY, [seat], {"then": "continue"}))


def _reorganise(state: VentureState, seat: Seat) -> None:
    """Starts a reorganisation: 1 million per corporation held (rulebook: '3) Reorganization')."""
    cost = state.corporations_held(seat)
    state.owed += cost
    state.transacted = True
    state.stack.top.data.pop("must_reorganise", None)
    state.stack.push(RawDecision(REORGANISE, [seat], {SEEN: [current(state, seat)]}))
    state.emit(f"seat {seat} reorganises for {cost} (owes {state.owed})")


def best_stacks(state: VentureState, seat: Seat) -> list[list[int]]:
    """Returns the optimiser's best arrangement of the seat's corporations (ids, bottom first)."""
    # Imported when first needed: the optimiser brings scipy (slow to load, large in memory).
    from parlour.games.venture.optimiser import best_arrangement
    from parlour.games.venture.views import OptimiserCard

    corps = [state.corp(c) for s in state.holdings[seat] for c in s]
    best = best_arrangement([OptimiserCard(c.name, c.industry, c.letters) for c in corps])
    by_name = {c.name: c.id for c in corps}
    return [[by_name[name] for name in stack] for stack in best.stacks]


def _reorganise_best(state: VentureState, seat: Seat) -> None:
    """Reorganises straight to the best arrangement in one action, fee included (ruling A-19)."""
    cost = state.corporations_held(seat)
    state.owed += cost
    state.transacted = True
    state.stack.top.data.pop("must_reorganise", None)
    before = holdings_profit(state, seat)
    best = best_stacks(state, seat)
    lawful = all(
        is_lawful(summary, len(stack))
        for summary, stack in zip(_summaries(state, seat), state.holdings[seat], strict=True)
    )
    # Ruling A-19: holdings that already earn the most (and are lawful) stay as they are.
    if not lawful or sum(stack_profit([state.corp(c) for c in s]) for s in best) > before:
        state.holdings[seat] = best
    if state.logging:
        after = holdings_profit(state, seat)
        state.emit(
            f"seat {seat} reorganises for {cost} to its best arrangement, "
            f"{_holdings_text(state, seat)}: it earns {after} a scoring instead of {before} "
            f"(owes {state.owed})"
        )
    _transaction_done(state, seat)


def _holdings_text(state: VentureState, seat: Seat) -> str:
    """Returns a seat's stacks as text, each bottom to top in brackets."""
    return " ".join("[" + " ".join(state.corp(c).name for c in s) + "]" for s in state.holdings[seat])


def _move(state: VentureState, seat: Seat, action: Move) -> None:
    """Moves one corporation during a reorganisation."""
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    holding = state.holdings[seat]
    source = next(s for s in holding if corp.id in s)
    source.remove(corp.id)
    if not source:
        holding.remove(source)
    _put(state, seat, corp.id, action.onto)
    # Ruling A-16: the arrangement reached is never offered again in this reorganisation.
    state.stack.top.data[SEEN].append(current(state, seat))
    where = f"on {action.onto}" if action.onto else "alone"
    state.emit(f"seat {seat} moves {action.corp} {where}")


def _done(state: VentureState, seat: Seat) -> None:
    """Finishes a reorganisation or a payment."""
    decision = state.stack.pop()
    if decision.kind == REORGANISE:
        if state.logging:
            state.emit(
                f"seat {seat} finishes reorganising: {_holdings_text(state, seat)}, "
                f"earning {holdings_profit(state, seat)} a scoring"
            )
        _transaction_done(state, seat)
        return
    paid = [state.card(r).name for r in state.payment]
    state.emit(f"seat {seat} pays {state.owed} with {' '.join(paid) or 'nothing'}")
    state.discard.extend(state.payment)
    state.payment.clear()
    state.owed = 0
    if decision.data.get("then") == "finish":
        finish_turn(state)


def _end(state: VentureState, seat: Seat) -> None:
    """Ends the transactions: pay what is owed, then the end of the turn."""
    if state.owed > 0:
        state.emit(f"seat {seat} ends the transactions and pays the {state.owed} million owed")
        state.stack.push(RawDecision(PAY, [seat], {"then": "finish"}))
        return
    state.emit(f"seat {seat} ends the transactions (nothing owed)")
    finish_turn(state)


def _pay(state: VentureState, seat: Seat, action: Pay) -> None:
    """Lays capital cards down towards the debt, one after another."""
    for name in action.cards:
        card = next(r for r in state.hands[seat] if state.card(r).name == name)
        state.hands[seat].remove(card)
        state.payment.append(card)
    if state.logging:
        laid = [state.card(r) for r in state.payment]
        worth = payment_value(laid, state.deck.set_values)
        state.emit(
            f"seat {seat} lays down {' '.join(action.cards)}: "
            f"{' '.join(c.name for c in laid)} laid, worth {worth} of the {state.owed} owed"
        )


def _discard(state: VentureState, seat: Seat, action: Discard) -> None:
    """Discards one card instead of transacting, and ends the turn."""
    card = next(r for r in state.hands[seat] if state.card(r).name == action.card)
    state.hands[seat].remove(card)
    state.discard.append(card)
    state.emit(f"seat {seat} makes no transaction and discards {action.card}")
    finish_turn(state)


# ---------------------------------------------------------------- turn flow
def finish_turn(state: VentureState) -> None:
    """Ends the turn: the game end, the draw of two, the center refill, the next player."""
    state.stack = type(state.stack)()
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
    state.stack.push(RawDecision(TURN, [seat]))
    if all(not offending([state.corp(c) for c in s]) for s in state.holdings[seat]):
        return
    if state.corporations_held(seat) <= wealth(state, seat):
        state.stack.top.data["must_reorganise"] = True
        state.emit(f"seat {seat} holds two corporations of one industry in a stack: must reorganise")
        return
    # Ruling A-6: unable to pay, he discards all capital and separates the offending cards.
    for r in [r for r in state.hands[seat] if state.card(r).kind == CAPITAL]:
        state.hands[seat].remove(r)
        state.discard.append(r)
    for stack in state.holdings[seat]:
        for position in reversed(offending([state.corp(c) for c in stack])):
            state.holdings[seat].append([stack.pop(position)])
    state.emit(f"seat {seat} cannot pay to reorganise: discards all capital, offending cards stand alone")
    finish_turn(state)


def end_game(state: VentureState, reason: str) -> None:
    """Ends the game with the final scoring added to the running totals."""
    score_round(state, f"final scoring ({reason})")
    state.over = True
    state.stack = type(state.stack)()
    if state.logging:
        best = max(state.profits)
        winners = " and ".join(f"seat {s}" for s, p in enumerate(state.profits) if p == best)
        state.emit(
            f"the game is over: {winners} {'win' if ' and ' in winners else 'wins'} with {best} million"
        )
