"""Terminal play: humans and bots at one table, drawn with rich; bad input never crashes."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from parlour.bots.command_bot import is_command
from parlour.bots.registry import make_bot
from parlour.cli import files
from parlour.cli.content import content_sets
from parlour.cli.output import make_console, say, styled
from parlour.cli.reader import LineReader
from parlour.cli.screen import (
    Menu,
    action_menu,
    banner,
    capital,
    colourise,
    end_screen,
    log_panel,
    record_note,
    seat_label,
    table_panel,
)
from parlour.core.agents import Agent, close_agents, given_values
from parlour.core.chance import DIE, Chance, Forced
from parlour.core.errors import OptionError, ParlourError
from parlour.core.game import Game
from parlour.core.log import GameLog
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game
from parlour.core.state import GameState

HUMAN = "human"
COMMANDS = (
    "Type a number or an action in notation (Tab completes it); 'help' for the rules, 'hint', "
    "'info CARD' (a card's text), 'log [N|all]' (what happened), 'list', 'quit'; "
    "'autopass on|off' (pass by itself when you may only pass)."
)
WORDS = ("help", "hint", "info ", "log", "log all", "list", "quit", "autopass on", "autopass off")
"""The commands Tab completes beside the legal actions."""
NEWS_MAX = 60
"""At most this many actions of news before a prompt (the rest: 'log N')."""
NEWS_ON_RESUME = 20
"""A resumed game shows its last actions again as news."""
LOG_DEFAULT = 20
"""Actions 'log' shows without a number."""
WINDOW_PACE = 0.4
"""The least time a bot takes in a reaction window when people watch (seconds), pass or play."""
CLEAR_SCROLLBACK = "\x1b[3J"
"""The terminal code that clears the scrollback too (a hot-seat hand-over hides the last hand)."""


class TerminalPlay:
    """One game at the terminal: draws the table for the human to move and reads their choice.

    Everything printed goes out as rich Text (parlour.cli.output), so what a
    player types or a file holds is never read as markup.  The record is saved
    after every action: sealed (its secrets in a key file) until the game is over.
    """

    window_pace = WINDOW_PACE
    """The least time a bot takes in a reaction window while people watch (tests set 0)."""

    def __init__(
        self,
        game: Game,
        seats: list[str],
        seed: int,
        options: Mapping[str, object],
        records: str | None,
        console: Console | None = None,
        manual_dice: bool = False,
        auto_pass: bool = True,
        resumed: tuple[GameRecord, Path] | None = None,
    ) -> None:
        self.game, self.seats, self.console = game, seats, console or make_console()
        game.check_players(len(seats))
        values = game.options(options)
        # A cmd: seat runs a program: never one a record names (resume), only one the user typed.
        commands = resumed is None
        if not commands and any(is_command(name) for name in seats):
            raise OptionError("'parlour resume' never runs the program of a cmd: seat a record names")
        self.agents: list[Agent | None] = [
            None if name == HUMAN else make_bot(game, name, seed * 8 + s, commands, values, len(seats))
            for s, name in enumerate(seats)
        ]
        # Auto-pass, a setting per seat: always on for bots, ``auto_pass`` for people.
        self.auto_pass = [auto_pass or a is not None for a in self.agents]
        self.log = GameLog()
        if resumed is None:
            self.state: GameState = game.new_state(len(seats), seed, values)
            self.record = GameRecord(game.name, len(seats), seed, values, list(seats))
            self.path = files.record_path(self.record, records)
        else:
            self.record, self.path = resumed
            self.state = replay(game, self.record, log=self.log)
        self.last_human: int | None = None
        self.reader = LineReader(self.console)
        self.menu: Menu | None = None
        # The log entries each person has seen (at a resumed game: the last few are news again).
        start = max(0, len(self.log) - NEWS_ON_RESUME)
        self.seen: dict[int, int] = {s: start for s, a in enumerate(self.agents) if a is None}
        self.rolled: list[int] = []
        self.resumed = resumed is not None
        if manual_dice:
            self.state.chance.ask = self._ask_die

    @classmethod
    def resume(
        cls,
        path: str,
        console: Console | None = None,
        manual_dice: bool = False,
        auto_pass: bool = True,
        content_dirs: Sequence[str] | None = None,
    ) -> TerminalPlay:
        """Returns the unfinished game saved at ``path`` (its key file beside it), ready to go on."""
        record = files.load_record(path)
        game = load_game(record.game)
        game = game.with_content(content_sets(game.name, content_dirs or ()))
        play = cls(
            game,
            record.seats,
            record.seed,
            record.options,
            None,
            console,
            manual_dice=manual_dice,
            auto_pass=auto_pass,
            resumed=(record, Path(path)),
        )
        if play.state.is_over():
            raise OptionError(f"the game in {files.shown(path)} is over: 'parlour replay' shows it")
        return play

    def run(self) -> int:
        """Plays until the game ends or the human quits; the record is saved after every action."""
        # The seed fixes every shuffle: it is shown only when the game is over.
        say(self.console, (self.game.title, "bold"), f". {COMMANDS}")
        if self.resumed:
            say(self.console, f"Resuming {self.path} after {len(self.record.moves)} actions.", soft_wrap=True)
        self._save()
        try:
            return self._run()
        finally:
            close_agents(self.agents, self.state if self.state.is_over() else None)

    def _run(self) -> int:
        """Plays the game out (see ``run``)."""
        try:
            while not self.state.is_over():
                seat = self._next_seat()
                agent = self.agents[seat]
                if agent is not None:
                    action = self._think(seat, agent)
                elif self.auto_pass[seat] and self.state.only_pass(seat):
                    action = self._auto_pass(seat)
                else:
                    action = self._ask(seat)
                if action is None:
                    self._saved_note()
                    return 0
                self._apply(seat, action)
        except KeyboardInterrupt:
            self._saved_note()
            raise
        self._finish()
        return 0

    def _saved_note(self) -> None:
        """Says where the unfinished game is saved and how to go on with it."""
        say(
            self.console,
            f"Game saved to {self.path}; 'parlour resume {self.path}' continues it.",
            soft_wrap=True,
        )

    def _next_seat(self) -> int:
        """Returns the seat to act: in an open window, bots first (so nobody waits on a person to
        answer), then the person already at the screen (fewer hand-offs), else the first decider."""
        deciders = self.state.deciders()
        if len(deciders) > 1:
            for seat in deciders:
                if self.agents[seat] is not None:
                    return seat
            if self.last_human in deciders:
                return self.last_human
        return deciders[0]

    def _think(self, seat: int, agent: Agent) -> object:
        """Returns the bot's choice, with a 'thinking' line while it searches if people are watching.

        In a reaction window a bot takes at least WINDOW_PACE, and a search bot its whole budget, whether
        or not it holds a playable card: how long it takes must not tell the table (docs/security.md).
        """
        if not any(a is None for a in self.agents):
            return agent.choose(self.state, seat)
        window = self.state.passing_window()
        if hasattr(agent, "steady"):
            agent.steady = True
        label = seat_label(self.state, self.seats, seat)
        started = time.monotonic()
        with self.console.status(Text(f"{label} is thinking..."), spinner="dots"):
            action = agent.choose(self.state, seat)
            if window:
                time.sleep(max(0.0, started + self.window_pace - time.monotonic()))
        return action

    def _save(self) -> None:
        """Saves the record: sealed while the game goes on, whole (with the scores) once it is over."""
        over = self.state.is_over()
        if over:
            self.record.scores = self.state.scores()
        files.save_record(self.record, self.path, finished=over)

    def _apply(self, seat: int, action: object) -> None:
        """Applies an action, logs it with its events and saves the record."""
        self.rolled = []
        agent = self.agents[seat]
        values = None if agent is None else given_values(agent)
        self.log.apply(self.state, action, seat)
        # Manual die results go into the record as forced outcomes, so the replay is exact.
        forced = tuple(Forced(DIE, value) for value in self.rolled)
        self.record.add(seat, self.state.format_action(action), forced, values)
        self._save()

    def _auto_pass(self, seat: int) -> object:
        """Returns the pass of a seat that may only pass (None: quit), handled as the table sees a choice.

        Whether the seat could have played is its secret (GameState.only_pass): when several people
        share the screen, it is still handed to the seat, which is told that it passed, so the others
        see the same hand-over either way. One person against bots passes at once (bots see no timing).
        """
        humans = sum(1 for a in self.agents if a is None)
        if self.agents[seat] is None and humans > 1 and self.last_human != seat:
            if not self._hand_over(seat):
                return None
            self.last_human = seat
            name = capital(self.state.seat_name(seat))
            told = f"{name} may only pass here: passed for you (auto-pass). Press Enter "
            try:
                self.reader.read(told)
            except EOFError:
                return None
        return self.state.legal_actions(seat)[0]

    def _hand_over(self, seat: int) -> bool:
        """Clears the screen and its scrollback, then waits for the next person (False: no more input)."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(CLEAR_SCROLLBACK)
            self.console.file.flush()
        name = seat_label(self.state, self.seats, seat)
        try:
            self.reader.read(styled((f"Pass the screen to {name}", "bold"), " and press Enter "))
        except EOFError:
            return False
        return True

    def _ask_die(self, low: int, high: int) -> int:
        """Asks the table for a die result until a number from low to high is typed."""
        while True:
            try:
                asked = styled(("Roll the die", "bold"), f" and type the result ({low}-{high}): ")
                typed = self.reader.read(asked)
            except EOFError:
                value = Chance(int.from_bytes(os.urandom(4), "big")).roll(high - low + 1, low)
                say(self.console, f"No input: the program rolls {value}.")
                break
            word = typed.strip()
            if word == "0" and (low, high) == (1, 10):
                word = "10"  # A ten-sided die shows 0 for 10.
            if word.isdecimal() and word.isascii() and low <= int(word) <= high:
                value = int(word)
                break
            say(self.console, (f"Type a whole number from {low} to {high}.", "red"))
        self.rolled.append(value)
        return value

    def _viewer(self) -> int | None:
        """Returns the human seat whose eyes are on the screen (None if all are bots)."""
        humans = [s for s, a in enumerate(self.agents) if a is None]
        return self.last_human if self.last_human is not None else (humans[0] if humans else None)

    def _draw(self, seat: int) -> None:
        """Draws the banner, the table, what happened since the seat's last prompt and the menu."""
        colours = self.game.text_colours
        self.console.print(banner(self.state, colours))
        title = seat_label(self.state, self.seats, seat)
        self.console.print(table_panel(self.state, seat, title, colours))
        self._show_news(seat)
        texts = [self.state.format_action(a) for a in self.state.legal_actions(seat)]
        self.menu = action_menu(texts)
        self.console.print(Columns(self.menu.labels, padding=(0, 3)))

    def _show_news(self, seat: int) -> None:
        """Shows every log entry since the seat's last prompt, grouped by turn and player."""
        entries = self.log.since(self.seen.get(seat, 0))
        self.seen[seat] = len(self.log)
        if not entries:
            return
        shown = entries[-NEWS_MAX:]
        title = "Since your last turn"
        if len(shown) < len(entries):
            title += f" (the last {len(shown)} of {len(entries)} actions; 'log N' shows more)"
        self.console.print(log_panel(self.state, self.seats, shown, seat, title, self.game.text_colours))

    def _ask(self, seat: int) -> object:
        """Asks the human at ``seat`` until a legal action is chosen; None means quit."""
        humans = sum(1 for a in self.agents if a is None)
        # Clear the previous player's hand off the screen before passing it on.
        if humans > 1 and self.last_human != seat and not self._hand_over(seat):
            return None
        self.last_human = seat
        self._draw(seat)
        legal = self.state.legal_actions(seat)
        completions = [self.state.format_action(a) for a in legal] + list(WORDS)
        while True:
            try:
                text = self.reader.read(styled(f"{self.state.seat_name(seat)}> "), completions).strip()
            except EOFError:
                return None
            if not text:
                continue
            choice = self._interpret(text, seat, legal)
            if choice is not None:
                return choice if choice != "quit" else None

    def _interpret(self, text: str, seat: int, legal: Sequence[object]) -> object:
        """Returns the action (or 'quit') that ``text`` asks for, or None after a message."""
        word = text.lower()
        words = word.split()
        if word in ("quit", "exit"):
            return "quit"
        if word in ("help", "?"):
            self._help()
            return None
        if words[0] == "info":
            self._info(text.split(None, 1)[1] if len(words) > 1 else "")
            return None
        if words[0] == "log":
            self._show_log(seat, words[1:])
            return None
        if " ".join(words) in ("autopass on", "autopass off"):
            self.auto_pass[seat] = words[1] == "on"
            self.console.print(f"Auto-pass is {words[1]} for {self.state.seat_name(seat)}.")
            return legal[0] if self.state.only_pass(seat) and self.auto_pass[seat] else None
        if word == "hint":
            say(self.console, "\n".join(self.state.hints(seat)) or "No hint here.")
            return None
        if word in ("list", "board", "show"):
            self._draw(seat)
            return None
        if word.isdecimal() and word.isascii():
            return self._numbered(int(word), legal)
        try:
            action = self.state.parse_action(text)
        except ParlourError as err:
            say(self.console, (str(err), "red"))
            return None
        # The engine's own check: some legal actions are not listed (Venture's several-card 'pay').
        if not self.state.is_legal(action, seat):
            reason = self.state.why_illegal(action, seat)
            say(
                self.console,
                (f"{text!r} is not legal now: {reason}.", "red"),
                " Type 'list' to see the choices.",
            )
            return None
        return action

    def _numbered(self, number: int, legal: Sequence[object]) -> object:
        """Returns the menu's choice ``number`` (1..N), or None after a message."""
        numbered = self.menu.numbered if self.menu is not None else list(range(len(legal)))
        if 1 <= number <= len(numbered):
            return legal[numbered[number - 1]]
        say(self.console, (f"Choose a number from 1 to {len(numbered)}, or type the action.", "red"))
        return None

    def _help(self) -> None:
        """Shows the rules in short, the commands and the cards 'info' explains."""
        summary = Text(self.game.rules_summary or "No summary.")
        self.console.print(Panel(summary, title=Text("Rules in short")))
        say(self.console, COMMANDS)
        names = sorted(self.state.card_texts())
        if names:
            say(self.console, "Cards ('info NAME' shows the text): ", ", ".join(names), soft_wrap=False)

    def _info(self, name: str) -> None:
        """Shows the text of the card named ``name`` (a unique beginning or part of the name will do)."""
        texts = self.state.card_texts()
        found = find_cards(name, texts)
        if not name.strip():
            say(self.console, "Type 'info' and a card's name; 'help' lists the cards.")
        elif not found:
            say(self.console, (f"No card is called {name!r}; 'help' lists the cards.", "red"))
        elif len(found) > 1:
            say(self.console, f"{len(found)} cards match {name!r}: ", ", ".join(found), ".")
        else:
            card = colourise(texts[found[0]], self.game.text_colours)
            self.console.print(Panel(card, title=Text(found[0])))

    def _show_log(self, seat: int, args: Sequence[str]) -> None:
        """Shows the last N log entries (default 20; 'log all' the whole game) as the seat may see them."""
        if args and args[0] == "all":
            count = len(self.log)
        elif args and args[0].isdecimal() and args[0].isascii() and len(args[0]) <= 7:
            count = int(args[0])
        elif args:
            say(self.console, ("Type 'log', 'log N' (the last N actions) or 'log all'.", "red"))
            return
        else:
            count = LOG_DEFAULT
        entries = self.log.last(count)
        if not entries:
            say(self.console, "Nothing has happened yet.")
            return
        title = f"Log: the last {len(entries)} of {len(self.log)} actions"
        self.console.print(log_panel(self.state, self.seats, entries, seat, title, self.game.text_colours))

    def _finish(self) -> None:
        """Shows the final table, the last news, the scoring step by step and where the record is."""
        viewer = self._viewer()
        colours = self.game.text_colours
        self.console.print(table_panel(self.state, viewer, "The table at the end", colours))
        if viewer is not None:
            self._show_news(viewer)
        self.console.print(end_screen(self.state, self.seats, colours))
        say(self.console, record_note(str(self.path)), soft_wrap=True)
        say(self.console, f"Seed {self.record.seed}.")


