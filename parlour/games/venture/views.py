"""What each seat is shown: observations as data and as plain text (no terminal code here)."""

from __future__ import annotations

from functools import cache
from typing import NotRequired, TypedDict

from parlour.core.decisions import Seat
from parlour.games.venture.conglomerates import common_letters
from parlour.games.venture.content import CAPITAL, SET_DENOMINATIONS, Resource
from parlour.games.venture.payment import cheapest_payment, laid_worth
from parlour.games.venture.reorganisation import Reorganisation, best_stacks
from parlour.games.venture.rules import Payment, Turn
from parlour.games.venture.scoring import holdings_profit, stack_profit
from parlour.games.venture.state import VentureState
from parlour.games.venture.undo import UNDO_LIMIT


class StackView(TypedDict):
    """One stack (a conglomerate or a lone corporation) as the observation shows it."""

    cards: list[str]
    """Its corporations, bottom to top (the last one can be proxied)."""
    common: str
    """The letters all its corporations share, in order."""
    profit: int
    """What it earns at a scoring."""


class HandSet(TypedDict):
    """A set of capital cards of one symbol in a hand, at the hand's best grouping."""

    cards: list[str]
    """Its cards, lowest first."""
    worth: int
    """What the set pays (the set values printed on the symbol cards)."""


class Observation(TypedDict):
    """What a seat (or a spectator) is shown of a game of Venture: the browser's drawn table, the
    encoders, the SVG board and the text view read it (docs/browser-tables/venture.md)."""

    game: str
    seat: Seat | None
    """Whose view this is (None: a spectator's)."""
    turn: int
    current: Seat
    """The seat whose turn it is."""
    decision: str | None
    """The kind of the decision on top (None once the game is over)."""
    pending: dict[str, object]
    """That decision's data (the corporation to place, the arrangements a reorganisation has seen...)."""
    over: bool
    center: list[str]
    stock_size: int
    aside_size: int
    draw_size: int
    discard: list[str]
    """The discard pile, bottom first."""
    payment: list[str]
    """The capital cards laid down towards what is owed."""
    owed: int
    undos_left: int
    """Steps the current player may still take back this turn (ruling A-17)."""
    hand_sizes: list[int]
    holdings: list[list[StackView]]
    """Each seat's stacks."""
    profits: list[int]
    holdings_profit: list[int]
    """What each seat's holdings earn at a scoring."""
    payment_worth: int
    """What the cards laid down are worth (sets counted)."""
    reorganise_fee: int
    """What a reorganisation costs the current player now (0 once the game is over)."""
    hand_sets: list[HandSet] | None
    """The seat's capital sets (None for a spectator)."""
    cheapest_payment: list[str] | None
    """For the paying seat, the cards that best cover the rest of the debt (None for anyone else)."""
    hand: NotRequired[list[str]]
    """The seat's own hand, sorted (a spectator has none)."""


def stacks_view(state: VentureState, seat: Seat) -> list[StackView]:
    """Returns a seat's stacks as data: cards bottom to top and their common letters."""
    result = []
    for stack in state.holdings[seat]:
        corps = [state.corp(c) for c in stack]
        result.append(
            StackView(
                cards=[c.name for c in corps],
                common="".join(sorted(common_letters(corps))),
                profit=stack_profit(corps),
            )
        )
    return result


def observation(state: VentureState, seat: Seat | None) -> Observation:
    """Returns what ``seat`` may know (``None``: a spectator): never another seat's hand."""
    state.check_seat(seat)
    top = state.stack.top if len(state.stack) else None
    view: Observation = {
        "game": "venture",
        "seat": seat,
        "turn": state.turn,
        "current": state.current,
        "decision": top.kind if top else None,
        "pending": dict(top.data) if top else {},
        "over": state.over,
        "center": [state.corp(c).name for c in state.center],
        "stock_size": len(state.stock),
        "aside_size": len(state.aside),
        "draw_size": len(state.draw),
        "discard": [state.card(r).name for r in state.discard],
        "payment": [state.card(r).name for r in state.payment],
        "owed": state.owed,
        "undos_left": UNDO_LIMIT - state.undos,
        "hand_sizes": [len(h) for h in state.hands],
        "holdings": [stacks_view(state, s) for s in range(state.players)],
        "profits": list(state.profits),
        "holdings_profit": [holdings_profit(state, s) for s in range(state.players)],
        "payment_worth": laid_worth(state),
        "reorganise_fee": 0 if state.over else state.corporations_held(state.current),
        "hand_sets": None,
        "cheapest_payment": None,
    }
    if seat is not None:
        view["hand"] = sorted((state.card(r).name for r in state.hands[seat]), key=_card_order)
        view["hand_sets"] = hand_sets(state.capital_in_hand(seat), state.deck.set_values)
        view["cheapest_payment"] = _cheapest_payment(state, seat)
    return view


def _cheapest_payment(state: VentureState, seat: Seat) -> list[str] | None:
    """Returns, for the seat that is paying, the cards that cover the rest of the debt and keep the
    most buying power (the drawn table's preselection); None for every other seat and decision."""
    if state.over or seat != state.current or not isinstance(state.stack.top, Payment):
        return None
    if laid_worth(state) >= state.owed:
        return []
    return cheapest_payment(state, seat)


