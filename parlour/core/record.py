"""Game records: game, options, seats, seed and the actions in notation; replay to the same end."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.core.chance import Forced, read_forced
from parlour.core.errors import OptionError, ParlourError, PositionError, RecordError
from parlour.core.game import Game
from parlour.core.state import GameState

FORMAT = "parlour-record/1"


@dataclass(frozen=True)
class Move:
    """One recorded action: who acted, what (in notation), and any forced outcomes fed first."""

    seat: int
    action: str
    forced: tuple[Forced, ...] = ()


@dataclass
class GameRecord:
    """A replayable game: seed plus actions reproduce every state exactly.

    The JSON form (``format: parlour-record/1``) holds ``game``, ``players``,
    ``options``, ``seats`` (the agent name at each seat), ``seed``, ``moves``
    (each ``{"seat", "action"}`` and, when a table entered real dice or cards,
    ``"forced"``: the outcomes fed to chance before that action), once
    finished, ``scores``, and ``start``, the starting position, for a game
    that did not begin with the seed's deal.
    """

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    scores: list[float] | None = None
    start: dict[str, Any] | None = None
    """The starting position when the game did not start from the seed's deal."""

    def add(self, seat: int, action: str, forced: tuple[Forced, ...] = ()) -> None:
        """Appends an applied action."""
        self.moves.append(Move(seat, action, forced))

    def to_json(self) -> dict[str, Any]:
        """Returns the JSON form."""
        moves: list[dict[str, Any]] = []
        for move in self.moves:
            entry: dict[str, Any] = {"seat": move.seat, "action": move.action}
            if move.forced:
                entry["forced"] = [{"kind": f.kind, "value": f.value} for f in move.forced]
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

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Parses a record from JSON text, refusing a malformed one with the reason."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(f"record is not valid JSON: {err}") from None
        except (ValueError, RecursionError) as err:
            raise RecordError(f"record is not usable JSON: {type(err).__name__}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Reads the JSON form."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a Parlour record (expected format {FORMAT!r})")
        try:
            moves = [
                Move(
                    int(m["seat"]),
                    str(m["action"]),
                    tuple(
                        read_forced(f, f"moves[{i}].forced[{j}]") for j, f in enumerate(m.get("forced", []))
                    ),
                )
                for i, m in enumerate(data["moves"])
            ]
            return cls(
                game=str(data["game"]),
                players=int(data["players"]),
                seed=int(data["seed"]),
                options=dict(data.get("options", {})),
                seats=[str(s) for s in data.get("seats", [])],
                moves=moves,
                scores=data.get("scores"),
                start=_start(data.get("start")),
            )
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
            raise RecordError(f"record field missing or malformed: {err}") from None
        except PositionError as err:
            raise RecordError(f"record field malformed: {err}") from None


def _start(value: Any) -> dict[str, Any] | None:
    """Returns a record's starting position, which must be an object when present."""
    if value is not None and not isinstance(value, dict):
        raise TypeError("start must be a position object")
    return value


def replay(game: Game, record: GameRecord, options: Mapping[str, Any] | None = None) -> GameState:
    """Replays a record from its seed and returns the final state; names the move that fails."""
    if record.start is not None:
        state = game.state_from_position(record.start)
    else:
        try:
            # A record's own options name content sets with their digests (docs/positions.md).
            values = game.options(options or record.options, stored=not options)
        except OptionError as err:
            raise RecordError(f"options: {err}") from None
        state = game.new_state(record.players, record.seed, values)
    for number, move in enumerate(record.moves, 1):
        state.chance.forced.extend(Forced(f.kind, f.value) for f in move.forced)
        try:
            state.apply(state.parse_action(move.action), move.seat)
        except ParlourError as err:
            raise RecordError(f"move {number} ({move.action!r} by seat {move.seat}): {err}") from None
    return state
