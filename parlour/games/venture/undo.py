"""Taking steps back within a turn (ruling A-17): ``undo`` and ``cancel``.

Until a turn's payment is made, a player may take back any step that revealed nothing to the others:
a take-over from the center and its placement, a reorganisation (its start and fee, each move, its
``done``, or ``reorganise best``), ``end`` when it only opened the payment, and a laid payment card.
A proxy fight (it shows a proxy card and takes another player's corporation), a discard and every
draw cannot be taken back, nor can anything before them: each such step empties the record.

Each undoable step leaves an :class:`Undo` record of what it changed, so taking it back restores the
state exactly; ``undos`` counts the steps taken back this turn and at most ``UNDO_LIMIT`` are, so every
turn stays finite whatever is chosen (a turn without taking back is finite: every transaction costs
money the hand must cover, and a reorganisation never repeats an arrangement, ruling A-16).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.core.decisions import DecisionStack, Seat
from parlour.core.errors import NotationError, PositionError
from parlour.core.positions import check_int, short_repr
from parlour.games.venture.actions import Cancel, Done, End, Move, Pay, Undo
from parlour.games.venture.arrangements import SEEN, current

if TYPE_CHECKING:
    from parlour.games.venture.state import VentureState

UNDO_LIMIT = 10
"""Steps a player may take back in one turn (``undo`` and ``cancel`` count one each): ruling A-17."""

REORGANISE_TEXT = "reorganise"


@dataclass(frozen=True, slots=True)
class Step:
    """What one undoable step changed: enough to put the state back exactly as it was.

    ``action`` is the notation of the step.  A payment step keeps the hand positions its cards
    came from; a move keeps the holdings before it (its arrangement leaves the ``seen`` record);
    any other step keeps the holdings, center, debt, flag and decision stack before it.
    """

    action: str
    at: tuple[int, ...] = ()
    holdings: tuple[tuple[int, ...], ...] = ()
    center: tuple[int, ...] = ()
    owed: int = 0
    transacted: bool = False
    decisions: DecisionStack | None = None

    @property
    def kind(self) -> str:
        """``pay``, ``move`` or ``full`` (everything else)."""
        verb = self.action.split(" ", 1)[0]
        return verb if verb in ("pay", "move") else "full"


def undoable(state: VentureState, action: Any) -> bool:
    """Returns whether an action about to be applied can be taken back afterwards."""
    from parlour.games.venture.actions import Discard, Proxy

    if isinstance(action, Proxy | Discard | Undo | Cancel):
        return False
    if isinstance(action, Done):
        return bool(state.stack.top.kind == REORGANISE_TEXT)
    if isinstance(action, End):
        return state.owed > 0
    return True


def record(state: VentureState, seat: Seat, action: Any) -> Step:
    """Returns the record that takes back ``action``, taken before it is applied."""
    text = str(action)
    holdings = tuple(tuple(s) for s in state.holdings[seat])
    if isinstance(action, Pay):
        hand, at = list(state.hands[seat]), []
        for name in action.cards:
            index = next(i for i, r in enumerate(hand) if state.card(r).name == name)
            hand.pop(index)
            at.append(index)
        return Step(text, at=tuple(at))
    if isinstance(action, Move):
        return Step(text, holdings=holdings)
    return Step(
        text,
        holdings=holdings,
        center=tuple(state.center),
        owed=state.owed,
        transacted=state.transacted,
        decisions=state.stack.copy(),
    )


def restore(state: VentureState, seat: Seat, step: Step) -> None:
    """Puts the state back as it was before ``step`` (the record is left untouched)."""
    if step.kind == "pay":
        for index in reversed(step.at):
            state.hands[seat].insert(index, state.payment.pop())
        return
    state.holdings[seat] = [list(s) for s in step.holdings]
    if step.kind == "move":
        state.stack.top.data[SEEN].pop()
        return
    assert step.decisions is not None
    state.center = list(step.center)
    state.owed, state.transacted = step.owed, step.transacted
    state.stack = step.decisions.copy()


def can_undo(state: VentureState) -> bool:
    """Returns whether ``undo`` is offered: a step to take back and the turn's allowance left."""
    return bool(state.undo_log) and state.undos < UNDO_LIMIT


def can_cancel(state: VentureState) -> bool:
    """Returns whether ``cancel`` is offered: reorganising, its start recorded, allowance left."""
    return (
        state.stack.top.kind == REORGANISE_TEXT
        and state.undos < UNDO_LIMIT
        and any(s.action == REORGANISE_TEXT for s in state.undo_log)
    )


