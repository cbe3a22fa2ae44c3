"""The bot protocol ``parlour-bot/1`` (docs/bot-protocol.md): the messages Parlour writes to a bot and the
checks on every line a bot writes back (JSON lines over stdin/stdout, UTF-8, at most MAX_LINE bytes).

Everything a request holds comes from what its seat may know: the seat's observation, its own legal
actions, and public facts (who decides, whose turn, the banner line). Never the seed or another seat's
hidden cards: ``build_request`` gives the same request for any state the seat cannot tell apart.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.core.positions import JSONObject
from parlour.core.state import GameState

PROTOCOL = "parlour-bot/1"
"""The protocol's name and version, in the bot's hello and Parlour's start."""
MAX_LINE = 65536
"""The longest line a bot may write, in bytes with its newline; longer is garbage."""
MAX_TEXT = 1000
"""The longest action text a bot may answer with (characters)."""
MAX_LABEL = 64
"""The longest bot name or version a hello may give (characters)."""
MAX_GAMES = 64
"""The most games a hello may list."""
MAX_COUNTS = 16
"""The most player counts a hello may list for one game."""
MAX_VIEWS = 3
"""How many times a bot may ask for the same request again (``view``) before it counts as garbage."""
ANY_GAME = "*"
"""The hello's ``games`` key that stands for every game."""

TURN, WINDOW, OTHER = "turn", "window", "other"
"""The kinds of decision a request names (``decision_kind``)."""


class ProtocolError(ValueError):
    """A line from a bot that breaks the protocol; its message is one line naming what is wrong."""


@dataclass(frozen=True)
class Hello:
    """A bot's first line: who it is and what it plays."""

    name: str
    version: str
    games: dict[str, tuple[int, ...]]
    """Player counts by game (an empty tuple: any count; the key ``*``: any game)."""

    def plays(self, game: str, players: int) -> bool:
        """Returns whether the bot says it plays ``game`` with ``players`` players."""
        counts = self.games.get(game, self.games.get(ANY_GAME))
        return counts is not None and (not counts or players in counts)


@dataclass(frozen=True)
class Answer:
    """A bot's answer to a request: the request's id and the action (its index or its text)."""

    id: int
    action: int | str
    values: tuple[float, ...] | None = None
    """The bot's value of each legal action, in the request's order (optional)."""


@dataclass(frozen=True)
class ViewAgain:
    """A bot's ask to be sent the open request again (a bot that lost its place)."""

    id: int


def decision_kind(state: GameState, seat: int) -> str:
    """Returns the kind of the decision ``seat`` is asked: ``turn`` (the turn player, outside a passing
    window; also any seat of a game without turns), ``window`` (a passing window, such as a reaction or a
    negotiation answer, asked of a seat whose turn it is not) or ``other`` (the rest: the turn player in
    a passing window, or a seat asked outside a window on another's turn). All public."""
    window = state.passing_window()
    player = state.turn_player()
    if not window and (player is None or player == seat):
        return TURN
    if window and player != seat:
        return WINDOW
    return OTHER


def encode(message: Mapping[str, object]) -> bytes:
    """Returns a message as one line of UTF-8 JSON with its newline."""
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n").encode()


def start_message(state: GameState, seat: int, time_ms: int, options: Mapping[str, object]) -> JSONObject:
    """Returns Parlour's answer to the hello: the game, the players, the seat and the options (public)."""
    return {
        "type": "start",
        "protocol": PROTOCOL,
        "game": state.game_name,
        "players": state.players,
        "seat": seat,
        "options": dict(options),
        "time_ms": time_ms,
    }


def build_request(state: GameState, seat: int, request_id: int, time_ms: int) -> JSONObject:
    """Returns the request for ``seat``'s decision: self-contained, from what the seat may know only."""
    actions = state.legal_actions(seat)
    return {
        "type": "request",
        "id": request_id,
        "game": state.game_name,
        "players": state.players,
        "seat": seat,
        "names": [state.seat_name(s) for s in range(state.players)],
        "kind": decision_kind(state, seat),
        "turn": state.turns_played(),
        "turn_player": state.turn_player(),
        "deciders": list(state.deciders()),
        "summary": state.decision_summary(),
        "passing_window": state.passing_window(),
        "only_pass": state.only_pass(seat),
        "observation": json_copy(state.observation(seat)),
        "actions": [{"id": i, "text": state.format_action(a)} for i, a in enumerate(actions)],
        "time_ms": time_ms,
    }


