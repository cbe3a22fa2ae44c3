"""Venture positions: the whole state as JSON (see docs/positions.md), checked when loaded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, RawDecision
from parlour.core.errors import PositionError
from parlour.core.positions import Fields, check_int, check_str, short_key, short_repr
from parlour.games.venture import undo
from parlour.games.venture.arrangements import SEEN, arrangement, current, moves, parse
from parlour.games.venture.conglomerates import common_letters, offending
from parlour.games.venture.content import CAPITAL, PROFIT, Deck
from parlour.games.venture.options import CENTER_SIZE, TWO_PLAYER_ASIDE
from parlour.games.venture.rules import PAY, PLACE, REORGANISE, TURN, wealth
from parlour.games.venture.state import VentureState

T = TypeVar("T")

FORMAT = "parlour-venture-position/1"
FIELDS = {
    "format",
    "players",
    "options",
    "chance",
    "turn",
    "current",
    "owed",
    "transacted",
    "over",
    "profit_rounds",
    "profits",
    "hands",
    "draw",
    "discard",
    "payment",
    "center",
    "stock",
    "aside",
    "holdings",
    "decisions",
    "undo",
    "undos",
}
RESOURCE_ZONES = ("draw", "discard", "payment")
CORP_ZONES = ("center", "stock", "aside")


def to_position(state: VentureState) -> dict[str, Any]:
    """Returns the whole state as JSON data (piles top first, stacks bottom first)."""

    def card(rid: int) -> str:
        return state.card(rid).name

    def corp(cid: int) -> str:
        return state.corp(cid).name

    return {
        "format": FORMAT,
        "players": state.players,
        "options": dict(state.options),
        "chance": state.chance.to_json(),
        "turn": state.turn,
        "current": state.current,
        "owed": state.owed,
        "transacted": state.transacted,
        "over": state.over,
        "profit_rounds": state.profit_rounds,
        "profits": list(state.profits),
        "hands": [[card(r) for r in h] for h in state.hands],
        "draw": [card(r) for r in state.draw],
        "discard": [card(r) for r in state.discard],
        "payment": [card(r) for r in state.payment],
        "center": [corp(c) for c in state.center],
        "stock": [corp(c) for c in state.stock],
        "aside": [corp(c) for c in state.aside],
        "holdings": [[[corp(c) for c in s] for s in h] for h in state.holdings],
        "decisions": state.stack.to_json(),
        "undo": undo.to_json(state),
        "undos": state.undos,
    }


class _Allocator:
    """Turns card names into card ids, each id used once; counts what is missing or extra."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.free: dict[str, list[int]] = {}
        for card in deck.resources:
            self.free.setdefault(card.name, []).append(card.id)
        self.corps_seen: dict[str, str] = {}

    def resource(self, value: Any, path: str) -> int:
        """Returns an unused resources card id for a name."""
        name = check_str(value, path).lower()
        if name not in self.free:
            raise PositionError(path, f"no resources card is called {short_repr(value)}")
        if not self.free[name]:
            count = sum(1 for c in self.deck.resources if c.name == name)
            raise PositionError(path, f"more {name!r} cards than the deck's {count}")
        return self.free[name].pop(0)

    def corporation(self, value: Any, path: str) -> int:
        """Returns the id of a corporation, refusing one already placed elsewhere."""
        corp = self.deck.corporation(check_str(value, path))
        if corp is None:
            raise PositionError(path, f"no corporation is called {short_repr(value)}")
        if corp.name in self.corps_seen:
            raise PositionError(path, f"{corp.name} is also at {self.corps_seen[corp.name]}")
        self.corps_seen[corp.name] = path
        return corp.id

    def check_complete(self) -> None:
        """Refuses a position where some card is nowhere."""
        missing = [n for n, ids in self.free.items() if ids]
        if missing:
            raise PositionError("hands", f"cards missing from every zone: {', '.join(sorted(missing))}")
        lost = [c.name for c in self.deck.corporations if c.name not in self.corps_seen]
        if lost:
            raise PositionError("stock", f"corporations missing from every zone: {', '.join(lost[:5])}")


def from_position(deck: Deck, data: Any, options: dict[str, Any]) -> VentureState:
    """Returns the state a position describes, refusing malformed or impossible ones."""
    fields = Fields(data, "", FIELDS)
    if fields.get("format", FORMAT) != FORMAT:
        raise PositionError("format", f"expected {FORMAT!r}")
    players = fields.integer("players", 2, 6)
    state = VentureState(deck, players, options, Chance.from_json(fields.get("chance"), "chance"))
    alloc = _Allocator(deck)
    _read_zones(state, fields, alloc)
    _read_counters(state, fields)
    state.stack = DecisionStack.from_json(fields.get("decisions"), "decisions", players)
    for i, decision in enumerate(state.stack):
        _check_decision(state, decision, f"decisions[{i}]", alloc)
    alloc.check_complete()
    _check_consistency(state)
    state.undos = fields.integer("undos", 0, undo.UNDO_LIMIT, default=0)
    state.undo_log = undo.read(state, fields.get("undo", None), "undo")
    if state.undo_log and (state.over or state.stack.top.data.get("must_reorganise")):
        raise PositionError("undo", "nothing can be taken back here")
    undo.check(state, _check_restored)
    return state


