"""Venture positions read back (see docs/positions.md): every field checked, every card in one place,
the decisions and the undo record as legal play makes them (``VentureState.to_position`` writes them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from parlour.core.chance import Chance
from parlour.core.decisions import Decision, DecisionStack
from parlour.core.errors import NotationError, PositionError
from parlour.core.positions import Fields, check_int, check_str, short_repr
from parlour.games.venture.actions import Cancel, Discard, Move, Pay, Proxy, Undo, VentureAction, parse_action
from parlour.games.venture.arrangements import arrangement, current, moves, parse
from parlour.games.venture.conglomerates import common_letters, offending
from parlour.games.venture.content import CAPITAL, PROFIT, Deck
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.options import CENTER_SIZE, TWO_PLAYER_ASIDE
from parlour.games.venture.payment import wealth
from parlour.games.venture.reorganisation import Reorganisation
from parlour.games.venture.rules import CONTINUE, FINISH, KINDS, Payment, Turn
from parlour.games.venture.state import FORMAT, GAME_NAME, Step, VentureState
from parlour.games.venture.takeovers import Placement
from parlour.games.venture.undo import UNDO_LIMIT, restore

T = TypeVar("T")

FIELDS = {
    "format",
    "game",
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


def from_position(deck: Deck, data: Any, options: dict[str, Any]) -> VentureGameState:
    """Returns the state a position describes, refusing malformed or impossible ones."""
    fields = Fields(data, "", FIELDS)
    if fields.get("format", FORMAT) != FORMAT:
        raise PositionError("format", f"expected {FORMAT!r}")
    if fields.get("game", GAME_NAME) != GAME_NAME:
        raise PositionError("game", f"expected {GAME_NAME!r}")  # a position without it is Venture's too
    players = fields.integer("players", 2, 6)
    state = VentureGameState(deck, players, options, Chance.from_json(fields.get("chance"), "chance"))
    alloc = _Allocator(deck)
    _read_zones(state, fields, alloc)
    _read_counters(state, fields)
    state.stack = DecisionStack.from_json(fields.get("decisions"), "decisions", players, KINDS)
    for i, decision in enumerate(state.stack):
        _check_decision(state, decision, f"decisions[{i}]", alloc)
    alloc.check_complete()
    _check_consistency(state)
    state.undos = fields.integer("undos", 0, UNDO_LIMIT, default=0)
    state.undo_log = _read_record(state, fields.get("undo", None), "undo")
    if state.undo_log and (state.over or _duty(state)):
        raise PositionError("undo", "nothing can be taken back here")
    _check_record(state)
    return state


def _duty(state: VentureState) -> bool:
    """Returns whether the turn must begin with a reorganisation ('a word of caution', ruling A-6)."""
    turn = state.stack[0] if len(state.stack) else None
    return isinstance(turn, Turn) and turn.must_reorganise


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


def _check_restored_decision(state: VentureState, decision: Decision, path: str) -> None:
    """Refuses a recorded decision for another seat, or with a corporation the deck lacks."""
    if decision.seats != [state.current]:
        raise PositionError(path, "not a decision of the current player")
    if decision.concurrent:
        raise PositionError(f"{path}.concurrent", "Venture asks one seat at a time")
    if isinstance(decision, Placement) and state.deck.corporation(decision.corp) is None:
        raise PositionError(f"{path}.data.corp", f"no corporation is called {short_repr(decision.corp)}")


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


def _check_decision(state: VentureState, decision: Decision, path: str, alloc: _Allocator) -> None:
    """Refuses a decision for another seat or for several at once; places the corporation to place."""
    if decision.seats != [state.current]:
        raise PositionError(f"{path}.seats", f"must list seat {state.current} alone, the current player")
    if decision.concurrent:
        raise PositionError(f"{path}.concurrent", "Venture asks one seat at a time")
    if isinstance(decision, Placement):
        decision.corp = state.corp(alloc.corporation(decision.corp, f"{path}.data.corp")).name


SHAPES = (
    [Turn.kind],
    [Turn.kind, Placement.kind],
    [Turn.kind, Reorganisation.kind],
    [Turn.kind, Payment.kind],
)
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
    top = state.stack.top
    if isinstance(top, Reorganisation):
        top.seen = _read_seen(state, top.seen, f"decisions[{len(kinds) - 1}].data.seen")
    if isinstance(top, Payment):
        _check_then(state, top)
    if len(kinds) > 1 and not state.transacted:
        raise PositionError("transacted", f"must be true while a '{kinds[-1]}' decision is pending")
    if state.payment and not isinstance(top, Payment):
        raise PositionError("payment", "cards are laid down only while paying")
    if state.owed > wealth(state, state.current):
        raise PositionError("owed", f"{state.owed} is more than seat {state.current} can pay")
    if state.owed and not state.transacted:
        raise PositionError("owed", "nothing is owed before a transaction")
    if state.owed and isinstance(top, Turn) and state.options["payment"] == "each":
        raise PositionError("owed", "with option payment=each a transaction is paid at once (ruling A-1)")
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


def _check_then(state: VentureState, payment: Payment) -> None:
    """Refuses a payment whose follow-up does not match option payment (ruling A-1)."""
    option = state.options["payment"]
    expected = CONTINUE if option == "each" else FINISH
    if payment.then != expected:
        raise PositionError("decisions[1].data.then", f"must be {expected!r} with option payment={option}")


def _read_seen(state: VentureState, seen: list[str], path: str) -> list[str]:
    """Checks the arrangements a reorganisation has passed through (ruling A-16): each reached from the
    one before by one move, none twice, the last one the holdings now.  A position without them (an
    older one) starts the record afresh."""
    now = current(state, state.current)
    if not seen:
        return [now]
    held = sorted(c for stack in state.holdings[state.current] for c in stack)
    canonical: list[str] = []
    reachable: set[str] = set()
    for i, text in enumerate(seen):
        stacks = parse(state.deck, text)
        if stacks is None or sorted(c for stack in stacks for c in stack) != held:
            raise PositionError(f"{path}[{i}]", "must arrange exactly the corporations the player holds")
        written = arrangement(state.deck, stacks)
        if written in canonical:
            raise PositionError(f"{path}[{i}]", "an arrangement is passed through once")
        if canonical and written not in reachable:
            raise PositionError(f"{path}[{i}]", "must be one move from the arrangement before it")
        canonical.append(written)
        reachable = {after for _, after in moves(state.deck, stacks)}
    if canonical[-1] != now:
        raise PositionError(path, "must end with the holdings as they stand")
    return canonical


def _check_duty(state: VentureState, kinds: list[str]) -> None:
    """Refuses a 'word of caution' flag that does not match the holdings (ruling A-6)."""
    duty = _duty(state)
    at_start = kinds == [Turn.kind] and not state.transacted
    stacks = [[state.corp(c) for c in s] for s in state.holdings[state.current]]
    offends = any(offending(s) for s in stacks)
    affordable = state.corporations_held(state.current) <= wealth(state, state.current)
    where = "decisions[0].data.must_reorganise"
    if duty and (not at_start or not offends or not affordable):
        raise PositionError(
            where,
            "only true, at the start of a turn, when a stack holds two "
            "corporations of one industry and the fee can be paid",
        )
    if not duty and at_start and offends:
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


# ---------------------------------------------------------------- the undo record (ruling A-17)
def _read_record(state: VentureState, value: Any, path: str) -> list[Step]:
    """Reads a position's record (structure only; :func:`_check_record` then tries every step back)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PositionError(path, "must be a list of steps")
    return [_read_step(state, entry, f"{path}[{i}]") for i, entry in enumerate(value)]