def end_message(state: GameState | None, seat: int | None) -> JSONObject:
    """Returns the game's end: the results when it was played out, else only ``over`` false."""
    if state is None or not state.is_over():
        return {"type": "end", "over": False}
    message: JSONObject = {
        "type": "end",
        "over": True,
        "scores": state.scores(),
        "ranking": state.ranking(),
        "winners": state.winners(),
        "end_reason": state.end_reason(),
    }
    if seat is not None:
        message["seat"] = seat
        message["observation"] = json_copy(state.observation(seat))
    return message


def error_message(text: str) -> JSONObject:
    """Returns the line Parlour writes to a bot it stops: why."""
    return {"type": "error", "message": text}


def json_copy(data: object) -> object:
    """Returns ``data`` as plain JSON values (tuples as lists), as the bot will read it."""
    return json.loads(json.dumps(data, allow_nan=False))


def read_line(line: bytes) -> JSONObject | None:
    """Returns the JSON object a bot's line holds (None: a blank line, which is ignored); refuses a
    line too long, not UTF-8, not JSON or not an object."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("a line that is not UTF-8") from None
    if not text.strip():
        return None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError(f"a line that is not JSON: {shown(text)}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a line that is not a JSON object: {shown(text)}")
    return data


def parse_hello(data: Mapping[str, object]) -> Hello:
    """Returns the hello a bot's first message holds; refuses anything else or a malformed field."""
    if data.get("type") != "hello":
        raise ProtocolError(f"a first line of type {shown(data.get('type'))}, not 'hello'")
    if data.get("protocol") != PROTOCOL:
        raise ProtocolError(f"protocol {shown(data.get('protocol'))}, not {PROTOCOL!r}")
    name = _label(data.get("name"), "name")
    version = _label(data.get("version", ""), "version", empty=True)
    games = data.get("games")
    if not isinstance(games, dict) or not 1 <= len(games) <= MAX_GAMES:
        raise ProtocolError(f"games must be an object of 1 to {MAX_GAMES} games and their player counts")
    parsed: dict[str, tuple[int, ...]] = {}
    for game, counts in games.items():
        _label(game, "a game's name")
        if not isinstance(counts, list) or len(counts) > MAX_COUNTS:
            raise ProtocolError(f"the player counts of {shown(game)} must be a list of at most {MAX_COUNTS}")
        if not all(type(c) is int and 1 <= c <= 64 for c in counts):
            raise ProtocolError(f"the player counts of {shown(game)} must be whole numbers from 1 to 64")
        parsed[game] = tuple(counts)
    return Hello(name, version, parsed)


def parse_answer(data: Mapping[str, object], request_id: int, actions: Sequence[str]) -> Answer | ViewAgain:
    """Returns the answer to request ``request_id`` (whose legal actions are ``actions``), or an ask to
    see it again; refuses another id, an action not in the list and malformed values."""
    kind = data.get("type")
    if kind not in ("action", "view"):
        raise ProtocolError(f"a message of type {shown(kind)} where an 'action' was due")
    answered = data.get("id")
    if type(answered) is not int or answered != request_id:
        raise ProtocolError(f"an answer to request {shown(answered)} while request {request_id} was open")
    if kind == "view":
        return ViewAgain(request_id)
    action = data.get("action")
    if type(action) is int:
        if not 0 <= action < len(actions):
            raise ProtocolError(f"action id {action}, not one of 0 to {len(actions) - 1}")
    elif isinstance(action, str):
        if len(action) > MAX_TEXT or action.strip() not in actions:
            raise ProtocolError(f"action {shown(action)}, which is not one of the legal actions")
        action = action.strip()
    else:
        raise ProtocolError("an answer without an action (an id or a text)")
    values = data.get("values")
    if values is None:
        return Answer(request_id, action)
    if not isinstance(values, list) or len(values) != len(actions):
        raise ProtocolError(f"values must be a list of {len(actions)} numbers, one per legal action")
    if not all(type(v) in (int, float) and math.isfinite(v) for v in values):
        raise ProtocolError("values must be finite numbers")
    return Answer(request_id, action, tuple(float(v) for v in values))


def shown(value: object, most: int = 60) -> str:
    """Returns a value as a short, printable, quoted text for a one-line message."""
    text = repr(value)
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= most else text[: most - 3] + "..."


def _label(value: object, what: str, empty: bool = False) -> str:
    """Returns a short printable text field, refusing anything else."""
    if (
        not isinstance(value, str)
        or len(value) > MAX_LABEL
        or (not value and not empty)
        or not value.isprintable()
    ):
        raise ProtocolError(f"{what} must be {'0' if empty else '1'} to {MAX_LABEL} printable characters")
    return value


def _no_constant(name: str) -> object:
    """Refuses NaN and Infinity, which are not JSON."""
    raise ValueError(f"{name} is not JSON")
