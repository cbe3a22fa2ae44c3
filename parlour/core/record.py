"""Game records: game, options, seats, seed and the actions in notation; replay to the same end."""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from parlour.core.chance import Forced, ForcedJSON, read_forced
from parlour.core.content import parse_json_bytes
from parlour.core.errors import ContentError, OptionError, ParlourError, PositionError, RecordError
from parlour.core.game import Game
from parlour.core.log import GameLog
from parlour.core.positions import JSONObject, JSONValue
from parlour.core.state import GameState

FORMAT = "parlour-record/1"
KEY_FORMAT = "parlour-key/1"
SEALED = "sealed"
"""The field of an unfinished game's readable record that names its key (a random id, never a path)."""
KEY_ID_LENGTH = 32
MAX_VALUES = 4_096
"""The most values a move may hold (one per legal action of its decision)."""


@dataclass(frozen=True)
class Move:
    """One recorded action: who acted, what (in notation), any forced outcomes fed first, and the values
    the seat's agent gave the legal actions when it chose (a ``cmd:`` bot's, docs/bot-protocol.md)."""

    seat: int
    action: str
    forced: tuple[Forced, ...] = ()
    values: tuple[float, ...] | None = None
    """One number per legal action, in ``legal_actions`` order; None when the agent gave none."""


class MoveJSON(TypedDict):
    """A move as a record stores it (``forced`` only when a table entered real dice or cards, ``values``
    only when the agent gave them)."""

    seat: int
    action: str
    forced: NotRequired[list[ForcedJSON]]
    values: NotRequired[list[float]]


