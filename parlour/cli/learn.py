"""``parlour learn GAME``: a game's tutorial at the terminal, step by step, then a short game with hints."""

from __future__ import annotations

import os

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from parlour.cli.files import shown
from parlour.cli.output import make_console, say, styled
from parlour.cli.play import find_cards
from parlour.cli.reader import LineReader
from parlour.cli.screen import colourise, end_screen
from parlour.core.content import read_json_file
from parlour.core.registry import load_game
from parlour.tutorials.engine import Answer, Outcome, Tutorial
from parlour.tutorials.files import split_name
from parlour.tutorials.format import MAX_BYTES, Quote, Step, TutorialError
from parlour.tutorials.glossary import Entry, glossary

COMMANDS = (
    "Type the action in notation; 'hint' for help, 'list' for the legal actions, 'show' for the table, "
    "'info TERM' for a card or a rule term, 'quit'."
)
WORDS = ("hint", "list", "show", "info ", "quit")
"""The commands Tab completes beside the legal actions."""


class TerminalLesson:
    """One learner at the terminal going through a tutorial; nothing is shown beyond the learner's view."""

    def __init__(self, tutorial: Tutorial, console: Console | None = None) -> None:
        self.tutorial = tutorial
        self.console = console or make_console()
        self.reader = LineReader(self.console)
        self.colours = tutorial.game.text_colours
        self.terms: dict[str, Entry] | None = None

    def run(self) -> int:
        """Runs the steps and the closing game until the end, 'quit' or the end of input."""
        script = self.tutorial.script
        say(self.console, (script.title, "bold"), f". {COMMANDS}")
        if script.about:
            say(self.console, script.about)
        self.tutorial.start()
        self._show()
        while True:
            try:
                text = self.reader.read(styled(("learn> ", "bold")), self._completions()).strip()
            except EOFError:
                return 0
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit"):
                say(self.console, "You left the tutorial; 'parlour learn' starts it again.")
                return 0
            if word == "hint":
                say(self.console, "\n".join(self.tutorial.hints()) or "No hint here.")
            elif word == "list":
                self._list()
            elif word in ("show", "board"):
                self._show()
            elif word.split()[0] in ("info", "what"):
                self._info(text.split(None, 1)[1] if " " in text else "")
            elif self._answer(self.tutorial.try_action(text)):
                return 0

    def _answer(self, answer: Answer) -> bool:
        """Shows the answer to an action; returns True when the tutorial is over."""
        if answer.outcome in (Outcome.WANTED, Outcome.ILLEGAL, Outcome.UNREADABLE):
            style = "yellow" if answer.outcome is Outcome.WANTED else "red"
            say(self.console, (answer.message, style))
            return False
        for line in answer.events:
            self.console.print(colourise(f"  {line}", self.colours))
        if answer.outcome is Outcome.OVER:
            self._show()
            self.console.print(end_screen(self.tutorial.current(), self._seats(), self.colours))
            say(self.console, "That was the tutorial: 'parlour play' starts a whole game.")
            return True
        if answer.message:
            say(self.console, (answer.message, "green"))
        if answer.outcome is Outcome.MOVED and self.tutorial.in_final:
            self._final_intro()
        self._show()
        return False

    def _show(self) -> None:
        """Draws the current step (its text and quote) and the table as the learner sees it."""
        step = self.tutorial.step
        if step is not None:
            self.console.print(self._step_panel(step))
        title = "Your table" if step is not None else "The game: your table"
        self.console.print(Panel(colourise(self.tutorial.view(), self.colours), title=Text(title)))

    def _step_panel(self, step: Step) -> Panel:
        """Returns a step's panel: its text and the rulebook sentence it teaches."""
        total = len(self.tutorial.script.steps)
        head = Text(f"Step {step.number} of {total}: {step.title}")
        parts = [colourise(step.text, self.colours), Text(""), _quote(step.quote)]
        return Panel(Group(*parts), title=head)

    def _final_intro(self) -> None:
        """Introduces the closing game."""
        final = self.tutorial.script.final
        parts = [colourise(final.text, self.colours)]
        if final.quote is not None:
            parts += [Text(""), _quote(final.quote)]
        self.console.print(Panel(Group(*parts), title=Text(final.title)))

    def _info(self, name: str) -> None:
        """Shows the glossary's entry for a card or a rule term (a unique beginning or part will do)."""
        if self.terms is None:
            self.terms = glossary(self.tutorial.game, dict(self.tutorial.script.options))
        found = find_cards(name, {term: entry.text for term, entry in self.terms.items()})
        if not found:
            say(self.console, (f"No card or term is called {name!r}.", "red"))
        elif len(found) > 1:
            say(self.console, f"{len(found)} terms match {name!r}: ", ", ".join(found), ".")
        else:
            entry = self.terms[found[0]]
            parts = [colourise(entry.text, self.colours)]
            if entry.quote is not None:
                parts += [Text(""), _quote(entry.quote)]
            self.console.print(Panel(Group(*parts), title=Text(entry.term)))

    def _seats(self) -> list[str]:
        """Returns who plays each seat of the closing game: the learner and the bots."""
        final = self.tutorial.script.final
        return [final.bots.get(seat, "you") for seat in range(self.tutorial.script.players)]

    def _list(self) -> None:
        """Shows the legal actions of the learner's seat now."""
        labels = [Text(text) for text in self._legal()]
        self.console.print(Columns(labels, padding=(0, 3)) if labels else Text("Nothing to do now."))

    def _legal(self) -> list[str]:
        """Returns the learner's legal actions in notation."""
        state = self.tutorial.current()
        seat = self.tutorial.learner
        if state.is_over() or seat not in state.deciders():
            return []
        return [state.format_action(a) for a in state.legal_actions(seat)]

    def _completions(self) -> list[str]:
        """Returns what Tab completes: the legal actions and the commands."""
        return [*self._legal(), *WORDS]


def _quote(quote: Quote) -> Text:
    """Returns a rulebook quote as the terminal shows it."""
    return styled(
        ("Rulebook, ", "dim"),
        (quote.section, "dim italic"),
        ("\n“", "dim"),
        (quote.text, "italic"),
        ("”", "dim"),
    )


def load_tutorial(name: str, path: str | None) -> Tutorial:
    """Returns the game's tutorial, or the one in the file at ``path`` (checked like the game's)."""
    if path is None:
        return Tutorial.load(name)
    game = load_game(split_name(name)[0])
    if os.stat(path).st_size > MAX_BYTES:
        raise TutorialError(f"{shown(path)} is larger than {MAX_BYTES // 1024} KiB")
    return Tutorial.from_data(game, read_json_file(path, shown(path)))


def learn_in_terminal(name: str, path: str | None = None, console: Console | None = None) -> int:
    """Runs the tutorial ``name`` (a game's, or GAME/PART an add-on's; or the one in the file at ``path``)
    at the terminal."""
    return TerminalLesson(load_tutorial(name, path), console).run()


def check_tutorial(name: str, path: str | None = None, console: Console | None = None) -> int:
    """Checks that a tutorial plays through (a refusal is one line) and says how many steps it has."""
    tutorial = load_tutorial(name, path)
    steps = tutorial.script.steps
    say(console or make_console(), f"{tutorial.script.title}: {len(steps)} steps play through, then a game.")
    return 0
