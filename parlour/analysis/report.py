"""The analysis document (``parlour-analysis/1``): what it holds, its JSON form, and a checking loader."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import TypeVar

from parlour.core.errors import ParlourError
from parlour.core.positions import JSONObject
from parlour.core.record import MAX_VALUES

T = TypeVar("T")
Reader = Callable[[object, str], T]
"""Reads one JSON value found at a path (the second argument), refusing a bad one."""

FORMAT = "parlour-analysis/1"
MAX_DECISIONS = 100_000
"""The most decisions a loaded analysis may hold."""
MAX_ACTIONS = 1_000
"""The most actions a loaded decision may list."""
MAX_TEXT = 400
"""The longest text (an action in notation, a name) a loaded analysis may hold."""
MAX_SEATS = 16
"""The most seats a loaded analysis may name."""
MARK_NAMES = ("", "?!", "?", "??")
VIEWS = ("seat", "hindsight")
"""What an analysis judged from: each seat's information set (``seat``, the default), or the real cards
(``hindsight``: everything revealed; labelled so wherever it is shown, docs/analysis.md)."""


class AnalysisError(ParlourError):
    """An analysis document that is malformed (names the field), or a record that cannot be analysed."""


@dataclass(frozen=True)
class ActionValue:
    """One action of a decision: its mean share over the samples, 95% interval, and its loss against the
    best action (0 for the best; else cross-fitted, losses.py, and negative where it did better)."""

    action: str
    samples: int
    mean: float
    low: float
    high: float
    loss: float
    loss_low: float
    loss_high: float


@dataclass(frozen=True)
class Judgement:
    """One judged decision: the action played (and the routine steps that followed it), every action
    considered, the best, the loss of the one played and its mark."""

    move: int
    """The index of the action in the record's moves (0 is the first)."""
    seat: int
    turn: int
    played: str
    routine: list[str]
    """The seat's own steps that followed without a real choice (payments, forced moves)."""
    legal: int
    """The legal actions there were (more than ``actions`` when some were left out)."""
    actions: list[ActionValue]
    """Best first."""
    best: str
    before: float
    """The seat's expected share before deciding: the best action's mean."""
    after: float
    """The seat's expected share after the action played: its mean."""
    loss: float
    loss_low: float
    loss_high: float
    mark: str
    values: list[tuple[str, float]] | None = None
    """The values the seat's own bot gave each legal action when it chose (``[action, value]`` in its
    order; a ``cmd:`` bot's, docs/bot-protocol.md), or None when it gave none."""


@dataclass(frozen=True)
class PlayerReport:
    """One analysed seat over the game: accuracy, mean loss, marks, and the swings told apart."""

    seat: int
    name: str
    decisions: int
    accuracy: float
    mean_loss: float
    mean_loss_low: float
    mean_loss_high: float
    marks: dict[str, int]
    own_losses: float
    """The sum of its decisions' clear losses (a loss whose interval holds 0 counts as none)."""
    luck: float
    """The rest of the change from the fair share to the final share: chance events and the others'
    decisions (and sampling noise): final - fair + own_losses."""
    fair: float
    final: float
    timeline: list[tuple[int, float, float]]
    """``[move, before, after]`` at each judged decision: the line of its expected share."""


@dataclass(frozen=True)
class Loss:
    """One of the biggest losses: the decision, the action played and the better one."""

    move: int
    seat: int
    played: str
    best: str
    loss: float
    mark: str


@dataclass(frozen=True)
class Analysis:
    """A whole analysis: the game analysed, how, every judged decision and each seat's summary."""

    game: str
    players: int
    seats: list[str]
    moves: int
    analysed: list[int]
    seed: int
    budget: str
    rollout: str
    share: str
    thresholds: dict[str, float]
    final: list[float]
    decisions: list[Judgement] = field(default_factory=list)
    summary: list[PlayerReport] = field(default_factory=list)
    biggest: list[Loss] = field(default_factory=list)
    view: str = "seat"
    """``seat``: judged from each seat's information set; ``hindsight``: from the real cards."""
    format: str = FORMAT

    def to_json(self) -> JSONObject:
        """Returns the JSON form (``load_analysis`` reads it back to an equal Analysis)."""
        data: JSONObject = json.loads(json.dumps(asdict(self)))
        return data


