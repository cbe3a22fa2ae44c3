"""Terminal play: humans and bots at one table, drawn with rich; bad input never crashes."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from parlour.bots.registry import make_bot
from parlour.cli import files
from parlour.cli.content import content_sets
from parlour.cli.output import make_console, say, styled
from parlour.core.agents import Agent
from parlour.core.chance import DIE, Chance, Forced
from parlour.core.errors import OptionError, ParlourError
from parlour.core.game import Game
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game
from parlour.core.state import GameState

HUMAN = "human"
COMMANDS = (
    "Type a number or an action in notation; 'help' for the rules, 'hint', 'quit'; "
    "'autopass on|off' (pass by itself when you may only pass)."
)


class TerminalPlay:
    """One game at the terminal: draws the table for the human to move and reads their choice.

    Everything printed goes out as rich Text (parlour.cli.output), so what a
    player types or a file holds is never read as markup.  The record is saved
    after every action: sealed (its secrets in a key file) until the game is over.
    """

    def __init__(
        self,
        game: Game,
        seats: list[str],
        seed: int,
        options: Mapping[str, Any],
        records: str | None,
        console: Console | None = None,
        manual_dice: bool = False,
        auto_pass: bool = True,
        resumed: tuple[GameRecord, Path] | None = None,
    ) -> None:
        self.game, self.seats, self.console = game, seats, console or make_console()
        game.check_players(len(seats))
        values = game.options(options)
        self.agents: list[Agent | None] = [
            None if name == HUMAN else make_bot(game, name, seed * 8 + s) for s, name in enumerate(seats)
        ]
        # Auto-pass, a setting per seat: always on for bots, ``auto_pass`` for people.
        self.auto_pass = [auto_pass or a is not None for a in self.agents]
        if resumed is None:
            self.state: GameState = game.new_state(len(seats), seed, values)
            self.record = GameRecord(game.name, len(seats), seed, values, list(seats))
            self.path = files.record_path(self.record, records)
        else:
            self.record, self.path = resumed
            self.state = replay(game, self.record)
        self.log: deque[tuple[int | None, Any]] = deque(maxlen=12)
        self.last_human: int | None = None
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
        while not self.state.is_over():
            seat = self.state.deciders()[0]
            agent = self.agents[seat]
            if self.auto_pass[seat] and self.state.only_pass(seat):
                action = self._auto_pass(seat)
            else:
                action = agent.choose(self.state, seat) if agent else self._ask(seat)
            if action is None:
                say(
                    self.console,
                    f"Game saved to {self.path}; 'parlour resume {self.path}' continues it.",
                    soft_wrap=True,
                )
                return 0
            self._apply(seat, action)
        self._finish()
        return 0

    def _save(self) -> None:
        """Saves the record: sealed while the game goes on, whole (with the scores) once it is over."""
        over = self.state.is_over()
        if over:
            self.record.scores = self.state.scores()
        files.save_record(self.record, self.path, finished=over)

    def _apply(self, seat: int, action: Any) -> None:
        """Applies an action, logs its events and saves the record."""
        self.rolled = []
        events = self.state.apply(action, seat)
        # Manual die results go into the record as forced outcomes, so the replay is exact.
        forced = tuple(Forced(DIE, value) for value in self.rolled)
        self.record.add(seat, self.state.format_action(action), forced)
        for event in events:
            self.log.append((seat, event))
        self._save()

    def _auto_pass(self, seat: int) -> Any:
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
            told = f"Seat {seat} may only pass here: passed for you (auto-pass). Press Enter "
            try:
                self.console.input(told)
            except EOFError:
                return None
        return self.state.legal_actions(seat)[0]

    def _hand_over(self, seat: int) -> bool:
        """Clears the screen and waits for the next person (False: no more input)."""
        self.console.clear()
        try:
            self.console.input(styled((f"Pass the screen to seat {seat}", "bold"), " and press Enter "))
        except EOFError:
            return False
        return True

    def _ask_die(self, low: int, high: int) -> int:
        """Asks the table for a die result until a number from low to high is typed."""
        while True:
            try:
                typed = self.console.input(
                    styled(("Roll the die", "bold"), f" and type the result ({low}-{high}): ")
                )
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
        """Draws the table, the recent events and the numbered legal actions."""
        table = self.state.render(seat)
        hints = self.state.hints(seat)
        if hints:
            table += "\n" + "\n".join(f"Hint: {line}" for line in hints)
        self.console.print(Panel(Text(table), title=Text(f"Seat {seat} ({self.seats[seat]})")))
        if self.log:
            lines = [event.for_seat(seat) for _, event in self.log]
            self.console.print(Panel(Text("\n".join(lines)), title=Text("Recent events")))
        texts = [self.state.format_action(a) for a in self.state.legal_actions(seat)]
        self.console.print(Columns(action_labels(texts), padding=(0, 3)))

    def _ask(self, seat: int) -> Any:
        """Asks the human at ``seat`` until a legal action is chosen; None means quit."""
        humans = sum(1 for a in self.agents if a is None)
        # Clear the previous player's hand off the screen before passing it on.
        if humans > 1 and self.last_human != seat and not self._hand_over(seat):
            return None
        self.last_human = seat
        self._draw(seat)
        legal = self.state.legal_actions(seat)
        while True:
            try:
                text = self.console.input(styled(f"seat {seat}> ")).strip()
            except EOFError:
                return None
            if not text:
                continue
            choice = self._interpret(text, seat, legal)
            if choice is not None:
                return choice if choice != "quit" else None

    def _interpret(self, text: str, seat: int, legal: Sequence[Any]) -> Any:
        """Returns the action (or 'quit') that ``text`` asks for, or None after a message."""
        word = text.lower()
        if word in ("quit", "exit"):
            return "quit"
        if word in ("help", "?"):
            self.console.print(
                Panel(Text(self.game.rules_summary or "No summary."), title=Text("Rules in short"))
            )
            say(self.console, COMMANDS)
            return None
        if " ".join(word.split()) in ("autopass on", "autopass off"):
            self.auto_pass[seat] = word.split()[1] == "on"
            self.console.print(f"Auto-pass is {word.split()[1]} for seat {seat}.")
            return legal[0] if self.state.only_pass(seat) and self.auto_pass[seat] else None
        if word == "hint":
            say(self.console, "\n".join(self.state.hints(seat)) or "No hint here.")
            return None
        if word in ("list", "board", "show"):
            self._draw(seat)
            return None
        if word.isdecimal() and word.isascii():
            number = int(word)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            say(self.console, (f"Choose a number from 1 to {len(legal)}.", "red"))
            return None
        try:
            action = self.state.parse_action(text)
        except ParlourError as err:
            say(self.console, (str(err), "red"))
            return None
        if action not in legal:
            reason = self.state.why_illegal(action, seat)
            say(
                self.console,
                (f"{text!r} is not legal now: {reason}.", "red"),
                " Type 'list' to see the choices.",
            )
            return None
        return action

    def _finish(self) -> None:
        """Shows the final table and scores (the finished record was saved with the last action)."""
        viewer = self._viewer()
        self.console.print(Panel(Text(self.state.render(viewer)), title=Text("Game over")))
        for seat, (score, rank) in enumerate(zip(self.state.scores(), self.state.ranking(), strict=True)):
            say(self.console, f"seat {seat} ({self.seats[seat]}): {score:g}, rank {rank}")
        say(self.console, f"Seed {self.record.seed}. Record saved to {self.path}", soft_wrap=True)


def action_labels(texts: Sequence[str]) -> list[Text]:
    """Returns the numbered choices; a long run of amounts (offer R 0 … offer R 30) is one line to type."""
    runs: dict[str, list[int]] = {}
    for text in texts:
        head, _, tail = text.rpartition(" ")
        if head and tail.isdecimal():
            runs.setdefault(head, []).append(int(tail))
    collapsed = {
        head
        for head, numbers in runs.items()
        if len(numbers) >= 6 and max(numbers) - min(numbers) < len(numbers) + 1
    }
    labels: list[Text] = []
    said = set()
    for number, action in enumerate(texts, 1):
        head, _, tail = action.rpartition(" ")
        if head in collapsed and tail.isdecimal():
            if head not in said:
                said.add(head)
                labels.append(
                    styled(f"{head} N ", (f"(type it; N = {min(runs[head])}–{max(runs[head])})", "dim"))
                )
            continue
        labels.append(styled((str(number), "cyan"), f" {action}"))
    return labels


def play_in_terminal(
    game: Game,
    seats: list[str],
    seed: int,
    options: Mapping[str, Any],
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
