"""Printing with rich where nothing a user or a file supplies is ever read as markup.

Every string that reaches rich goes through here as :class:`~rich.text.Text`
(styles are given beside the text, never inside it), and every console the
tools make reads no markup or emoji codes, so ``take [/foo]`` prints as typed.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

Part = str | tuple[str, str]
"""Plain text, or (text, style)."""


def make_console(stderr: bool = False) -> Console:
    """Returns a console that reads no markup and no emoji codes in strings."""
    return Console(stderr=stderr, markup=False, emoji=False)


def styled(*parts: Part) -> Text:
    """Returns plain parts and (text, style) pairs as one Text; nothing in them is markup."""
    return Text.assemble(*parts)


def say(console: Console, *parts: Part, soft_wrap: bool | None = None) -> None:
    """Prints plain parts and (text, style) pairs as one line of Text (never read as markup)."""
    console.print(styled(*parts), soft_wrap=soft_wrap)