@dataclass
class GameRecord:
    """A replayable game: seed plus actions reproduce every state exactly.

    The JSON form (``format: parlour-record/1``) holds ``game``, ``players``,
    ``options``, ``seats`` (the agent name at each seat), ``seed``, ``moves``
    (each ``{"seat", "action"}`` and, when a table entered real dice or cards,
    ``"forced"``: the outcomes fed to chance before that action), once
    finished, ``scores``, and ``start``, the starting position, for a game
    that did not begin with the seed's deal.

    Before the game is over the record is kept in two parts (:meth:`seal`): the
    readable record without a secret (no ``seed``, ``start`` or ``forced``; a
    ``sealed`` id instead) and its key (``format: parlour-key/1``: the same
    ``sealed`` id, ``seed``, ``forced`` by move index, ``start``).
    """

    game: str
    players: int
    seed: int
    options: JSONObject = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    scores: list[float] | None = None
    start: JSONObject | None = None
    """The starting position when the game did not start from the seed's deal."""
    key_id: str = field(default="", compare=False)
    """The id linking the readable part of an unfinished game's record to its key (set by :meth:`seal`)."""

    def add(
        self, seat: int, action: str, forced: tuple[Forced, ...] = (), values: tuple[float, ...] | None = None
    ) -> None:
        """Appends an applied action (with the values its agent gave the legal actions, if any)."""
        self.moves.append(Move(seat, action, forced, values))

    def to_json(self) -> JSONObject:
        """Returns the JSON form."""
        moves: list[MoveJSON] = []
        for move in self.moves:
            entry: MoveJSON = {"seat": move.seat, "action": move.action}
            if move.forced:
                entry["forced"] = [{"kind": f.kind, "value": f.value} for f in move.forced]
            if move.values is not None:
                entry["values"] = list(move.values)
            moves.append(entry)
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seats": list(self.seats),
            "seed": self.seed,
            "moves": moves,
            "scores": self.scores,
            **({"start": self.start} if self.start is not None else {}),
        }

    def dumps(self) -> str:
        """Returns the record as JSON text."""
        return json.dumps(self.to_json(), indent=1)

    def seal(self) -> tuple[JSONObject, JSONObject]:
        """Returns an unfinished game's readable record (no secret) and its key (every secret).

        The readable part is the JSON form without ``seed``, ``start``, the
        moves' ``forced`` outcomes and their ``values`` (an agent's values tell
        what its seat could do, so its cards), plus ``sealed``: a random id.  The
        key is ``{"format": "parlour-key/1", "sealed": id, "seed": ...,
        "forced": {"<move index>": [outcomes]}}`` with ``"values"`` (by move
        index, likewise) when a move has some and ``"start"`` when the record has one.
        """
        if not self.key_id:
            self.key_id = secrets.token_hex(KEY_ID_LENGTH // 2)
        readable = self.to_json()
        secret: JSONObject = {"format": KEY_FORMAT, SEALED: self.key_id, "seed": readable.pop("seed")}
        secret["forced"] = {
            str(i): move.pop("forced") for i, move in enumerate(readable["moves"]) if "forced" in move
        }
        values = {str(i): move.pop("values") for i, move in enumerate(readable["moves"]) if "values" in move}
        if values:
            secret["values"] = values
        if "start" in readable:
            secret["start"] = readable.pop("start")
        readable[SEALED] = self.key_id
        return readable, secret

    @classmethod
    def loads(cls, text: str, key: str | None = None) -> GameRecord:
        """Parses a record (and the key of a sealed one) from JSON text, refusing a malformed one."""
        return cls.from_json(parse_json(text, "record"), None if key is None else parse_json(key, "key"))

    @classmethod
    def from_json(cls, data: object, key: object = None) -> GameRecord:
        """Reads the JSON form; a sealed record (an unfinished game's) needs its key."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a Parlour record (expected format {FORMAT!r})")
        key_id = ""
        if SEALED in data:
            if key is None:
                raise RecordError(
                    "the record of an unfinished game: its seed and chance are kept in its key file "
                    "until the game is over"
                )
            key_id = sealed_id(data)
            data = _unseal(data, key, key_id)
        try:
            moves = [
                Move(
                    int(m["seat"]),
                    str(m["action"]),
                    tuple(
                        read_forced(f, f"moves[{i}].forced[{j}]") for j, f in enumerate(m.get("forced", []))
                    ),
                    read_values(m.get("values"), f"moves[{i}].values"),
                )
                for i, m in enumerate(data["moves"])
            ]
            return cls(
                game=str(data["game"]),
                players=int(data["players"]),
                seed=check_seed(data["seed"]),
                options=dict(data.get("options", {})),
                seats=[str(s) for s in data.get("seats", [])],
                moves=moves,
                scores=data.get("scores"),
                start=_start(data.get("start")),
                key_id=key_id,
            )
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
            raise RecordError(f"record field missing or malformed: {err}") from None
        except PositionError as err:
            raise RecordError(f"record field malformed: {err}") from None


def read_values(value: object, path: str) -> tuple[float, ...] | None:
    """Returns a move's values (None when absent), refusing anything but a list of at most MAX_VALUES
    finite numbers."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > MAX_VALUES:
        raise ValueError(f"{path} must be a list of at most {MAX_VALUES} numbers")
    if not all(type(v) in (int, float) and math.isfinite(v) for v in value):
        raise ValueError(f"{path} must hold finite numbers only")
    return tuple(float(v) for v in value)


MAX_SEED = 2**63 - 1
"""The largest seed (a seed is a whole number from 0, as positions store it)."""


def check_seed(value: object) -> int:
    """Returns a seed, refusing anything but a whole number from 0 to MAX_SEED."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to 2^63 - 1, not {str(value)[:30]}")
    return value


def parse_json(text: str, what: str = "record") -> JSONValue:
    """Returns the JSON value of a record's (or key's) text, refusing text that is not JSON (read as the
    content files are, refused with the same words as a RecordError)."""
    try:
        return parse_json_bytes(text.encode("utf-8", "surrogatepass"), what)
    except ContentError as err:
        raise RecordError(str(err)) from None


def sealed_id(data: object) -> str:
    """Returns the key id of a sealed record (an unfinished game's), or "" for a complete one."""
    if not isinstance(data, dict) or SEALED not in data:
        return ""
    value = data[SEALED]
    if not isinstance(value, str) or len(value) != KEY_ID_LENGTH or not _is_hex(value):
        raise RecordError(f"record field {SEALED!r} must be a key id of {KEY_ID_LENGTH} hex digits")
    return value


def _is_hex(text: str) -> bool:
    """Returns whether text is lowercase hexadecimal digits."""
    return all(c in "0123456789abcdef" for c in text)


def _unseal(data: JSONObject, key: object, key_id: str) -> JSONObject:
    """Returns a sealed record's JSON with its key's secrets put back."""
    if not isinstance(key, dict) or key.get("format") != KEY_FORMAT:
        raise RecordError(f"not a Parlour record key (expected format {KEY_FORMAT!r})")
    if key.get(SEALED) != key_id:
        raise RecordError("the key belongs to another record")
    unknown = set(key) - {"format", SEALED, "seed", "forced", "values", "start"}
    if unknown:
        raise RecordError(f"key field {sorted(unknown)[0]!r} is unknown")
    if "seed" in data or "start" in data:
        raise RecordError("a sealed record must not hold a seed or a start (they belong in its key)")
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError("record moves must be a list")
    merged = [dict(move) if isinstance(move, dict) else move for move in moves]
    for field_name in ("forced", "values"):
        _merge_key_field(merged, key.get(field_name, {}), field_name)
    unsealed = {k: v for k, v in data.items() if k != SEALED}
    unsealed["moves"] = merged
    unsealed["seed"] = key.get("seed")
    if "start" in key:
        unsealed["start"] = key["start"]
    return unsealed


def _merge_key_field(merged: list[object], by_move: object, name: str) -> None:
    """Puts a key's per-move field (``forced`` or ``values``, by move index) back into the moves."""
    if not isinstance(by_move, dict):
        raise RecordError(f"key field {name} must be an object")
    for index, entry in by_move.items():
        number = int(index) if index.isdecimal() and index.isascii() and len(index) < 10 else -1
        if number >= len(merged):
            continue  # The key is saved first: a move whose record was not saved yet never happened.
        move = merged[number] if number >= 0 else None
        if not isinstance(move, dict):
            raise RecordError(f"key field {name} names move {index!r}, which the record does not have")
        if name in move:
            raise RecordError(f"move {number} has {name} in the record as well as in its key")
        move[name] = entry


def _start(value: object) -> JSONObject | None:
    """Returns a record's starting position, which must be an object when present."""
    if value is not None and not isinstance(value, dict):
        raise TypeError("start must be a position object")
    return value


def replay(
    game: Game,
    record: GameRecord,
    options: Mapping[str, object] | None = None,
    log: GameLog | None = None,
) -> GameState:
    """Replays a record from its seed and returns the final state; names the move that fails.

    With ``log``, every move is logged there with its events (resumed games keep their whole story).
    """
    state = start_state(game, record, options)
    for _ in replay_steps(state, record, log):
        pass
    return state


def start_state(game: Game, record: GameRecord, options: Mapping[str, object] | None = None) -> GameState:
    """Returns the state a record starts from (its starting position, or a new game from its seed)."""
    if record.start is not None:
        return game.state_from_position(record.start)
    try:
        # A record's own options name content sets with their digests (docs/positions.md).
        values = game.options(options or record.options, stored=not options)
    except OptionError as err:
        raise RecordError(f"options: {err}") from None
    return game.new_state(record.players, record.seed, values)


def replay_steps(state: GameState, record: GameRecord, log: GameLog | None = None) -> Iterator[int]:
    """Applies the record's moves to ``state`` one by one, yielding each move's number after it;
    with ``log``, logs each move with its events. A move that fails is named in a RecordError."""
    for number, move in enumerate(record.moves, 1):
        state.chance.forced.extend(Forced(f.kind, f.value) for f in move.forced)
        try:
            action = state.parse_action(move.action)
            if move.values is not None:
                check_values(state, move.seat, move.values)
            if log is None:
                state.apply(action, move.seat)
            else:
                log.apply(state, action, move.seat)
        except ParlourError as err:
            raise RecordError(f"move {number} ({move.action!r} by seat {move.seat}): {err}") from None
        yield number


def check_values(state: GameState, seat: int, values: tuple[float, ...]) -> None:
    """Refuses a move's values unless there is one for each of the seat's legal actions."""
    legal = len(state.legal_actions(seat))
    if len(values) != legal:
        raise RecordError(f"{len(values)} values for {legal} legal actions")
