"""Typed readers for the decisions of a Venus Needs Men! position: each kind's data, seats and place.

Every decision a position brings is checked here before the rules see it: the
keys and types of its data, the ranges of its numbers, the seats it asks, and
where on the stack it sits (a turn is the program ``finish``, the end Zap
window, ``extend``, the action's decision; what interrupts it sits above).
Which seats a Zap window may list is the window's own rule (``zapping``); here
only its structure is checked: a closed window asks nobody.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.core.decisions import RawDecision
from parlour.core.errors import PositionError
from parlour.core.positions import check_int, short_key, short_repr
from parlour.games.venus_needs_men.combat import REFUGE, SCAVENGE
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.phases import (
    ACT,
    ATTACKING,
    COLLECTING,
    DECLARE,
    END,
    EXTEND,
    EXTRA,
    FINISH,
    IMMEDIATE,
    MOVING,
    PHASE_OF,
    RELEASE,
    ROLL,
    SAVE,
    START,
    ZAP,
)
from parlour.games.venus_needs_men.zapdeck import EFFECTS

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState

ACTIONS = ("build", "move", "attack", "collect", "research")
"""The actions a turn (and an extension's extra step) takes."""
IMMEDIATE_ACTIONS = tuple(e.split("-", 1)[1] for e in EFFECTS if e.startswith("immediate-"))
"""The steps immediate-action Zap cards give."""
PHASES = (MOVING, ATTACKING, COLLECTING)
OWN_TURN = (ACT, *PHASES, EXTEND, EXTRA)
"""Decisions that ask the active seat alone."""
TOP_ONLY = (EXTRA, IMMEDIATE, SCAVENGE, RELEASE)
"""Decisions whose step pops them first: nothing is ever pushed on them."""
INTERRUPTS = (IMMEDIATE, SCAVENGE, RELEASE)
"""Decisions pushed in the middle of a turn (besides the Zap windows); a release ends one."""
MAX_DICE = 6
"""More dice than any weapon rolls."""
MAX_NUMBER = 100
"""Larger than any hit number, weapon bonus or jam a legal game reaches."""

Reader = Callable[["VenusState", Any, str], Any]


# ------------------------------------------------------------------ values
def _boolean(state: VenusState, value: Any, path: str) -> bool:
    """Reads true or false."""
    if not isinstance(value, bool):
        raise PositionError(path, "must be true or false")
    return value


def _ship(state: VenusState, value: Any, path: str) -> str:
    """Reads a spaceship of this game."""
    if not isinstance(value, str) or value not in state.ships:
        raise PositionError(path, f"{short_repr(value)} is not a spaceship in this game")
    return value


def _target(state: VenusState, value: Any, path: str) -> str:
    """Reads an attack's target: a spaceship, or Earth's Refuge."""
    return REFUGE if value == REFUGE else _ship(state, value, path)


def _dice(state: VenusState, value: Any, path: str) -> list[int]:
    """Reads the dice of a roll (1 to 10 each)."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DICE:
        raise PositionError(path, f"must list 1 to {MAX_DICE} dice")
    return [check_int(d, f"{path}[{i}]", 1, DIE) for i, d in enumerate(value)]


def _number(state: VenusState, value: Any, path: str) -> int:
    """Reads a small non-negative number (a hit number, a bonus, a jam)."""
    return check_int(value, path, 0, MAX_NUMBER)


def _card_of(effects: tuple[str, ...], zero: bool) -> Reader:
    """Returns a reader of a Zap card number with one of ``effects`` (or 0 for none, if ``zero``)."""

    def read(state: VenusState, value: Any, path: str) -> int:
        if zero and value == 0 and not isinstance(value, bool):
            return 0
        number = check_int(value, path, 1, max(state.zap.cards))
        if number not in state.zap.cards or state.card(number).effect not in effects:
            raise PositionError(path, f"must be a Zap card with effect {' or '.join(effects)}")
        return number

    return read


def _weapon(state: VenusState, value: Any, path: str) -> str:
    """Reads the weapon a declared attack names: none, or a weapon Upgrade (a Q-Ray owner's Gatling)."""
    if value == "" or (
        isinstance(value, str)
        and value in state.tech.upgrades
        and state.tech.upgrades[value].slot == "weapon"
    ):
        return str(value)
    raise PositionError(path, "must be '' or a weapon Upgrade (e.g. gatling)")


def _plays(state: VenusState, value: Any, path: str) -> list[list[Any]]:
    """Reads the hit and miss cards played on a roll: ``[[number, "hit"|"miss"], ...]``."""
    if not isinstance(value, list):
        raise PositionError(path, "must be a list of [card, effect]")
    found = []
    for i, entry in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(entry, list) or len(entry) != 2 or entry[1] not in ("hit", "miss"):
            raise PositionError(where, "must be [card, 'hit' or 'miss']")
        found.append([_card_of((str(entry[1]),), False)(state, entry[0], where), entry[1]])
    if len({n for n, _ in found}) != len(found):
        raise PositionError(path, "a Zap card is played once")
    return found


def _action(state: VenusState, value: Any, path: str) -> str:
    """Reads the action an extension's extra step belongs to."""
    if value not in ACTIONS:
        raise PositionError(path, f"must be one of {', '.join(ACTIONS)}")
    return str(value)


def _immediate(state: VenusState, value: Any, path: str) -> str:
    """Reads the action of an immediate-action Zap card."""
    if value not in IMMEDIATE_ACTIONS:
        raise PositionError(path, f"must be one of {', '.join(IMMEDIATE_ACTIONS)}")
    return str(value)


def _mind_controller(state: VenusState, value: Any, path: str) -> str:
    """Reads the planet choosing which ships to release: one in play with Mind Control (A-10)."""
    from parlour.games.venus_needs_men.enhanced import has_special

    if not isinstance(value, str) or not has_special(state, value, "mindcontrol"):
        raise PositionError(path, "must be a planet in play with Mind Control (Enhanced: Mars)")
    return value


# ------------------------------------------------------------------ data by kind
WINDOW: dict[str, Reader | None] = {"moment": None, "open": _boolean}
"""Every Zap window's data; its moment says what else it holds."""
WINDOW_DATA: dict[str, dict[str, Reader | None]] = {
    START: {**WINDOW, "everyone": _boolean},
    END: WINDOW,
    ROLL: {
        **WINDOW,
        "attacker": _ship,
        "target": _target,
        "dice": _dice,
        "plays": _plays,
        "jam": _number,
        "need": _number,
        "bonus": _number,
        "qray": _boolean,
        "cards": _boolean,
    },
    DECLARE: {
        **WINDOW,
        "attacker": _ship,
        "target": _target,
        "weapon": _weapon,
        "cards": _boolean,
        "main": _boolean,
    },
    SAVE: {
        **WINDOW,
        "ship": _ship,
        "cause": _card_of(("destroy",), True),
        "saved_by": _card_of(("save",), True),
        "cards": _boolean,
    },
}
DATA: dict[str, dict[str, Reader | None]] = {
    ACT: {},
    MOVING: {},
    ATTACKING: {},
    COLLECTING: {},
    EXTEND: {},
    FINISH: {},
    SCAVENGE: {},
    EXTRA: {"action": _action},
    IMMEDIATE: {"action": _immediate},
    RELEASE: {"planet": _mind_controller},
}


def read_data(state: VenusState, decision: RawDecision, path: str) -> None:
    """Checks a decision's kind and data (exact keys, types, ranges), refusing with the field's path."""
    if decision.kind == ZAP:
        moment = decision.data.get("moment")
        if not isinstance(moment, str) or moment not in WINDOW_DATA:
            raise PositionError(f"{path}.data.moment", f"must be one of {', '.join(WINDOW_DATA)}")
        fields = WINDOW_DATA[moment]
        if moment == START:
            decision.data.setdefault("everyone", True)  # Whom it asks (B-3); optional, as before.
    elif decision.kind in DATA:
        fields = DATA[decision.kind]
    else:
        raise PositionError(f"{path}.kind", f"unknown decision {short_repr(decision.kind)}")
    extra = sorted(set(decision.data) - set(fields))
    if extra:
        raise PositionError(f"{path}.data.{short_key(extra[0])}", "unknown field")
    for name, read in fields.items():
        if name not in decision.data:
            raise PositionError(f"{path}.data.{name}", "missing")
        if read is not None:
            decision.data[name] = read(state, decision.data[name], f"{path}.data.{name}")
    if decision.concurrent:
        raise PositionError(f"{path}.concurrent", "Venus Needs Men! asks one seat at a time")


# ------------------------------------------------------------------ seats
def read_seats(state: VenusState, decision: RawDecision, path: str) -> None:
    """Checks whom a decision asks: the active seat on its own turn, Earth scavenging, nobody when closed."""
    seats, kind = decision.seats, decision.kind
    if kind in OWN_TURN and seats != [state.active_seat]:
        raise PositionError(f"{path}.seats", f"the {kind} decision belongs to seat {state.active_seat}")
    if kind == FINISH and seats:
        raise PositionError(f"{path}.seats", "the end of the turn asks nobody")
    if kind == IMMEDIATE and len(seats) != 1:
        raise PositionError(f"{path}.seats", "an immediate action asks the seat that played the card")
    if kind == SCAVENGE and ("earth" not in state.seat_of or seats != [state.seat_of["earth"]]):
        raise PositionError(f"{path}.seats", "only Earth scavenges a wreck")
    if kind == RELEASE and seats != [state.seat_of[str(decision.data["planet"])]]:
        raise PositionError(f"{path}.seats", "the planet with Mind Control chooses which ships to release")
    if kind == ZAP and not decision.data["open"] and seats:
        raise PositionError(f"{path}.seats", "a Zap window that has not opened asks nobody yet")


# ------------------------------------------------------------------ the stack
def _moment(decision: RawDecision) -> str | None:
    """Returns a Zap window's moment (None for another decision)."""
    return str(decision.data["moment"]) if decision.kind == ZAP else None


def _base_length(stack: list[RawDecision]) -> int:
    """Returns how many decisions at the bottom form the turn's program (finish, end window, extend...)."""
    expected: list[Callable[[RawDecision], bool]] = [
        lambda d: d.kind == FINISH,
        lambda d: _moment(d) == END,
        lambda d: d.kind == EXTEND,
        lambda d: d.kind in (ACT, *PHASES, EXTRA),
    ]
    length = 0
    for decision, fits in zip(stack, expected, strict=False):
        if not fits(decision):
            break
        length += 1
    return length


def _may_sit_on(upper: RawDecision, lower: RawDecision) -> bool:
    """Returns whether legal play can push ``upper`` directly on ``lower``."""
    if upper.kind == ZAP and _moment(upper) == START:
        return lower.kind == ACT
    if upper.kind == RELEASE:
        return lower.kind == FINISH  # Ships are released at the end of a turn.
    if upper.kind == IMMEDIATE:
        # An immediate-action card is played from a window (never a save window).
        return lower.kind == ZAP and _moment(lower) != SAVE
    if upper.kind == ZAP and _moment(upper) in (DECLARE, ROLL):
        # An attack step: the attack action's phase, an extension's step, an immediate card's step.
        return lower.kind in (ATTACKING, EXTEND) or (lower.kind == ZAP and _moment(lower) != SAVE)
    # A save window and Earth's scavenging follow a hit, a Zap card or a wreck wherever those happen.
    return lower.kind in (ATTACKING, EXTEND, ZAP)


def read_stack(state: VenusState) -> None:
    """Checks every decision and the stack's shape: the turn's program, then what interrupts it."""
    stack = list(state.stack)
    if not stack:
        return
    for i, decision in enumerate(stack):
        read_data(state, decision, f"decisions[{i}]")
        read_seats(state, decision, f"decisions[{i}]")
    base = _base_length(stack)
    if base == 0:
        raise PositionError("decisions[0]", "a turn's decisions start with 'finish'")
    for i in range(base, len(stack)):
        upper, lower = stack[i], stack[i - 1]
        if upper.kind not in (ZAP, *INTERRUPTS) or _moment(upper) == END or not _may_sit_on(upper, lower):
            raise PositionError(f"decisions[{i}]", f"a {_name(upper)} cannot follow a {_name(lower)}")
    for i, decision in enumerate(stack[:-1]):
        above = stack[i + 1]
        if decision.kind in TOP_ONLY or (decision.kind == ACT and _moment(above) != START):
            raise PositionError(f"decisions[{i}]", f"nothing is pushed on a {_name(decision)}")
        if decision.kind == ZAP and (decision.data["open"] or decision.seats):
            raise PositionError(f"decisions[{i}]", "a Zap window under another decision is closed")
    _read_action(state, stack, base)


def _name(decision: RawDecision) -> str:
    """Returns a decision's name for messages (a window with its moment)."""
    return f"{decision.data['moment']} Zap window" if decision.kind == ZAP else f"'{decision.kind}' decision"


def _read_action(state: VenusState, stack: list[RawDecision], base: int) -> None:
    """Checks the turn's chosen action against its decisions: none before 'act', the phase's own after."""
    step = stack[3] if base == 4 else None
    if step is not None and step.kind == ACT and state.action:
        raise PositionError("action", "no action is chosen while the 'act' decision is pending")
    if step is not None and step.kind in PHASES and PHASE_OF.get(state.action) != step.kind:
        raise PositionError("action", f"must be the action the '{step.kind}' decision continues")
    if step is not None and step.kind == EXTRA and step.data["action"] != state.action:
        raise PositionError("decisions[3].data.action", "an extra step belongs to the turn's action")


__all__ = ["read_stack"]