def hints(state: VentureState, seat: Seat) -> list[str]:
    """Returns advice: the best arrangement of the holdings (and how to reach it), how to pay cheaply."""
    found = []
    top = state.stack.top if len(state.stack) else None
    if state.corporations_held(seat) >= 3:
        found.append(_arrangement_hint(state, seat, isinstance(top, Turn | Reorganisation)))
    if isinstance(top, Payment) and seat == state.current:
        if laid_worth(state) >= state.owed:
            found.append(f"The cards laid down cover the {state.owed} owed: done.")
        else:
            cards = " ".join(cheapest_payment(state, seat))
            found.append(f"pay {cards} covers the {state.owed} owed and keeps the most buying power.")
    return found


def _arrangement_hint(state: VentureState, seat: Seat, show_best: bool) -> str:
    """Returns what the holdings earn and, if better, the best arrangement itself."""
    best = best_stacks(state, seat)
    now = holdings_profit(state, seat)
    profit = sum(stack_profit([state.corp(c) for c in s]) for s in best)
    if profit <= now:
        return f"Your holdings score {now} a scoring now; your best arrangement would score {profit} too."
    text = f"Your holdings score {now} a scoring now; your best arrangement would score {profit}"
    if not show_best or seat != state.current:
        return text + "."
    stacks = " ".join("[" + " ".join(state.corp(c).name for c in s) + "]" for s in best)
    if isinstance(state.stack.top, Reorganisation):
        return f"{text}: {stacks}."
    fee = state.corporations_held(seat)
    return f"{text}: {stacks} ('reorganise best' does it for {fee} million)."


def hand_sets(cards: list[Resource], set_values: dict[int, int]) -> list[HandSet]:
    """Returns the sets a hand's capital cards make at their best grouping (the grouping that
    ``payment_value`` counts): each set's cards, lowest first, and its worth."""
    table = (set_values[2], set_values[3], set_values[4])
    found = []
    for symbol in sorted({c.symbol for c in cards if c.kind == CAPITAL and c.symbol}):
        counts = [0, 0, 0, 0]
        for card in cards:
            if card.kind == CAPITAL and card.symbol == symbol:
                counts[SET_DENOMINATIONS.index(card.value)] += 1
        for chosen in _best_sets(tuple(counts), table)[1]:
            names = [f"{SET_DENOMINATIONS[i]}{symbol}" for i in chosen]
            found.append(HandSet(cards=names, worth=table[len(chosen) - 2]))
    return found


@cache
def _best_sets(
    counts: tuple[int, ...], table: tuple[int, int, int]
) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Returns the best value of one symbol's cards (counts of 1, 3, 5, 8) and the sets that make it
    (each a tuple of denomination indices); the same search as ``payment._best_symbol_value``."""
    best: tuple[int, tuple[tuple[int, ...], ...]] = (
        sum(n * d for n, d in zip(counts, SET_DENOMINATIONS, strict=True)),
        (),
    )
    present = [i for i, n in enumerate(counts) if n]
    for mask in range(1, 1 << len(present)):
        chosen = tuple(present[b] for b in range(len(present)) if mask >> b & 1)
        if len(chosen) < 2:
            continue
        rest = list(counts)
        for i in chosen:
            rest[i] -= 1
        value, sets = _best_sets(tuple(rest), table)
        if table[len(chosen) - 2] + value > best[0]:
            best = (table[len(chosen) - 2] + value, (chosen, *sets))
    return best


def _card_order(name: str) -> tuple[int, str]:
    """Sorts capital by value, then proxies, then profit."""
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if name[0].isdigit() else 100, name)


def _stack_text(stack: StackView) -> str:
    """Returns a stack as text, bottom to top, with its common letters when it has several cards."""
    cards = " ".join(stack["cards"])
    return f"[{cards} ={stack['common']}]" if len(stack["cards"]) > 1 else f"[{cards}]"


def render_text(state: VentureState, seat: Seat | None) -> str:
    """Returns a plain-text picture of the table as ``seat`` sees it (stacks bottom to top)."""
    view = observation(state, seat)
    status = " (game over)" if view["over"] else ""
    lines = [
        f"Turn {view['turn']}: seat {view['current']} to play{status}",
        f"Center: {' '.join(view['center']) or '(empty)'}   stock {view['stock_size']}",
        f"Drawing deck {view['draw_size']}, discard pile {len(view['discard'])}",
        "Holdings (each stack bottom to top; =letters common to all; the last card can be proxied):",
    ]
    for s in range(state.players):
        stacks = "  ".join(_stack_text(st) for st in view["holdings"][s]) or "none"
        who = " (you)" if s == seat else ""
        lines.append(
            f"  seat {s}{who}: score {view['profits'][s]}; {view['hand_sizes'][s]} cards in hand; "
            f"holdings {stacks}, earning {view['holdings_profit'][s]} a scoring"
        )
    if "hand" in view:
        lines.append("Your hand: " + " ".join(view["hand"]))
    if view["owed"]:
        laid = " ".join(view["payment"]) or "-"
        lines.append(f"Owed this turn: {view['owed']} million; laid down: {laid}")
    return "\n".join(lines)