def find_cards(name: str, texts: Mapping[str, str]) -> list[str]:
    """Returns the card names ``name`` means: an exact name (case ignored), else those beginning with
    it, else those containing it."""
    wanted = " ".join(name.lower().split())
    if not wanted:
        return []
    names = sorted(texts)
    for test in (
        lambda n: n.lower() == wanted,
        lambda n: n.lower().startswith(wanted),
        lambda n: wanted in n.lower(),
    ):
        found = [n for n in names if test(n)]
        if found:
            return found
    return []


def play_in_terminal(
    game: Game,
    seats: list[str],
    seed: int,
    options: Mapping[str, object],
    records: str | None,
    manual_dice: bool = False,
    auto_pass: bool = True,
) -> int:
    """Plays a game in the terminal with the given seats (``human`` or bot names)."""
    if not seats:
        raise OptionError("--seats needs at least one seat")
    play = TerminalPlay(game, seats, seed, options, records, manual_dice=manual_dice, auto_pass=auto_pass)
    return play.run()


def resume_in_terminal(
    path: str, manual_dice: bool = False, auto_pass: bool = True, content_dirs: Sequence[str] | None = None
) -> int:
    """Goes on with the unfinished game whose record is at ``path``."""
    play = TerminalPlay.resume(path, manual_dice=manual_dice, auto_pass=auto_pass, content_dirs=content_dirs)
    return play.run()
