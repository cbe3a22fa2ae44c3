"""Hostile text: action texts and typed lines bent out of shape (JSON mutations are in mutate.py)."""

from __future__ import annotations

import random

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