def _read_step(state: VentureState, entry: Any, path: str) -> Step:
    """Reads one step of the record."""
    if not isinstance(entry, dict) or not isinstance(entry.get("action"), str):
        raise PositionError(path, "must be an object with the step's action (text)")
    text = entry["action"]
    try:
        action = parse_action(text)
    except NotationError:
        raise PositionError(f"{path}.action", f"not an action: {short_repr(text)}") from None
    if str(action) != text or not _recordable(action):
        raise PositionError(f"{path}.action", f"not a step that can be taken back: {short_repr(text)}")
    keys = {"action", "at"} if isinstance(action, Pay) else {"action", "holdings"}
    if not isinstance(action, Pay | Move):
        keys |= {"center", "owed", "transacted", "decisions"}
    if set(entry) != keys:
        raise PositionError(path, f"needs exactly the fields {', '.join(sorted(keys))}")
    if isinstance(action, Pay):
        at = entry["at"]
        if not isinstance(at, list) or len(at) != len(action.cards):
            raise PositionError(f"{path}.at", "one hand position per card laid")
        return Step(text, at=tuple(check_int(v, f"{path}.at[{i}]", 0, 200) for i, v in enumerate(at)))
    holdings = _corp_lists(state, entry["holdings"], f"{path}.holdings")
    if isinstance(action, Move):
        return Step(text, holdings=holdings)
    center = _corp_lists(state, [entry["center"]], f"{path}.center")[0]
    if not isinstance(entry["transacted"], bool):
        raise PositionError(f"{path}.transacted", "must be true or false")
    stack = DecisionStack.from_json(entry["decisions"], f"{path}.decisions", state.players, KINDS)
    owed = check_int(entry["owed"], f"{path}.owed", 0)
    return Step(text, (), holdings, center, owed, entry["transacted"], stack)


