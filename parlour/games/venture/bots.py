"""Venture's greedy bot: extends conglomerates, fights proxy battles that pay, reorganises to the optimum."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from parlour.core.agents import SeededBot
from parlour.core.decisions import Seat
from parlour.core.state import GameState
from parlour.games.venture import actions
from parlour.games.venture.actions import VentureAction
from parlour.games.venture.conglomerates import summarise
from parlour.games.venture.content import MULTIPLIER_NAMES, PROXY, Corporation
from parlour.games.venture.payment import cheapest_payment, payment_value
from parlour.games.venture.reorganisation import Reorganisation, best_names, best_profit
from parlour.games.venture.rules import Payment
from parlour.games.venture.scoring import holdings_profit
from parlour.games.venture.state import VentureState
from parlour.games.venture.takeovers import Placement, proxy_cost

POTENTIAL = {1: 0.0, 2: 0.4, 3: 1.0, 4: 3.0, 5: 8.0, 6: 20.0}
"""What a stack of each size is worth per common letter, pairs counted as promise."""
LONE_VALUE = 1.0
"""Worth of a corporation standing alone: raw material for later conglomerates."""
MONEY_WEIGHT = 0.04
"""Worth of one million kept, in points of potential."""
HALVES = {name: halves for halves, name in MULTIPLIER_NAMES.items()}
"""A proxy card's multiplier in halves, by name."""
NEVER = frozenset({actions.Undo, actions.Cancel, actions.ReorganiseBest})
"""This bot never takes a step back, nor uses 'reorganise best' (ruling A-17, A-19)."""


def _potential(size: int, common: int) -> float:
    """Returns a stack's promise: the size's potential times its common letters (the bits of ``common``,
    the letters' mask: conglomerates.summarise)."""
    letters = common.bit_count()
    return POTENTIAL[min(size, 6)] * letters + 0.05 * letters


Shape = tuple[int, int, int]
"""A stack as the bot weighs it: its industries and common letters (as bit masks, conglomerates.summarise)
and its size."""


def _stack_shapes(state: VentureState, seat: Seat) -> list[Shape]:
    """Returns the seat's stacks as :data:`Shape`."""
    corps = state.deck.corporations
    shapes = []
    for stack in state.holdings[seat]:
        industries, common, _ = summarise(corps, stack)
        shapes.append((industries, common, len(stack)))
    return shapes


def _add_value(stacks: list[Shape], corp: Corporation) -> float:
    """Returns a corporation's worth to the seat with these stacks: raw material for later, plus the best
    stack it extends now."""
    best = 0.0
    bit, mask = corp.industry_bit, corp.mask
    for industries, common, size in stacks:
        if not industries & bit and common & mask:  # it fits (conglomerates.fits)
            best = max(best, _potential(size + 1, common & mask) - _potential(size, common))
    return LONE_VALUE + 0.2 * len(corp.letters) + best


def _leader(state: VentureState, seat: Seat) -> Seat:
    """Returns the seat with the most profits plus holdings (another seat before this one on ties)."""

    def standing(other: Seat) -> tuple[int, bool]:
        return (state.profits[other] + holdings_profit(state, other), other != seat)

    return max(range(state.players), key=standing)


def _take_value(state: VentureState, action: actions.Take, stacks: list[Shape]) -> float:
    """Returns the worth of a take-over to the seat with these stacks, net of its price."""
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    return _add_value(stacks, corp) - MONEY_WEIGHT * corp.value


def _proxy_value(state: VentureState, action: actions.Proxy, leader: Seat, stacks: list[Shape]) -> float:
    """Returns the worth of a proxy fight: what it adds to us (``stacks``: our stacks) and takes from
    the victim."""
    corp = state.deck.corporation(action.corp)
    assert corp is not None
    owner = next(s for s in range(state.players) for st in state.holdings[s] if st[-1] == corp.id)
    stack = next(st for st in state.holdings[owner] if st[-1] == corp.id)
    corps = state.deck.corporations
    before = _potential(len(stack), summarise(corps, stack)[1])
    after = _potential(len(stack) - 1, summarise(corps, stack[:-1])[1]) if len(stack) > 1 else 0.0
    harm = (before - after) * (1.0 if owner == leader else 0.5)
    cost = proxy_cost(corp.value, HALVES[action.card])
    return _add_value(stacks, corp) + harm - MONEY_WEIGHT * cost - 0.5


def _gain(state: VentureState, action: VentureAction, leader: Seat, stacks: list[Shape]) -> float:
    """Returns the estimated worth of a take-over or proxy fight, net of its cost (``stacks``: the seat's
    stacks, :func:`_stack_shapes`); 0 for other actions (reorganising is the bot's own: a method)."""
    if isinstance(action, actions.Take):
        return _take_value(state, action, stacks)
    if isinstance(action, actions.Proxy):
        return _proxy_value(state, action, leader, stacks)
    return 0.0


