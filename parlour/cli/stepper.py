"""``parlour replay RECORD --step``: step through a game forwards and backwards, with the log beside it.

The view is the spectator's, or, once the game is over, a seat's (what it saw then) or ``all``: the
spectator's table with every secret of the log shown (cards drawn, hands dealt). A game still going on
is shown only as a spectator sees it: its hands belong to its own table.
"""

from __future__ import annotations

from rich.console import Console

from parlour.cli.output import say, styled
from parlour.cli.reader import LineReader
from parlour.cli.screen import banner, log_panel, table_panel
from parlour.core.errors import OptionError
from parlour.core.game import Game
from parlour.core.log import GameLog
from parlour.core.record import GameRecord, replay_steps, start_state
from parlour.core.state import GameState

ALL = "all"
"""The view that shows everything (only once the game is over)."""
BESIDE = 12
"""Log entries shown beside the table: those up to the current action."""
HELP = (
    "Enter or 'n' next, 'p' back, a number goes to that action, 'start', 'end', "
    "'seat N', 'spectator', 'all' (everything, once the game is over), 'q' quits."
)
WORDS = ("n", "p", "start", "end", "spectator", "all", "seat ", "q", "help")


class ReplayStepper:
    """Holds every state of a recorded game (one per action) and shows one at a time."""

    def __init__(self, game: Game, record: GameRecord, console: Console, view: str | None) -> None:
        self.game, self.record, self.console = game, record, console
        self.log = GameLog()
        self.states = _states(game, record, self.log)
        self.over = self.states[-1].is_over()
        self.view: int | str | None = None
        self.at = 0
        self.reader = LineReader(console)
        self.seats = list(record.seats) or [f"seat {s}" for s in range(record.players)]
        if view is not None:
            message = self.set_view(view)
            if message:
                raise OptionError(message)

    def set_view(self, text: str) -> str:
        """Changes the view ('spectator', 'all' or a seat number); returns a refusal, or ''."""
        word = text.strip().lower()
        if word in ("spectator", "none", ""):
            self.view = None
        elif word == ALL:
            if not self.over:
                return "the whole game is shown ('all') only once it is over"
            self.view = ALL
        elif word.isdecimal() and word.isascii() and len(word) <= 2 and int(word) < self.record.players:
            if not self.over:
                # A seat's view shows its hand: of a game still going on, only its own table does.
                return "a seat's view of an unfinished game is shown only at its table ('parlour resume')"
            self.view = int(word)
        else:
            return f"there is no seat {text.strip()!r} (seats are 0..{self.record.players - 1})"
        return ""

    def show(self) -> None:
        """Draws the table at the current action as the view sees it, and the log up to it."""
        state = self.states[self.at]
        colours = self.game.text_colours
        seat = self.view if isinstance(self.view, int) else None
        shown = "everything" if self.view == ALL else f"seat {self.view}"
        shown = "spectator" if self.view is None else shown
        say(self.console, (f"Action {self.at} of {len(self.record.moves)}", "bold"), f" · view: {shown}")
        self.console.print(banner(state, colours))
        self.console.print(table_panel(state, seat, f"{self.game.title} after action {self.at}", colours))
        entries = self.log.entries[max(0, self.at - BESIDE) : self.at]
        if entries:
            reveal = self.view == ALL
            panel = log_panel(state, self.seats, entries, seat, "The log up to here", colours, reveal=reveal)
            self.console.print(panel)

    def step(self, command: str) -> bool:
        """Carries out one command; returns False to stop."""
        word = " ".join(command.lower().split())
        last = len(self.states) - 1
        if word in ("q", "quit", "exit"):
            return False
        if word in ("", "n", "next"):
            self.at = min(last, self.at + 1)
        elif word in ("p", "b", "back", "prev"):
            self.at = max(0, self.at - 1)
        elif word == "start":
            self.at = 0
        elif word == "end":
            self.at = last
        elif word.isdecimal() and word.isascii() and len(word) <= 7:
            self.at = min(last, int(word))
        elif word.startswith("seat ") or word in ("spectator", ALL):
            refusal = self.set_view(word.removeprefix("seat "))
            if refusal:
                say(self.console, (refusal, "red"))
                return True
        else:
            say(self.console, HELP)
            return True
        self.show()
        return True

    def run(self) -> int:
        """Shows the start, then reads commands until 'q' or the end of input."""
        say(self.console, HELP)
        self.show()
        while True:
            try:
                typed = self.reader.read(styled("replay> "), WORDS)
            except EOFError:
                return 0
            if not self.step(typed):
                return 0


def _states(game: Game, record: GameRecord, log: GameLog) -> list[GameState]:
    """Returns the state before the first action and after each action (the log filled on the way)."""
    state = start_state(game, record)
    states = [state.clone()]
    for _ in replay_steps(state, record, log):
        states.append(state.clone())
    return states


def step_through(game: Game, record: GameRecord, console: Console, view: str | None) -> int:
    """Steps through a record at the terminal (``parlour replay RECORD --step``)."""
    return ReplayStepper(game, record, console, view).run()