def take_back(state: VentureState, seat: Seat) -> None:
    """Takes back the last undoable step (``undo``)."""
    step = state.undo_log.pop()
    restore(state, seat, step)
    state.undos += 1
    state.emit(
        f"seat {seat} takes back '{step.action}' ({UNDO_LIMIT - state.undos} more take-backs this turn)"
    )


def cancel(state: VentureState, seat: Seat) -> None:
    """Takes back the reorganisation under way: its moves, then its start and fee (``cancel``)."""
    while True:
        step = state.undo_log.pop()
        restore(state, seat, step)
        if step.action == REORGANISE_TEXT:
            break
    state.undos += 1
    state.emit(
        f"seat {seat} cancels the reorganisation: holdings and fee as before "
        f"({UNDO_LIMIT - state.undos} more take-backs this turn)"
    )


# ---------------------------------------------------------------- positions
def to_json(state: VentureState) -> list[dict[str, Any]]:
    """Returns the record as position data (card names; the stack in its position form)."""

    def corps(stacks: tuple[tuple[int, ...], ...]) -> list[list[str]]:
        return [[state.corp(c).name for c in s] for s in stacks]

    result: list[dict[str, Any]] = []
    for step in state.undo_log:
        entry: dict[str, Any] = {"action": step.action}
        if step.kind == "pay":
            entry["at"] = list(step.at)
        else:
            entry["holdings"] = corps(step.holdings)
        if step.kind == "full":
            assert step.decisions is not None
            entry["center"] = [state.corp(c).name for c in step.center]
            entry["owed"], entry["transacted"] = step.owed, step.transacted
            entry["decisions"] = step.decisions.to_json()
        result.append(entry)
    return result


def read(state: VentureState, value: Any, path: str) -> list[Step]:
    """Reads a position's record (structure only; :func:`check` then tries every step back)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PositionError(path, "must be a list of steps")
    return [_read_step(state, entry, f"{path}[{i}]") for i, entry in enumerate(value)]


def _read_step(state: VentureState, entry: Any, path: str) -> Step:
    """Reads one step of the record."""
    from parlour.games.venture.actions import parse_action

    if not isinstance(entry, dict) or not isinstance(entry.get("action"), str):
        raise PositionError(path, "must be an object with the step's action (text)")
    text = entry["action"]
    try:
        action = parse_action(text)
    except NotationError:
        raise PositionError(f"{path}.action", f"not an action: {short_repr(text)}") from None
    if str(action) != text or not undoable_kind(action):
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
    stack = DecisionStack.from_json(entry["decisions"], f"{path}.decisions", state.players)
    owed = check_int(entry["owed"], f"{path}.owed", 0)
    return Step(text, (), holdings, center, owed, entry["transacted"], stack)


def undoable_kind(action: Any) -> bool:
    """Returns whether a record may name this action (never a proxy fight, a discard, undo, cancel)."""
    from parlour.games.venture.actions import Discard, Proxy

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


def check(state: VentureState, validate: Any) -> None:
    """Refuses a record whose steps, taken back one by one, would not each give a lawful position.

    ``validate(copy)`` raises PositionError for a bad state.  Each step must fit what follows it: a
    payment step needs its cards laid down, a move step a reorganisation whose record ends with the
    arrangement it leaves, and every state reached must pass the position checks.
    """
    copy = state.clone()
    seat = copy.current
    for index in range(len(copy.undo_log) - 1, -1, -1):
        step = copy.undo_log.pop()
        path = f"undo[{index}]"
        top = copy.stack.top.kind if len(copy.stack) else ""
        if step.kind == "pay":
            if top != "pay" or len(copy.payment) < len(step.at):
                raise PositionError(path, "a payment step needs its cards laid down while paying")
            if any(i > len(copy.hands[seat]) + n for n, i in enumerate(reversed(step.at))):
                raise PositionError(f"{path}.at", "a hand position past the end of the hand")
        if step.kind == "move":
            seen = copy.stack.top.data.get(SEEN, []) if top == REORGANISE_TEXT else []
            if len(seen) < 2:
                raise PositionError(path, "a move step needs a reorganisation with a move recorded")
        before = current(copy, seat)
        restore(copy, seat, step)
        if step.kind == "move" and copy.stack.top.data[SEEN][-1] != current(copy, seat):
            raise PositionError(f"{path}.holdings", "must be the arrangement the move left")
        if step.kind == "move" and before == current(copy, seat):
            raise PositionError(f"{path}.holdings", "a move changes the arrangement")
        # A move's holdings are the arrangement its record names, already checked as part of the
        # reorganisation's record: only the other steps need the whole position checked (linear time).
        if step.kind != "move":
            validate(copy, path)