@mypyc_attr(native_class=False)  # subclasses the core's bot (a Python class)
class GreedyBot(SeededBot):
    """A one-step heuristic player for Venture; reads only what its seat may know."""

    name = "greedy"

    def choose(self, state: GameState, seat: Seat) -> VentureAction:
        """Returns the action this bot prefers on the current decision."""
        assert isinstance(state, VentureState)
        top = state.stack.top
        legal: list[VentureAction] = [a for a in state.legal_actions(seat) if type(a) not in NEVER]
        if isinstance(top, Placement):
            return self._place(state, seat, top, legal)
        if isinstance(top, Reorganisation):
            return self._reorganise_step(state, seat, legal)
        if isinstance(top, Payment):
            return self._pay(state, seat, legal)
        return self._turn(state, seat, legal)

    # ------------------------------------------------------------ the turn
    def _turn(self, state: VentureState, seat: Seat, legal: list[VentureAction]) -> VentureAction:
        """Picks the transaction with the best gain, else ends or discards."""
        if legal == [actions.Reorganise()]:
            return legal[0]
        best, best_gain = None, 0.5
        # The leader matters only to proxy fights; it is worked out only when one is open.
        leader = _leader(state, seat) if any(isinstance(a, actions.Proxy) for a in legal) else seat
        stacks = _stack_shapes(state, seat)  # what every transaction is weighed against, read once
        for action in legal:
            if isinstance(action, actions.Reorganise):
                gain = self._reorganise_value(state, seat)
            else:
                gain = _gain(state, action, leader, stacks)
            if gain > best_gain:
                best, best_gain = action, gain
        if best is not None:
            return best
        if any(type(a) is actions.End for a in legal):
            return actions.End()
        return self._discard(state, seat, legal)

    def _reorganise_value(self, state: VentureState, seat: Seat) -> float:
        """Returns the scoring gained by reorganising to the optimum, net of its fee."""
        gain = best_profit(state, seat) - holdings_profit(state, seat)
        if gain <= 0:
            return 0.0
        scorings_left = 1.5 if state.stock else 1.0
        return gain * scorings_left * 2 - MONEY_WEIGHT * state.corporations_held(seat)

    def _discard(self, state: VentureState, seat: Seat, legal: list[VentureAction]) -> VentureAction:
        """Discards the capital card whose loss costs least buying power (:func:`discard_choice`)."""
        return discard_choice(state, seat, legal)

    # ------------------------------------------------------------ sub-decisions
    def _place(
        self, state: VentureState, seat: Seat, placement: Placement, legal: list[VentureAction]
    ) -> VentureAction:
        """Puts the won corporation where it adds the most potential (:func:`place_choice`)."""
        return place_choice(state, seat, placement, legal)

    def _reorganise_step(self, state: VentureState, seat: Seat, legal: list[VentureAction]) -> VentureAction:
        """Makes the next move towards the optimal arrangement, then done."""
        move = next_move(state, seat, best_names(state, seat))
        if move is not None and move in legal:
            return move
        return actions.Done() if actions.Done() in legal else legal[0]

    def _pay(self, state: VentureState, seat: Seat, legal: list[VentureAction]) -> VentureAction:
        """Pays with the cards whose loss costs least buying power."""
        if any(type(a) is actions.Done for a in legal):
            return actions.Done()
        plan = cheapest_payment(state, seat)
        payable = {a.card for a in legal if type(a) is actions.Pay and not a.also}
        for name in plan:
            if name in payable:
                return actions.Pay(name)
        return next(a for a in legal if isinstance(a, actions.Pay))


@mypyc_attr(native_class=False)  # subclasses the core's bot (a Python class)
class QuickBot(GreedyBot):
    """The greedy bot without the reorganisation optimiser on its turn: cheap enough for search playouts."""

    name = "quick"

    def _reorganise_value(self, state: VentureState, seat: Seat) -> float:
        """Never reorganises by choice (it still reorganises when the rules force it)."""
        return 0.0


def discard_choice(state: VentureState, seat: Seat, legal: list[VentureAction]) -> VentureAction:
    """Returns the discard of the capital card whose loss costs least buying power; proxies go last,
    x3/2 first (a function, not a method: mypyc compiles no closure inside a Python class's method)."""
    hand = [state.card(r) for r in state.hands[seat]]
    options = [a for a in legal if isinstance(a, actions.Discard)]
    if not options:
        return legal[0]

    def keep_after(action: actions.Discard) -> tuple[int, float, str]:
        rest = list(hand)
        card = next(c for c in rest if c.name == action.card)
        rest.remove(card)
        # A proxy card is discarded only when nothing else is left; the dearest first.
        if card.kind == PROXY:
            return (0, -card.halves, action.card)
        return (1, payment_value(rest, state.deck.set_values), action.card)

    return max(options, key=keep_after)


def place_choice(
    state: VentureState, seat: Seat, placement: Placement, legal: list[VentureAction]
) -> VentureAction:
    """Returns the placement of the won corporation where it adds the most potential."""
    corp = state.deck.corporation(placement.corp)
    assert corp is not None

    def value(action: actions.Place) -> float:
        if action.onto is None:
            return 0.0
        stack = next(s for s in state.holdings[seat] if state.corp(s[-1]).name == action.onto)
        common = summarise(state.deck.corporations, stack)[1]
        return _potential(len(stack) + 1, common & corp.mask) - _potential(len(stack), common)

    return max((a for a in legal if isinstance(a, actions.Place)), key=value)


def next_move(state: VentureState, seat: Seat, target: tuple[tuple[str, ...], ...]) -> actions.Move | None:
    """Returns the next move that brings the seat's stacks closer to ``target`` (None when there)."""
    current = [tuple(state.corp(c).name for c in s) for s in state.holdings[seat]]
    where = {name: s for s in current for name in s}
    for goal in target:
        if goal in current:
            continue
        # The longest prefix of the goal that already stands as a whole stack.
        for length in range(len(goal) - 1, 0, -1):
            if goal[:length] in current:
                return actions.Move(goal[length], goal[length - 1])
        if len(where[goal[0]]) > 1:
            return actions.Move(goal[0], None)
    return None