def _check_restored(state: VentureState, path: str) -> None:
    """Refuses a state that taking back a recorded step would give, if it is not a lawful position."""
    try:
        for i, decision in enumerate(state.stack):
            _check_restored_decision(state, decision, f"decisions[{i}]")
        _check_consistency(state)
    except PositionError as err:
        raise PositionError(path, f"taking it back gives a bad position ({err})") from None
    problems = state.invariant_errors()
    if problems:
        raise PositionError(path, f"taking it back gives a bad position ({problems[0]})")


def _check_restored_decision(state: VentureState, decision: RawDecision, path: str) -> None:
    """Refuses a recorded decision of an unknown kind, for another seat, or with a bad corporation."""
    if decision.kind not in (TURN, PLACE, REORGANISE, PAY) or decision.seats != [state.current]:
        raise PositionError(path, "not a decision of the current player")
    if decision.concurrent:
        raise PositionError(f"{path}.concurrent", "Venture asks one seat at a time")
    if decision.kind == PLACE:
        corp = decision.data.get("corp")
        if not isinstance(corp, str) or state.deck.corporation(corp) is None:
            raise PositionError(f"{path}.data.corp", f"no corporation is called {short_repr(corp)}")


def _read_zones(state: VentureState, fields: Fields, alloc: _Allocator) -> None:
    """Reads hands, piles, the center, the stock and the holdings."""
    players = state.players
    hands = fields.items("hands", lambda v, p: _names(v, p, alloc.resource))
    holdings = fields.items("holdings", lambda v, p: _holding(v, p, alloc))
    if len(hands) != players or len(holdings) != players:
        raise PositionError("hands" if len(hands) != players else "holdings", f"needs {players} entries")
    state.hands, state.holdings = hands, holdings
    for zone in RESOURCE_ZONES:
        setattr(state, zone, fields.items(zone, alloc.resource))
    for zone in CORP_ZONES:
        setattr(state, zone, fields.items(zone, alloc.corporation))
    if len(state.center) > CENTER_SIZE:
        raise PositionError("center", f"holds at most {CENTER_SIZE} corporations")
    aside = TWO_PLAYER_ASIDE if players == 2 else 0
    if len(state.aside) != aside:
        raise PositionError("aside", f"must hold {aside} corporations with {players} players")
    if any(state.card(r).kind != CAPITAL for r in state.payment):
        raise PositionError("payment", "only capital cards are laid down as payment")


def _names(value: Any, path: str, read: Callable[[Any, str], T]) -> list[T]:
    """Reads a list of card names."""
    if not isinstance(value, list):
        raise PositionError(path, "must be a list")
    return [read(v, f"{path}[{i}]") for i, v in enumerate(value)]


def _holding(value: Any, path: str, alloc: _Allocator) -> list[list[int]]:
    """Reads one seat's stacks, refusing empty stacks and stacks with no common letter."""
    stacks = _names(value, path, lambda v, p: _names(v, p, alloc.corporation))
    for i, stack in enumerate(stacks):
        corps = [alloc.deck.corporations[c] for c in stack]
        if not corps:
            raise PositionError(f"{path}[{i}]", "a stack holds at least one corporation")
        if not common_letters(corps):
            raise PositionError(f"{path}[{i}]", "the corporations of a stack share no letter")
    return stacks


def _read_counters(state: VentureState, fields: Fields) -> None:
    """Reads turn, current seat, debts, flags and scores."""
    state.turn = fields.integer("turn", 1)
    state.current = fields.integer("current", 0, state.players - 1)
    state.owed = fields.integer("owed", 0)
    state.transacted = fields.boolean("transacted")
    state.over = fields.boolean("over")
    state.profit_rounds = fields.integer("profit_rounds", 0, default=0)
    state.profits = fields.items("profits", lambda v, p: check_int(v, p, 0))
    if len(state.profits) != state.players:
        raise PositionError("profits", f"needs {state.players} entries")


def _check_decision(state: VentureState, decision: RawDecision, path: str, alloc: _Allocator) -> None:
    """Refuses a decision of an unknown kind, for another seat, for several at once, or with a bad payload."""
    kind, data = decision.kind, decision.data
    if kind not in (TURN, PLACE, REORGANISE, PAY):
        raise PositionError(f"{path}.kind", f"unknown decision {short_repr(kind)}")
    if decision.seats != [state.current]:
        raise PositionError(f"{path}.seats", f"must list seat {state.current} alone, the current player")
    if decision.concurrent:
        raise PositionError(f"{path}.concurrent", "Venture asks one seat at a time")
    if kind == PLACE:
        data["corp"] = alloc.deck.corporations[alloc.corporation(data.get("corp"), f"{path}.data.corp")].name


SHAPES = ([TURN], [TURN, PLACE], [TURN, REORGANISE], [TURN, PAY])
"""The decision stacks legal play can produce."""


