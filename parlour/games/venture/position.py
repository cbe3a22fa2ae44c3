"""Venture positions read back (see docs/positions.md): every field checked, every card in one place,
the decisions and the undo record as legal play makes them (``VentureState.to_position`` writes them)."""

from __future__ import annotations

from parlour.core.chance import Chance
from parlour.core.decisions import Decision, DecisionStack
from parlour.core.errors import NotationError, PositionError
from parlour.core.positions import Fields, check_int, short_repr
from parlour.core.zones import CardReader
from parlour.games.venture.actions import Cancel, Discard, Move, Pay, Proxy, Undo, VentureAction, parse_action
from parlour.games.venture.arrangements import arrangement, current, moves, parse
from parlour.games.venture.conglomerates import common_letters, offending
from parlour.games.venture.content import CAPITAL, PROFIT, Deck
from parlour.games.venture.game_state import VentureGameState
from parlour.games.venture.options import CENTER_SIZE, TWO_PLAYER_ASIDE
from parlour.games.venture.payment import wealth
from parlour.games.venture.record import Step
from parlour.games.venture.reorganisation import Reorganisation
from parlour.games.venture.rules import CONTINUE, FINISH, KINDS, Payment, Turn
from parlour.games.venture.state import (
    FORMAT,
    GAME_NAME,
    Options,
    VentureState,
    corporation_names,
    layout,
)
from parlour.games.venture.takeovers import Placement
from parlour.games.venture.undo import UNDO_LIMIT, restore

HEADER = ("format", "game", "players", "options", "chance")
"""The fields every position starts with (``zones.position_header``)."""
TURN_RECORD = ("decisions", "undo", "undos")
"""The fields after the layout's: the decision stack and the undo record."""
OPTIONAL = {"profit_rounds": 0}
"""Layout fields an older position may lack, with the value they then have."""


def from_position(deck: Deck, data: object, options: Options) -> VentureGameState:
    """Returns the state a position describes, refusing malformed or impossible ones."""
    zones = layout(deck)
    fields = Fields(data, "", {*HEADER, *zones.keys(), *TURN_RECORD})
    if fields.get("format", FORMAT) != FORMAT:
        raise PositionError("format", f"expected {FORMAT!r}")
    if fields.get("game", GAME_NAME) != GAME_NAME:
        raise PositionError("game", f"expected {GAME_NAME!r}")  # a position without it is Venture's too
    players = fields.integer("players", 2, 6)
    state = VentureGameState(deck, players, options, Chance.from_json(fields.get("chance"), "chance"))
    readers = zones.readers()
    for name, value in zones.read(VentureState, {**OPTIONAL, **fields.data}, readers=readers).items():
        setattr(state, name, value)
    _check_zones(state)
    _check_counters(state)
    state.stack = DecisionStack.from_json(fields.get("decisions"), "decisions", players, KINDS)
    corporations = readers[id(corporation_names(deck))]
    for i, decision in enumerate(state.stack):
        _check_decision(state, decision, f"decisions[{i}]", corporations)
    _check_complete(readers[id(zones.cards)], corporations)
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
    if isinstance(decision, Placement):
        corporation_names(state.deck).number(decision.corp, f"{path}.data.corp")


def _check_zones(state: VentureState) -> None:
    """Refuses a hand, holding or profit total per seat too many or too few, a crowded center, the wrong
    number of corporations set aside, a proxy card laid down as payment, and stacks that are empty or
    share no letter."""
    players = state.players
    for name in ("hands", "holdings", "profits"):
        if len(getattr(state, name)) != players:
            raise PositionError(name, f"needs {players} entries")
    if len(state.center) > CENTER_SIZE:
        raise PositionError("center", f"holds at most {CENTER_SIZE} corporations")
    aside = TWO_PLAYER_ASIDE if players == 2 else 0
    if len(state.aside) != aside:
        raise PositionError("aside", f"must hold {aside} corporations with {players} players")
    if any(state.card(r).kind != CAPITAL for r in state.payment):
        raise PositionError("payment", "only capital cards are laid down as payment")
    for seat, stacks in enumerate(state.holdings):
        for i, stack in enumerate(stacks):
            if not stack:
                raise PositionError(f"holdings[{seat}][{i}]", "a stack holds at least one corporation")
            if not common_letters([state.corp(c) for c in stack]):
                raise PositionError(f"holdings[{seat}][{i}]", "the corporations of a stack share no letter")


