"""Hostile text: action texts and typed lines bent out of shape (JSON mutations are in mutate.py)."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import Any

PATHS = (
    "/dev/zero",
    "/dev/urandom",
    "/etc/passwd",
    "../../etc/hostname",
    "~/.ssh/id_rsa",
    "deck.json",
    "/tmp",
)
"""Strings that name files: an input that makes the program open one of these breaks a promise."""

NASTY_TEXT = (
    "",
    " ",
    "[/foo]",
    "[bold]x[/bold]",
    "\x00",
    "\n\n",
    "é",
    "\u202e",
    "9" * 5000,
    "-1",
    "1e999",
    "nan",
    "x" * 100_000,
    "house",
    *PATHS,
)


def mutate_text(text: str, rng: random.Random, vocabulary: tuple[str, ...] = ()) -> str:
    """Returns ``text`` bent: characters changed, words swapped or repeated, nasty tokens inserted."""
    words = text.split() or [""]
    roll = rng.randrange(8)
    if roll == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("[]/\\ @x-0123456789é\x00\t") + text[i + 1 :]
    if roll == 1:
        words.insert(rng.randrange(len(words) + 1), rng.choice(NASTY_TEXT[:12]))
    elif roll == 2 and len(words) > 1:
        del words[rng.randrange(len(words))]
    elif roll == 3 and vocabulary:
        words[rng.randrange(len(words))] = rng.choice(vocabulary)
    elif roll == 4:
        words = words * rng.randrange(2, 5)
    elif roll == 5:
        words[rng.randrange(len(words))] = rng.choice(
            ("9" * rng.randrange(1, 6000), "-3", "0", "@-1", "x0/2")
        )
    elif roll == 6:
        return text.upper() if rng.random() < 0.5 else text + rng.choice(NASTY_TEXT)
    else:
        rng.shuffle(words)
    return " ".join(words)


# ----------------------------------------------------------------- invalid Unicode
SURROGATES = ("\ud800", "\udfff", "\udc00\ud800", "\ud83d")
"""Lone surrogates (and a pair in the wrong order): JSON can write them (``"\\ud800"``) but they are no
text; a server must refuse them wherever they are."""
ODD_CHARACTERS = (
    "\x00",
    "\ufffe",
    "\uffff",
    "\U0010ffff",
    "\ufeff",
    "\u202e",
    "\u2028",
    "\x85",
    "\x7f",
    "\x1b[2J",
)
"""Characters that are valid Unicode but no name, token or chat line should keep: NUL, non-characters,
a byte-order mark, a bidi override, separators, controls, a terminal escape."""
INVALID_UTF8 = (
    b"\xff",
    b"\xfe\xff",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xf4\x90\x80\x80",
    b"\x80",
    b"\xe2\x82",
    b"\xf8\x88\x80\x80\x80",
    b"\xc3",
)
"""Bytes that are not UTF-8: invalid lead bytes, overlong forms, encoded surrogates, beyond U+10FFFF, a
lone continuation byte, cut sequences."""
RAW = "\ue000"
"""Marks where raw bytes of INVALID_UTF8 go in a text once it is encoded (``Spoiled.encode``)."""


@dataclass
class Spoiled:
    """A JSON value with one of its strings (a key or a value) spoiled by invalid Unicode."""

    value: Any
    raw: bytes | None
    """The bytes that replace RAW once encoded (None: no raw bytes)."""
    lone: bool
    """Whether a lone surrogate was put in."""
    where: str
    """Which string was spoiled, and how (for a failure report)."""

    @property
    def invalid(self) -> bool:
        """Whether no server may take it: a lone surrogate, or bytes that are not UTF-8."""
        return self.raw is not None or self.lone

    def encode(self, ascii: bool = True) -> bytes:
        """Returns the value as JSON bytes: non-ASCII characters escaped (``\\ud800``) or written as
        UTF-8 (a lone surrogate then as the bytes of its code point), raw bytes in place of RAW."""
        data = json.dumps(self.value, ensure_ascii=ascii).encode("utf-8", "surrogatepass")
        if self.raw is not None:
            data = data.replace(b"\\ue000", self.raw).replace(RAW.encode(), self.raw)
        return data


def spoil_text(text: str, rng: random.Random, raw: bool = True) -> tuple[str, bytes | None, bool]:
    """Returns ``text`` with a lone surrogate, an odd character or (``raw``) the RAW mark put in (or in
    place of it all), the raw bytes for the mark, and whether a lone surrogate was put in."""
    roll = rng.random()
    found: bytes | None = None
    if raw and roll < 0.3:
        bad, found = RAW, rng.choice(INVALID_UTF8)
    else:
        bad = rng.choice(SURROGATES if roll < 0.65 else ODD_CHARACTERS)
    lone = bad in SURROGATES
    if rng.random() < 0.15:
        return bad, found, lone
    cut = rng.randrange(len(text) + 1)
    return text[:cut] + bad + text[cut:], found, lone


def spoil_strings(value: Any, rng: random.Random, raw: bool = True) -> Spoiled:
    """Returns a copy of a JSON value with one of its strings, a key or a value, spoiled by
    ``spoil_text`` (a value without strings gets a new key)."""
    tree = copy.deepcopy(value)
    places: list[tuple[Any, Any, bool]] = []  # (container, key or index, whether the key itself)
    stack = [tree]
    while stack:
        item = stack.pop()
        pairs = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        for key, child in pairs:
            if isinstance(key, str):
                places.append((item, key, True))
            if isinstance(child, str):
                places.append((item, key, False))
            stack.append(child)
    if not places:
        bad, found, lone = spoil_text("", rng, raw)
        if isinstance(tree, dict):
            tree[bad] = 1
        return Spoiled(tree, found, lone, f"a new key {bad!r} {found!r}")
    container, key, is_key = rng.choice(places)
    if is_key:
        bad, found, lone = spoil_text(key, rng, raw)
        container[bad] = container.pop(key)
        return Spoiled(tree, found, lone, f"the key {key!r} as {bad!r} {found!r}")
    bad, found, lone = spoil_text(container[key], rng, raw)
    container[key] = bad
    return Spoiled(tree, found, lone, f"the value of {key!r} as {bad[:60]!r} {found!r}")
