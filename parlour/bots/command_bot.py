"""Bots that are programs: a ``cmd:`` seat runs a command as a child process speaking ``parlour-bot/1``
(docs/bot-protocol.md) over its stdin and stdout.

A seat is written ``cmd:COMMAND`` or ``cmd[SETTINGS]:COMMAND``, SETTINGS being ``;``-separated
``stand-in=BOT`` and ``timeout=DURATION`` (``cmd[stand-in=greedy;timeout=2s]:python3 bot.py``). The
command is split as a shell would (``shlex``) but no shell runs it. The child starts at the seat's first
decision, in a session of its own (its process group is killed at the end, with whatever it started),
and on Linux dies with the process that started it.

A bot that exits, writes a line that breaks the protocol (not JSON, too long, an illegal action, the
wrong request id) or does not answer in time is stopped at once, told why on its stdin (best effort),
and its stand-in (default ``random``) plays the seat to the end of the game; one warning says so. Its
stderr is read all along and only the last STDERR_KEPT bytes kept, so a bot writing stderr endlessly
neither blocks nor fills memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from parlour.bots import protocol
from parlour.bots.protocol import Answer, Hello, ProtocolError
from parlour.core.agents import Agent
from parlour.core.errors import OptionError
from parlour.core.state import GameState

PREFIX = "cmd"
"""A seat name starting ``cmd:`` or ``cmd[`` is a command bot."""
MAX_SEAT = 2000
"""The longest ``cmd:`` seat accepted (characters)."""
DEFAULT_TIMEOUT = 10.0
"""How long a bot may think about one request by default (seconds)."""
TIMEOUT_RANGE = (0.01, 600.0)
"""The shortest and longest timeout a seat may set (seconds)."""
HELLO_LEAST = 5.0
"""The hello is awaited for the request timeout or this long, whichever is longer (seconds)."""
DEFAULT_STAND_IN = "random"
"""The bot that plays a stopped bot's seat unless the seat names another."""
STDERR_KEPT = 8192
"""How many of the last bytes of a bot's stderr are kept (for the warning that stops it)."""
CLOSE_GRACE = 1.0
"""How long a bot may take to exit after its stdin closes at the end of a game (seconds)."""
READ_SIZE = 65536
"""How many bytes are read from a pipe at a time."""
AHEAD = 2 * protocol.MAX_LINE
"""The most a bot's unread output may hold (it writes one line a request: more is a flood)."""
PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal a process gets when its parent dies."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CommandSeat:
    """A ``cmd:`` seat as written: the command's arguments, the stand-in's name and the timeout."""

    text: str
    argv: tuple[str, ...]
    stand_in: str = DEFAULT_STAND_IN
    timeout: float = DEFAULT_TIMEOUT


def is_command(name: str) -> bool:
    """Returns whether a seat name is a command bot's (``cmd:...`` or ``cmd[...]:...``)."""
    return name.startswith((PREFIX + ":", PREFIX + "["))


def parse_seat(name: str) -> CommandSeat:
    """Returns the command seat ``name`` writes; refuses (OptionError, one line) a malformed one or a
    program that cannot be found. The stand-in's name is checked by the caller (``make_bot``)."""
    if len(name) > MAX_SEAT or not name.isprintable():
        raise OptionError(f"a cmd: seat is at most {MAX_SEAT} printable characters")
    settings_text = ""
    if name.startswith(PREFIX + "["):
        close = name.find("]")
        if close < 0 or name[close + 1 : close + 2] != ":":
            raise OptionError("a cmd: seat with settings is written cmd[stand-in=BOT;timeout=2s]:COMMAND")
        settings_text, command = name[len(PREFIX) + 1 : close], name[close + 2 :]
    else:
        command = name[len(PREFIX) + 1 :]
    settings = _settings(settings_text)
    try:
        argv = tuple(shlex.split(command))
    except ValueError as err:
        raise OptionError(f"the command of a cmd: seat does not split: {err}") from None
    if not argv:
        raise OptionError("a cmd: seat needs a command, as in cmd:./bot.py or cmd:'python3 bot.py'")
    if shutil.which(argv[0]) is None:
        raise OptionError(
            f"no program {protocol.shown(argv[0])} for a cmd: seat (not found or not executable)"
        )
    stand_in = settings.get("stand-in", DEFAULT_STAND_IN)
    if is_command(stand_in):
        raise OptionError("a cmd: seat's stand-in must be one of Parlour's own bots")
    return CommandSeat(name, argv, stand_in, _timeout(settings.get("timeout")))


def split_seats(text: str) -> list[str]:
    """Returns the seat names of a comma-separated list; a comma inside quotes or brackets (a ``cmd:``
    seat's command or settings) does not split."""
    seats: list[str] = []
    current: list[str] = []
    quote = ""
    depth = 0
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            seats.append("".join(current))
            current = []
            continue
        current.append(char)
    seats.append("".join(current))
    return [s.strip() for s in seats if s.strip()]


def _settings(text: str) -> dict[str, str]:
    """Returns a seat's ``name=value`` settings, refusing unknown names and repeats."""
    settings: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals or key not in ("stand-in", "timeout") or key in settings or not value.strip():
            raise OptionError(
                f"a cmd: seat's settings are stand-in=BOT and timeout=DURATION, not {protocol.shown(part)}"
            )
        settings[key] = value.strip()
    return settings


def _timeout(text: str | None) -> float:
    """Returns a timeout written as ``500ms``, ``2s`` or ``2`` (seconds), refusing one out of range."""
    if text is None:
        return DEFAULT_TIMEOUT
    low, high = TIMEOUT_RANGE
    number, scale = (text[:-2], 0.001) if text.endswith("ms") else (text.removesuffix("s"), 1.0)
    try:
        seconds = float(number) * scale
    except ValueError:
        seconds = -1.0
    if not low <= seconds <= high:  # NaN fails too
        raise OptionError(
            f"the timeout of a cmd: seat is {low * 1000:g}ms to {high:g}s, not {protocol.shown(text)}"
        )
    return seconds


class BotStopped(Exception):
    """A bot broke the protocol, exited or ran out of time; the message names the reason."""


@dataclass
class _Pipes:
    """What is read from a running child: stdout not yet taken as lines, stderr's tail."""

    stdout: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    stdout_open: bool = True
    stderr_open: bool = True


class CommandBot:
    """A seat played by a child process over ``parlour-bot/1``, its stand-in taking over if it fails."""

    def __init__(
        self,
        seat: CommandSeat,
        stand_in: Agent,
        options: Mapping[str, object] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = seat.text
        """The seat's name as written (``cmd:...``)."""
        self.seat = seat
        self.stand_in = stand_in
        """The bot that plays the seat once this one is stopped."""
        self.options = dict(options or {})
        """The game's options, told to the bot at the start (public)."""
        self.hello: Hello | None = None
        """What the bot said of itself (None until it has started)."""
        self.stopped: str | None = None
        """Why the bot was stopped (None while it plays, or once it ended normally)."""
        self.last_values: tuple[float, ...] | None = None
        """The values the bot gave with its last answer, if any."""
        self.requests = 0
        """How many requests the bot was sent."""
        self._clock = clock
        self._process: subprocess.Popen[bytes] | None = None
        self._pipes = _Pipes()
        self._selector: selectors.BaseSelector | None = None
        self._seat_number: int | None = None
        self._closed = False
        self._ended = False
        self._allowed = seat.timeout

    @property
    def pid(self) -> int | None:
        """The child's process id (None before it started)."""
        return None if self._process is None else self._process.pid

    # ------------------------------------------------------------------ the agent
    def choose(self, state: GameState, seat: int) -> object:
        """Returns the bot's action for ``seat``, or the stand-in's once the bot is stopped."""
        self.last_values = None
        if self.stopped is None and not self._closed:
            try:
                return self._ask(state, seat)
            except BotStopped as stop:
                self._stop(str(stop))
        return self.stand_in.choose(state, seat)

    def close(self, final: GameState | None = None) -> None:
        """Ends the bot's game: tells it the results (``final``, when played out), closes its stdin and
        kills its process group after CLOSE_GRACE; safe to call again."""
        if self._closed:
            return
        self._closed = True
        process = self._process
        if process is None:
            return
        if self.stopped is None:
            with contextlib.suppress(BotStopped, OSError, ValueError):
                self._write(protocol.encode(protocol.end_message(final, self._seat_number)), CLOSE_GRACE)
        self._end_process(CLOSE_GRACE)

    # ------------------------------------------------------------------ one request
    def _ask(self, state: GameState, seat: int) -> object:
        """Sends the request for ``seat``'s decision and returns the legal action the bot answered."""
        time_ms = round(self.seat.timeout * 1000)
        if self._process is None:
            self._start(state, seat, time_ms)
        self.requests += 1
        legal = state.legal_actions(seat)
        texts = [state.format_action(a) for a in legal]
        line = protocol.encode(protocol.build_request(state, seat, self.requests, time_ms))
        self._allowed = self.seat.timeout
        deadline = self._clock() + self._allowed
        views = 0
        while True:
            self._write(line, deadline - self._clock())
            while True:
                answer = self._answer(deadline, texts)
                if answer is not None:
                    break
            if isinstance(answer, Answer):
                break
            views += 1
            if views > protocol.MAX_VIEWS:
                raise BotStopped(f"it asked for request {self.requests} more than {protocol.MAX_VIEWS} times")
        self.last_values = answer.values
        return legal[answer.action] if isinstance(answer.action, int) else legal[texts.index(answer.action)]

    def _answer(self, deadline: float, texts: list[str]) -> Answer | protocol.ViewAgain | None:
        """Returns the bot's next message about the open request (None: a blank line)."""
        data = self._message(deadline)
        if data is None:
            return None
        try:
            return protocol.parse_answer(data, self.requests, texts)
        except ProtocolError as err:
            raise BotStopped(f"it answered {err}") from None

    def _start(self, state: GameState, seat: int, time_ms: int) -> None:
        """Starts the child, reads its hello and sends the start; refuses a bot that does not play this
        game with this many players."""
        self._seat_number = seat
        prepare = None
        if sys.platform.startswith("linux"):
            prepare = _die_with_parent
            _libc()  # loaded here: the child between fork and exec only calls it
        try:
            self._process = subprocess.Popen(
                self.seat.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
                preexec_fn=prepare,
            )
        except OSError as err:
            raise BotStopped(f"it could not start: {err.strerror or err}") from None
        process = self._process
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        selector = selectors.DefaultSelector()
        for pipe in (process.stdin, process.stdout, process.stderr):
            os.set_blocking(pipe.fileno(), False)
        selector.register(process.stdout, selectors.EVENT_READ, "stdout")
        selector.register(process.stderr, selectors.EVENT_READ, "stderr")
        self._selector = selector
        self._allowed = max(self.seat.timeout, HELLO_LEAST)
        deadline = self._clock() + self._allowed
        data: Mapping[str, object] | None = None
        while data is None:
            data = self._message(deadline)
        try:
            self.hello = protocol.parse_hello(data)
        except ProtocolError as err:
            raise BotStopped(f"its hello was {err}") from None
        if not self.hello.plays(state.game_name, state.players):
            raise BotStopped(f"it does not play {state.game_name} with {state.players} players (its hello)")
        start = protocol.start_message(state, seat, time_ms, self.options)
        self._allowed = self.seat.timeout
        self._write(protocol.encode(start), self._allowed)

    # ------------------------------------------------------------------ pipes
    def _message(self, deadline: float) -> Mapping[str, object] | None:
        """Returns the JSON object of the bot's next line (None: a blank line)."""
        line = self._read_line(deadline)
        try:
            return protocol.read_line(line)
        except ProtocolError as err:
            raise BotStopped(f"it wrote {err}") from None

    def _read_line(self, deadline: float) -> bytes:
        """Returns the bot's next stdout line (without its newline), draining stderr meanwhile; stops the
        bot if it closes stdout, writes more than MAX_LINE bytes without a newline, or is late."""
        pipes = self._pipes
        while True:
            end = pipes.stdout.find(b"\n")
            if end >= 0:
                line = bytes(pipes.stdout[:end])
                del pipes.stdout[: end + 1]
                if len(line) + 1 > protocol.MAX_LINE:
                    raise BotStopped(f"it wrote a line longer than {protocol.MAX_LINE} bytes")
                return line
            if len(pipes.stdout) >= protocol.MAX_LINE:
                raise BotStopped(f"it wrote a line longer than {protocol.MAX_LINE} bytes")
            if not pipes.stdout_open:
                raise BotStopped(f"it ended ({self._exit_text()})")
            self._pump(deadline)

    def _write(self, data: bytes, timeout: float) -> None:
        """Writes ``data`` to the bot's stdin within ``timeout`` seconds, draining its output meanwhile;
        stops a bot that does not read it in time or has exited."""
        process = self._process
        assert process is not None and process.stdin is not None and self._selector is not None
        deadline = self._clock() + timeout
        view = memoryview(data)
        selector = self._selector
        selector.register(process.stdin, selectors.EVENT_WRITE, "stdin")
        try:
            while view:
                try:
                    written = os.write(process.stdin.fileno(), view[:READ_SIZE])
                except BlockingIOError:
                    written = 0
                except (BrokenPipeError, ConnectionResetError):
                    raise BotStopped(f"it ended ({self._exit_text('it closed its input')})") from None
                view = view[written:]
                if view:
                    self._pump(deadline, "read its input")
        finally:
            selector.unregister(process.stdin)

    def _pump(self, deadline: float, doing: str = "answer") -> None:
        """Waits until a pipe is ready (or the deadline) and reads what the bot wrote; stops the bot if
        the deadline has passed (``doing``: what it failed to do in time)."""
        assert self._selector is not None
        left = deadline - self._clock()
        if left <= 0:
            raise BotStopped(f"it did not {doing} in {self._allowed * 1000:g} ms")
        pipes = self._pipes
        for key, _ in self._selector.select(left):
            if key.data == "stdin":
                continue
            try:
                chunk = os.read(key.fd, READ_SIZE)
            except BlockingIOError:
                continue
            if key.data == "stdout":
                pipes.stdout += chunk
                pipes.stdout_open = bool(chunk)
                if len(pipes.stdout) > AHEAD:  # a bot writing while never reading: bounded memory
                    raise BotStopped(f"it wrote more than {AHEAD} bytes ahead of its requests")
            else:
                pipes.stderr += chunk
                del pipes.stderr[:-STDERR_KEPT]
                pipes.stderr_open = bool(chunk)
            if not chunk:
                self._selector.unregister(key.fileobj)

    # ------------------------------------------------------------------ stopping
    def _stop(self, reason: str) -> None:
        """Stops a failed bot: tells it why, kills it, and warns that the stand-in plays on."""
        seat = "?" if self._seat_number is None else str(self._seat_number)
        tail = self._stderr_tail()
        self.stopped = reason
        message = f"bot {protocol.shown(self.name, 80)} at seat {seat} stopped: {reason}"
        if self._process is not None:
            with contextlib.suppress(BotStopped, OSError, ValueError, AssertionError):
                self._write(protocol.encode(protocol.error_message(message)), 0.05)
        self._end_process(0.0)
        log.warning(
            "%s; %s plays the seat for the rest of the game%s",
            message,
            self.stand_in.name,
            f" (its stderr ended: {tail})" if tail else "",
        )

    def _stderr_tail(self) -> str:
        """Returns the last line of the bot's stderr, printable and short ('' if none)."""
        lines = bytes(self._pipes.stderr).decode("utf-8", "replace").strip().splitlines()
        return protocol.shown(lines[-1], 120) if lines else ""

    def _exit_text(self, running: str = "it closed its output") -> str:
        """Returns how the bot's process ended, as far as is known yet (without collecting it); ``running``
        if it still runs."""
        process = self._process
        end = self._clock() + 0.2
        info = None
        with contextlib.suppress(ChildProcessError):
            while process is not None and info is None and self._clock() < end:
                info = _exit_info(process.pid)
                if info is None:
                    time.sleep(0.01)
        if info is None:
            return running
        if info.si_code == os.CLD_EXITED:
            return f"exit code {info.si_status}"
        return f"killed by signal {info.si_status}"

    def _end_process(self, grace: float) -> None:
        """Closes the bot's stdin, waits ``grace`` seconds for it to exit, then kills its process group
        (before the exit is collected, so the group's number cannot be another's) and reaps it."""
        process = self._process
        if process is None or self._ended:
            return
        self._ended = True
        assert process.stdin is not None
        with contextlib.suppress(OSError):
            process.stdin.close()
        end = self._clock() + grace
        with contextlib.suppress(ChildProcessError):
            while grace > 0 and self._clock() < end and _exit_info(process.pid) is None:
                time.sleep(0.01)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if self._selector is not None:
            self._selector.close()
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()


def _exit_info(pid: int) -> os.waitid_result | None:
    """Returns how the child ``pid`` ended (None: it runs), without collecting it (its number, which is
    its process group's, stays taken)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)


_LIBC: list[ctypes.CDLL] = []


def _libc() -> ctypes.CDLL:
    """Returns the C library, loaded once."""
    if not _LIBC:
        _LIBC.append(ctypes.CDLL(None, use_errno=True))
    return _LIBC[0]


def _die_with_parent() -> None:
    """In the child before it runs the command: asks Linux to kill it when its parent ends."""
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
