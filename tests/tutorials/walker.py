"""What the walker checks of a tutorial step: rulebook quotes, highlighted regions, names in the text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from parlour.core.state import GameState

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules"
"""The rulebooks beside the checkout (CONTRIBUTING.md: the source of truth)."""
DRAWINGS = ROOT / "parlour" / "server" / "static" / "games"
"""Each game's drawn table in the browser, ``GAME.js``."""
SELECTOR = re.compile(
    r'(\.[A-Za-z][\w-]*|\[[a-z][\w-]*="[^"\]]*"\])+( (\.[A-Za-z][\w-]*|\[[a-z][\w-]*="[^"\]]*"\])+)*'
)
"""The selectors a highlight may use: classes and ``[attribute="value"]``, descendants by spaces."""
PART = re.compile(r'\.([A-Za-z][\w-]*)|\[([a-z][\w-]*)="([^"\]]*)"\]')
FIXED_VALUES = ("data-field", "data-role", "data-action")
"""Attributes whose values the drawing writes literally (the others name cards, checked on the table)."""
COMPOSED_VALUES = ("data-part",)
"""Attributes whose values the drawing composes: a literal (``"deal"``) or a literal head and values of the
table (``space-${number}`` gives ``space-4``): the head must be written, each dash-separated rest shown."""


def rulebook(game: str) -> str | None:
    """Returns the game's rulebook text, or None where the rulebooks are not beside the checkout."""
    path = RULES / f"{game}.txt"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def quote_problem(book: str, section: str, text: str) -> str:
    """Returns what is wrong with a quote ('' if it is verbatim, after its section's heading line)."""
    lines = book.splitlines()
    if section not in lines:
        return f"section {section!r} is not a line of the rulebook"
    start = book.index("\n" + section + "\n") if ("\n" + section + "\n") in book else 0
    if text not in book:
        return f"{text[:60]!r}… is not verbatim in the rulebook"
    if text not in book[start:]:
        return f"{text[:60]!r}… comes before the section {section!r}"
    return ""


def drawing(game: str) -> str:
    """Returns the source of the game's browser drawing."""
    return (DRAWINGS / f"{game}.js").read_text(encoding="utf-8")


def highlight_problem(source: str, selector: str, visible: set[str]) -> str:
    """Returns what is wrong with a highlight selector ('' if every part exists in the drawing)."""
    if not SELECTOR.fullmatch(selector):
        return f'{selector!r} is not a selector of classes and [attribute="value"] parts'
    for found in PART.finditer(selector):
        cls, attribute, value = found.groups()
        if cls is not None:
            # A class is written as a word of a string literal (``class: "vt-center"``, ``" vt-me"``), or
            # ends where a template literal's value follows (`` `itb-space${open ? " open" : ""}` ``).
            if not re.search(r"(?<=[\"'` ])" + re.escape(cls) + r"(?=[\"'` ]|\$\{)", source):
                return f"the drawing has no class {cls!r}"
        elif f'"{attribute}"' not in source:
            return f"the drawing has no attribute {attribute!r}"
        elif attribute in FIXED_VALUES:
            if f'"{attribute}": "{value}"' not in source:
                return f"the drawing writes no {attribute}={value!r}"
        elif attribute in COMPOSED_VALUES:
            if problem := composed_problem(source, attribute, value, visible):
                return problem
        elif value not in visible:
            return f"{attribute}={value!r} is not on the learner's table"
    return ""


def composed_problem(source: str, attribute: str, value: str, visible: set[str]) -> str:
    """Returns what is wrong with a composed attribute value ('' if the drawing writes it as a literal, or
    writes its head before a template's value and the rest is on the learner's table)."""
    if f'"{value}"' in source:
        return ""
    head, _, rest = value.partition("-")
    if not rest or f"`{head}-${{" not in source:
        return f"the drawing composes no {attribute}={value!r}"
    for piece in rest.split("-"):
        if piece not in visible:
            return f"{attribute}={value!r}: {piece!r} is not on the learner's table"
    return ""


def strings(value: object) -> Iterator[str]:
    """Yields every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


PHRASE = 4
"""The most words of a name shown on the table (card names such as ``Phased Shield Array``)."""


def seen_names(state: GameState, seat: int) -> set[str]:
    """Returns every word the seat's view shows (its observation's strings and its rendered table), and
    every run of up to PHRASE words (a card's name of several words as the table writes it, also where
    the text view wraps it over two lines)."""
    words: set[str] = set()
    texts = [*strings(state.observation(seat)), state.render(seat)]
    for text in texts:
        words.update(text.split())
        words.add(text)
        stripped = [w.strip(".,;:()[]=<>") for w in text.split()]
        words.update(stripped)
        for size in range(2, PHRASE + 1):
            words.update(" ".join(stripped[i : i + size]) for i in range(len(stripped) - size + 1))
    # A name of several words (``deal card 2``) is seen where the table's text says it, in any case.
    lowered = [text.lower() for text in texts]
    for name in content_names(state):
        if " " in name and any(named_in(text, [name.lower()]) for text in lowered):
            words.add(name)
    return words


def content_names(state: GameState) -> list[str]:
    """Returns the names of the game's cards, spaces and pieces from its content data (the card texts),
    leaving out plain numbers and ordinary lower-case words (amounts and prose, not names)."""
    return sorted(n for n in state.card_texts() if not n.isdecimal() and not re.fullmatch(r"[a-z]+", n))


def named_in(text: str, names: list[str]) -> list[str]:
    """Returns the names that ``text`` mentions as whole words."""
    return [n for n in names if re.search(r"(?<![\w/-])" + re.escape(n) + r"(?![\w/-])", text)]
