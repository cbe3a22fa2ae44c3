"""Scripted terminal input for tests of terminal play."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


class Script:
    """Stands in for ``Console.input``: returns the scripted lines, then raises EOFError."""

    def __init__(self, lines: Iterable[str | Callable[[], str]]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: Any = "", **_: Any) -> str:
        self.prompts.append(str(prompt))
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        return line if isinstance(line, str) else line()