def load_analysis(data: object) -> Analysis:
    """Returns the Analysis a JSON document holds, refusing anything malformed with a one-line
    AnalysisError naming the field (size-limited: ``MAX_DECISIONS``, ``MAX_ACTIONS``, ``MAX_TEXT``)."""
    if isinstance(data, dict) and "view" not in data:
        data = {**data, "view": "seat"}  # written before the hindsight view existed
    top = _object(data, Analysis, "")
    if top["format"] != FORMAT:
        raise AnalysisError(f"format: not a Parlour analysis (expected {FORMAT!r})")
    players = _int(top["players"], "players", 1, MAX_SEATS)
    return Analysis(
        game=_text(top["game"], "game"),
        players=players,
        seats=_list(top["seats"], "seats", players, _text),
        moves=_int(top["moves"], "moves", 0, 10**7),
        analysed=_list(top["analysed"], "analysed", players, lambda v, w: _int(v, w, 0, players - 1)),
        seed=_int(top["seed"], "seed", 0, 2**63 - 1),
        budget=_text(top["budget"], "budget"),
        rollout=_text(top["rollout"], "rollout"),
        share=_text(top["share"], "share"),
        thresholds=_marks(top["thresholds"], "thresholds", _number),
        final=_list(top["final"], "final", players, _number),
        decisions=_list(top["decisions"], "decisions", MAX_DECISIONS, lambda v, w: _judgement(v, w, players)),
        summary=_list(top["summary"], "summary", players, lambda v, w: _player(v, w, players)),
        biggest=_list(top["biggest"], "biggest", MAX_DECISIONS, lambda v, w: _loss(v, w, players)),
        view=_view(top["view"]),
    )


def _view(value: object) -> str:
    """Reads the view an analysis judged from: ``seat`` or ``hindsight``."""
    if value not in VIEWS:
        raise AnalysisError(f"view: must be one of {', '.join(VIEWS)}")
    return str(value)


def _judgement(value: object, where: str, players: int) -> Judgement:
    """Reads one judged decision (one written before bots' values were kept has none)."""
    if isinstance(value, dict) and "values" not in value:
        value = {**value, "values": None}
    d = _object(value, Judgement, where)
    return Judgement(
        move=_int(d["move"], f"{where}.move", 0, 10**7),
        seat=_int(d["seat"], f"{where}.seat", 0, players - 1),
        turn=_int(d["turn"], f"{where}.turn", 0, 10**7),
        played=_text(d["played"], f"{where}.played"),
        routine=_list(d["routine"], f"{where}.routine", MAX_ACTIONS, _text),
        legal=_int(d["legal"], f"{where}.legal", 0, 10**7),
        actions=_list(d["actions"], f"{where}.actions", MAX_ACTIONS, _action),
        best=_text(d["best"], f"{where}.best"),
        before=_number(d["before"], f"{where}.before"),
        after=_number(d["after"], f"{where}.after"),
        loss=_number(d["loss"], f"{where}.loss"),
        loss_low=_number(d["loss_low"], f"{where}.loss_low"),
        loss_high=_number(d["loss_high"], f"{where}.loss_high"),
        mark=_mark(d["mark"], f"{where}.mark"),
        values=None if d["values"] is None else _list(d["values"], f"{where}.values", MAX_VALUES, _valued),
    )


def _valued(value: object, where: str) -> tuple[str, float]:
    """Reads one of a bot's values: ``[action, value]``."""
    action, number = _list(value, where, 2, lambda v, w: v, exact=True)
    return (_text(action, f"{where}[0]"), _number(number, f"{where}[1]"))


def _action(value: object, where: str) -> ActionValue:
    """Reads one action's figures."""
    d = _object(value, ActionValue, where)
    numbers = {
        f.name: _number(d[f.name], f"{where}.{f.name}") for f in fields(ActionValue) if f.type == "float"
    }
    return ActionValue(
        action=_text(d["action"], f"{where}.action"),
        samples=_int(d["samples"], f"{where}.samples", 0, 10**9),
        **numbers,
    )