def _check_counters(state: VentureState) -> None:
    """Refuses a turn, seat, debt, count or score out of range."""
    check_int(state.turn, "turn", 1)
    check_int(state.current, "current", 0, state.players - 1)
    check_int(state.owed, "owed", 0)
    check_int(state.profit_rounds, "profit_rounds", 0)
    for seat, profit in enumerate(state.profits):
        check_int(profit, f"profits[{seat}]", 0)


def _check_decision(state: VentureState, decision: Decision, path: str, corporations: CardReader) -> None:
    """Refuses a decision for another seat or for several at once; places the corporation to place."""
    if decision.seats != [state.current]:
        raise PositionError(f"{path}.seats", f"must list seat {state.current} alone, the current player")
    if decision.concurrent:
        raise PositionError(f"{path}.concurrent", "Venture asks one seat at a time")
    if isinstance(decision, Placement):
        decision.corp = state.corp(corporations.number(decision.corp, f"{path}.data.corp")).name


def _check_complete(resources: CardReader, corporations: CardReader) -> None:
    """Refuses a position where some card is nowhere (the pending placement's corporation counts)."""
    missing = resources.missing()
    if missing:
        raise PositionError("hands", f"cards missing from every zone: {', '.join(sorted(set(missing)))}")
    lost = corporations.missing()
    if lost:
        raise PositionError("stock", f"corporations missing from every zone: {', '.join(lost[:5])}")


SHAPES: tuple[tuple[type[Decision], ...], ...] = (
    (Turn,),
    (Turn, Placement),
    (Turn, Reorganisation),
    (Turn, Payment),
)
"""The decision stacks legal play can produce."""


def _check_consistency(state: VentureState) -> None:
    """Refuses positions whose decisions, debts and flags do not add up."""
    kinds = tuple(type(d) for d in state.stack)
    _check_profit_rounds(state)
    if state.over:
        if kinds:
            raise PositionError("decisions", "a finished game has no pending decisions")
        return
    if kinds not in SHAPES:
        shapes = ", ".join("+".join(kind.kind for kind in shape) for shape in SHAPES)
        found = short_repr("+".join(state.stack.kinds())) if kinds else "empty"
        raise PositionError("decisions", f"must be one of {shapes}, not {found}")
    top = state.stack.top
    if isinstance(top, Reorganisation):
        top.seen = _read_seen(state, top.seen, f"decisions[{len(kinds) - 1}].data.seen")
    if isinstance(top, Payment):
        _check_then(state, top)
    if len(kinds) > 1 and not state.transacted:
        raise PositionError("transacted", f"must be true while a '{kinds[-1].kind}' decision is pending")
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


def _check_duty(state: VentureState, kinds: tuple[type[Decision], ...]) -> None:
    """Refuses a 'word of caution' flag that does not match the holdings (ruling A-6)."""
    duty = _duty(state)
    at_start = kinds == (Turn,) and not state.transacted
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
def _read_record(state: VentureState, value: object, path: str) -> list[Step]:
    """Reads a position's record (structure only; :func:`_check_record` then tries every step back)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PositionError(path, "must be a list of steps")
    return [_read_step(state, entry, f"{path}[{i}]") for i, entry in enumerate(value)]


def _read_step(state: VentureState, entry: object, path: str) -> Step:
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
        return Step(action, at=tuple(check_int(v, f"{path}.at[{i}]", 0, 200) for i, v in enumerate(at)))
    holdings = _corp_lists(state, entry["holdings"], f"{path}.holdings")
    if isinstance(action, Move):
        return Step(action, holdings=holdings)
    center = _corp_lists(state, [entry["center"]], f"{path}.center")[0]
    if not isinstance(entry["transacted"], bool):
        raise PositionError(f"{path}.transacted", "must be true or false")
    stack = DecisionStack.from_json(entry["decisions"], f"{path}.decisions", state.players, KINDS)
    owed = check_int(entry["owed"], f"{path}.owed", 0)
    return Step(action, (), holdings, center, owed, entry["transacted"], stack)


def _recordable(action: VentureAction) -> bool:
    """Returns whether a record may name this action (never a proxy fight, a discard, undo, cancel)."""
    return not isinstance(action, Proxy | Discard | Undo | Cancel)


def _corp_lists(state: VentureState, value: object, path: str) -> tuple[tuple[int, ...], ...]:
    """Reads lists of corporation names as ids."""
    if not isinstance(value, list) or not all(isinstance(s, list) for s in value):
        raise PositionError(path, "must be a list of lists of corporations")
    number = corporation_names(state.deck).number
    return tuple(
        tuple(number(name, f"{path}[{i}][{j}]") for j, name in enumerate(names))
        for i, names in enumerate(value)
    )


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