def _recordable(action: VentureAction) -> bool:
    """Returns whether a record may name this action (never a proxy fight, a discard, undo, cancel)."""
    return not isinstance(action, Proxy | Discard | Undo | Cancel)


def _corp_lists(state: VentureState, value: Any, path: str) -> tuple[tuple[int, ...], ...]:
    """Reads lists of corporation names as ids."""
    if not isinstance(value, list) or not all(isinstance(s, list) for s in value):
        raise PositionError(path, "must be a list of lists of corporations")
    result = []
    for i, names in enumerate(value):
        ids = []
        for j, name in enumerate(names):
            corp = state.deck.corporation(name) if isinstance(name, str) else None
            if corp is None:
                raise PositionError(f"{path}[{i}][{j}]", f"no corporation is called {short_repr(name)}")
            ids.append(corp.id)
        result.append(tuple(ids))
    return tuple(result)


def _check_record(state: VentureState) -> None:
    """Refuses a record whose steps, taken back one by one, would not each give a lawful position.

    Each step must fit what follows it: a payment step needs its cards laid down, a move step a
    reorganisation whose record ends with the arrangement it leaves, and every state reached must
    pass the position checks.
    """
    copy = state.clone()
    seat = copy.current
    for index in range(len(copy.undo_log) - 1, -1, -1):
        step = copy.undo_log.pop()
        path = f"undo[{index}]"
        top = copy.stack.top if len(copy.stack) else None
        if step.kind == "pay":
            if not isinstance(top, Payment) or len(copy.payment) < len(step.at):
                raise PositionError(path, "a payment step needs its cards laid down while paying")
            if any(i > len(copy.hands[seat]) + n for n, i in enumerate(reversed(step.at))):
                raise PositionError(f"{path}.at", "a hand position past the end of the hand")
        if step.kind == "move" and (not isinstance(top, Reorganisation) or len(top.seen) < 2):
            raise PositionError(path, "a move step needs a reorganisation with a move recorded")
        before = current(copy, seat)
        restore(copy, seat, step)
        if step.kind == "move":
            assert isinstance(top, Reorganisation)
            if top.seen[-1] != current(copy, seat):
                raise PositionError(f"{path}.holdings", "must be the arrangement the move left")
            if before == current(copy, seat):
                raise PositionError(f"{path}.holdings", "a move changes the arrangement")
        # A move's holdings are the arrangement its record names, already checked as part of the
        # reorganisation's record: only the other steps need the whole position checked (linear time).
        if step.kind != "move":
            _check_restored(copy, path)