def _check_consistency(state: VentureState) -> None:
    """Refuses positions whose decisions, debts and flags do not add up."""
    kinds = state.stack.kinds()
    _check_profit_rounds(state)
    if state.over:
        if kinds:
            raise PositionError("decisions", "a finished game has no pending decisions")
        return
    if kinds not in SHAPES:
        shapes = ", ".join("+".join(shape) for shape in SHAPES)
        found = short_repr("+".join(kinds)) if kinds else "empty"
        raise PositionError("decisions", f"must be one of {shapes}, not {found}")
    _check_payload(state, kinds)
    if len(kinds) > 1 and not state.transacted:
        raise PositionError("transacted", f"must be true while a '{kinds[-1]}' decision is pending")
    if state.payment and kinds[-1] != PAY:
        raise PositionError("payment", "cards are laid down only while paying")
    if state.owed > wealth(state, state.current):
        raise PositionError("owed", f"{state.owed} is more than seat {state.current} can pay")
    if state.owed and not state.transacted:
        raise PositionError("owed", "nothing is owed before a transaction")
    if any(state.card(r).kind == PROFIT for hand in state.hands for r in hand):
        raise PositionError("hands", "a Profit card never stays in a hand")
    _check_duty(state, kinds)


def _check_profit_rounds(state: VentureState) -> None:
    """Refuses more Profit-card scorings than the turns' draws could have exposed."""
    draws = state.turn - 1 if not state.over else state.turn
    # Each draw exposes each Profit card at most once (ruling A-10 keeps exposed cards out).
    most = draws * sum(1 for card in state.deck.resources if card.kind == PROFIT)
    if state.profit_rounds > most:
        raise PositionError("profit_rounds", f"at most {most} after {draws} turns' draws")


def _check_payload(state: VentureState, kinds: list[str]) -> None:
    """Refuses decision payloads that legal play cannot produce."""
    top = state.stack.top
    allowed = {TURN: {"must_reorganise"}, PLACE: {"corp"}, REORGANISE: {SEEN}, PAY: {"then"}}
    for i, decision in enumerate(state.stack):
        extra = set(decision.data) - allowed[decision.kind]
        if extra:
            raise PositionError(f"decisions[{i}].data.{short_key(sorted(extra)[0])}", "unknown field")
    if kinds[-1] == REORGANISE:
        top.data[SEEN] = _read_seen(state, top.data.get(SEEN), f"decisions[{len(kinds) - 1}].data.{SEEN}")
    if kinds[-1] == PAY:
        expected = "continue" if state.options["payment"] == "each" else "finish"
        if top.data.get("then") != expected:
            option = state.options["payment"]
            raise PositionError(
                "decisions[1].data.then", f"must be {expected!r} with option payment={option}"
            )


def _read_seen(state: VentureState, value: Any, path: str) -> list[str]:
    """Reads the arrangements a reorganisation has passed through (ruling A-16): each reached from the
    one before by one move, none twice, the last one the holdings now.  A position without them (an
    older one) starts the record afresh."""
    now = current(state, state.current)
    if value is None:
        return [now]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise PositionError(path, "must be a list of arrangements (text)")
    held = sorted(c for stack in state.holdings[state.current] for c in stack)
    seen: list[str] = []
    reachable: set[str] = set()
    for i, text in enumerate(value):
        stacks = parse(state.deck, text)
        if stacks is None or sorted(c for stack in stacks for c in stack) != held:
            raise PositionError(f"{path}[{i}]", "must arrange exactly the corporations the player holds")
        canonical = arrangement(state.deck, stacks)
        if canonical in seen:
            raise PositionError(f"{path}[{i}]", "an arrangement is passed through once")
        if seen and canonical not in reachable:
            raise PositionError(f"{path}[{i}]", "must be one move from the arrangement before it")
        seen.append(canonical)
        reachable = {after for _, after in moves(state.deck, stacks)}
    if seen[-1] != now:
        raise PositionError(path, "must end with the holdings as they stand")
    return seen


def _check_duty(state: VentureState, kinds: list[str]) -> None:
    """Refuses a 'word of caution' flag that does not match the holdings (ruling A-6)."""
    duty = next(iter(state.stack)).data.get("must_reorganise")
    at_start = kinds == [TURN] and not state.transacted
    stacks = [[state.corp(c) for c in s] for s in state.holdings[state.current]]
    offends = any(offending(s) for s in stacks)
    affordable = state.corporations_held(state.current) <= wealth(state, state.current)
    where = "decisions[0].data.must_reorganise"
    if duty is not None and (duty is not True or not at_start or not offends or not affordable):
        raise PositionError(
            where,
            "only true, at the start of a turn, when a stack holds two "
            "corporations of one industry and the fee can be paid",
        )
    if duty is None and at_start and offends:
        raise PositionError(
            where,
            "must be true: a stack of the current player holds two corporations "
            "of one industry (ruling A-6)"
            + (
                ""
                if affordable
                else "; he cannot pay, so the penalty applies: load the position before his turn"
            ),
        )