def _player(value: object, where: str, players: int) -> PlayerReport:
    """Reads one seat's summary."""
    d = _object(value, PlayerReport, where)
    numbers = {
        f.name: _number(d[f.name], f"{where}.{f.name}") for f in fields(PlayerReport) if f.type == "float"
    }
    timeline = _list(d["timeline"], f"{where}.timeline", MAX_DECISIONS, _point)
    return PlayerReport(
        seat=_int(d["seat"], f"{where}.seat", 0, players - 1),
        name=_text(d["name"], f"{where}.name"),
        decisions=_int(d["decisions"], f"{where}.decisions", 0, MAX_DECISIONS),
        marks=_marks(d["marks"], f"{where}.marks", lambda v, w: _int(v, w, 0, MAX_DECISIONS)),
        timeline=timeline,
        **numbers,
    )


def _point(value: object, where: str) -> tuple[int, float, float]:
    """Reads one point of a timeline: ``[move, before, after]``."""
    move, before, after = _list(value, where, 3, lambda v, w: v, exact=True)
    return (
        _int(move, f"{where}[0]", 0, 10**7),
        _number(before, f"{where}[1]"),
        _number(after, f"{where}[2]"),
    )


def _loss(value: object, where: str, players: int) -> Loss:
    """Reads one of the biggest losses."""
    d = _object(value, Loss, where)
    return Loss(
        move=_int(d["move"], f"{where}.move", 0, 10**7),
        seat=_int(d["seat"], f"{where}.seat", 0, players - 1),
        played=_text(d["played"], f"{where}.played"),
        best=_text(d["best"], f"{where}.best"),
        loss=_number(d["loss"], f"{where}.loss"),
        mark=_mark(d["mark"], f"{where}.mark"),
    )


def _object(value: object, kind: type, where: str) -> dict[str, object]:
    """Returns a JSON object with exactly the fields of ``kind`` (a dataclass)."""
    if not isinstance(value, dict):
        raise AnalysisError(f"{where or 'analysis'}: not an object")
    names = {f.name for f in fields(kind)}
    for name in value:
        if name not in names:
            raise AnalysisError(f"{_at(where, str(name)[:40])}: unknown field")
    for name in names:
        if name not in value:
            raise AnalysisError(f"{_at(where, name)}: missing")
    return value


def _at(where: str, name: str) -> str:
    """Returns a field's path."""
    return f"{where}.{name}" if where else name


def _list(value: object, where: str, most: int, read: Reader[T], exact: bool = False) -> list[T]:
    """Returns a JSON list of at most ``most`` items (exactly, with ``exact``), each read by ``read``."""
    if not isinstance(value, list):
        raise AnalysisError(f"{where}: not a list")
    if len(value) > most or (exact and len(value) != most):
        raise AnalysisError(f"{where}: {'not' if exact else 'more than'} {most} items")
    return [read(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _int(value: object, where: str, low: int, high: int) -> int:
    """Returns a whole number from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AnalysisError(f"{where}: not a whole number from {low} to {high}")
    return value


def _number(value: object, where: str) -> float:
    """Returns a finite number (a share, a loss, an accuracy) of reasonable size, as a float."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AnalysisError(f"{where}: not a number")
    number = float(value)
    if not math.isfinite(number) or abs(number) > 1e6:
        raise AnalysisError(f"{where}: not a finite number of reasonable size")
    return number


def _text(value: object, where: str) -> str:
    """Returns a printable text of at most MAX_TEXT characters."""
    if not isinstance(value, str) or len(value) > MAX_TEXT or not value.isprintable():
        raise AnalysisError(f"{where}: not a printable text of at most {MAX_TEXT} characters")
    return value


def _mark(value: object, where: str) -> str:
    """Returns a mark: "", "?!", "?" or "??"."""
    if value not in MARK_NAMES:
        raise AnalysisError(f"{where}: not a mark ({', '.join(repr(m) for m in MARK_NAMES)})")
    return str(value)


def _marks(value: object, where: str, read: Reader[T]) -> dict[str, T]:
    """Returns an object keyed by the marks "?!", "?" and "??", each value read by ``read``."""
    if not isinstance(value, dict) or set(value) != set(MARK_NAMES[1:]):
        raise AnalysisError(f"{where}: not an object of the marks ?!, ? and ??")
    return {name: read(item, f"{where}[{name!r}]") for name, item in value.items()}
