"""Reading a line at the table: line editing, history and tab completion of the legal actions.

At a real terminal the prompt is prompt_toolkit's (arrow keys, up-arrow history, Tab completes an action
or a command); anywhere else (a pipe, a test's console) it is the console's plain ``input``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from rich.console import Console
from rich.text import Text


class LineReader:
    """Reads one line at a time; the completions change with every prompt (the legal actions then)."""

    def __init__(self, console: Console, interactive: bool | None = None) -> None:
        self.console = console
        if interactive is None:
            interactive = console.is_terminal and sys.stdin.isatty() and sys.stdout.isatty()
        self.interactive = interactive
        self._words: list[str] = []
        self._session: PromptSession[str] | None = None

    def read(self, prompt: Text | str, completions: Sequence[str] = ()) -> str:
        """Returns the line typed after ``prompt``; raises EOFError when input ends."""
        if not self.interactive:
            return self.console.input(prompt)
        self._words = list(completions)
        return str(self._prompt_session().prompt(_plain(prompt)))

    def _prompt_session(self) -> PromptSession[str]:
        """Returns the prompt_toolkit session, made on first use (history kept in memory only)."""
        if self._session is None:
            self._session = PromptSession(
                history=InMemoryHistory(), completer=ActionCompleter(self), complete_while_typing=False
            )
        return self._session

    def candidates(self, typed: str) -> list[str]:
        """Returns the completions of what is typed so far (case-insensitive prefix of a whole text)."""
        return complete(typed, self._words)


def complete(typed: str, words: Iterable[str]) -> list[str]:
    """Returns the texts that begin with ``typed`` (spaces collapsed, case ignored), each once, in order."""
    start = " ".join(typed.lower().split()) + (" " if typed.endswith(" ") and typed.strip() else "")
    seen: dict[str, None] = {}
    for word in words:
        if word.lower().startswith(start):
            seen.setdefault(word, None)
    return list(seen)


def _plain(prompt: Text | str) -> str:
    """Returns a prompt as plain text (prompt_toolkit draws it itself)."""
    return prompt.plain if isinstance(prompt, Text) else prompt


class ActionCompleter(Completer):
    """Completes the whole line with a legal action or a command."""

    def __init__(self, reader: LineReader) -> None:
        self.reader = reader

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        """Yields every legal action or command that begins with the line typed so far."""
        typed = document.text_before_cursor
        for word in self.reader.candidates(typed):
            yield Completion(word, start_position=-len(typed))
